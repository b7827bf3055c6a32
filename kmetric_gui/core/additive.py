"""Scores that are a function of means of per-row statistics.

Log loss, the regression errors and MAP@K are means over rows of one number
per row (or one per row and column for MCRMSE). Their ``Units`` carry those
numbers and a count column, so a resample of rows is a resample of sums and
the score of a replicate is exact: mean = sum / count, RMSE = sqrt(mean).
"""
from __future__ import annotations

import numpy as np

from .resample import Units


def _with_count(values):
    v = np.asarray(values, dtype=np.float64)
    v = v.reshape(v.shape[0], -1)
    return np.column_stack([v, np.ones(v.shape[0])])


def _mean(sums):
    with np.errstate(invalid="ignore", divide="ignore"):
        out = sums[:, :-1] / sums[:, -1:]
    out[sums[:, -1] == 0] = np.nan
    return out


def mean_units(values, kind="row"):
    """Units whose score is the mean of ``values`` (n,)."""
    return Units(_with_count(values), lambda sums: _mean(sums)[:, 0], None, kind)


def root_mean_units(values, kind="row"):
    """Units whose score is sqrt(mean of ``values``) (squared errors -> RMSE)."""
    return Units(_with_count(values), lambda sums: np.sqrt(_mean(sums)[:, 0]), None, kind)


def column_root_mean_units(values, kind="row"):
    """Units whose score is the mean over columns of sqrt(column mean):
    ``values`` (n, C) squared errors -> MCRMSE."""
    return Units(_with_count(values), lambda sums: np.sqrt(_mean(sums)).mean(axis=1), None, kind)
