"""Paired comparison of submissions scored on one truth (STATS.md, "Paired comparison").

Two engines hold the sufficient statistics and draw replicates from them:

- ``KappaPairs``: kappa depends on the rows only through the joint counts
  of (truth, A, B), K^3 cells. A bootstrap replicate is one multinomial draw
  of N over those cells; a permutation moves Binomial(c, 1/2) rows of cell
  (t, a, b) to (t, b, a); a Public/Private split is a multivariate
  hypergeometric draw. No per-row work after the counts.
- ``UnitPairs``: metrics that are a function of additive per-unit sums
  (LwLRAP: precision sums and positive counts per sample; F-beta: TP, FP and
  FN per document; see metrics/kernels/units.py). All submissions are scored on the same unit
  draws, so every pair is paired.

The draws, so that a plain loop can reproduce them exactly:
  bootstrap, units  ``rng = default_rng(seed)``; replicate r:
                    ``rng.integers(0, n, size=n)`` (unit indices with replacement)
  units as cells    (``UnitPairs.cells``: integer statistics merged by distinct row)
                    bootstrap ``default_rng(seed).multinomial(n, cells / n, size=B)``,
                    permutations ``rng.binomial(cells, 0.5, size=(P, D))``, splits
                    ``rng.multivariate_hypergeometric(cells, n_public, size=S)``
  bootstrap, kappa  ``default_rng(seed).multinomial(N, c / N, size=B)`` over the
                    non-empty joint cells c in code order ((t*K + a)*K + b)
  permutations      ``rng = default_rng([seed, 1])``; units: per permutation
                    ``swap_mask(rng, n)``; kappa: ``rng.binomial(c, 0.5, size=(P, m))``
                    over the non-empty cells with a != b
  splits            ``rng = default_rng([seed, 2])``; units: per split
                    ``rng.permuted(arange(n) < n_public)`` marks Public; kappa:
                    ``rng.multivariate_hypergeometric(c, n_public, size=S)``
"""
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from .intervals import interval
from ..metrics.kernels.kappa import weight_matrix
from .pair_tests import check_counts, flip_probability, p_value  # noqa: F401 (importable here)
from .resample import distinct_rows

_BLOCK = 1 << 22      # elements per (replicates x units) block
MAX_CLASSES = 40      # joint (truth, A, B) cells: K^3


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


def kappa_rows(o, w):
    """Kappa of each row of o: (R, K*K) confusion counts (truth-major); nan when undefined."""
    k = w.shape[0]
    o = np.asarray(o, dtype=np.float64).reshape(-1, k, k)
    ht, hp = o.sum(axis=2), o.sum(axis=1)
    n = ht.sum(axis=1)
    num = np.einsum("rij,ij->r", o, w)
    with np.errstate(invalid="ignore", divide="ignore"):
        den = np.einsum("ri,ij,rj->r", ht, w, hp) / n
        out = 1.0 - num / den
    return np.where(den > 0, out, np.nan)


def _codes(values, k, what):
    v = np.asarray(values)
    if v.size and (v.min() < 0 or v.max() >= k):
        raise InputError(f"{what}: rating codes must lie in 0..{k - 1}")
    return v.astype(np.int8)


