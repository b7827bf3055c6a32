"""Metrics given as a Python function or a metric file: scores against plain references
(scikit-learn, the file called on pandas frames), the statistics of the contract on top
(the same draws as a built-in), the direction followed in compare."""
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score, mean_squared_error

import kmetric_gui as km
from helpers import ROOT, demo, kmetric
from kmetric_gui.metrics import REGISTRY


def frames(metric):
    sol, sub, b = demo(metric)
    head = pd.read_csv(sol, nrows=0).columns
    return [pd.read_csv(p, dtype={head[0]: str}) for p in (sol, sub, b)]


def rmse(solution, submission, row_id_column_name, power: float = 2.0):
    d = solution["price"].to_numpy() - submission["price"].to_numpy()
    return float(np.mean(np.abs(d) ** power) ** (1 / power))


def qwk(solution, submission, row_id_column_name):
    return cohen_kappa_score(solution["diagnosis"], submission["diagnosis"], weights="quadratic")


def aligned(sol, sub, column):
    sub = sub.set_index(sub.columns[0]).loc[sol.iloc[:, 0]]
    return sol[column].to_numpy(), sub[column].to_numpy()


def test_a_function_scores_as_its_plain_call_with_public_and_private():
    sol, sub, _ = frames("rmse")
    r = km.score(sol, sub, rmse, higher_is_better=False)
    t, p = aligned(sol, sub, "price")
    assert r.score == pytest.approx(np.sqrt(mean_squared_error(t, p)), rel=1e-12)
    pub = (sol["Usage"] == "Public").to_numpy()
    assert r.public == pytest.approx(np.sqrt(mean_squared_error(t[pub], p[pub])), rel=1e-12)
    assert r.private == pytest.approx(np.sqrt(mean_squared_error(t[~pub], p[~pub])), rel=1e-12)
    assert r.metric == "python:rmse" and r.higher_is_better is False
    assert "python:rmse" not in REGISTRY            # registered for the call only
    r1 = km.score(sol, sub, rmse, higher_is_better=False, power=1.0)
    assert r1.score == pytest.approx(np.mean(np.abs(t - p)), rel=1e-12)
    assert r1.to_dict()["metric_function"]["args"] == {"power": 1.0}


def test_a_function_gets_the_built_ins_interval_from_the_same_draws():
    """Each replicate re-scores a resampled frame; the built-in sums per-row statistics of
    the same draws: the two percentile intervals are equal (to rounding)."""
    sol, sub, _ = frames("rmse")
    kw = dict(ci=0.9, bootstrap=300, seed=5, ci_method="percentile")
    mine = km.score(sol, sub, rmse, higher_is_better=False, **kw)
    built_in = km.score(sol, sub, "rmse", **kw)
    for a, b in ((mine.interval, built_in.interval), (mine.public_interval, built_in.public_interval)):
        assert (a.low, a.high) == pytest.approx((b.low, b.high), rel=1e-9)


def test_a_function_in_compare_follows_its_direction():
    sol, a, b = frames("rmse")
    mine = km.compare(sol, {"a": a, "b": b}, metric=rmse, higher_is_better=False, bootstrap=200,
                      permutations=50, splits=50)
    built_in = km.compare(sol, {"a": a, "b": b}, metric="rmse", bootstrap=200, permutations=50,
                          splits=50)
    assert mine.best == built_in.best == min(built_in.scores, key=built_in.scores.get)
    assert mine.scores == pytest.approx(built_in.scores)
    assert mine.pairs[0]["p_b_better"] == pytest.approx(built_in.pairs[0]["p_b_better"])


def test_a_higher_is_better_function_declared_by_its_module_constant():
    sol, sub, _ = frames("qwk")
    qwk.higher_is_better = True
    try:
        r = km.score(sol, sub, qwk, ci=0.9, bootstrap=100, top_fixes=2)
    finally:
        del qwk.higher_is_better
    t, p = aligned(sol, sub, "diagnosis")
    assert r.score == pytest.approx(cohen_kappa_score(t, p, weights="quadratic"), rel=1e-12)
    assert r.score == pytest.approx(km.score(sol, sub, "qwk").score, rel=1e-12)
    fixes = r.top_fixes
    assert len(fixes) == 2 and fixes[0]["score_after"] > r.score     # a fix raises QWK


def test_a_metric_file_scores_as_the_cli_does(tmp_path):
    folder = ROOT / "resources" / "metrics"
    sol, sub = folder / "bll_solution.csv", folder / "bll_submission.csv"
    code, want, err = kmetric("score", sol, sub, "--metric-file", folder / "balanced_log_loss.py")
    assert code == 0, err
    got = km.score(sol, sub, folder / "balanced_log_loss.py")
    for key in ("metric", "score", "higher_is_better", "n_rows", "public", "private"):
        assert got.to_dict().get(key) == want.get(key), key
    mine = got.to_dict()["metric_file"]
    assert {k: mine[k] for k in ("path", "sha256", "function")} == \
        {k: want["metric_file"][k] for k in ("path", "sha256", "function")}
    assert mine["args"] == {"epsilon": 1e-15}        # the defaults in force are said
    head = pd.read_csv(sol, nrows=0).columns
    in_memory = km.score(pd.read_csv(sol, dtype={head[0]: str}),
                         pd.read_csv(sub, dtype={head[0]: str}),
                         folder / "balanced_log_loss.py", epsilon=1e-15)
    assert in_memory.score == pytest.approx(want["score"], rel=1e-12)
    assert "file:balanced_log_loss.py" not in REGISTRY
