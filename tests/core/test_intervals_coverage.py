"""The coverage self-check (--coverage-check): simulated datasets from the data itself."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from kmetric_gui.core.coverage import measured_coverage, simulated_units
from kmetric_gui.core.intervals import percentile_interval
from kmetric_gui.core.resample import Units
from kmetric_gui.analysis.stats import interval_of

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"


def _mean_units(x):
    def score(s):
        return s[:, 0] / s[:, 1]
    return Units(np.column_stack([x, np.ones_like(x)]), score, None, "row")


def test_the_check_equals_a_plain_loop_over_the_same_datasets():
    rng = np.random.default_rng(0)
    x = rng.exponential(size=30)
    units = _mean_units(x)
    got, sims = measured_coverage(units, lambda u, k: interval_of(u, 0.9, 200, k, "percentile"),
                                  40, seed=2)
    # Plain loop: datasets drawn by index from default_rng([seed, 4]); each interval the
    # 5% and 95% quantiles of 200 means of its own resamples (bootstrap's draws for seed k).
    sim_rng = np.random.default_rng([2, 4])
    hits = 0
    for k in range(40):
        data = x[sim_rng.integers(0, 30, size=30)]
        idx = np.random.default_rng(k).integers(0, 30, size=(200, 30), dtype=np.uint32)
        lo, hi = np.quantile(data[idx].mean(axis=1), [0.05, 0.95])
        hits += lo <= x.mean() <= hi
    assert sims == 40 and got == hits / 40


def test_a_well_behaved_mean_measures_near_nominal():
    x = np.random.default_rng(1).normal(size=2000)
    got, _ = measured_coverage(_mean_units(x), lambda u, k: interval_of(u, 0.9, 400, k, "percentile"),
                               200, seed=0)
    assert abs(got - 0.9) < 0.06          # binomial error at 200 datasets: about 0.02


def test_a_short_interval_is_flagged_beside_it():
    # Ten units, one huge: the percentile interval of the mean covers far too little.
    x = np.r_[np.zeros(9), 100.0]
    iv = interval_of(_mean_units(x), 0.95, 400, 0, "percentile", coverage=100)
    assert iv.coverage["simulations"] == 100 and iv.coverage["measured"] < 0.8
    assert any("measured coverage" in w and "below the nominal 95%" in w for w in iv.warnings)
    assert iv.to_dict()["coverage"] == iv.coverage


def test_cells_are_simulated_as_multinomial_draws_of_the_data():
    units = Units(None, lambda c: c[:, 0] / c.sum(axis=1), np.array([30, 10]), "row")
    sims = list(simulated_units(units, np.random.default_rng(5), 3))
    ref = np.random.default_rng(5).multinomial(40, [0.75, 0.25], size=3)
    for s, r in zip(sims, ref):
        np.testing.assert_array_equal(s.cells, r)
    assert percentile_interval(np.arange(50.0)).coverage is None


def test_cli_coverage_check_reports_measured_coverage():
    env = dict(os.environ)
    env.pop("KMETRIC_DEBUG", None)
    args = [sys.executable, "-m", "kmetric_gui.cli", "score", DEMO / "qwk_solution.csv",
            DEMO / "qwk_submission.csv", "--coverage-check", "--ci-method", "percentile",
            "--bootstrap", "500"]
    r = subprocess.run([*map(str, args), "--json"], capture_output=True, text=True, env=env,
                       cwd=ROOT)
    assert r.returncode == 0, r.stderr
    ci = json.loads(r.stdout)["ci"]
    assert ci["level"] == 0.95 and ci["coverage"]["simulations"] == 200
    assert 0.85 <= ci["coverage"]["measured"] <= 1
    human = subprocess.run(list(map(str, args)), capture_output=True, text=True, env=env,
                           cwd=ROOT).stdout
    assert "coverage check: " in human and "of 200 datasets simulated from this data" in human


def test_compare_coverage_check_gives_each_score_its_measured_coverage():
    env = dict(os.environ)
    env.pop("KMETRIC_DEBUG", None)
    args = [sys.executable, "-m", "kmetric_gui.cli", "compare", DEMO / "qwk_solution.csv",
            DEMO / "qwk_submission.csv", DEMO / "qwk_submission_b.csv", "--coverage-check",
            "--ci-method", "percentile", "--bootstrap", "300", "--permutations", "0", "--json"]
    r = subprocess.run(list(map(str, args)), capture_output=True, text=True, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    for s in json.loads(r.stdout)["submissions"]:
        assert s["ci"]["coverage"]["simulations"] == 200
        assert 0.85 <= s["ci"]["coverage"]["measured"] <= 1
        assert "coverage" not in s["public_ci"]       # the check is of the overall score's
