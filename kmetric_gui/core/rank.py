"""Where a submission lands on the private leaderboard, and its medal odds.

Model (stated to the user; STATS.md "Where a submission lands"): our public
score s0 moves to s0 + g0, with g0 drawn from our simulated private - public
gaps G; every other team j moves from its public score s_j by
g_j = mu + rho (g0 - mu) + sqrt(1 - rho^2) (h_j - mu), h_j drawn from G
independently: the same spread as ours and correlation rho with ours.
rank = 1 + #{j: private_j better than ours, or equal and submitted before
ours} in the metric's direction: Kaggle orders equal scores by submission
time, earlier first. By default our submission is the last (every tie counts
against us); ``earlier`` says, per team, whether it was submitted before ours.
rho = 1 moves everyone alike (the public order stays); rho = 0 moves the others
independently of us.

Medals follow Kaggle's published rules by the number of teams T
(percentages rounded down):

    T < 100         gold top 10 %            silver top 20 %   bronze top 40 %
    100 <= T < 250  gold top 10              silver top 20 %   bronze top 40 %
    250 <= T < 1000 gold top 10 + 0.2 % T    silver top 50     bronze top 100
    T >= 1000       gold top 10 + 0.2 % T    silver top 5 %    bronze top 10 %
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from .resample import check_cancel, rng_of

MEDALS = ("gold", "silver", "bronze", "none")
_BLOCK = 1 << 22          # simulated (team, simulation) pairs per block


def medal_thresholds(teams):
    """{"gold", "silver", "bronze"}: the last rank that wins each medal among ``teams``."""
    t = int(teams)
    if t < 1:
        raise InputError(f"a leaderboard needs at least 1 team; got {t}")
    if t < 100:
        g, s, b = t * 10 // 100, t * 20 // 100, t * 40 // 100
    elif t < 250:
        g, s, b = 10, t * 20 // 100, t * 40 // 100
    elif t < 1000:
        g, s, b = 10 + t * 2 // 1000, 50, 100
    else:
        g, s, b = 10 + t * 2 // 1000, t * 5 // 100, t * 10 // 100
    return {"gold": g, "silver": max(s, g), "bronze": max(b, s, g)}


def medal_of(ranks, thresholds):
    """Index into MEDALS (0 gold .. 3 none) of each rank."""
    r = np.asarray(ranks)
    return np.select([r <= thresholds["gold"], r <= thresholds["silver"],
                      r <= thresholds["bronze"]], [0, 1, 2], 3)


@dataclass(frozen=True)
class RankSim:
    ranks: np.ndarray          # (N,) simulated private rank
    teams: int
    rank_now: int              # rank on the public scores
    correlation: float
    thresholds: dict
    batches: "np.ndarray | None" = None   # (K, 4) medal shares of K independent batches

    def quantiles(self):
        p05, p50, p95 = np.quantile(self.ranks, [0.05, 0.5, 0.95], method="inverted_cdf")
        return int(p05), int(p50), int(p95)

    def medals(self):
        if self.batches is not None:
            m = self.batches.mean(axis=0)
        else:
            m = np.bincount(medal_of(self.ranks, self.thresholds), minlength=4) / self.ranks.size
        return dict(zip(MEDALS, (float(x) for x in m)))

    def medal_errors(self):
        """Monte-Carlo standard error of each medal's odds: the spread of independent
        batches (each its own simulated gaps and leaderboards) / sqrt(batches); without
        batches, the binomial error of the simulations alone (None for 1 simulation)."""
        m = self.medals()
        if self.batches is not None and self.batches.shape[0] > 1:
            se = self.batches.std(axis=0, ddof=1) / np.sqrt(self.batches.shape[0])
            return dict(zip(MEDALS, (float(x) for x in se)))
        n = self.ranks.size
        return {k: (float(np.sqrt(p * (1 - p) / n)) if n > 1 else None) for k, p in m.items()}


def pooled(sims):
    """One RankSim of independent batches (same teams and correlation): all ranks, and
    each batch's medal shares for the Monte-Carlo error."""
    first = sims[0]
    shares = np.array([[s.medals()[k] for k in MEDALS] for s in sims])
    return RankSim(np.concatenate([s.ranks for s in sims]), first.teams, first.rank_now,
                   first.correlation, first.thresholds, shares)


