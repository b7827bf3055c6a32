"""Paired comparison of kappa submissions from joint cell counts (core/compare.py's engine API).

Kappa depends on the rows only through the joint counts of (truth, A, B),
K^3 cells. A bootstrap replicate is one multinomial draw of N over those
cells; a permutation moves Binomial(c, 1/2) rows of cell (t, a, b) to
(t, b, a); a Public/Private split is a multivariate hypergeometric draw. No
per-row work after the counts.

The draws, so that a plain loop can reproduce them exactly:
  bootstrap         ``default_rng(seed).multinomial(N, c / N, size=B)`` over the
                    non-empty joint cells c in code order ((t*K + a)*K + b)
  permutations      ``rng = default_rng([seed, 1])``; ``rng.binomial(c, 0.5, size=(P, m))``
                    over the non-empty cells with a != b
  splits            ``rng = default_rng([seed, 2])``;
                    ``rng.multivariate_hypergeometric(c, n_public, size=S)``
"""
import numpy as np

from ...core.compare import _blocks
from ...errors import InputError
from .kappa import kappa_rows, weight_matrix  # noqa: F401 (kappa_rows: this module's users)

MAX_CLASSES = 40      # joint (truth, A, B) cells: K^3


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

    def grouped(self, codes, n):
        """A UnitPairs over n groups (``codes``: group of each row): each submission's
        counts over its K x K cells summed per group, scored as kappa."""
        from ...core.compare import UnitPairs
        k = self.k
        base = codes * (k * k) + self.truth.astype(np.int64) * k
        stats = [np.bincount(base + p, minlength=n * k * k).reshape(n, k * k) for p in self.preds]
        w = self.w
        return UnitPairs(stats, lambda sums: kappa_rows(sums, w))

    def joint_draws(self, replicates, seed=0, draws="auto", cancel=None):
        """core.joint's hook: (B, C) replicates of every submission on shared row draws."""
        from .kappa_joint import kappa_joint
        return kappa_joint(self, replicates, seed, draws, cancel)
