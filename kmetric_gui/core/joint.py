"""Joint bootstrap of many candidates scored on one truth: the SAME draws for all.

Two draw forms, chosen per case (``draws="auto"``) and reported:

* ``exact``: every replicate draws the N units with replacement once and
  every candidate is scored on that draw. Kappa: the row indices are those
  of ``core.resample.index_blocks`` (``resample_indices`` reproduces them);
  each candidate's K x K cell counts are accumulated from the drawn rows.
  Additive per-unit statistics (LwLRAP, F-beta): ``UnitPairs.bootstrap``,
  which already draws the units once for all submissions. Cost B x N x C.
* ``normal`` (large N; ``auto`` uses it only where exact draws would cost
  more than ``EXACT_BUDGET``), by the central limit theorem:
  - additive per-unit statistics: the replicate SUMS drawn from the normal
    with the bootstrap's exact mean (N mu) and covariance (N Sigma, from
    the units' Gram matrix), each candidate scored from them (the score's
    nonlinearity is kept);
  - kappa: joint cells would be K^C. Each candidate's kappa is a smooth
    function of its K x K cell frequencies, so a row of cell (t, p_c)
    moves it by an influence value L_c[t, p_c] (a K x K table per
    candidate, the delta method). The candidates' scores are drawn jointly
    normal around their scores with covariance (1/N) x the rows' mean of
    L_c L_c' (one N x C gather and one C x C matrix product), so
    correlations between near-copies are kept exactly to first order.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from .compare import kappa_rows
from .resample import check_cancel, check_replicates, index_blocks, rng_of

EXACT_BUDGET = 2e8        # unit-draws x candidates beyond which auto draws "normal"
EXACT_CELLS = 2.5e7       # kappa: replicate x candidate x cell counts held by exact draws
DRAWS = ("auto", "exact", "normal")
_GRAM_ROWS = 1 << 16      # rows per block of the influence Gram matrix


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
        if float(b) * c * engine.k ** 2 > EXACT_CELLS:
            cost = float("inf")          # the (B, C, K^2) counts would not fit: normal draws
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


def kappa_influence(truth, preds, k, w):
    """(points (C,), influence tables (C, K, K)): kappa of each candidate and the first-order
    change of its score per row of cell (t, p), scaled by N (they sum to 0 over the rows).

    With a = mean W[t, p] and b = f' W g (f, g: truth and prediction frequencies),
    kappa = 1 - a / b and a row (t, p) contributes
    -(W[t, p] - a) / b + a ((W g)[t] + (W' f)[p] - 2 b) / b^2.
    """
    n, c = preds.shape
    points = np.full(c, np.nan)
    table = np.zeros((c, k, k))
    code = truth.astype(np.int64) * k
    for j in range(c):
        o = np.bincount(code + preds[:, j], minlength=k * k).reshape(k, k) / n
        f, g = o.sum(axis=1), o.sum(axis=0)
        a, b = float((w * o).sum()), float(f @ w @ g)
        if not b > 0:
            continue
        points[j] = 1.0 - a / b
        table[j] = -(w - a) / b + a * ((w @ g)[:, None] + (w.T @ f)[None, :] - 2 * b) / b ** 2
    return points, table


def kappa_normal(truth, preds, k, w, replicates, seed=0, cancel=None):
    """(B, C) kappa of each candidate drawn jointly normal around the scores, with the
    covariance of their influence over the rows divided by N (the delta method)."""
    n, c = preds.shape
    if n == 0:
        return np.full((replicates, c), np.nan)
    points, table = kappa_influence(truth, preds, k, w)
    flat = table.reshape(-1)
    base = (np.arange(c, dtype=np.int64) * k * k)[None, :]
    second = np.zeros((c, c))
    for a in range(0, n, _GRAM_ROWS):
        check_cancel(cancel)
        x = flat[base + truth[a:a + _GRAM_ROWS, None] * k + preds[a:a + _GRAM_ROWS]]
        second += x.T @ x
    mean = np.zeros(c)
    reps = normal_sums(mean, second / n, 1, replicates, seed) / np.sqrt(n) + points
    reps[:, ~np.isfinite(points)] = np.nan
    return reps


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
