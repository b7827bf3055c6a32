"""Which k of C candidates to submit, from their joint bootstrap replicates.

Input: replicate scores (B, C), every candidate scored on the same draws
(core/joint.py), and the metric's direction. In each replicate the best
candidate is the one with the best score (ties split equally; an undefined
score is never best; a replicate with no defined score is left out and
counted).

* P(c is best) = mean over replicates of c's share of the best.
* P(set S holds the best) = share of replicates where a member of S is a
  best (the best score of S equals the best of all). Not additive: two
  near-copies tie or swap the best between them, so together they hold it
  hardly more often than one alone. Searched exactly over every pair from
  the (C, C) co-occurrence of "is a best" (one matrix product; up to
  ``MAX_EXACT`` candidates), greedily (most replicates not yet held) for
  k > 2. Equal values are broken by the expected shortfall.
* Expected shortfall of S = E[best score of all - best score in S] in the
  metric's units (>= 0): what picking S costs on average.
* Agreement = correlation of two candidates' replicate scores: near-copies
  rise and fall together (close to 1), so picking both hedges little.
* Copies: candidates equal in every replicate cannot be told apart on these
  units; every set holds "the best" as often with one as with another (three
  identical files: any pair holds it in 100 % of replicates), which the verdict
  says instead of a confident pair.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError

MAX_EXACT = 200           # candidates searched exactly over pairs
_TIE = 1e-12


@dataclass(frozen=True)
class Pick:
    members: tuple             # candidate indices, best first by P(best)
    p_contains_best: float
    shortfall: float           # expected best-of-all minus best-of-set (score units, >= 0)


@dataclass(frozen=True)
class Selection:
    points: np.ndarray         # (C,) scores
    p_best: np.ndarray         # (C,)
    best: Pick                 # by P(contains the best), ties by shortfall
    top: Pick                  # the k best point scores
    least_shortfall: Pick      # by expected shortfall (exact over pairs)
    agreement: np.ndarray      # (C, C) correlation of replicate scores (nan: undefined)
    replicates: int
    undefined: int             # replicates without any defined score
    higher_is_better: bool
    copies: tuple = ()         # groups of candidates equal in every replicate (indistinguishable)


def goodness(values, higher_is_better=True):
    """Scores turned so that larger is better; nan -> -inf (never best)."""
    g = np.asarray(values, dtype=np.float64) * (1.0 if higher_is_better else -1.0)
    return np.where(np.isfinite(g), g, -np.inf)


def best_shares(reps, higher_is_better=True):
    """(shares (B', C), kept rows mask (B,)): each kept replicate's best, ties split."""
    g = goodness(reps, higher_is_better)
    top = g.max(axis=1)
    keep = np.isfinite(top)
    g, top = g[keep], top[keep]
    hit = (g >= top[:, None] - _TIE * np.maximum(1.0, np.abs(top[:, None]))) & np.isfinite(g)
    return hit / hit.sum(axis=1, keepdims=True), keep


def p_best(reps, higher_is_better=True):
    shares, _ = best_shares(reps, higher_is_better)
    if shares.shape[0] == 0:
        return np.full(np.asarray(reps).shape[1], np.nan)
    return shares.mean(axis=0)


def _shortfall_base(reps, higher_is_better):
    """Goodness with undefined scores set to the replicate's worst defined one."""
    g = goodness(reps, higher_is_better)
    keep = np.isfinite(g.max(axis=1))
    g = g[keep]
    worst = np.where(np.isfinite(g), g, np.inf).min(axis=1)
    return np.where(np.isfinite(g), g, worst[:, None])


def shortfall(reps, members, higher_is_better=True):
    g = _shortfall_base(reps, higher_is_better)
    if g.shape[0] == 0:
        return float("nan")
    return float((g.max(axis=1) - g[:, list(members)].max(axis=1)).mean())


def pair_shortfalls(reps, higher_is_better=True):
    """(C, C) expected shortfall of every pair (diagonal: the single candidate)."""
    g = _shortfall_base(reps, higher_is_better)
    c = g.shape[1]
    out = np.full((c, c), np.nan)
    if g.shape[0] == 0:
        return out
    top = g.max(axis=1, keepdims=True)
    for a in range(c):
        out[a] = (top - np.maximum(g[:, a:a + 1], g)).mean(axis=0)
    return out


def agreement(reps):
    """(C, C) correlation of the candidates' replicate scores over replicates where both
    are defined; nan when either has no spread."""
    r = np.asarray(reps, dtype=np.float64)
    c = r.shape[1]
    ok = np.isfinite(r).all(axis=1)
    if ok.all() or ok.sum() >= 3:
        x = r[ok] - r[ok].mean(axis=0)
        sd = np.sqrt((x * x).sum(axis=0))
        with np.errstate(invalid="ignore", divide="ignore"):
            out = (x.T @ x) / np.outer(sd, sd)
        out[np.outer(sd, sd) == 0] = np.nan
        np.fill_diagonal(out, 1.0)
        return np.clip(out, -1.0, 1.0)
    return np.full((c, c), np.nan)


def copies(reps, points=None):
    """Groups (tuples of 2+ indices) of candidates whose scores are equal in every replicate
    (and on all units): on these units they cannot be told apart."""
    r = np.asarray(reps, dtype=np.float64)
    cols = np.where(np.isfinite(r), r, np.inf).T               # undefined alike compares equal
    if points is not None:
        p = np.asarray(points, dtype=np.float64)[:, None]
        cols = np.hstack([cols, np.where(np.isfinite(p), p, np.inf)])
    groups, seen = [], set()
    for a in range(cols.shape[0]):
        if a in seen:
            continue
        same = [b for b in range(a + 1, cols.shape[0])
                if b not in seen and np.array_equal(cols[a], cols[b])]
        if same:
            groups.append((a, *same))
            seen.update(same)
    return tuple(groups)


def select(points, reps, pick=2, higher_is_better=True):
    """The Selection of ``pick`` candidates (see the module's doc)."""
    points = np.asarray(points, dtype=np.float64)
    reps = np.asarray(reps, dtype=np.float64)
    c = points.size
    if reps.ndim != 2 or reps.shape[1] != c:
        raise InputError("replicates must be (B, candidates)")
    pick = int(pick)
    if not 1 <= pick < c:
        raise InputError(f"picking {pick} needs at least {pick + 1} candidates; got {c}")
    shares, keep = best_shares(reps, higher_is_better)
    hits = shares > 0
    undefined = int((~keep).sum())
    pb = shares.mean(axis=0) if shares.shape[0] else np.full(c, np.nan)
    base = _shortfall_base(reps, higher_is_better)
    if pick == 2 and c <= MAX_EXACT:
        h = hits.astype(np.float64)
        each = h.sum(axis=0)
        cover = (each[:, None] + each[None, :] - h.T @ h) / max(h.shape[0], 1)
        sf = pair_shortfalls(reps, higher_is_better)
        i, j = np.triu_indices(c, 1)
        # Largest P(holds a best); among (numerically) equal ones the least shortfall.
        order = np.lexsort((sf[i, j], -np.round(cover[i, j], 12)))
        best = _pick((int(i[order[0]]), int(j[order[0]])), pb, hits, base)
        k = int(np.argmin(np.where(np.isfinite(sf[i, j]), sf[i, j], np.inf)))
        least = _pick((int(i[k]), int(j[k])), pb, hits, base)
    else:
        best = _pick(_greedy_cover(hits, base, pick), pb, hits, base)
        least = _pick(_greedy(base, pick), pb, hits, base)   # greedy beyond pairs
    top = _pick(tuple(int(x) for x in _by_score(points, higher_is_better)[:pick]), pb, hits, base)
    return Selection(points, pb, best, top, least, agreement(reps), int(reps.shape[0]),
                     undefined, bool(higher_is_better), copies(reps, points))


def contains_best(reps, members, higher_is_better=True):
    """Share of replicates (with a defined score) where a member of the set is a best."""
    shares, _ = best_shares(reps, higher_is_better)
    if shares.shape[0] == 0:
        return float("nan")
    return float((shares[:, list(members)] > 0).any(axis=1).mean())


def _by_score(points, higher_is_better):
    g = goodness(points, higher_is_better)
    return np.lexsort((np.arange(points.size), -g))


def _pick(members, pb, hits, base):
    members = tuple(sorted(members, key=lambda m: (-pb[m], m)))
    if base.shape[0] == 0:
        return Pick(members, float("nan"), float("nan"))
    sf = float((base.max(axis=1) - base[:, list(members)].max(axis=1)).mean())
    return Pick(members, float(hits[:, list(members)].any(axis=1).mean()), sf)


def _greedy_cover(hits, base, k):
    """k candidates, each added to hold a best in the most replicates not yet held
    (ties: the least shortfall)."""
    chosen = []
    held = np.zeros(hits.shape[0], dtype=bool)
    cur = np.full(base.shape[0], -np.inf)
    top = base.max(axis=1) if base.shape[0] else base
    for _ in range(k):
        gain = (hits & ~held[:, None]).sum(axis=0).astype(np.float64)
        cost = (top[:, None] - np.maximum(cur[:, None], base)).mean(axis=0) if base.shape[0] \
            else np.zeros(hits.shape[1])
        gain[chosen] = -1
        m = int(np.lexsort((cost, -gain))[0])
        chosen.append(m)
        held |= hits[:, m]
        if base.shape[0]:
            cur = np.maximum(cur, base[:, m])
    return tuple(chosen)


def _greedy(base, k):
    """k candidates, each added to lower the expected shortfall most."""
    chosen = []
    cur = np.full(base.shape[0], -np.inf)
    top = base.max(axis=1)
    for _ in range(k):
        cost = (top[:, None] - np.maximum(cur[:, None], base)).mean(axis=0)
        cost[chosen] = np.inf
        m = int(np.argmin(cost))
        chosen.append(m)
        cur = np.maximum(cur, base[:, m])
    return tuple(chosen)


__all__ = ["Pick", "Selection", "select", "copies", "p_best", "best_shares", "shortfall",
           "pair_shortfalls", "agreement", "contains_best", "goodness", "MAX_EXACT"]
