"""Regression blend curves in one pass an alpha (kernels/regression_blend.py) against a
plain loop: blend the two files, score each with scikit-learn's formulas, every row set."""
import numpy as np
import pyarrow as pa
import pytest
from sklearn.metrics import mean_absolute_error, mean_squared_error, mean_squared_log_error

from kmetric_gui.analysis.scoring import Options, score_prepared
from kmetric_gui.io.prepare import Prepared
from kmetric_gui.metrics import get_metric


def report(name, truth, pred, usage):
    n = len(truth)
    cols = ["y"] if truth.ndim == 1 else [f"y{j}" for j in range(truth.shape[1])]
    prep = Prepared(name, "test", "id", cols, pa.array([f"r{i}" for i in range(n)]),
                    truth, pred, usage)
    return score_prepared(prep, Options(metric=name))


def plain(name, t, p):
    if t.ndim == 2:             # several columns: each column's score, then their mean
        return float(np.mean([plain(name, t[:, j], p[:, j]) for j in range(t.shape[1])]))
    if name == "mae":
        return mean_absolute_error(t, p)
    if name == "rmsle":
        return float(np.sqrt(mean_squared_log_error(t, p)))
    return float(np.sqrt(mean_squared_error(t, p)))


@pytest.mark.parametrize("name,cols", [("rmse", 0), ("mae", 0), ("rmsle", 0), ("mcrmse", 3),
                                       ("rmse", 2), ("mae", 2)])
def test_blend_curve_equals_scoring_each_blended_file(name, cols):
    rng = np.random.default_rng(len(name) + cols)
    n = 400
    shape = (n,) if cols == 0 else (n, cols)
    t = rng.gamma(2.0, 3.0, shape)
    a = np.clip(t + rng.normal(0, 2, shape), 0, None)
    b = t * rng.uniform(0.5, 1.5, shape)
    usage = rng.integers(0, 3, n).astype(np.int8)
    ra, rb = report(name, t, a, usage), report(name, t, b, usage)
    metric = get_metric(name)
    assert metric.variant(ra) is None
    alphas = np.linspace(0, 1, 11)
    public, private = np.flatnonzero(usage == 0), np.flatnonzero(usage == 1)
    curves = metric.blend_sets(ra, rb, alphas, [None, public, private])
    for curve, rows in zip(curves, (np.flatnonzero(usage != 2), public, private)):
        want = [plain(name, t[rows], (x * a + (1 - x) * b)[rows]) for x in alphas]
        np.testing.assert_allclose(curve.scores, want, rtol=1e-10)
    assert curves[0].scores[-1] == pytest.approx(ra.result.score, rel=1e-10)
    assert curves[0].scores[0] == pytest.approx(rb.result.score, rel=1e-10)
