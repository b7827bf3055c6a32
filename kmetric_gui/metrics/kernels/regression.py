"""Regression errors: RMSE, RMSLE, MAE and MCRMSE (mean column-wise RMSE).

Each keeps its per-row additive statistic (squared or absolute errors), so
intervals, shake-up and comparisons are sums over rows. A 2-D input to
``rmse`` / ``mae`` / ``rmsle`` pools every cell (one mean over all values);
``mcrmse`` takes each column's RMSE and averages them (scikit-learn's
``root_mean_squared_error`` with multioutput="uniform_average").

Finiteness is checked from the sum: a NaN or infinite value anywhere makes
the sum non-finite, and only then are the rows searched to name it.

RMSE's, MAE's and MCRMSE's scores are one fused pass over blocks of the inputs
(difference, then its dot product or absolute sum, in a small reused buffer):
no array of n residuals is made for the score, and no float64 copy of float32
or integer inputs. The residuals themselves (``errors``) are made on first
use, for statistics.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ...errors import InputError
from ...core._checks import as_numeric, position
from ...core.additive import column_root_mean_units, mean_units, root_mean_units


@dataclass(frozen=True)
class RegressionResult:
    score: float                  # nan when undefined
    undefined_reason: "str | None"
    kind: str                     # "rmse", "rmsle", "mae", "mcrmse"
    n: int                        # rows
    # the errors, or (truth, predictions) whose difference they are (made on first use)
    residual: "np.ndarray | tuple" = field(repr=False)
    column_scores: "np.ndarray | None" = None   # (C,) each column's RMSE (mcrmse)
    higher_is_better: bool = False

    @cached_property
    def errors(self):
        """(n,) or (n, C): residual (rmse, mcrmse), log1p residual (rmsle), absolute
        error (mae); prediction - truth where signed."""
        r = self.residual
        if isinstance(r, tuple):
            d = np.subtract(r[1], r[0], dtype=np.float64)
            return np.abs(d, out=d) if self.kind == "mae" else d
        return r

    @property
    def row_stats(self):
        """Per-row additive statistic: squared error (summed over a row's columns
        except for mcrmse), or absolute error for mae."""
        e = self.errors
        # A square beyond the largest double is inf: the statistics say so (units overflow).
        with np.errstate(over="ignore", invalid="ignore"):
            if self.kind == "mae":
                return e if e.ndim == 1 else e.sum(axis=1)
            sq = e * e
            if self.kind == "mcrmse" or sq.ndim == 1:
                return sq
            return sq.sum(axis=1)

    def units(self):
        """Resampling units (rows) of this result."""
        e = self.errors
        if self.kind == "mcrmse":
            with np.errstate(over="ignore"):
                return column_root_mean_units(e * e)
        cells = 1 if e.ndim == 1 else e.shape[1]
        if self.kind == "mae":
            return mean_units(self.row_stats / cells)
        return root_mean_units(self.row_stats / cells)


def _pair(y_true, y_pred, what, as_float=True):
    t = as_numeric(y_true, "truth")
    p = as_numeric(y_pred, "predictions")
    if t.shape != p.shape:
        raise InputError(f"truth and predictions differ in shape: {t.shape} vs {p.shape}")
    if t.ndim not in (1, 2):
        raise InputError(f"{what} takes 1-D or 2-D values; got {t.ndim}-D")
    if not as_float:
        return t, p
    return t.astype(np.float64, copy=False), p.astype(np.float64, copy=False)


BLOCK = 1 << 16     # values a block: the buffer (512 kB) stays in the L2 cache


def _blocks(t, p, fold, total=0.0):
    """``total`` plus ``fold(p - t)`` of each block of rows in float64: one pass, the
    difference in a reused buffer of about BLOCK values (no n-sized temporary)."""
    n = t.shape[0]
    step = max(1, BLOCK // max(int(np.prod(t.shape[1:])), 1))
    buf = np.empty((min(n, step),) + t.shape[1:])
    for a in range(0, n, step):
        d = buf[:min(step, n - a)]
        np.subtract(p[a:a + d.shape[0]], t[a:a + d.shape[0]], out=d, dtype=np.float64)
        total = total + fold(d)
    return total


def squared_distance(t, p):
    """Sum of (p - t)**2 in float64 (einsum, not BLAS: its threads spin on a busy machine)."""
    return _blocks(t, p, lambda d: float(np.einsum("i,i->", d.reshape(-1), d.reshape(-1))))


def absolute_distance(t, p):
    """Sum of |p - t| in float64."""
    return _blocks(t, p, lambda d: float(np.add.reduce(np.abs(d, out=d), axis=None)))


def column_squares(t, p):
    """(C,) each column's sum of (p - t)**2 for (n, C) inputs."""
    return _blocks(t, p, lambda d: np.einsum("ij,ij->j", d, d), np.zeros(t.shape[1]))


def weighted_distance(t, p, w, kind):
    """Sum of w * (p - t)**2 ("rmse") or w * |p - t| ("mae") in float64, by blocks: one
    pass over the three arrays, no n-sized temporary."""
    n = t.shape[0]
    buf = np.empty(min(n, BLOCK))
    total = 0.0
    for a in range(0, n, BLOCK):
        d = buf[:min(BLOCK, n - a)]
        np.subtract(p[a:a + d.size], t[a:a + d.size], out=d, dtype=np.float64)
        wb = w[a:a + d.size]
        if kind == "mae":
            total += float(np.einsum("i,i->", np.abs(d, out=d), wb))
        else:
            total += float(np.einsum("i,i,i->", d, d, wb))
    return total


