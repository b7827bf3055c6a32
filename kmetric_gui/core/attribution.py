"""What moves the score: exact gains of fixing units, and the greedy "fix first" order.

A fix sets a unit's prediction to its truth (a row's label, a sample's
scores ranking its true labels first, a document's predicted strings equal
to its truths). ``FixList`` holds the greedy order: repeatedly fix the unit
whose fix gains the most; ``score_after[k]`` is the score after fixing units
0..k, computed from the exact updated statistics (gains of several fixes do
not add up for a ratio of sums). The metric-specific parts (what a fix
changes in its statistics) are in metrics/kernels/; the greedy over unit
types (``greedy_types``, e.g. the cells of a confusion matrix, whose rows all
gain the same) and over single units (``unit_fix_first``) are here.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .resample import check_replicates, index_blocks, rng_of

_CHUNK = 1 << 20   # rows per pass when mapping picked cells back to rows


@dataclass(frozen=True)
class FixList:
    """Units in greedy "fix first" order (all arrays have the same length)."""
    units: np.ndarray          # (N,) unit positions (row, sample or document index)
    gains: np.ndarray          # (N,) improvement of each fix, given the fixes before it: the
                               # score change, negated when lower is better (a gain is > 0)
    score_after: np.ndarray    # (N,) exact score after fixing this unit and all before it
    score: float               # the score before any fix (nan when undefined)
    n_fixable: int             # units with an error: the most a list can hold
    undefined_reason: "str | None" = None   # why there are no gains

    def __len__(self):
        return int(self.units.size)


def empty_fixes(score, reason=None, n_fixable=0):
    z = np.zeros(0)
    return FixList(np.zeros(0, dtype=np.int64), z, z, float(score), n_fixable, reason)


def check_top(top):
    """Validated list length (a positive integer)."""
    from ..errors import InputError
    if isinstance(top, (bool, np.bool_)) or not isinstance(top, (int, np.integer)) or top < 1:
        raise InputError(f"the number of fixes must be an integer of at least 1; got {top!r}")
    return int(top)


def _finite(v):
    return np.where(np.isnan(v), -np.inf, v)


def greedy_types(state, deltas, counts, score_fn, top, higher_is_better=True):
    """Greedy over unit types: the units of one type have identical fixes.

    state: (m,) sufficient statistics; deltas: (T, m) change of one fix of
    each type; counts: (T,) units of each type; score_fn maps (..., m)
    statistics to scores (nan when undefined). Returns (types picked in
    order, score after each pick). Ties go to the lowest type index. The best
    pick raises the score, or lowers it when ``higher_is_better`` is False.

    A type often stays the best for many steps in a row, so after each pick
    the next few states of repeating it are scored at once (a block that
    grows while the run lasts and shrinks when it breaks): a long list costs
    a few vectorised steps per run instead of one per unit.
    """
    state = np.asarray(state, dtype=np.float64)
    deltas = np.asarray(deltas, dtype=np.float64)
    left = np.asarray(counts, dtype=np.int64).copy()
    live = np.flatnonzero(left > 0)
    run_types, run_lengths = [], []
    done, block = 0, 2
    cur = state.copy()
    sign = 1.0 if higher_is_better else -1.0
    while done < top and live.size:
        d_live = deltas[live]
        cand = _finite(sign * score_fn(cur + d_live))
        j = int(np.argmax(cand))
        if cand[j] == -np.inf:
            break
        t = int(live[j])
        most = min(int(left[t]), top - done)
        run = 1
        if most > 1:
            m = min(most, block)
            ahead = cur + np.arange(1, m)[:, None] * deltas[t]           # after 1..m-1 more
            vals = _finite(sign * score_fn(ahead[:, None, :] + d_live[None, :, :]))
            still = (np.argmax(vals, axis=1) == j) & (vals[:, j] > -np.inf)
            run = m if still.all() else 1 + int(np.argmin(still))
            cap = max(2, (1 << 20) // live.size)
            block = min(2 * block, cap) if run == m else max(2, block // 2)
        run_types.append(t)
        run_lengths.append(run)
        cur = cur + run * deltas[t]
        left[t] -= run
        done += run
        if left[t] == 0:
            live = np.delete(live, j)
    picks = np.repeat(np.asarray(run_types, dtype=np.int64), np.asarray(run_lengths, dtype=np.int64))
    # Scores after each step from the cumulated statistics, not from summed gains.
    after = score_fn(state + np.cumsum(deltas[picks], axis=0)) if picks.size else np.zeros(0)
    return picks, np.asarray(after, dtype=np.float64)


def as_fixlist(units, after, score, n_fixable, higher_is_better=True):
    """A FixList from the score after each fix; gains are improvements in the metric's direction."""
    after = np.asarray(after, dtype=np.float64)
    prev = np.concatenate(([score], after[:-1]))
    gains = after - prev if higher_is_better else prev - after
    return FixList(np.asarray(units, dtype=np.int64), gains, after,
                   float(score), int(n_fixable))


