"""The fast AUC kernels against scikit-learn and plain per-replicate loops on the
layouts that stress them: many ties, every score tied, one class tiny, float32."""
import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from kmetric_gui.core.ranking import _Cells, auc_bootstrap, roc_auc
from kmetric_gui.core.resample import resample_indices

RNG = np.random.default_rng(2026)


def cases():
    n = 400
    y = RNG.random(n) < 0.35
    yield "many ties", y, np.round(RNG.random(n) + 0.3 * y, 1)
    yield "all tied", y, np.full(n, 0.25)
    tiny = np.zeros(n, dtype=bool)
    tiny[[17, 230]] = True
    yield "two positives", tiny, np.round(RNG.random(n), 2)
    yield "one negative", ~tiny & (np.arange(n) != 230), np.round(RNG.random(n), 2)
    yield "float32", y, (RNG.random(n) + 0.2 * y).astype(np.float32)
    yield "alternating classes", np.arange(n) % 2 == 0, np.arange(n, dtype=float)
    yield "negative scores", y, np.round(RNG.normal(size=n) - 0.5 * y, 2)


@pytest.mark.parametrize("name,y,s", list(cases()), ids=[c[0] for c in cases()])
def test_score_equals_sklearn(name, y, s):
    assert roc_auc(y, s).score == pytest.approx(roc_auc_score(y, s), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("name,y,s", list(cases()), ids=[c[0] for c in cases()])
def test_cells_give_the_full_data_auc(name, y, s):
    c = _Cells(y, np.asarray(s))
    full = np.bincount(c.cell, minlength=c.cells)[None, :]
    assert c.auc(full)[0] == pytest.approx(roc_auc_score(y, s), rel=1e-12, abs=1e-15)
    assert c.cells <= 2 * len(np.unique(s)) + 1        # pure runs merge: never one cell a row


@pytest.mark.parametrize("name,y,s", list(cases()), ids=[c[0] for c in cases()])
def test_bootstrap_equals_plain_loop(name, y, s):
    b = 30
    reps = auc_bootstrap(y, [s], b, seed=11)[:, 0]
    for r, idx in enumerate(resample_indices(y.size, b, seed=11)):
        yy = y[idx]
        if yy.all() or not yy.any():
            assert np.isnan(reps[r])
        else:
            assert reps[r] == pytest.approx(roc_auc_score(yy, s[idx]), rel=1e-12, abs=1e-15)


def test_multiclass_with_ties_equals_sklearn():
    n, k = 500, 4
    y = RNG.integers(0, k, n)
    p = np.round(RNG.dirichlet(np.ones(k), n), 1)
    p /= p.sum(axis=1, keepdims=True)
    assert roc_auc(y, p).score == pytest.approx(roc_auc_score(y, p, multi_class="ovr"), rel=1e-12)
