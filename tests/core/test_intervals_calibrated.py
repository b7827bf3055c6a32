"""The calibrated (double bootstrap) interval against plain loops, and auto's choice."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, confusion_matrix

from kmetric_gui.core import calibrated
from kmetric_gui.core.calibrated import auto_method, calibrated_interval
from kmetric_gui.metrics.kernels.kappa import kappa_from_confusion
from kmetric_gui.core.resample import Units, bootstrap
from kmetric_gui.metrics.kernels.units import fbeta_units, kappa_units

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"


def _mid_share(values, point):
    v = np.asarray([x for x in values if np.isfinite(x)])
    return (np.sum(v < point) + 0.5 * np.sum(v == point)) / v.size


def _reference(reps, us, level):
    a = (1 - level) / 2
    q_lo, q_hi = np.quantile(us, [a, 1 - a])
    return np.quantile(reps[np.isfinite(reps)], [q_lo, q_hi])


def test_kappa_calibrated_equals_a_plain_double_loop_with_sklearn():
    rng = np.random.default_rng(1)
    t = rng.integers(0, 4, 60)
    p = np.clip(t + rng.integers(-1, 2, 60), 0, 3)
    o = confusion_matrix(t, p, labels=range(4))
    units = kappa_units(kappa_from_confusion(o))
    point = cohen_kappa_score(t, p, weights="quadratic")
    outer, inner, seed = 40, 30, 5
    reps = bootstrap(units, outer, seed)
    got = calibrated_interval(reps, units, 0.9, seed, outer=outer, inner=inner)
    # Plain loop: the outer draws are bootstrap's (multinomial over O's non-empty cells),
    # each inner replicate a multinomial over that outer replicate's cells; rows rebuilt
    # and scored by scikit-learn.
    ti, pj = np.nonzero(o)
    cells = o[ti, pj]
    outer_counts = np.random.default_rng(seed).multinomial(60, cells / 60, size=outer)
    rng_in = np.random.default_rng([seed, 3])
    us = []
    for c in outer_counts:
        inner_counts = rng_in.multinomial(60, c / 60, size=inner)
        vals = [cohen_kappa_score(np.repeat(ti, d), np.repeat(pj, d), weights="quadratic",
                                  labels=range(4)) for d in inner_counts]
        us.append(_mid_share(vals, point))
    outer_vals = np.array([cohen_kappa_score(np.repeat(ti, c), np.repeat(pj, c),
                                             weights="quadratic", labels=range(4))
                           for c in outer_counts])
    np.testing.assert_allclose(reps, outer_vals, rtol=1e-12)
    low, high = _reference(outer_vals, np.array(us), 0.9)
    assert got.method == "calibrated"
    assert got.low == pytest.approx(low, abs=1e-12) and got.high == pytest.approx(high, abs=1e-12)


def _fbeta_ref(tp, fp, fn, beta2=0.25):
    if tp + fp + fn == 0:
        return np.nan
    return (1 + beta2) * tp / ((1 + beta2) * tp + beta2 * fn + fp)


def test_additive_units_calibrated_equals_a_plain_double_loop():
    rng = np.random.default_rng(2)
    n = 25
    docs = np.column_stack([rng.integers(0, 4, n), rng.integers(0, 3, n), rng.integers(0, 3, n)])

    def score(s):
        return np.array([_fbeta_ref(*row) for row in s])
    units = Units(docs, score, None, "document")
    point = _fbeta_ref(*docs.sum(axis=0))
    outer, inner, seed = 30, 40, 3
    reps = bootstrap(units, outer, seed)
    got = calibrated_interval(reps, units, 0.8, seed, outer=outer, inner=inner)
    idx = np.random.default_rng(seed).integers(0, n, size=(outer, n), dtype=np.uint32)
    rng_in = np.random.default_rng([seed, 3])
    us, vals = [], []
    for row in idx:
        vals.append(_fbeta_ref(*docs[row].sum(axis=0)))
        pos = rng_in.integers(0, n, size=(inner, n))
        us.append(_mid_share([_fbeta_ref(*docs[row[q]].sum(axis=0)) for q in pos], point))
    np.testing.assert_allclose(reps, vals, rtol=1e-12)
    low, high = _reference(np.array(vals), np.array(us), 0.8)
    assert got.low == pytest.approx(low, abs=1e-12) and got.high == pytest.approx(high, abs=1e-12)


def test_many_units_use_the_normal_inner_stage_and_stay_close(monkeypatch):
    rng = np.random.default_rng(4)
    n = 400
    docs = np.column_stack([rng.integers(0, 6, n), rng.integers(0, 4, n), rng.integers(0, 4, n)])
    units = fbeta_units(type("R", (), {"beta": 0.5, "per_document": docs})())
    reps = bootstrap(units, 1000, 0)
    exact = calibrated_interval(reps, units, 0.95, 0, outer=300, inner=100)
    monkeypatch.setattr(calibrated, "EXACT_WORK", 0)
    normal = calibrated_interval(reps, units, 0.95, 0, outer=300, inner=100)
    width = exact.high - exact.low
    assert abs(normal.low - exact.low) < 0.15 * width and abs(normal.high - exact.high) < 0.15 * width


def test_calibration_widens_a_percentile_interval_that_covers_too_little():
    # Kappa at n = 40 with a rare class: the percentile interval is known to cover too
    # little; calibrated levels move outwards on the side it misses.
    o = np.array([[30, 3, 0], [2, 3, 1], [0, 0, 1]])
    units = kappa_units(kappa_from_confusion(o))
    reps = bootstrap(units, 2000, 0)
    pct = np.quantile(reps[np.isfinite(reps)], [0.025, 0.975])
    cal = calibrated_interval(reps, units, 0.95, 0)
    assert cal.high - cal.low > pct[1] - pct[0]


def test_auto_picks_calibrated_for_few_units_or_a_rare_class_and_says_why():
    small = kappa_units(kappa_from_confusion(np.array([[15, 5], [8, 12]])))
    assert auto_method(small, small.minority) == ("calibrated", "fewer than 50 rows")
    big = kappa_units(kappa_from_confusion(np.array([[80, 20], [30, 50]])))
    assert big.minority == 70 and auto_method(big, big.minority)[0] == "percentile"
    rare = kappa_units(kappa_from_confusion(np.array([[3000, 2], [2, 3]])))
    assert rare.minority == 5
    assert auto_method(rare, rare.minority) == ("calibrated", "a class with fewer than 6 rows")


def _run(*args):
    env = dict(os.environ)
    env.pop("KMETRIC_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "kmetric_gui.cli", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=ROOT)


def test_cli_auto_is_the_default_and_names_its_choice(tmp_path):
    rng = np.random.default_rng(0)
    t = rng.integers(0, 3, 40)
    p = np.clip(t + rng.integers(-1, 2, 40), 0, 2)
    sol = tmp_path / "s.csv"
    sub = tmp_path / "p.csv"
    sol.write_text("id,y\n" + "".join(f"r{i},{v}\n" for i, v in enumerate(t)))
    sub.write_text("id,y\n" + "".join(f"r{i},{v}\n" for i, v in enumerate(p)))
    flags = ["--ci", "0.95", "--bootstrap", "500", "--json"]
    auto = json.loads(_run("score", sol, sub, *flags).stdout)["ci"]
    cal = json.loads(_run("score", sol, sub, *flags, "--ci-method", "calibrated").stdout)["ci"]
    assert auto["method"] == "calibrated" and auto == cal     # 40 rows: auto chose calibrated
    human = _run("score", sol, sub, *flags[:-1]).stdout
    assert "(auto: calibrated, 500 replicates, seed 0)" in human
    pct = json.loads(_run("score", sol, sub, *flags, "--ci-method", "percentile").stdout)["ci"]
    assert pct["method"] == "percentile" and pct["se"] == auto["se"]    # the same outer draws
    demo = json.loads(_run("score", DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv",
                           *flags).stdout)["ci"]
    assert demo["method"] == "percentile"                    # 600 rows, no rare class
