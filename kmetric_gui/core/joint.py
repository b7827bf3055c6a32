"""Joint bootstrap of many candidates scored on one truth: the SAME draws for all.

Two draw forms, chosen per case (``draws="auto"``) and reported:

* ``exact``: every replicate draws the N units with replacement once and
  every candidate is scored on that draw. Kappa: the row indices are those
  of ``core.resample.index_blocks`` (``resample_indices`` reproduces them);
  each candidate's K x K cell counts are accumulated from the drawn rows.
  Additive per-unit statistics (LwLRAP, F-beta): ``UnitPairs.bootstrap``,
  which already draws the units once for all submissions. Cost B x N x C.
* ``normal``: the replicate sums of the sufficient statistics drawn from the
  multivariate normal with the bootstrap's exact mean (N mu) and covariance
  (N Sigma, the per-unit covariance). For kappa the statistics of a row are
  its truth one-hot (K), and per candidate W[t, p_c] and the one-hot of p_c
  (K + 1): joint cells would be K^C, these are K + C (K + 1) numbers whose
  covariance needs only, per truth class, the Gram matrix of the
  candidates' one-hot predictions (one matrix product over the rows). A
  replicate then costs O(K + C K) instead of O(N C). By the central limit
  theorem it is the bootstrap's law for large N; ``auto`` uses it only where
  exact draws would cost more than ``EXACT_BUDGET``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from .compare import kappa_rows
from .resample import check_cancel, check_replicates, index_blocks, rng_of

EXACT_BUDGET = 2e8        # unit-draws x candidates beyond which auto draws "normal"
DRAWS = ("auto", "exact", "normal")
_GRAM_ROWS = 8192         # rows per one-hot block of the kappa Gram matrix


@dataclass(frozen=True)
class Joint:
    """Point scores (C,) and replicate scores (B, C) of C candidates on shared draws."""
    points: np.ndarray
    reps: np.ndarray
    draws: str               # "exact" or "normal"
    n: int                   # units resampled
    seed: int


def joint_replicates(engine, replicates=2000, seed=0, draws="auto", cancel=None):
    """Joint replicates of every candidate of a ``core.compare`` engine.

    engine: ``KappaPairs`` (has ``preds``) or ``UnitPairs`` (has ``stats``).
    """
    b = check_replicates(replicates)
    if draws not in DRAWS:
        raise InputError(f"draws must be one of {', '.join(DRAWS)}; got {draws!r}")
    seed = 0 if seed is None else int(seed)
    if hasattr(engine, "preds"):
        c = len(engine.preds)
        cost = float(b) * engine.n * c
        mode = _mode(draws, cost)
        points = engine.scores()
        t = engine.truth.astype(np.int64)
        preds = np.stack([np.asarray(p, dtype=np.int8) for p in engine.preds], axis=1)
        if mode == "exact":
            reps = kappa_exact(t, preds, engine.k, engine.w, b, seed, cancel)
        else:
            reps = kappa_normal(t, preds, engine.k, engine.w, b, seed, cancel)
        return Joint(np.asarray(points, float), reps, mode, int(engine.n), seed)
    if hasattr(engine, "stats"):
        width = engine.n if engine.cells is None else engine.cells.size
        mode = _mode(draws, float(b) * width * len(engine.stats))
        if mode == "exact":
            reps = engine.bootstrap(b, seed)
        else:
            reps = units_normal(engine.stats, engine.score, engine.cells, engine.n, b, seed, cancel)
        return Joint(np.asarray(engine.scores(), float), np.asarray(reps, float), mode,
                     int(engine.n), seed)
    raise InputError("this metric has no joint bootstrap of several submissions")


def _mode(draws, cost):
    if draws == "auto":
        return "exact" if cost <= EXACT_BUDGET else "normal"
    return draws


def kappa_exact(truth, preds, k, w, replicates, seed=0, cancel=None):
    """(B, C) kappa of each candidate on the same row draws (``resample_indices``)."""
    n, c = preds.shape
    kk = k * k
    codes = truth[:, None] * k + preds.astype(np.int64)           # (N, C) cell of each row
    counts = np.zeros((replicates, c, kk))
    if n == 0:
        return np.full((replicates, c), np.nan)
    for r0, r, _, idx in index_blocks(rng_of(seed), n, replicates):
        check_cancel(cancel)
        base = (np.arange(r, dtype=np.int64) * kk)[:, None]
        for j in range(c):
            flat = (base + codes[:, j][idx]).ravel()
            counts[r0:r0 + r, j] += np.bincount(flat, minlength=r * kk).reshape(r, kk)
    return kappa_rows(counts.reshape(-1, kk), w).reshape(replicates, c)


def _kappa_moments(truth, preds, k, w, cancel=None):
    """Mean (q,) and mean outer product (q, q) of a row's kappa statistics.

    Layout: truth one-hot (K), then per candidate [W[t, p_c], one-hot(p_c) (K)].
    """
    n, c = preds.shape
    step = k + 1
    q = k + c * step
    s1 = np.zeros(q)
    s2 = np.zeros((q, q))
    offs = np.arange(c) * k
    for t in range(k):
        rows = np.flatnonzero(truth == t)
        nt = rows.size
        if nt == 0:
            continue
        g = np.zeros((c * k, c * k))
        for a in range(0, nt, _GRAM_ROWS):
            check_cancel(cancel)
            p = preds[rows[a:a + _GRAM_ROWS]]
            z = np.zeros((p.shape[0], c * k), dtype=np.float32)
            z[np.arange(p.shape[0])[:, None], offs + p] = 1.0
            g += z.T @ z                                          # exact: counts < 2^24 a block
        sums = np.diagonal(g).reshape(c, k).copy()                # rows of t predicted j by c
        g = g.reshape(c, k, c, k)
        wt = w[t]
        block = np.empty((c, step, c, step))
        gw = np.einsum("j,ajbk->abk", wt, g)                      # (c, c', K)
        block[:, 0, :, 0] = gw @ wt
        block[:, 0, :, 1:] = gw
        block[:, 1:, :, 0] = np.einsum("ajbk,k->ajb", g, wt)
        block[:, 1:, :, 1:] = g
        s2[k:, k:] += block.reshape(c * step, c * step)
        xt = np.concatenate([(sums @ wt)[:, None], sums], axis=1).ravel()   # (c * step,)
        s2[t, t] += nt
        s2[t, k:] += xt
        s2[k:, t] += xt
        s1[t] += nt
        s1[k:] += xt
    return s1 / n, s2 / n


def kappa_normal(truth, preds, k, w, replicates, seed=0, cancel=None):
    """(B, C) kappa of each candidate from normal draws of the joint row statistics."""
    n, c = preds.shape
    if n == 0:
        return np.full((replicates, c), np.nan)
    mean, second = _kappa_moments(truth, preds, k, w, cancel)
    sums = normal_sums(mean, second, n, replicates, seed)
    ht = sums[:, :k]
    htw = ht @ w                                                  # (B, K)
    cand = sums[:, k:].reshape(replicates, c, k + 1)
    num, hp = cand[:, :, 0], cand[:, :, 1:]
    with np.errstate(invalid="ignore", divide="ignore"):
        den = np.einsum("bk,bck->bc", htw, hp) / n
        out = 1.0 - num / den
    return np.where(den > 0, out, np.nan)


def normal_sums(mean, second, n, replicates, seed=0):
    """(B, q) sums of n units drawn with replacement, as a normal with the exact moments."""
    cov = second - np.outer(mean, mean)
    cov = (cov + cov.T) / 2
    vals, vecs = np.linalg.eigh(cov)
    factor = vecs * np.sqrt(np.clip(vals, 0.0, None))             # cov = factor @ factor.T
    g = rng_of(seed).standard_normal((replicates, mean.size))
    return n * mean + np.sqrt(n) * (g @ factor.T)


def _distinct_columns(stats):
    """Distinct columns (n, q) of the candidates' statistics and, per candidate, its m of them."""
    cols, where = [], []
    for s in stats:
        mine = []
        for j in range(s.shape[1]):
            col = s[:, j]
            same = next((i for i, x in enumerate(cols) if np.array_equal(x, col)), None)
            if same is None:
                cols.append(np.asarray(col, dtype=np.float64))
                same = len(cols) - 1
            mine.append(same)
        where.append(mine)
    return np.stack(cols, axis=1), where


def units_normal(stats, score, cells, n, replicates, seed=0, cancel=None):
    """(B, C) scores from normal draws of the sums of additive per-unit statistics.

    stats: per candidate (M, m) (units, or distinct rows weighted by ``cells``).
    """
    x, where = _distinct_columns(stats)
    wts = np.ones(x.shape[0]) if cells is None else np.asarray(cells, dtype=np.float64)
    mean = (wts @ x) / n
    second = np.zeros((x.shape[1], x.shape[1]))
    for a in range(0, x.shape[0], 1 << 16):
        check_cancel(cancel)
        blk = x[a:a + (1 << 16)]
        second += (blk * wts[a:a + (1 << 16), None]).T @ blk
    sums = normal_sums(mean, second / n, n, replicates, seed)
    return np.stack([score(sums[:, w]) for w in where], axis=1)


__all__ = ["Joint", "joint_replicates", "kappa_exact", "kappa_normal", "units_normal",
           "normal_sums", "DRAWS", "EXACT_BUDGET"]
