"""RMSE's blocked one-pass kernel against scikit-learn and numpy on the inputs
it reads without a float64 copy (float32, integers, 2-D) and across blocks."""
import numpy as np
import pytest
from sklearn.metrics import root_mean_squared_error

from kmetric_gui.metrics.kernels import regression
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


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8])
@pytest.mark.parametrize("n", [1, 5, 1003])
def test_mae_across_blocks_equals_sklearn(monkeypatch, dtype, n):
    from sklearn.metrics import mean_absolute_error
    monkeypatch.setattr(regression, "BLOCK", 64)
    t = (RNG.random(n) * 200).astype(dtype)
    p = (RNG.random(n) * 200).astype(dtype)
    r = regression.mae(t, p)
    ref = mean_absolute_error(t.astype(np.float64), p.astype(np.float64))
    assert r.score == pytest.approx(ref, rel=1e-12)
    # the errors, made on demand, are the float64 absolute errors (no uint8 wrap-around)
    np.testing.assert_array_equal(r.errors, np.abs(p.astype(np.float64) - t.astype(np.float64)))
    assert r.row_stats is r.errors and r.units().point() == pytest.approx(ref, rel=1e-12)


def test_mae_names_an_infinite_value_in_a_late_block(monkeypatch):
    monkeypatch.setattr(regression, "BLOCK", 16)
    t, p = RNG.normal(size=(50, 2)), RNG.normal(size=(50, 2))
    t[41, 1] = -np.inf
    with pytest.raises(InputError, match="truth has an infinite value at row 41, column 1 "
                                         "\\(1 such value"):
        regression.mae(t, p)


@pytest.mark.parametrize("layout", ["C", "F", "strided", "1-D"])
def test_mcrmse_across_blocks_equals_sklearn_per_column(monkeypatch, layout):
    monkeypatch.setattr(regression, "BLOCK", 10)          # three rows a block, ragged end
    t, p = RNG.normal(size=(101, 3)) * 4, RNG.normal(size=(101, 3)) * 4
    if layout == "F":
        t, p = np.asfortranarray(t), np.asfortranarray(p)
    elif layout == "strided":
        t, p = np.repeat(t, 2, axis=1)[:, ::2], np.repeat(p, 2, axis=1)[:, ::2]
    elif layout == "1-D":
        t, p = t[:, 0], p[:, 0]
    r = regression.mcrmse(t, p)
    t2, p2 = t.reshape(len(t), -1), p.reshape(len(p), -1)
    per = root_mean_squared_error(t2, p2, multioutput="raw_values")
    np.testing.assert_allclose(r.column_scores, per, rtol=1e-12)
    assert r.score == pytest.approx(root_mean_squared_error(t2, p2), rel=1e-12)
    np.testing.assert_array_equal(r.errors, p2 - t2)
    assert r.units().point() == pytest.approx(r.score, rel=1e-12)


def test_mcrmse_names_a_nan_in_a_late_block(monkeypatch):
    monkeypatch.setattr(regression, "BLOCK", 8)
    t, p = RNG.normal(size=(60, 4)), RNG.normal(size=(60, 4))
    p[57, 2] = np.nan
    with pytest.raises(InputError, match="predictions has NaN at row 57, column 2"):
        regression.mcrmse(t, p)


def test_squares_that_overflow_are_undefined_with_the_reason_and_name_no_value():
    # every input is finite: only the sum is not. The RMSE itself (2e200 / sqrt 2) is a
    # double; its squares are not, so it is undefined here, and the reason says why (issue
    # 39: it was inf, shown as "undefined" with no reason).
    r = regression.rmse([1e200, 0.0], [-1e200, 0.0])
    assert np.isnan(r.score) and "squared errors overflow" in r.undefined_reason
    assert "2e+200" in r.undefined_reason                  # the largest error
    m = regression.mcrmse([[1e200], [0.0]], [[-1e200], [0.0]])
    assert np.isnan(m.score) and "column 0" in m.undefined_reason
    a = regression.mae([1e308, -1e308], [-1e308, 1e308])
    assert np.isnan(a.score) and "absolute errors overflow" in a.undefined_reason
