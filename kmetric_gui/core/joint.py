"""Joint bootstrap of many candidates scored on one truth: the SAME draws for all.

Two draw forms, chosen per case (``draws="auto"``) and reported:

* ``exact``: every replicate draws the N units with replacement once and
  every candidate is scored on that draw. Additive per-unit statistics:
  ``UnitPairs.bootstrap``, which already draws the units once for all
  submissions. Cost B x N x C.
* ``normal`` (large N; ``auto`` uses it only where exact draws would cost
  more than ``EXACT_BUDGET``), by the central limit theorem: the replicate
  SUMS drawn from the normal with the bootstrap's exact mean (N mu) and
  covariance (N Sigma, from the units' Gram matrix), each candidate scored
  from them (the score's nonlinearity is kept).

A metric whose score is not a function of additive sums brings an engine
with its own ``joint_draws`` (e.g. a confusion-matrix metric: cell
counts per draw, or the delta method's influence values).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from .resample import check_cancel, check_replicates, rng_of

EXACT_BUDGET = 2e8        # unit-draws x candidates beyond which auto draws "normal"
DRAWS = ("auto", "exact", "normal")


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

    engine: ``UnitPairs`` (has ``stats``) or a metric's own engine with a
    ``joint_draws(replicates, seed, draws, cancel)`` method returning a ``Joint``.
    """
    b = check_replicates(replicates)
    if draws not in DRAWS:
        raise InputError(f"draws must be one of {', '.join(DRAWS)}; got {draws!r}")
    seed = 0 if seed is None else int(seed)
    if hasattr(engine, "joint_draws"):     # an engine of its own (metrics/kernels/)
        return engine.joint_draws(b, seed, draws, cancel)
    if hasattr(engine, "stats"):
        width = engine.n if engine.cells is None else engine.cells.size
        mode = mode_of(draws, float(b) * width * len(engine.stats))
        if mode == "exact":
            reps = engine.bootstrap(b, seed)
        else:
            reps = units_normal(engine.stats, engine.score, engine.cells, engine.n, b, seed, cancel)
        return Joint(np.asarray(engine.scores(), float), np.asarray(reps, float), mode,
                     int(engine.n), seed)
    raise InputError("this metric has no joint bootstrap of several submissions")


def mode_of(draws, cost):
    """The draw form: ``draws`` itself, or for "auto" exact unless it costs over the budget."""
    if draws == "auto":
        return "exact" if cost <= EXACT_BUDGET else "normal"
    return draws


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


__all__ = ["Joint", "joint_replicates", "units_normal", "normal_sums", "DRAWS", "EXACT_BUDGET",
           "mode_of"]
