"""Joint bootstrap of kappa candidates (core/joint.py's hook for ``KappaPairs``).

* ``exact``: the row indices are those of ``core.resample.index_blocks``
  (``resample_indices`` reproduces them); each candidate's K x K cell counts
  are accumulated from the drawn rows. Cost B x N x C.
* ``normal``: joint cells would be K^C. Each candidate's kappa is a smooth
  function of its K x K cell frequencies, so a row of cell (t, p_c) moves it
  by an influence value L_c[t, p_c] (a K x K table per candidate, the delta
  method). The candidates' scores are drawn jointly normal around their
  scores with covariance (1/N) x the rows' mean of L_c L_c' (one N x C
  gather and one C x C matrix product), so correlations between near-copies
  are kept exactly to first order.
"""
import numpy as np

from ...core.joint import Joint, mode_of, normal_sums
from ...core.resample import check_cancel, index_blocks, rng_of
from .kappa import kappa_rows

EXACT_CELLS = 2.5e7       # replicate x candidate x cell counts held by exact draws
_GRAM_ROWS = 1 << 16      # rows per block of the influence Gram matrix


def kappa_joint(engine, b, seed, draws, cancel=None):
    """``Joint`` of every candidate of a ``KappaPairs`` on shared row draws."""
    c = len(engine.preds)
    cost = float(b) * engine.n * c
    if float(b) * c * engine.k ** 2 > EXACT_CELLS:
        cost = float("inf")          # the (B, C, K^2) counts would not fit: normal draws
    mode = mode_of(draws, cost)
    points = engine.scores()
    t = engine.truth.astype(np.int64)
    preds = np.stack([np.asarray(p, dtype=np.int8) for p in engine.preds], axis=1)
    if mode == "exact":
        reps = kappa_exact(t, preds, engine.k, engine.w, b, seed, cancel)
    else:
        reps = kappa_normal(t, preds, engine.k, engine.w, b, seed, cancel)
    return Joint(np.asarray(points, float), reps, mode, int(engine.n), seed)


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
