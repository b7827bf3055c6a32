"""`--ci-method auto` chooses a method that applies to the metric: it never says of its own
choice that it could not be used (map_iou's demo showed 'calibrated needs additive
statistics; this metric's interval is the percentile one' three times under its score)."""
import pytest

from kmetric_gui.analysis.scoring import Options, score_files
from kmetric_gui.analysis.stats import StatsOptions, score_intervals
from kmetric_gui.metrics import REGISTRY

DEMOS = sorted(m.name for m in REGISTRY.values() if m.demo_paths())
REFUSALS = ("needs additive statistics", "the score interval is for one column")


@pytest.mark.parametrize("name", DEMOS)
def test_auto_never_refuses_its_own_choice(name):
    sol, sub = REGISTRY[name].demo_paths()
    report = score_files(sol, sub, Options(metric=name))
    found = score_intervals(report, StatsOptions(replicates=200))
    for key, iv in found.items():
        said = [n for n in iv.notes if any(r in n for r in REFUSALS)]
        assert not said, (key, iv.method, said)
