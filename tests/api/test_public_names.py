"""The public names: exactly the list in docs/python-api.md, each importable; importing
the package loads nothing heavy and starts nothing, and km.score works after."""
import re
import subprocess
import sys

import kmetric_gui as km
from helpers import DEMO, ROOT

DOC = ROOT / "docs" / "python-api.md"


def documented():
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Stability", 1)[1].split("Everything else", 1)[0]
    return [m.group(1) for m in re.finditer(r"^- `([A-Za-z_]+)`$", section, re.M)]


def test_the_documented_names_are_the_package_public_names():
    names = documented()
    assert len(names) == len(set(names)) and "score" in names
    assert sorted(names) == sorted(km.__all__)
    for name in names:
        assert getattr(km, name) is not None, name
    for name in names:
        if name[0].isupper() or name.startswith("__"):
            continue
        assert callable(getattr(km, name)), name


def test_metrics_and_report_stay_packages_and_are_callable():
    from kmetric_gui import metrics
    assert hasattr(metrics, "REGISTRY")             # the registry, as before
    assert [m.name for m in metrics()] == list(metrics.REGISTRY)
    import kmetric_gui.report as report
    assert hasattr(report, "build_report") and callable(report)


def test_import_is_light_and_score_works_after():
    code = f"""
import sys, threading
import kmetric_gui as km
heavy = [m for m in sys.modules if m.split('.')[0] in
         ('numpy', 'pandas', 'pyarrow', 'PySide6', 'pyqtgraph', 'polars', 'matplotlib')]
assert not heavy, heavy
assert threading.active_count() == 1
mods = sorted(m for m in sys.modules if m.startswith('kmetric_gui'))
assert mods == ['kmetric_gui'], mods
r = km.score({str(DEMO / 'rmse_solution.csv')!r}, {str(DEMO / 'rmse_submission.csv')!r}, 'rmse')
print(round(r.score, 6))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "8.801627"


def test_unknown_names_are_attribute_errors():
    import pytest
    with pytest.raises(AttributeError):
        km.weighted_kappa          # noqa: B018 (internal kernels are not public)
