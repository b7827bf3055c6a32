"""Paired comparison of submissions scored on one truth (STATS.md, "Paired comparison").

Two engines hold the sufficient statistics and draw replicates from them:

- ``KappaPairs``: kappa depends on the rows only through the joint counts
  of (truth, A, B), K^3 cells. A bootstrap replicate is one multinomial draw
  of N over those cells; a permutation moves Binomial(c, 1/2) rows of cell
  (t, a, b) to (t, b, a); a Public/Private split is a multivariate
  hypergeometric draw. No per-row work after the counts.
- ``UnitPairs``: metrics that are a function of additive per-unit sums
  (LwLRAP: precision sums and positive counts per sample; F-beta: TP, FP and
  truth counts per document). All submissions are scored on the same unit
  draws, so every pair is paired.

The draws, so that a plain loop can reproduce them exactly:
  bootstrap, units  ``rng = default_rng(seed)``; replicate r:
                    ``rng.integers(0, n, size=n)`` (unit indices with replacement)
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
from .kappa import weight_matrix

_BLOCK = 1 << 22      # elements per (replicates x units) block
_TIE = 1e-12          # |permuted delta| within this of |delta| counts as extreme
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


class KappaPairs:
    """Kappa of several submissions against one truth, from joint cell counts.

    truth, predictions: integer ratings already shifted to 0..k-1.
    """

    def __init__(self, truth, predictions, k, weights="quadratic"):
        self.k, self.weighting = int(k), weights
        if self.k > MAX_CLASSES:
            raise InputError(f"the paired kappa comparison supports up to {MAX_CLASSES} rating "
                             f"classes; these ratings span {self.k}")
        self.w = weight_matrix(self.k, weights)
        self.truth = np.asarray(truth, dtype=np.int64)
        self.preds = [np.asarray(p, dtype=np.int64) for p in predictions]
        self.n = self.truth.size
        self._joint = {}

    def confusion(self, i):
        code = self.truth * self.k + self.preds[i]
        return np.bincount(code, minlength=self.k ** 2)

    def scores(self):
        return kappa_rows(np.stack([self.confusion(i) for i in range(len(self.preds))]), self.w)

    def joint(self, i, j):
        """(K, K, K) counts of (truth, prediction i, prediction j)."""
        if (i, j) not in self._joint:
            k = self.k
            code = (self.truth * k + self.preds[i]) * k + self.preds[j]
            self._joint[i, j] = np.bincount(code, minlength=k ** 3).reshape(k, k, k)
        return self._joint[i, j]

    def _cells(self, i, j):
        k = self.k
        flat = self.joint(i, j).ravel()
        nz = np.flatnonzero(flat)
        t, a, b = nz // (k * k), (nz // k) % k, nz % k
        ind_a = np.zeros((nz.size, k * k))
        ind_a[np.arange(nz.size), t * k + a] = 1
        ind_b = np.zeros((nz.size, k * k))
        ind_b[np.arange(nz.size), t * k + b] = 1
        return flat[nz], ind_a, ind_b, a != b

    def single_bootstrap(self, i, replicates, seed):
        o = self.confusion(i)
        nz = np.flatnonzero(o)
        draws = np.random.default_rng(seed).multinomial(self.n, o[nz] / self.n, size=replicates)
        full = np.zeros((replicates, self.k ** 2))
        full[:, nz] = draws
        return kappa_rows(full, self.w)

    def single_jackknife(self, i):
        o = self.confusion(i).astype(np.float64)
        nz = np.flatnonzero(o)
        minus = np.repeat(o[None, :], nz.size, axis=0)
        minus[np.arange(nz.size), nz] -= 1
        return kappa_rows(minus, self.w), o[nz]

    def pair_bootstrap(self, i, j, replicates, seed):
        """(replicates, 2) scores of i and j on the same multinomial draws."""
        cnt, ind_a, ind_b, _ = self._cells(i, j)
        draws = np.random.default_rng(seed).multinomial(self.n, cnt / self.n, size=replicates)
        draws = draws.astype(np.float64)
        return np.stack([kappa_rows(draws @ ind_a, self.w), kappa_rows(draws @ ind_b, self.w)], 1)

    def pair_jackknife(self, i, j):
        """Delta (j - i) with one row of each non-empty joint cell left out, and the cell sizes."""
        cnt, ind_a, ind_b, _ = self._cells(i, j)
        oa, ob = cnt @ ind_a, cnt @ ind_b
        return kappa_rows(ob - ind_b, self.w) - kappa_rows(oa - ind_a, self.w), cnt

    def permutation(self, i, j, permutations, seed):
        """Delta (j - i) after swapping i's and j's predictions on random rows."""
        cnt, ind_a, ind_b, off = self._cells(i, j)
        oa, ob = cnt @ ind_a, cnt @ ind_b
        rng = np.random.default_rng([seed, 1])
        s = rng.binomial(cnt[off], 0.5, size=(permutations, int(off.sum()))).astype(np.float64)
        move = s @ (ind_b[off] - ind_a[off])       # rows of A's (t, a) now (t, b)
        return kappa_rows(ob - move, self.w) - kappa_rows(oa + move, self.w)

    def splits(self, i, j, n_public, splits, seed):
        """(splits, 4): Public i, Public j, Private i, Private j over random splits."""
        cnt, ind_a, ind_b, _ = self._cells(i, j)
        rng = np.random.default_rng([seed, 2])
        pub = rng.multivariate_hypergeometric(cnt, n_public, size=splits).astype(np.float64)
        priv = cnt - pub
        return np.stack([kappa_rows(pub @ ind_a, self.w), kappa_rows(pub @ ind_b, self.w),
                         kappa_rows(priv @ ind_a, self.w), kappa_rows(priv @ ind_b, self.w)], 1)


def ratio_score(own, shared):
    """LwLRAP: summed precisions / summed positives (nan when no positive)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(shared[..., 0] > 0, own[..., 0] / shared[..., 0], np.nan)