def simulate_ranks(ours, others, gaps, correlation=0.5, simulations=10_000, seed=0,
                   higher_is_better=True, cancel=None, earlier=None):
    """RankSim of our public score ``ours`` among ``others`` (public scores of the other
    teams) with gaps G (``gaps``: simulated private - public of ours). ``earlier`` (per
    other team, or None: all): the teams submitted before us, ahead of us on a tie."""
    rho = float(correlation)
    if not -1.0 <= rho <= 1.0:
        raise InputError(f"correlation must be from -1 to 1; got {correlation}")
    sims = int(simulations)
    if sims < 1:
        raise InputError(f"simulations must be 1 or more; got {simulations}")
    sign = 1.0 if higher_is_better else -1.0
    s0 = sign * float(ours)
    s = sign * np.asarray(others, dtype=np.float64)
    g = sign * np.asarray(gaps, dtype=np.float64)
    g = np.sort(g[np.isfinite(g)])
    if g.size == 0:
        raise InputError("no defined private - public gap to simulate from")
    teams = s.size + 1
    first = np.ones(s.size, dtype=bool) if earlier is None else np.asarray(earlier, dtype=bool)
    if first.shape != s.shape:
        raise InputError(f"submission order: {first.size} flags for {s.size} teams")
    rank_now = 1 + int(np.count_nonzero((s > s0) | ((s == s0) & first)))
    rng = rng_of(seed)
    mu = float(g.mean())
    own_idx = rng.integers(0, g.size, size=sims)
    own = g[own_idx] - mu                                         # our centred gap per simulation
    spread = float(np.abs(g - mu).max())
    free = np.sqrt(max(0.0, 1.0 - rho * rho))
    # private_j - private_0 = (s_j - s0) + free (h_j - mu) - (1 - rho) (g0 - mu): teams
    # farther than the widest such move keep their side in every simulation.
    reach = (free + abs(1.0 - rho)) * spread
    d = s - s0
    ahead = int(np.count_nonzero(d > reach))
    close = np.abs(d) <= reach
    near, tie_first = d[close], first[close]
    ranks = np.full(sims, 1 + ahead, dtype=np.int64)
    shift = (1.0 - rho) * own
    if near.size and free == 0:
        # rho = +-1: no draw per team; count the teams above each simulation's shift
        # (at it, too, for the teams submitted before us).
        for mask, side in ((tie_first, "left"), (~tie_first, "right")):
            part = np.sort(near[mask])
            ranks += part.size - np.searchsorted(part, shift, side=side)
    elif near.size:
        ranks += _count_above(rng, (g - mu) * free, near, shift, own_idx, cancel, tie_first)
    return RankSim(ranks, teams, rank_now, rho, medal_thresholds(teams))


def _count_above(rng, hc, near, shift, own_idx, cancel=None, tie_first=None):
    """Per simulation s: #{j: hc[i_sj] + near_j > shift_s} (>= for the teams ``tie_first``
    marks: submitted before us), i_sj uniform over the sorted gaps hc.

    hc[i] > x  <=>  i >= searchsorted(hc, x, "right") (>= x: "left"): the thresholds depend on the
    simulation only through our gap's index, so they are tabled per distinct index
    (in blocks of at most _BLOCK numbers) and a simulation costs one uniform integer
    and one integer comparison per team.
    """
    s_count, a = hc.size, near.size
    uniq, inv = np.unique(own_idx, return_inverse=True)
    order = np.argsort(inv, kind="stable")                       # simulations grouped by index
    starts = np.searchsorted(inv[order], np.arange(uniq.size + 1))
    shift_of = np.empty(uniq.size)
    shift_of[inv] = shift
    dtype = np.uint16 if s_count < 1 << 16 else np.int64
    order_x = np.argsort(near)[::-1]
    x = near[order_x]                                            # queries ascending per row
    first = np.ones(a, dtype=bool) if tie_first is None else np.asarray(tie_first)[order_x]
    out = np.zeros(shift.size, dtype=np.int64)
    per = max(1, _BLOCK // a)                                    # distinct indices per table
    for u0 in range(0, uniq.size, per):
        check_cancel(cancel)
        u1 = min(uniq.size, u0 + per)
        table = np.empty((u1 - u0, a), dtype=dtype)
        for u in range(u0, u1):
            q = shift_of[u] - x
            table[u - u0] = np.where(first, np.searchsorted(hc, q, side="left"),
                                     np.searchsorted(hc, q, side="right"))
        for c0 in range(starts[u0], starts[u1], per):
            c1 = min(starts[u1], c0 + per)
            sims = order[c0:c1]
            draws = rng.integers(0, s_count, size=(c1 - c0, a), dtype=dtype)
            out[sims] = np.count_nonzero(draws >= table[inv[sims] - u0], axis=1)
    return out


__all__ = ["MEDALS", "medal_thresholds", "medal_of", "RankSim", "simulate_ranks", "pooled"]
