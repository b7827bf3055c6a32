"""A score that is the mean of one number per row (or per query): SMAPE and MAPE, the
angular distance, Laplace log likelihood, KL divergence, the edit distances, word
Jaccard, NDCG. The per-row values are the additive statistic: a bootstrap replicate,
a Public/Private split, a paired comparison or a fix is a sum of them.

A "total" score (``denominators``) is a ratio of two sums instead, sum(values) /
sum(denominators): the character error rate (edit distances over truth lengths).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ...core.additive import mean_units
from ...core.resample import Units


@dataclass(frozen=True)
class MeanResult:
    score: float                     # nan when undefined
    undefined_reason: "str | None"
    kind: str                        # the metric's name
    n: int                           # rows (queries)
    source: object = field(repr=False)   # (n,) each row's value, or a function making them
    denominators: "np.ndarray | None" = field(default=None, repr=False)   # ratio of sums
    higher_is_better: bool = False
    detail: dict = field(default_factory=dict)   # the metric's own counts (JSON)

    @cached_property
    def values(self):
        """(n,) each row's value (made on first use when the score did not need them)."""
        return self.source() if callable(self.source) else self.source

    @property
    def errors(self):
        """(n,) each row's own value (the residual view's "error" column)."""
        return self.values

    def units(self, kind="row"):
        if self.denominators is None:
            return mean_units(self.values, kind)
        stats = np.column_stack([self.values, self.denominators])
        return Units(stats, ratio_score, kind=kind, mergeable=False)

    @property
    def row_stats(self):
        return self.values


def lazy_result(total, n, make, kind, higher_is_better=False, **detail):
    """MeanResult whose score is ``total`` / n and whose per-row values ``make()`` gives
    when statistics ask (the score's pass keeps no n-sized array)."""
    if n == 0:
        return MeanResult(float("nan"), "no rows to score", kind, 0, np.zeros(0),
                          higher_is_better=higher_is_better, detail=detail)
    return MeanResult(float(total) / n, None, kind, int(n), make,
                      higher_is_better=higher_is_better, detail=detail)


def ratio_score(sums):
    """(R,) sum of values / sum of denominators (nan when nothing to divide by)."""
    sums = np.asarray(sums, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = sums[:, 0] / sums[:, 1]
    out[sums[:, 1] <= 0] = np.nan
    return out


def mean_result(values, kind, higher_is_better=False, scale=1.0, **detail):
    """MeanResult of per-row values (their mean; nan with no rows)."""
    v = np.asarray(values, dtype=np.float64)
    if scale != 1.0:
        v = v * scale
    if v.size == 0:
        return MeanResult(float("nan"), "no rows to score", kind, 0, v,
                          higher_is_better=higher_is_better, detail=detail)
    return MeanResult(float(v.mean()), None, kind, int(v.size), v,
                      higher_is_better=higher_is_better, detail=detail)


def ratio_result(values, denominators, kind, what="nothing to divide by", **detail):
    """MeanResult scored as sum(values) / sum(denominators)."""
    v = np.asarray(values, dtype=np.float64)
    d = np.asarray(denominators, dtype=np.float64)
    total = float(d.sum())
    if v.size == 0 or total <= 0:
        reason = "no rows to score" if v.size == 0 else what
        return MeanResult(float("nan"), reason, kind, int(v.size), v, d, detail=detail)
    return MeanResult(float(v.sum()) / total, None, kind, int(v.size), v, d, detail=detail)


def sorted_unique(keys):
    """Sorted distinct values of integer keys by one sort (numpy 2's np.unique hashes
    int64 keys, about ten times slower here on millions of keys)."""
    k = np.sort(np.asarray(keys), kind="quicksort")
    if k.size:
        keep = np.empty(k.size, dtype=bool)
        keep[0] = True
        np.not_equal(k[1:], k[:-1], out=keep[1:])
        k = k[keep]
    return k
