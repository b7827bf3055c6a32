"""Paired comparison of submissions scored on one truth (STATS.md, "Paired comparison").

An engine holds the sufficient statistics of several submissions and draws
replicates from them; ``compare_pair`` and ``score_interval`` take any engine
with the methods below (``single_bootstrap``, ``pair_bootstrap``,
``permutation``, ``splits``, the jackknives). A metric whose score is not a
function of additive sums brings its own engine (metrics/kernels/).

- ``UnitPairs``: metrics that are a function of additive per-unit sums (a
  sample's precision sums and positive counts, a document's TP, FP and FN:
  see metrics/kernels/units.py). All submissions are scored on the same unit
  draws, so every pair is paired.

The draws, so that a plain loop can reproduce them exactly:
  bootstrap, units  ``rng = default_rng(seed)``; replicate r:
                    ``rng.integers(0, n, size=n)`` (unit indices with replacement)
  units as cells    (``UnitPairs.cells``: integer statistics merged by distinct row)
                    bootstrap ``default_rng(seed).multinomial(n, cells / n, size=B)``,
                    permutations ``rng.binomial(cells, 0.5, size=(P, D))``, splits
                    ``rng.multivariate_hypergeometric(cells, n_public, size=S)``
  permutations      ``rng = default_rng([seed, 1])``; units: per permutation
                    ``swap_mask(rng, n)``
  splits            ``rng = default_rng([seed, 2])``; units: per split
                    ``rng.permuted(arange(n) < n_public)`` marks Public
"""
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from .intervals import interval, no_interval
from .pair_tests import check_counts, flip_probability, p_value  # noqa: F401 (importable here)
from .resample import distinct_rows, overflows

_BLOCK = 1 << 22      # elements per (replicates x units) block


