"""No misleading number at the edges: each case gives a warning, a refusal or null, not a
bare number or a crash (the real commands in a subprocess)."""
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from filemaker import csv, write

from kmetric_gui.core.intervals import Interval, min_replicates, percentile_interval

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"
QWK = (DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv")


def run(*args):
    env = dict(os.environ)
    env.pop("KMETRIC_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "kmetric_gui.cli", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=ROOT)


def _usage_files(tmp_path, metric, usage):
    """A solution with a Usage column (every row ``usage``) and two submissions."""
    n = 12
    ids = [f"r{i}" for i in range(n)]
    if metric == "qwk":
        sol = [["id", "y", "Usage"]] + [[i, k % 3, usage] for k, i in enumerate(ids)]
        a = [["id", "y"]] + [[i, k % 3] for k, i in enumerate(ids)]
        b = [["id", "y"]] + [[i, (k + (k % 4 == 0)) % 3] for k, i in enumerate(ids)]
    elif metric == "lwlrap":
        sol = [["id", "labels", "Usage"]] + [[i, "x" if k % 2 else "y", usage] for k, i in enumerate(ids)]
        a = [["id", "x", "y"]] + [[i, 0.1 * k, 0.5] for k, i in enumerate(ids)]
        b = [["id", "x", "y"]] + [[i, 0.5, 0.1 * k] for k, i in enumerate(ids)]
    else:
        sol = [["Id", "cleaned_label", "Usage"]] + [[i, f"label {k % 3}", usage]
                                                    for k, i in enumerate(ids)]
        a = [["Id", "PredictionString"]] + [[i, f"label {k % 3}"] for k, i in enumerate(ids)]
        b = [["Id", "PredictionString"]] + [[i, f"label {k % 2}"] for k, i in enumerate(ids)]
    return (write(tmp_path / "sol.csv", csv(sol)), write(tmp_path / "a.csv", csv(a)),
            write(tmp_path / "b.csv", csv(b)))


@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta"])
@pytest.mark.parametrize("usage, missing", [("Private", "public"), ("Public", "private")])
def test_compare_with_one_side_of_usage_empty_says_so(tmp_path, metric, usage, missing):
    sol, a, b = _usage_files(tmp_path, metric, usage)
    r = run("compare", sol, a, b, "--json", "--bootstrap", "100", "--permutations", "100")
    assert r.returncode == 0, r.stderr          # was exit 1 (ValueError)
    d = json.loads(r.stdout)
    assert d["metric"] == metric
    assert all(s[missing] is None for s in d["submissions"])
    assert d["pairs"][0][f"{missing}_delta"] is None
    assert any(f"no {missing.capitalize()} rows" in w for w in d["warnings"])


def test_lwlrap_interval_without_any_positive_label_is_null_with_words(tmp_path):
    sol = write(tmp_path / "s.csv", csv([["fname", "labels"], ["a", ""], ["b", ""]]))
    sub = write(tmp_path / "p.csv", csv([["fname", "x", "y"], ["a", 0.1, 0.2], ["b", 0.3, 0.4]]))
    r = run("score", sol, sub, "--ci", "0.95", "--json")
    assert r.returncode == 0, r.stderr          # was exit 1 (ValueError in a reshape)
    d = json.loads(r.stdout)
    assert d["score"] is None and d["ci"]["low"] is None and d["ci"]["high"] is None
    assert d["ci"]["undefined_replicates"] == 2000
    assert any("no replicate is defined" in w for w in d["ci"]["warnings"])
    # per class: null with the reason, not 0.0
    assert d["per_class"] == {"x": None, "y": None}
    assert set(d["per_class_undefined"]) == {"x", "y"}


def test_lwlrap_per_class_of_a_class_without_positives_is_null(tmp_path):
    sol = write(tmp_path / "s.csv", csv([["fname", "labels"], ["a", "x"], ["b", "x"]]))
    sub = write(tmp_path / "p.csv", csv([["fname", "x", "y"], ["a", 0.9, 0.2], ["b", 0.3, 0.4]]))
    d = json.loads(run("score", sol, sub, "--json").stdout)
    assert d["per_class"]["x"] == pytest.approx((1 + 0.5) / 2)   # b ranks x second
    assert d["per_class"]["y"] is None and "no positive" in d["per_class_undefined"]["y"]
    assert "x" not in d["per_class_undefined"]


@pytest.mark.parametrize("flags, needle", [
    (["--bootstrap", "1"], "a 95% interval needs at least 40 replicates; --bootstrap is 1"),
    (["--ci", "0.999999"], "a 99.9999% interval needs at least 2,000,000 replicates; --bootstrap "
                           "is 2,000 (above the limit of 1,000,000: lower the level)"),
    (["--ci", "0.99", "--bootstrap", "150"], "a 99% interval needs at least 200 replicates"),
])
def test_too_few_replicates_for_the_level_is_refused_naming_the_minimum(flags, needle):
    r = run("score", *QWK, *flags)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == f"kmetric: {needle}" or needle in r.stderr


def test_min_replicates_leaves_one_replicate_beyond_each_end():
    # brute force: the smallest B with B * (1 - level) / 2 >= 1
    for level in (0.5, 0.8, 0.9, 0.95, 0.99, 0.999):
        b = next(b for b in range(1, 10 ** 5) if b * (1 - level) / 2 >= 1 - 1e-12)
        assert min_replicates(level) == b
    iv = percentile_interval(np.arange(10.0), 0.95)
    assert any("at least 40 needed" in w for w in iv.warnings)
    assert not any("too few" in w for w in percentile_interval(np.arange(40.0), 0.95).warnings)


def test_zero_width_and_a_minority_of_defined_replicates_are_never_bare():
    # The audit's case: 1,020 of 2,000 undefined gave a bare `1.000 [1.000, 1.000]`.
    iv = Interval(1.0, 1.0, 0.0, 0.95, "percentile", 2000, 1020)
    w = " | ".join(iv.warnings)
    assert "1,020 of 2,000 replicates (51.0%)" in w and "minority" in w and "zero width" in w
    assert iv.to_dict()["warnings"] == iv.warnings
    clean = Interval(0.7, 0.8, 0.02, 0.95, "percentile", 2000, 0)
    assert clean.warnings == []


def test_a_perfect_small_kappa_shows_zero_width_and_undefined_share(tmp_path):
    ids = [f"r{i}" for i in range(6)]
    ys = [0, 0, 0, 0, 0, 1]
    sol = write(tmp_path / "s.csv", csv([["id", "y"]] + [[i, y] for i, y in zip(ids, ys)]))
    sub = write(tmp_path / "p.csv", csv([["id", "y"]] + [[i, y] for i, y in zip(ids, ys)]))
    r = run("score", sol, sub, "--metric", "qwk", "--ci", "0.95", "--ci-method", "percentile", "--json")
    d = json.loads(r.stdout)
    ci = d["ci"]
    assert (ci["low"], ci["high"]) == (1.0, 1.0)
    # a replicate misses the one positive row with probability (5/6)^6
    assert abs(ci["undefined_replicates"] / 2000 - (5 / 6) ** 6) < 0.04
    assert any("zero width" in w for w in ci["warnings"])
    assert any("undefined score" in w for w in ci["warnings"])
    human = run("score", sol, sub, "--metric", "qwk", "--ci", "0.95", "--ci-method", "percentile").stdout
    assert "warning: too narrow likely: zero width" in human


def test_shakeup_refuses_a_side_too_small_to_define_the_score():
    r = run("score", *QWK, "--shakeup", "--public-fraction", "0.001")
    assert r.returncode == 2
    assert "puts 1 of 600 rows in Public" in r.stderr and "at least 10 rows" in r.stderr


def test_shakeup_ranks_the_actual_gap_only_at_the_usage_share():
    d = json.loads(run("score", *QWK, "--shakeup", "--splits", "300", "--json").stdout)
    sh = d["shakeup"]
    assert sh["public_fraction"] == pytest.approx(178 / 600)
    assert sh["actual_gap_percentile"] is not None
    assert sh["usage_public_fraction"] == pytest.approx(178 / 600)
    other = run("score", *QWK, "--shakeup", "--splits", "300", "--public-fraction", "0.5", "--json")
    sh = json.loads(other.stdout)["shakeup"]
    assert sh["public_fraction"] == 0.5
    assert sh["actual_gap"] == pytest.approx(d["private"] - d["public"])
    assert sh["actual_gap_percentile"] is None          # another share: not ranked
    human = run("score", *QWK, "--shakeup", "--splits", "300", "--public-fraction", "0.5").stdout
    assert "not ranked" in human


def test_shakeup_with_no_public_rows_says_so(tmp_path):
    ids = [f"r{i}" for i in range(40)]
    sol = write(tmp_path / "s.csv", csv([["id", "y", "Usage"]] + [[i, k % 3, "Private"]
                                                                  for k, i in enumerate(ids)]))
    sub = write(tmp_path / "p.csv", csv([["id", "y"]] + [[i, k % 2] for k, i in enumerate(ids)]))
    r = run("score", sol, sub, "--shakeup")
    assert r.returncode == 2 and "no Public rows" in r.stderr and "30%" not in r.stdout
    ok = run("score", sol, sub, "--shakeup", "--public-fraction", "0.5", "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["shakeup"]["public_fraction"] == 0.5


def test_shakeup_reports_dropped_splits(tmp_path):
    # One positive row, predicted right: the side without it has one class only.
    ids = [f"r{i}" for i in range(100)]
    ys = [1] + [0] * 99
    sol = write(tmp_path / "s.csv", csv([["id", "y"]] + [[i, y] for i, y in zip(ids, ys)]))
    sub = write(tmp_path / "p.csv", csv([["id", "y"]] + [[i, y] for i, y in zip(ids, ys)]))
    r = run("score", sol, sub, "--metric", "qwk", "--shakeup", "--splits", "400", "--json")
    sh = json.loads(r.stdout)["shakeup"]
    assert sh["undefined_splits"] == 400        # one side is always all zeros
    human = run("score", sol, sub, "--metric", "qwk", "--shakeup", "--splits", "400").stdout
    assert "400 of 400 splits undefined" in human and "warning: most splits" in human


def test_kappa_compare_draws_in_bounded_memory(monkeypatch):
    from kmetric_gui.core import compare
    from kmetric_gui.metrics.kernels.kappa_pairs import KappaPairs
    monkeypatch.setattr(compare, "_BLOCK", 1 << 16)     # small blocks, so the bound is clear
    rng = np.random.default_rng(0)
    k, n = 10, 5000
    t = rng.integers(0, k, n)
    e = KappaPairs(t, [rng.integers(0, k, n), rng.integers(0, k, n)], k)
    e.joint(0, 1)
    reps = 20000
    tracemalloc.start()
    got = e.pair_bootstrap(0, 1, reps, 3)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    cells = np.count_nonzero(e.joint(0, 1))
    assert peak < 0.1 * reps * cells * 8       # all draws at once: reps x cells int64
    # the same numbers as one draw of every replicate (plain reference)
    cnt, m, _ = e._cells(0, 1)
    ref = e._pair_scores(np.random.default_rng(3).multinomial(n, cnt / n, size=reps) @ m)
    np.testing.assert_array_equal(got, ref)