def _name_non_finite(t, p):
    for arr, name in ((t, "truth"), (p, "predictions")):
        bad = ~np.isfinite(arr)
        if bad.any():
            i = int(np.flatnonzero(bad.ravel())[0])
            v = arr.ravel()[i]
            kind = "NaN" if np.isnan(v) else "an infinite value"
            raise InputError(f"{name} has {kind} at {position(i, arr.shape)} "
                             f"({int(bad.sum())} such value(s) in all)")


def _overflow(what, t, p):
    """Why a sum of errors of finite values is not finite (NaN or inf values raise first)."""
    _name_non_finite(t, p)
    with np.errstate(over="ignore"):
        worst = float(np.max(np.abs(np.subtract(p, t, dtype=np.float64))))
    return (f"the {what} overflow: their sum passes the largest double (about 1.8e308); "
            f"the largest error is {worst:.3g}")


def _empty(kind, t):
    return RegressionResult(float("nan"), "no rows to score", kind, 0, t - t)


def rmse(y_true, y_pred) -> RegressionResult:
    """Root mean squared error (pooled over all values of a 2-D input).

    >>> rmse([1.0, 2.0, 3.0], [1.0, 2.0, 5.0]).score   # sqrt(4 / 3)
    1.1547005383792515
    """
    t, p = _pair(y_true, y_pred, "rmse", as_float=False)
    if t.size == 0:
        return _empty("rmse", t.astype(np.float64))
    with np.errstate(over="ignore"):
        ss = squared_distance(t, p)
    if not np.isfinite(ss):
        why = _overflow("squared errors", t, p)
        return RegressionResult(float("nan"), why, "rmse", t.shape[0], (t, p))
    return RegressionResult(float(np.sqrt(ss / t.size)), None, "rmse", t.shape[0], (t, p))


def mae(y_true, y_pred) -> RegressionResult:
    """Mean absolute error (pooled over all values of a 2-D input)."""
    t, p = _pair(y_true, y_pred, "mae", as_float=False)
    if t.size == 0:
        return _empty("mae", t.astype(np.float64))
    with np.errstate(over="ignore"):
        s = absolute_distance(t, p)
    if not np.isfinite(s):
        why = _overflow("absolute errors", t, p)
        return RegressionResult(float("nan"), why, "mae", t.shape[0], (t, p))
    return RegressionResult(s / t.size, None, "mae", t.shape[0], (t, p))


def rmsle(y_true, y_pred) -> RegressionResult:
    """Root mean squared logarithmic error: RMSE of log(1 + x).

    Negative values have no logarithm here (scikit-learn refuses them too):
    the first is named with its position.
    """
    t, p = _pair(y_true, y_pred, "rmsle")
    if t.size == 0:
        return _empty("rmsle", t)
    for arr, name in ((t, "truth"), (p, "predictions")):
        lo = arr.min()
        if not lo >= 0:                      # also true for NaN
            if np.isnan(lo):
                _name_non_finite(t, p)
            i = int(np.flatnonzero(arr.ravel() < 0)[0])
            raise InputError(f"{name} has a negative value {arr.ravel()[i].item()!r} at "
                             f"{position(i, arr.shape)}: RMSLE needs values >= 0 "
                             f"({int((arr < 0).sum())} negative value(s) in all)")
    d = np.log1p(p) - np.log1p(t)
    flat = d.ravel()
    ss = float(np.einsum("i,i->", flat, flat))   # not BLAS: its threads spin on a busy machine
    if not np.isfinite(ss):
        _name_non_finite(t, p)
    return RegressionResult(float(np.sqrt(ss / d.size)), None, "rmsle", t.shape[0], d)


def mcrmse(y_true, y_pred) -> RegressionResult:
    """Mean column-wise RMSE: each column's RMSE, then their mean.

    >>> float(mcrmse([[0.0, 0.0], [0.0, 0.0]], [[1.0, 2.0], [1.0, 2.0]]).score)
    1.5
    """
    t, p = _pair(y_true, y_pred, "mcrmse", as_float=False)
    if t.ndim == 1:
        t, p = t[:, None], p[:, None]
    if t.shape[0] == 0:
        return _empty("mcrmse", t.astype(np.float64))
    with np.errstate(over="ignore"):
        col = np.sqrt(column_squares(t, p) / t.shape[0])
    if not np.isfinite(col).all():
        bad = int(np.flatnonzero(~np.isfinite(col))[0])
        why = _overflow(f"squared errors of column {bad}", t, p)
        return RegressionResult(float("nan"), why, "mcrmse", t.shape[0], (t, p), col)
    return RegressionResult(float(col.mean()), None, "mcrmse", t.shape[0], (t, p), col)


def columnwise(kind, y_true, y_pred) -> RegressionResult:
    """RMSE, RMSLE or MAE of each column of (n, C) inputs, then their mean (RMSE of
    each column is MCRMSE; MAE's mean over columns equals its pooled mean).

    >>> round(columnwise("rmsle", [[0.0, 1.0], [1.0, 3.0]], [[1.0, 1.0], [1.0, 1.0]]).score, 6)
    0.490129
    """
    if kind in ("rmse", "mcrmse"):
        return mcrmse(y_true, y_pred)
    if kind == "mae":
        r = mae(y_true, y_pred)
        e = r.errors
        col = e.mean(axis=0) if e.ndim == 2 and e.shape[0] else None
        return RegressionResult(r.score, r.undefined_reason, "mae", r.n, r.residual, col)
    if kind == "rmsle":
        r = rmsle(y_true, y_pred)                 # checks: values >= 0, finite
        if r.n == 0:
            return r
        d = r.errors if r.errors.ndim == 2 else r.errors[:, None]
        col = np.sqrt(np.einsum("ij,ij->j", d, d) / d.shape[0])
        return RegressionResult(float(col.mean()), None, "mcrmse", r.n, d, col)
    raise InputError(f"no column-wise form of {kind}")