def fbeta_scorer(beta):
    """F-beta from summed (tp, fp) and the summed truth counts (fn = truths - tp)."""
    b2 = float(beta) ** 2

    def score(own, shared):
        tp, fp = own[..., 0], own[..., 1]
        fn = shared[..., 0] - tp
        with np.errstate(invalid="ignore", divide="ignore"):
            prec = tp / (tp + fp)
            rec = tp / (tp + fn)
            f = (1 + b2) * prec * rec / (b2 * prec + rec)
        f = np.where(tp > 0, f, 0.0)
        return np.where(tp + fp + fn > 0, f, np.nan)
    return score


class UnitPairs:
    """Several submissions whose score is a function of per-unit additive sums.

    own: one (n, m) array per submission; shared: (n, s) the same for all
    (e.g. positives per sample); score(own_totals, shared_totals) -> scores.
    """

    def __init__(self, own, shared, score):
        self.own = [np.asarray(o, dtype=np.float64).reshape(len(o), -1) for o in own]
        self.shared = np.asarray(shared, dtype=np.float64).reshape(len(shared), -1)
        self.score = score
        self.n = self.shared.shape[0]
        self.m = self.own[0].shape[1] if self.own else 0
        self._boot = {}

    def scores(self):
        sh = self.shared.sum(axis=0)
        return np.array([float(self.score(o.sum(axis=0), sh)) for o in self.own])

    def _columns(self):
        return np.ascontiguousarray(np.concatenate([self.shared, *self.own], axis=1).T)

    def bootstrap(self, replicates, seed):
        """(replicates, submissions) scores, every submission on the same unit draws."""
        key = (replicates, seed)
        if key not in self._boot:
            cols = self._columns()
            totals = np.empty((replicates, cols.shape[0]))
            rng = np.random.default_rng(seed)
            for a, b in _blocks(replicates, self.n):
                idx = rng.integers(0, self.n, size=(b, self.n))
                for c, col in enumerate(cols):
                    totals[a:a + b, c] = np.take(col, idx).sum(axis=1)
            s = self.shared.shape[1]
            sh = totals[:, :s]
            self._boot[key] = np.stack(
                [self.score(totals[:, s + q * self.m:s + (q + 1) * self.m], sh)
                 for q in range(len(self.own))], axis=1)
        return self._boot[key]

    def single_bootstrap(self, i, replicates, seed):
        return self.bootstrap(replicates, seed)[:, i]

    def pair_bootstrap(self, i, j, replicates, seed):
        return self.bootstrap(replicates, seed)[:, [i, j]]

    def single_jackknife(self, i):
        own, sh = self.own[i], self.shared
        return self.score(own.sum(axis=0) - own, sh.sum(axis=0) - sh), None

    def pair_jackknife(self, i, j):
        sh = self.shared.sum(axis=0) - self.shared
        oi, oj = self.own[i], self.own[j]
        return self.score(oj.sum(axis=0) - oj, sh) - self.score(oi.sum(axis=0) - oi, sh), None

    def permutation(self, i, j, permutations, seed):
        oi, oj = self.own[i], self.own[j]
        d = oj - oi
        ti, tj, sh = oi.sum(axis=0), oj.sum(axis=0), self.shared.sum(axis=0)
        out = np.empty(permutations)
        rng = np.random.default_rng([seed, 1])
        for a, b in _blocks(permutations, self.n):
            move = swap_mask(rng, self.n, b).astype(np.float64) @ d    # i takes j's units
            out[a:a + b] = self.score(tj - move, sh) - self.score(ti + move, sh)
        return out

    def splits(self, i, j, n_public, splits, seed):
        cols = np.concatenate([self.shared, self.own[i], self.own[j]], axis=1)
        total = cols.sum(axis=0)
        s, m = self.shared.shape[1], self.m
        rng = np.random.default_rng([seed, 2])
        base = np.arange(self.n) < n_public
        out = np.empty((splits, 4))
        for a, b in _blocks(splits, self.n):
            masks = rng.permuted(np.broadcast_to(base, (b, self.n)), axis=1)
            pub = masks.astype(np.float64) @ cols
            for k, part in enumerate((pub, total - pub)):
                out[a:a + b, 2 * k] = self.score(part[:, s:s + m], part[:, :s])
                out[a:a + b, 2 * k + 1] = self.score(part[:, s + m:], part[:, :s])
        return out


