"""RMSE's blocked one-pass kernel against scikit-learn and numpy on the inputs
it reads without a float64 copy (float32, integers, 2-D) and across blocks."""
import numpy as np
import pytest
from sklearn.metrics import root_mean_squared_error

from kmetric_gui.core import regression
from kmetric_gui.errors import InputError

RNG = np.random.default_rng(7)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64])
@pytest.mark.parametrize("n", [1, 5, 1000, 1003])
def test_rmse_across_blocks_equals_sklearn(monkeypatch, dtype, n):
    monkeypatch.setattr(regression, "BLOCK", 64)          # many blocks and a ragged last one
    t = (RNG.normal(size=n) * 50).astype(dtype)
    p = (RNG.normal(size=n) * 50).astype(dtype)
    r = regression.rmse(t, p)
    ref = root_mean_squared_error(t.astype(np.float64), p.astype(np.float64))
    assert r.score == pytest.approx(ref, rel=1e-12)
    # the residuals made on demand are float64 prediction - truth, as before
    assert r.errors.dtype == np.float64
    np.testing.assert_array_equal(r.errors, p.astype(np.float64) - t.astype(np.float64))
    assert r.units().point() == pytest.approx(ref, rel=1e-12)


def test_rmse_2d_pools_every_cell(monkeypatch):
    monkeypatch.setattr(regression, "BLOCK", 7)
    t, p = RNG.normal(size=(40, 3)), RNG.normal(size=(40, 3))
    assert regression.rmse(t, p).score == pytest.approx(
        root_mean_squared_error(t.ravel(), p.ravel()), rel=1e-12)
    assert regression.rmse(t.T, p.T).score == pytest.approx(      # not contiguous
        root_mean_squared_error(t.ravel(), p.ravel()), rel=1e-12)


def test_rmse_names_a_nan_in_a_late_block(monkeypatch):
    monkeypatch.setattr(regression, "BLOCK", 16)
    t, p = RNG.normal(size=100), RNG.normal(size=100).astype(np.float32)
    p[77] = np.nan
    with pytest.raises(InputError, match="predictions has NaN at position 77"):
        regression.rmse(t, p)
