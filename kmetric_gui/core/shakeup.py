"""Public / Private shake-up: random splits of the units at fraction f.

Kaggle puts a random fraction f of the test units in Public and the rest
in Private. A simulated split draws round(f N) units without replacement:
for cells of identical units (a confusion matrix's cells, or units with integer
statistics merged by ``Units.collapsed``) that is one multivariate
hypergeometric draw over the cells; for single units, a random subset (the
smaller side is drawn, the other is the total minus it). Both sides are
scored from their sums; gap = private - public.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from .resample import CHUNK, _Gather, check_cancel, check_replicates, rng_of

if TYPE_CHECKING:
    from collections.abc import Callable
    from .resample import Units


@dataclass(frozen=True)
class Shakeup:
    """Simulated Public and Private scores of ``splits`` random splits."""
    public: np.ndarray        # (S,) public score of each split (nan: undefined)
    private: np.ndarray       # (S,)
    public_fraction: float
    n_public: int             # units in Public in every split
    n_units: int
    seed: "int | None"
    actual_gap: float = float("nan")   # private - public of the real split, when known
    kind: str = "unit"                 # what a unit is (row, sample, document)
    higher_is_better: bool = True      # the metric's direction: which sign of a gap is worse

    @property
    def worse_sign(self):
        """Words for the gaps where Private scores worse than Public."""
        return "a negative gap" if self.higher_is_better else "a positive gap"
    rankable: bool = True              # False: the splits are not the actual split's share
    usage_fraction: "float | None" = None   # the Usage column's Public share, when known

    @property
    def gap(self):
        return self.private - self.public

    @property
    def splits(self):
        return int(self.public.size)

    @property
    def undefined(self):
        """Splits where either side's score is undefined (left out of the summary)."""
        return int((~np.isfinite(self.gap)).sum())

    @property
    def actual_percentile(self):
        """Where the actual gap falls among the simulated ones, 0..100 (mid-rank)."""
        g = self.gap[np.isfinite(self.gap)]
        if not self.rankable or not np.isfinite(self.actual_gap) or g.size == 0:
            return float("nan")
        a = self.actual_gap
        return float(100.0 * (np.count_nonzero(g < a) + np.count_nonzero(g <= a)) / (2 * g.size))

    def summary(self):
        g = self.gap[np.isfinite(self.gap)]
        nan = float("nan")
        if g.size == 0:
            return dict(mean=nan, sd=nan, p05=nan, p50=nan, p95=nan)
        p05, p50, p95 = np.quantile(g, [0.05, 0.5, 0.95])
        # Scaled by the largest gap: gaps near 1e307 each are finite, their sum is not.
        scale = float(np.abs(g).max()) or 1.0
        g = g / scale
        return dict(mean=float(g.mean()) * scale,
                    sd=float(g.std(ddof=1)) * scale if g.size > 1 else nan,
                    p05=float(p05), p50=float(p50), p95=float(p95))

    def to_dict(self):
        """The JSON ``shakeup`` object of DESIGN.md (nan -> None), plus undefined_splits."""
        s = self.summary()
        return {"public_fraction": self.public_fraction, "splits": self.splits,
                "seed": self.seed, "gap_mean": _num(s["mean"]), "gap_sd": _num(s["sd"]),
                "gap_p05": _num(s["p05"]), "gap_p50": _num(s["p50"]),
                "gap_p95": _num(s["p95"]), "actual_gap": _num(self.actual_gap),
                "actual_gap_percentile": _num(self.actual_percentile),
                "undefined_splits": self.undefined, "higher_is_better": self.higher_is_better,
                "usage_public_fraction": _num(self.usage_fraction)}


def _num(x):
    return None if x is None or not np.isfinite(x) else float(x)


def check_fraction(fraction):
    f = float(fraction)
    if not 0.0 < f < 1.0:
        raise InputError(f"public fraction must be between 0 and 1 (exclusive); got {f}")
    return f


def public_size(n, fraction):
    """Units in Public: round(f N), kept in 1..N-1 (both sides non-empty)."""
    if n < 2:
        raise InputError(f"a shake-up needs at least 2 units to split; got {n}")
    return int(min(max(round(check_fraction(fraction) * n), 1), n - 1))