class KappaPairs:
    """Kappa of several submissions against one truth, from joint cell counts.

    truth, predictions: integer ratings already shifted to 0..k-1 (``labels``: the
    rating of each code, for display).
    """

    def __init__(self, truth, predictions, k, weights="quadratic", labels=None):
        self.k, self.weighting = int(k), weights
        self.labels = np.arange(self.k) if labels is None else np.asarray(labels)
        if self.k > MAX_CLASSES:
            raise InputError(f"the paired kappa comparison supports up to {MAX_CLASSES} rating "
                             f"classes; these ratings span {self.k}")
        self.w = weight_matrix(self.k, weights)
        # Codes below MAX_CLASSES: one byte per row, joint codes (< K^3) in int32.
        self.truth = _codes(truth, self.k, "truth")
        self.preds = [_codes(p, self.k, "predictions") for p in predictions]
        self.n = self.truth.size
        self._joint = {}

    def confusion(self, i):
        code = self.truth.astype(np.int32) * self.k + self.preds[i]
        return np.bincount(code, minlength=self.k ** 2)

    def scores(self):
        return kappa_rows(np.stack([self.confusion(i) for i in range(len(self.preds))]), self.w)

    def joint(self, i, j):
        """(K, K, K) counts of (truth, prediction i, prediction j)."""
        if (i, j) not in self._joint:
            k = self.k
            code = self.truth.astype(np.int32) * k
            code += self.preds[i]
            code *= k
            code += self.preds[j]
            self._joint[i, j] = np.bincount(code, minlength=k ** 3).reshape(k, k, k)
        return self._joint[i, j]

    def cell_rows(self, i, j, a, b):
        """Rows (positions) where prediction i has code a and prediction j code b."""
        return np.flatnonzero((self.preds[i] == a) & (self.preds[j] == b))

    def _cells(self, i, j):
        """Non-empty joint cells: counts, and a (m, 2 + 3K) matrix whose product with
        cell counts gives n, then for A and B: sum(W*O), hist_pred; plus hist_true."""
        k = self.k
        flat = self.joint(i, j).ravel()
        nz = np.flatnonzero(flat)
        t, a, b = nz // (k * k), (nz // k) % k, nz % k
        m = np.zeros((nz.size, 3 + 3 * k))
        m[:, 0] = 1
        m[:, 1] = self.w[t, a]
        m[:, 2] = self.w[t, b]
        rows = np.arange(nz.size)
        m[rows, 3 + t] = 1
        m[rows, 3 + k + a] = 1
        m[rows, 3 + 2 * k + b] = 1
        return flat[nz], m, a != b

    def _pair_scores(self, sums):
        """(R, 2) kappa of A and B from products with the ``_cells`` matrix."""
        k = self.k
        n, ht = sums[:, 0], sums[:, 3:3 + k]
        htw = ht @ self.w
        out = np.empty((sums.shape[0], 2))
        for c in range(2):
            hp = sums[:, 3 + (c + 1) * k:3 + (c + 2) * k]
            with np.errstate(invalid="ignore", divide="ignore"):
                den = (htw * hp).sum(axis=1) / n
                out[:, c] = np.where(den > 0, 1.0 - sums[:, 1 + c] / den, np.nan)
        return out

    def single_bootstrap(self, i, replicates, seed):
        o = self.confusion(i)
        nz = np.flatnonzero(o)
        rng, out = np.random.default_rng(seed), np.empty(replicates)
        for a, b in _blocks(replicates, self.k ** 2):     # bounded memory for any B
            full = np.zeros((b, self.k ** 2))
            full[:, nz] = rng.multinomial(self.n, o[nz] / self.n, size=b)
            out[a:a + b] = kappa_rows(full, self.w)
        return out

    def single_jackknife(self, i):
        o = self.confusion(i).astype(np.float64)
        nz = np.flatnonzero(o)
        minus = np.repeat(o[None, :], nz.size, axis=0)
        minus[np.arange(nz.size), nz] -= 1
        return kappa_rows(minus, self.w), o[nz]

    def pair_bootstrap(self, i, j, replicates, seed):
        """(replicates, 2) scores of i and j on the same multinomial draws."""
        cnt, m, _ = self._cells(i, j)
        rng, out = np.random.default_rng(seed), np.empty((replicates, 2))
        for a, b in _blocks(replicates, cnt.size + m.shape[1]):
            out[a:a + b] = self._pair_scores(rng.multinomial(self.n, cnt / self.n, size=b) @ m)
        return out

    def pair_jackknife(self, i, j):
        """Delta (j - i) with one row of each non-empty joint cell left out, and the cell sizes."""
        cnt, m, _ = self._cells(i, j)
        s = self._pair_scores(cnt @ m - m)
        return s[:, 1] - s[:, 0], cnt

    def permutation(self, i, j, permutations, seed):
        """Delta (j - i) after swapping i's and j's predictions on random rows."""
        cnt, m, off = self._cells(i, j)
        k = self.k
        rng = np.random.default_rng([seed, 1])
        # A swapped row of cell (t, a, b) becomes (t, b, a): exchange A's and B's columns.
        swap = m[off].copy()
        swap[:, [1, 2]] = swap[:, [2, 1]]
        swap[:, 3 + k:3 + 2 * k], swap[:, 3 + 2 * k:] = m[off, 3 + 2 * k:], m[off, 3 + k:3 + 2 * k]
        out = np.empty(permutations)
        for a, b in _blocks(permutations, int(off.sum()) + m.shape[1]):
            s = rng.binomial(cnt[off], 0.5, size=(b, int(off.sum())))
            sc = self._pair_scores(cnt @ m + s @ (swap - m[off]))
            out[a:a + b] = sc[:, 1] - sc[:, 0]
        return out

    def splits(self, i, j, n_public, splits, seed):
        """(splits, 4): Public i, Public j, Private i, Private j over random splits."""
        cnt, m, _ = self._cells(i, j)
        rng = np.random.default_rng([seed, 2])
        out = np.empty((splits, 4))
        for a, b in _blocks(splits, cnt.size + m.shape[1]):
            pub = rng.multivariate_hypergeometric(cnt, n_public, size=b) @ m
            out[a:a + b] = np.concatenate([self._pair_scores(pub), self._pair_scores(cnt @ m - pub)],
                                          axis=1)
        return out


class UnitPairs:
    """Several submissions whose score is a function of per-unit additive sums.

    stats: one (n, m) array per submission (the ``stats`` of core.resample.Units);
    score: sums (R, m) -> (R,) scores, nan where undefined. Columns equal in
    every submission (LwLRAP's positive counts) are gathered once.

    Integer statistics (F-beta) whose rows repeat are merged first: units with
    the same row in every submission are one cell (core.resample.distinct_rows),
    and the draws are made over the cells (``cells`` not None), as for kappa.
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


def score_interval(engine, i, *, level=0.95, replicates=1000, seed=0, method="percentile"):
    """Bootstrap interval of submission i's own score."""
    reps = engine.single_bootstrap(i, replicates, seed)
    jk, jw = engine.single_jackknife(i) if method == "bca" else (None, None)
    return interval(reps, level, method, point=float(engine.scores()[i]),
                    jackknife_values=jk, jackknife_weights=jw)
