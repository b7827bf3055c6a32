"""The log-loss blend curve from row sums (kernels/logloss_blend.py) against a plain loop
over each blended matrix: clip, renormalise, -log of the true class, mean over the rows."""
import numpy as np
import pyarrow as pa
import pytest

from kmetric_gui.analysis.scoring import Options, score_prepared
from kmetric_gui.io.prepare import Prepared
from kmetric_gui.metrics import get_metric


def report(truth, pred, usage, eps):
    n = len(truth)
    prep = Prepared("logloss", "test", "id", ["a", "b", "c", "d"],
                    pa.array([f"r{i}" for i in range(n)]), truth, pred, usage)
    prep.classes = ["a", "b", "c", "d"]
    return score_prepared(prep, Options(metric="logloss", eps=eps))


def plain(truth, a, b, alpha, eps, rows):
    q = alpha * a + (1 - alpha) * b
    total = q.sum(axis=1, keepdims=True)
    p = np.divide(q, total, out=q.copy(), where=total > 0)
    p = np.clip(p, eps, 1 - eps)
    p = p / p.sum(axis=1, keepdims=True)
    losses = [-np.log(p[i, truth[i]]) for i in range(len(truth))]
    return float(np.mean([losses[i] for i in rows]))


def probabilities(rng, n, zeros):
    x = rng.gamma(0.5, 1.0, (n, 4))
    x[rng.random((n, 4)) < zeros] = 0.0
    x[x.sum(axis=1) == 0, 0] = 1.0
    one = rng.random(n) < zeros / 2           # rows certain of one class
    x[one] = np.eye(4)[rng.integers(0, 4, one.sum())]
    return x / x.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("eps,zeros", [(1e-15, 0.0), (1e-15, 0.3), (1e-3, 0.2), (0.2, 0.0)])
def test_blend_curve_equals_scoring_each_blended_matrix(eps, zeros):
    rng = np.random.default_rng(int(eps * 1e3) + int(zeros * 10))
    n = 300
    truth = rng.integers(0, 4, n)
    a, b = probabilities(rng, n, zeros), probabilities(rng, n, zeros)
    usage = rng.integers(0, 3, n).astype(np.int8)      # Public, Private, Ignored
    ra, rb = report(truth, a, usage, eps), report(truth, b, usage, eps)
    from kmetric_gui.metrics.kernels.logloss_blend import blend_losses
    assert blend_losses(truth, a, b, eps) is not None      # the shortcut is what is tested
    alphas = np.linspace(0, 1, 11)
    public, private = np.flatnonzero(usage == 0), np.flatnonzero(usage == 1)
    curves = get_metric("logloss").blend_sets(ra, rb, alphas, [None, public, private])
    scored = np.flatnonzero(usage != 2)
    for curve, rows in zip(curves, (scored, public, private)):
        want = [plain(truth, a, b, x, eps, rows) for x in alphas]
        np.testing.assert_allclose(curve.scores, want, rtol=1e-10, atol=1e-12)
    assert curves[0].scores[0] == pytest.approx(rb.result.score, rel=1e-12)
    assert curves[0].scores[-1] == pytest.approx(ra.result.score, rel=1e-12)


def test_a_row_summing_to_zero_is_scored_the_generic_way():
    rng = np.random.default_rng(5)
    truth = rng.integers(0, 4, 50)
    a, b = probabilities(rng, 50, 0.0), probabilities(rng, 50, 0.0)
    a[3] = 0.0
    from kmetric_gui.metrics.kernels.logloss_blend import blend_losses
    assert blend_losses(truth, a, b, 1e-15) is None
    ra, rb = report(truth, a, None, 1e-15), report(truth, b, None, 1e-15)
    alphas = np.linspace(0, 1, 5)
    curve = get_metric("logloss").blend_sets(ra, rb, alphas, [None])[0]
    want = [plain(truth, a, b, x, 1e-15, range(50)) for x in alphas]
    np.testing.assert_allclose(curve.scores, want, rtol=1e-10)