def swap_mask(rng, n, count=None):
    """(count, n) or (n,) 0/1 uint8: which units swap A and B (64 per random word)."""
    rows = 1 if count is None else count
    words = rng.integers(0, 2 ** 64, size=(rows, -(-n // 64)), dtype=np.uint64)
    bits = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")[:, :n]
    return bits[0] if count is None else bits


def _blocks(total, n):
    step = max(1, _BLOCK // max(n, 1))
    for a in range(0, total, step):
        yield a, min(step, total - a)


class UnitPairs:
    """Several submissions whose score is a function of per-unit additive sums.

    stats: one (n, m) array per submission (the ``stats`` of core.resample.Units);
    score: sums (R, m) -> (R,) scores, nan where undefined. Columns equal in
    every submission (e.g. positive counts per sample) are gathered once.

    Integer statistics (e.g. TP, FP, FN counts) whose rows repeat are merged first: units with
    the same row in every submission are one cell (core.resample.distinct_rows),
    and the draws are made over the cells (``cells`` not None), as for a confusion matrix.
    """

    def __init__(self, stats, score):
        stats = [np.asarray(s, dtype=np.float64).reshape(len(s), -1) for s in stats]
        self.score = score
        self.n = stats[0].shape[0]
        self.m = stats[0].shape[1]
        if any(s.shape != (self.n, self.m) for s in stats):
            raise InputError("every submission needs the same units and statistics")
        self.cells = None
        found = distinct_rows(np.concatenate(stats, axis=1)) if len(stats) else None
        if found is not None:
            rows, self.cells = found
            stats = [rows[:, k * self.m:(k + 1) * self.m].astype(np.float64)
                     for k in range(len(stats))]
        self.stats = stats     # (n, m) per submission, or (cells, m) with ``cells``
        self._boot = {}

    def _total(self, s):
        return s.sum(axis=0) if self.cells is None else self.cells @ s

    @property
    def overflow(self):
        """Why a submission's resampled (or swapped) sums cannot all be formed, or None."""
        return next((w for w in (overflows(s, self.n) for s in self.stats) if w), None)

    def scores(self):
        return np.array([float(self.score(self._total(s)[None, :])[0]) for s in self.stats])

    def _columns(self):
        """Distinct columns (q, n) and, per submission, which of them are its m columns."""
        cols, where = [], []
        for s in self.stats:
            mine = []
            for c in range(self.m):
                col = s[:, c]
                same = next((k for k, x in enumerate(cols) if np.array_equal(x, col)), None)
                if same is None:
                    cols.append(np.ascontiguousarray(col))
                    same = len(cols) - 1
                mine.append(same)
            where.append(mine)
        return cols, where

    def bootstrap(self, replicates, seed):
        """(replicates, submissions) scores, every submission on the same unit draws."""
        key = (replicates, seed)
        if key not in self._boot:
            cols, where = self._columns()
            totals = np.empty((replicates, len(cols)))
            rng = np.random.default_rng(seed)
            if self.cells is not None:
                table = np.stack(cols, axis=1)
                for a, b in _blocks(replicates, self.cells.size):
                    totals[a:a + b] = rng.multinomial(self.n, self.cells / self.n, size=b) @ table
            else:
                for a, b in _blocks(replicates, self.n):
                    idx = rng.integers(0, self.n, size=(b, self.n))
                    for c, col in enumerate(cols):
                        totals[a:a + b, c] = np.take(col, idx).sum(axis=1)
            self._boot[key] = np.stack([self.score(totals[:, w]) for w in where], axis=1)
        return self._boot[key]

    def single_bootstrap(self, i, replicates, seed):
        return self.bootstrap(replicates, seed)[:, i]

    def pair_bootstrap(self, i, j, replicates, seed):
        return self.bootstrap(replicates, seed)[:, [i, j]]

    def single_jackknife(self, i):
        s = self.stats[i]
        return self.score(self._total(s) - s), self.cells

    def pair_jackknife(self, i, j):
        """Delta (j - i) with each unit left out once (per cell, weighted by its size)."""
        si, sj = self.stats[i], self.stats[j]
        return self.score(self._total(sj) - sj) - self.score(self._total(si) - si), self.cells

    def permutation(self, i, j, permutations, seed):
        """Delta (j - i) after swapping i's and j's statistics on random units
        (cells: Binomial(size, 1/2) units of each cell swap)."""
        si, sj = self.stats[i], self.stats[j]
        d = sj - si
        ti, tj = self._total(si), self._total(sj)
        out = np.empty(permutations)
        rng = np.random.default_rng([seed, 1])
        width = self.n if self.cells is None else self.cells.size
        for a, b in _blocks(permutations, width):
            if self.cells is None:
                swapped = swap_mask(rng, self.n, b).astype(np.float64)
            else:
                swapped = rng.binomial(self.cells, 0.5, size=(b, self.cells.size)).astype(np.float64)
            move = swapped @ d    # i takes j's units
            out[a:a + b] = self.score(tj - move) - self.score(ti + move)
        return out

    def splits(self, i, j, n_public, splits, seed):
        cols = np.concatenate([self.stats[i], self.stats[j]], axis=1)
        total = self._total(cols)
        m = self.m
        rng = np.random.default_rng([seed, 2])
        out = np.empty((splits, 4))
        base = np.arange(self.n) < n_public
        for a, b in _blocks(splits, self.n if self.cells is None else self.cells.size):
            if self.cells is None:
                masks = rng.permuted(np.broadcast_to(base, (b, self.n)), axis=1)
            else:
                masks = rng.multivariate_hypergeometric(self.cells, n_public, size=b)
            pub = masks.astype(np.float64) @ cols
            for k, part in enumerate((pub, total - pub)):
                out[a:a + b, 2 * k] = self.score(part[:, :m])
                out[a:a + b, 2 * k + 1] = self.score(part[:, m:])
        return out


@dataclass(frozen=True)
class PairStats:
    """Paired statistics of submissions i (A) and j (B); delta = B - A."""
    delta: float
    delta_ci: object              # core.intervals.Interval over the paired replicates
    p_b_better: float             # share of defined replicates where B is better (delta > 0
                                  # when higher is better, delta < 0 when lower is)
    p_value: float                # approximate randomisation, two-sided, +1 correction
    permutations: int
    deltas: np.ndarray            # (replicates,) bootstrap deltas (nan: undefined)
    permuted: np.ndarray          # (permutations,) deltas under random swaps
    p_order_flips: "float | None" = None
    flip_splits: int = 0
    p_a_better: float = float("nan")   # share where A is better (ties are neither)


def compare_pair(engine, i, j, *, level=0.95, replicates=1000, permutations=1000, seed=0,
                 method="percentile", n_public=None, splits=1000, higher_is_better=True):
    """Bootstrap interval of delta, P(B better than A), permutation p-value and order-flip
    probability. Delta is always B - A; "better" follows the metric's direction (the
    p-value and the order flips do not depend on it)."""
    check_counts(replicates, permutations, splits)
    why = getattr(engine, "overflow", None)
    if why:
        return _overflowing(engine, i, j, level, method, replicates, why)
    scores = engine.scores()
    delta = float(scores[j] - scores[i])
    boot = engine.pair_bootstrap(i, j, replicates, seed)
    deltas = boot[:, 1] - boot[:, 0]
    jk, jw = engine.pair_jackknife(i, j) if method == "bca" else (None, None)
    ci = interval(deltas, level, method, point=delta, jackknife_values=jk, jackknife_weights=jw)
    ok = np.isfinite(deltas)
    up = float(np.count_nonzero(deltas[ok] > 0) / ok.sum()) if ok.any() else float("nan")
    down = float(np.count_nonzero(deltas[ok] < 0) / ok.sum()) if ok.any() else float("nan")
    p_better, p_worse = (up, down) if higher_is_better else (down, up)
    permuted = engine.permutation(i, j, permutations, seed) if permutations else np.zeros(0)
    p = p_value(delta, permuted) if permutations else float("nan")
    flips, n_splits = None, 0
    if n_public is not None and splits and 0 < n_public < engine.n:
        flips = flip_probability(engine.splits(i, j, int(n_public), splits, seed))
        n_splits = splits
    return PairStats(delta, ci, p_better, p, int(permutations), deltas, permuted, flips, n_splits,
                     p_worse)


def _overflowing(engine, i, j, level, method, replicates, why):
    """A pair whose statistics overflow when resampled: the difference of the two scores
    when both are defined, and no interval, probability or test (each would rest only on
    the draws that missed the huge rows)."""
    with np.errstate(over="ignore", invalid="ignore"):
        scores = engine.scores()
        delta = float(scores[j] - scores[i])
    nan = float("nan")
    return PairStats(delta if np.isfinite(delta) else nan,
                     no_interval(level, method, why), nan, nan, 0,
                     np.full(replicates, nan), np.zeros(0), None, 0, nan)


def score_interval(engine, i, *, level=0.95, replicates=1000, seed=0, method="percentile"):
    """Bootstrap interval of submission i's own score."""
    why = getattr(engine, "overflow", None)
    if why:
        return no_interval(level, method, why)
    reps = engine.single_bootstrap(i, replicates, seed)
    jk, jw = engine.single_jackknife(i) if method == "bca" else (None, None)
    return interval(reps, level, method, point=float(engine.scores()[i]),
                    jackknife_values=jk, jackknife_weights=jw)
