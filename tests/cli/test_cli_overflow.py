"""Scores and statistics that overflow doubles (issue 39): an RMSE with one 1e308
prediction was "undefined" with no reason and got an interval from the replicates that
missed that row. Each additive family says why its score is undefined and gives no
interval resting on the draws that avoided the huge rows; nothing reaches stderr as a
numpy warning."""
import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from kmetric_gui.cli import main

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"
N = 40


def _pair(tmp_path, metric, huge=(3,), value=1e308):
    """(solution, submission) of N rows; the submission's rows ``huge`` hold ``value``."""
    rng = np.random.default_rng(7)
    ids = [f"r{i}" for i in range(N)]
    y = (np.abs(rng.normal(size=N)) + 0.5).tolist()      # plain floats: repr is the number
    p = (np.array(y) + rng.normal(size=N) * 0.1)
    p[list(huge)] = value
    p = p.tolist()
    tmp_path.mkdir(exist_ok=True)
    sol, sub = tmp_path / "sol.csv", tmp_path / "sub.csv"
    if metric == "mcrmse":
        sol.write_text("id,a,b\n" + "".join(f"{i},{a},{2 * a}\n" for i, a in zip(ids, y)))
        sub.write_text("id,a,b\n" + "".join(f"{i},{a},{2 * b}\n" for i, a, b in zip(ids, p, y)))
    elif metric == "logloss":                 # a positive row given probability 0
        t = (np.arange(N) % 2).astype(int)
        q = np.where(t == 1, 0.8, 0.2)
        q[1] = 0.0
        t, q = t.tolist(), q.tolist()
        sol.write_text("id,target\n" + "".join(f"{i},{v}\n" for i, v in zip(ids, t)))
        sub.write_text("id,target\n" + "".join(f"{i},{v}\n" for i, v in zip(ids, q)))
    else:
        sol.write_text("id,target\n" + "".join(f"{i},{v}\n" for i, v in zip(ids, y)))
        sub.write_text("id,target\n" + "".join(f"{i},{v}\n" for i, v in zip(ids, p)))
    return sol, sub


def _json(capsys, *argv):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        code = main([*map(str, argv), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    raw = [w for w in seen if issubclass(w.category, RuntimeWarning)]
    assert not raw, [str(w.message) for w in raw]
    # strict JSON: Infinity and NaN are not JSON
    return json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))


def _no_interval(ci):
    assert ci["low"] is None and ci["high"] is None and ci["se"] is None, ci
    assert ci["replicates"] == 0
    assert any(w.startswith("no interval:") for w in ci["warnings"]), ci["warnings"]


@pytest.mark.parametrize("metric,words", [
    ("rmse", "squared errors overflow"),
    ("mcrmse", "squared errors of column 0 overflow"),
    ("logloss", "probability 0 and eps is 0"),
])
def test_an_overflowing_score_says_why_and_has_no_interval(tmp_path, capsys, metric, words):
    sol, sub = _pair(tmp_path, metric)
    extra = ["--eps", "0"] if metric == "logloss" else []
    d = _json(capsys, "score", sol, sub, "--metric", metric, *extra, "--ci", "0.95",
              "--bootstrap", "300", "--shakeup", "--splits", "200")
    assert d["score"] is None
    assert words in d["undefined_reason"]
    _no_interval(d["ci"])
    assert d["shakeup"]["undefined_splits"] == 200 and d["shakeup"]["gap_mean"] is None
    if metric == "mcrmse":
        assert d["column_scores"]["a"] is None and d["column_scores"]["b"] == 0.0


def test_mae_a_finite_score_whose_resamples_overflow_has_no_interval(tmp_path, capsys):
    # One error of 1e308: the mean is finite, a replicate drawing that row twice is not.
    sol, sub = _pair(tmp_path, "mae")
    d = _json(capsys, "score", sol, sub, "--metric", "mae", "--ci", "0.95", "--bootstrap",
              "300", "--shakeup", "--splits", "200")
    assert d["score"] == pytest.approx(1e308 / N, rel=1e-9)
    _no_interval(d["ci"])
    # splits without replacement never overflow: the shake-up is summarised, not undefined
    assert d["shakeup"]["undefined_splits"] == 0
    assert d["shakeup"]["gap_mean"] is not None and abs(d["shakeup"]["gap_mean"]) > 1e300
    # two such errors: the sum itself overflows, said in words
    sol, sub = _pair(tmp_path, "mae", huge=(3, 5))
    d = _json(capsys, "score", sol, sub, "--metric", "mae", "--ci", "0.95", "--bootstrap", "300")
    assert d["score"] is None and "absolute errors overflow" in d["undefined_reason"]
    _no_interval(d["ci"])


def test_rmsle_of_a_huge_value_stays_defined_with_an_interval(tmp_path, capsys):
    # log1p(1e308) is about 709: nothing overflows, so the score and interval are real.
    sol, sub = _pair(tmp_path, "rmsle")
    d = _json(capsys, "score", sol, sub, "--metric", "rmsle", "--ci", "0.95", "--bootstrap", "300")
    assert d["score"] is not None and d["ci"]["low"] is not None and d["ci"]["replicates"] == 300


def test_compare_with_an_overflowing_submission(tmp_path, capsys):
    sol, sub = _pair(tmp_path, "rmse")
    good = _pair(tmp_path / "fine", "rmse", huge=())[1]
    d = _json(capsys, "compare", sol, good, sub, "--metric", "rmse", "--bootstrap", "300",
              "--permutations", "100")
    a, b = d["submissions"]
    assert a["ci"]["low"] is not None and b["score"] is None
    _no_interval(b["ci"])
    pair = d["pairs"][0]
    assert pair["delta"] is None and pair["p_b_better"] is None and pair["p_value"] is None
    _no_interval(pair["delta_ci"])


@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta", "auc", "logloss", "accuracy", "f1",
                                    "mapk", "rmse", "rmsle", "mae", "mcrmse"])
def test_demos_raise_no_numpy_warning(capsys, metric):
    s, a, b = (DEMO / f"{metric}_{x}.csv" for x in ("solution", "submission", "submission_b"))
    _json(capsys, "score", s, a, "--metric", metric, "--ci", "0.95", "--bootstrap", "200",
          "--shakeup", "--splits", "200", "--top-fixes", "3")
    _json(capsys, "compare", s, a, b, "--metric", metric, "--bootstrap", "200",
          "--permutations", "100")


def test_overflow_rule_against_the_largest_resample():
    """A resample of n units sums at most n times the largest statistic: overflow is
    possible exactly when that sum, formed plainly, is not finite."""
    from kmetric_gui.core.resample import LARGEST, Units, overflows
    for big, n in ((1e308 / 3, 3), (1e308, 3), (LARGEST / 1000, 999), (LARGEST / 1000, 1001),
                   (1.0, 10), (np.inf, 2)):
        stats = np.zeros((n, 1))
        stats[0] = big
        with np.errstate(over="ignore", invalid="ignore"):
            worst = np.full(n, big).sum()
        assert bool(overflows(stats, n)) == (not np.isfinite(worst)), (big, n)
    assert Units(np.array([[1.0], [np.nan]]), lambda s: s[:, 0]).overflow
    assert not Units(np.ones((5, 1)), lambda s: s[:, 0]).overflow