def unit_fix_first(stats, fixed, score_fn, top, higher_is_better=True, n_fixable=None):
    """Greedy "fix first" over units with additive statistics (any such metric).

    stats: (n, m) statistics of each unit; fixed: (n, m) or (m,) statistics of
    a unit once its prediction equals its truth; score_fn: sums (..., m) ->
    scores (nan when undefined). Units whose fix changes nothing are left out.

    When a fix moves one statistic only (a mean of per-row losses, e.g. squared or
    absolute errors) and the score is monotone in it over the units' fixes, the greedy
    order is the order of single fixes: one pass, O(n log n). Otherwise each
    step scores every remaining unit (O(top x n)).
    """
    top = check_top(top)
    stats = np.asarray(stats, dtype=np.float64).reshape(len(stats), -1)
    fixed = np.broadcast_to(np.asarray(fixed, dtype=np.float64), stats.shape)
    delta = fixed - stats
    movable = np.flatnonzero(np.any(delta != 0, axis=1))
    total = stats.sum(axis=0)
    score = float(score_fn(total[None, :])[0])
    n_fix = int(movable.size) if n_fixable is None else int(n_fixable)
    if not movable.size or not np.isfinite(score):
        return empty_fixes(score, None if np.isfinite(score) else "the score is undefined", n_fix)
    d = delta[movable]
    moving = np.flatnonzero(np.any(d != 0, axis=0))
    if moving.size == 1:
        sign = 1.0 if higher_is_better else -1.0
        single = np.concatenate([score_fn(total + d[a:a + _CHUNK])
                                 for a in range(0, d.shape[0], _CHUNK)])
        good = np.where(np.isnan(single), -np.inf, sign * single)
        col = d[:, moving[0]]
        tol = 1e-12 * max(1.0, abs(score))     # rounding of scores of nearly equal sums
        for order in (np.argsort(col, kind="stable"), np.argsort(-col, kind="stable")):
            if np.all(np.diff(good[order]) <= tol):      # monotone in the statistic: greedy
                picks = order[:top]
                after = np.asarray(score_fn(total + np.cumsum(d[picks], axis=0)),
                                   dtype=np.float64)
                return as_fixlist(movable[picks], after, score, n_fix, higher_is_better)
    picks, after = greedy_types(total, d, np.ones(movable.size, dtype=np.int64),
                                score_fn, top, higher_is_better)
    return as_fixlist(movable[picks], after, score, n_fix, higher_is_better)


def nth_in_groups(groups, picks, chunk=_CHUNK):
    """Unit positions for a pick sequence: the m-th pick of group g takes the
    m-th unit of g in order. groups: (N,) int group of each unit (or a
    callable giving the groups of units [a, b), so large inputs are read in
    chunks). Reads from the start in chunks that double up to ``chunk`` and
    stops once every pick is served (usually within the first few)."""
    picks = np.asarray(picks, dtype=np.int64)
    if picks.size == 0:
        return np.zeros(0, dtype=np.int64)
    size = len(groups) if not callable(groups) else groups.size
    get = groups if callable(groups) else (lambda a, b: groups[a:b])
    g_max = int(picks.max()) + 1
    need = np.bincount(picks, minlength=g_max)
    found = {int(g): [] for g in np.unique(picks)}   # only the groups picked (K*K may be large)
    a, step = 0, min(chunk, 1 << 16)
    while a < size:
        b = min(a + step, size)
        g = np.asarray(get(a, b))
        inside = (g >= 0) & (g < g_max)
        sel = np.flatnonzero(inside)
        sel = sel[need[g[sel]] > 0]
        if sel.size:
            gs = g[sel]
            order = np.argsort(gs, kind="stable")
            gs, rows = gs[order], sel[order] + a
            starts = np.flatnonzero(np.r_[True, gs[1:] != gs[:-1]])
            ends = np.r_[starts[1:], gs.size]
            for s, e in zip(starts, ends):
                grp = int(gs[s])
                take = min(e - s, int(need[grp]))
                found[grp].append(rows[s:s + take])
                need[grp] -= take
        if not need.any():
            break
        a, step = b, min(2 * step, chunk)
    if need.any():
        raise ValueError("more picks than units in a group")
    pools = {g: np.concatenate(f) for g, f in found.items()}
    # occurrence rank of each pick within its group
    order = np.argsort(picks, kind="stable")
    sp = picks[order]
    first = np.r_[0, np.flatnonzero(sp[1:] != sp[:-1]) + 1]
    rank_sorted = np.arange(sp.size) - np.repeat(first, np.diff(np.r_[first, sp.size]))
    rank = np.empty_like(rank_sorted)
    rank[order] = rank_sorted
    return np.fromiter((pools[g][r] for g, r in zip(picks.tolist(), rank.tolist())),
                       dtype=np.int64, count=picks.size)


def replicate_rows(n, replicates, seed=0):
    """Yield (replicate, row indices): per-unit index draws, as core/resample.py draws
    units that do not repeat (repeated rows are drawn there by counts instead)."""
    b = check_replicates(replicates)
    parts, cur = [], 0
    for r0, r, u0, idx in index_blocks(rng_of(seed), n, b):
        if r > 1 or (u0 == 0 and idx.shape[1] == n):
            for i in range(r):
                yield r0 + i, idx[i].astype(np.int64)
            continue
        parts.append(idx[0])
        cur = r0
        if u0 + idx.shape[1] == n:
            yield cur, np.concatenate(parts).astype(np.int64)
            parts = []