def split_blocks(rng, units, splits, n_public):
    """Yield (first split, counts of Public units): (r, M) cells or (r, N) 0/1.

    For single units only the smaller side is drawn; the counts mark Public.
    """
    n = units.n
    if units.cells is not None:
        cells = np.asarray(units.cells, dtype=np.int64)
        step = max(1, CHUNK // max(cells.size, 1))
        for r0 in range(0, splits, step):
            r = min(step, splits - r0)
            yield r0, rng.multivariate_hypergeometric(cells, n_public, size=r)
        return
    for r0, sel in subset_blocks(rng, n, splits, n_public):
        mark = np.zeros((sel.shape[0], n), dtype=np.int64)
        np.put_along_axis(mark, sel, 1, axis=1)
        if n_public > n - n_public:
            mark = 1 - mark
        yield r0, mark


def subset_blocks(rng, n, splits, n_public):
    """Yield (first split, indices (r, k)) of the smaller side, k = min(n_public, n - n_public)."""
    k = min(n_public, n - n_public)
    step = max(1, CHUNK // max(n, 1))
    for r0 in range(0, splits, step):
        r = min(step, splits - r0)
        yield r0, np.stack([rng.choice(n, k, replace=False, shuffle=False) for _ in range(r)])


def shakeup(units: Units, fraction: float, splits: int = 2000, seed: int | None = 0,
            actual_gap: float = float("nan"), cancel: Callable[[], bool] | None = None) -> Shakeup:
    """Simulate ``splits`` Public/Private splits of ``units`` at ``fraction``.

    cancel: optional callable, checked between blocks (raises Cancelled).
    """
    s = check_replicates(splits, "splits")
    n = units.n
    k = public_size(n, fraction)
    if hasattr(units, "split_scores"):        # rank statistics split their own rows
        public, private = units.split_scores(k, s, seed, cancel)
        return Shakeup(public, private, float(fraction), k, n, seed, float(actual_gap), units.kind)
    if not units.finite_total:
        # The rows' statistics sum past the largest double: the side holding the huge rows
        # has no score, so no split has a gap (said as undefined in every split).
        nan = np.full(s, np.nan)
        return Shakeup(nan, nan.copy(), float(fraction), k, n, seed, float(actual_gap), units.kind)
    units = units.collapsed
    rng = rng_of(seed)
    public = np.empty(s)
    private = np.empty(s)
    total = units.total()
    if units.cells is not None:
        for r0, cnt in split_blocks(rng, units, s, k):
            check_cancel(cancel)
            pub = units.sums_of_counts(cnt)
            public[r0:r0 + cnt.shape[0]] = units.score(pub)
            private[r0:r0 + cnt.shape[0]] = units.score(total[None, :] - pub)
    else:
        g = _Gather(units.stats, max(k, n - k))
        acc = g.zeros(s)
        for r0, sel in subset_blocks(rng, n, s, k):
            check_cancel(cancel)
            g.add(acc, slice(r0, r0 + sel.shape[0]), sel)
        small = g.unpack(acc)
        other = total[None, :] - small
        pub, priv = (small, other) if k <= n - k else (other, small)
        public[:] = units.score(pub)
        private[:] = units.score(priv)
    return Shakeup(public, private, float(fraction), k, n, seed, float(actual_gap), units.kind)


def histogram(values, bins=None):
    """(edges, counts) of the finite values; bins about sqrt(n), 10 to 60 (the app and the
    report draw the shake-up with it)."""
    g = np.asarray(values, dtype=np.float64)
    g = g[np.isfinite(g)]
    if g.size == 0:
        return np.zeros(1), np.zeros(0, dtype=np.int64)
    if bins is None:
        bins = int(np.clip(np.sqrt(g.size), 10, 60))
    lo, hi = float(g.min()), float(g.max())
    if lo == hi:
        lo, hi = lo - 0.5e-3, hi + 0.5e-3
    counts, edges = np.histogram(g, bins=bins, range=(lo, hi))
    return edges, counts