@dataclass(frozen=True)
class PairStats:
    """Paired statistics of submissions i (A) and j (B); delta = B - A."""
    delta: float
    delta_ci: object              # core.intervals.Interval over the paired replicates
    p_b_better: float             # share of defined replicates with delta > 0
    p_value: float                # approximate randomisation, two-sided, +1 correction
    permutations: int
    deltas: np.ndarray            # (replicates,) bootstrap deltas (nan: undefined)
    permuted: np.ndarray          # (permutations,) deltas under random swaps
    p_order_flips: "float | None" = None
    flip_splits: int = 0


def p_value(observed, permuted):
    """(1 + #{|permuted| >= |observed|}) / (P + 1); nan when the observed delta is."""
    if not np.isfinite(observed):
        return float("nan")
    hits = np.count_nonzero(np.abs(permuted) >= abs(observed) - _TIE)
    return float((1 + hits) / (permuted.size + 1))


def flip_probability(split_scores):
    """Share of splits where Public and Private order the pair oppositely (ties: no flip)."""
    pub = split_scores[:, 1] - split_scores[:, 0]
    priv = split_scores[:, 3] - split_scores[:, 2]
    ok = np.isfinite(pub) & np.isfinite(priv)
    if not ok.any():
        return float("nan")
    return float(np.count_nonzero(pub[ok] * priv[ok] < 0) / ok.sum())


def check_counts(replicates, permutations, splits=0):
    for name, v, lo in (("bootstrap replicates", replicates, 1),
                        ("permutations", permutations, 0), ("splits", splits, 0)):
        if int(v) != v or v < lo or v > 10_000_000:
            raise InputError(f"{name} must be a whole number from {lo} to 10000000; got {v}")


def compare_pair(engine, i, j, *, level=0.95, replicates=1000, permutations=1000, seed=0,
                 method="percentile", n_public=None, splits=1000):
    """Bootstrap interval of delta, P(B > A), permutation p-value and order-flip probability."""
    check_counts(replicates, permutations, splits)
    scores = engine.scores()
    delta = float(scores[j] - scores[i])
    boot = engine.pair_bootstrap(i, j, replicates, seed)
    deltas = boot[:, 1] - boot[:, 0]
    jk, jw = engine.pair_jackknife(i, j) if method == "bca" else (None, None)
    ci = interval(deltas, level, method, point=delta, jackknife_values=jk, jackknife_weights=jw)
    ok = np.isfinite(deltas)
    p_better = float(np.count_nonzero(deltas[ok] > 0) / ok.sum()) if ok.any() else float("nan")
    permuted = engine.permutation(i, j, permutations, seed) if permutations else np.zeros(0)
    p = p_value(delta, permuted) if permutations else float("nan")
    flips, n_splits = None, 0
    if n_public is not None and splits and 0 < n_public < engine.n:
        flips = flip_probability(engine.splits(i, j, int(n_public), splits, seed))
        n_splits = splits
    return PairStats(delta, ci, p_better, p, int(permutations), deltas, permuted, flips, n_splits)


def score_interval(engine, i, *, level=0.95, replicates=1000, seed=0, method="percentile"):
    """Bootstrap interval of submission i's own score."""
    reps = engine.single_bootstrap(i, replicates, seed)
    jk, jw = engine.single_jackknife(i) if method == "bca" else (None, None)
    return interval(reps, level, method, point=float(engine.scores()[i]),
                    jackknife_values=jk, jackknife_weights=jw)
