"""Medal odds with their own Monte-Carlo error, and who wins a tie (analysis/ranking.py).

Rare odds rest on the extreme simulated gaps: with one set of 2,000 splits, a 0.3 %
medal is about six of them, and an independent run can differ several-fold. So the
simulation runs in independent batches, each with its own splits (its own gap
distribution) and its own simulated leaderboards; the odds are the batches' mean
and their Monte-Carlo error the batches' spread / sqrt(batches). Batches are added
(doubling) until every medal's odds of at least SHOWN_BELOW have a relative error
of at most REL_ERROR, up to MAX_BATCHES or the time budget; odds below SHOWN_BELOW
are shown as "< 0.1 %". The first BATCHES batches together cost what one run of
``splits`` splits and ``simulations`` leaderboards did.

Ties: Kaggle orders equal scores by submission time, earlier first. Our
submission's time is ``submitted``: "last" (the default: after every team tied
with us, so ties count against us), "first", or a date-time compared with the
leaderboard's SubmissionDate column.
"""
from __future__ import annotations

import time
from datetime import datetime, timezone

import numpy as np

from ..core.rank import MEDALS, pooled, simulate_ranks
from ..errors import InputError

BATCHES = 8             # batches at least (together: the splits and simulations asked for)
MAX_BATCHES = 128
REL_ERROR = 0.25        # wanted: relative Monte-Carlo error of every medal's odds at most this
SHOWN_BELOW = 0.001     # odds below this are "< 0.1 %"
BUDGET = 60.0           # seconds of extra batches at most


def parse_time(text, where):
    """A datetime (UTC when no zone is given) of an ISO date or date-time; InputError."""
    try:
        t = datetime.fromisoformat(str(text).strip().replace("Z", "+00:00"))
    except ValueError:
        raise InputError(f"{where}: '{text}' is not a date or date-time (e.g. 2024-05-01 "
                         "13:45:00)") from None
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


def check_submitted(text):
    """'first', 'last' or an ISO date-time (InputError naming the flag)."""
    if text in ("first", "last"):
        return text
    parse_time(text, "--submission-time")
    return text


def earlier_teams(submitted, dates, count, board_name):
    """Per other team (``count`` of them; ``dates`` their SubmissionDate texts or None),
    whether it was submitted before us (None: all, our default "last")."""
    if submitted == "last":
        return None
    if submitted == "first":
        return np.zeros(count, dtype=bool)
    if dates is None:
        raise InputError(f"--submission-time {submitted}: the leaderboard {board_name} has no "
                         "SubmissionDate column to compare with; use first or last")
    ours = parse_time(submitted, "--submission-time")
    return np.array([parse_time(d, f"leaderboard {board_name}, team {i + 1}'s "
                                f"SubmissionDate") < ours for i, d in enumerate(dates)], dtype=bool)


def batched_odds(score_fn, gaps_fn, rhos, simulations, seed, cancel=None, budget=BUDGET):
    """(RankSim per correlation pooled over batches, every batch's gaps concatenated).

    gaps_fn(batch seed) -> gaps of one batch; score_fn(gaps, rho, sims, seed) -> RankSim.
    Batch b uses seed ``seed`` for b = 0 (the first batch's numbers are one run's) and
    a seed of its own after."""
    per = max(1, -(-int(simulations) // BATCHES))
    batches = {r: [] for r in rhos}
    all_gaps = []
    start = time.monotonic()
    b = 0
    target = BATCHES
    while True:
        while b < target:
            s = seed if b == 0 else int(np.random.SeedSequence([seed, b]).generate_state(1)[0])
            g = gaps_fn(s)
            all_gaps.append(g)
            for r in rhos:
                batches[r].append(score_fn(g, r, per, s))
            b += 1
        main = pooled(batches[rhos[0]])
        if b >= MAX_BATCHES or time.monotonic() - start > budget or settled(main):
            break
        target = min(MAX_BATCHES, 2 * b)
        if cancel is not None and cancel():
            break
    return [pooled(batches[r]) for r in rhos], np.concatenate(all_gaps)


def settled(sim):
    """Every medal's odds below SHOWN_BELOW or with a relative error at most REL_ERROR."""
    m, se = sim.medals(), sim.medal_errors()
    return all(m[k] < SHOWN_BELOW or (se[k] is not None and se[k] <= REL_ERROR * m[k])
               for k in MEDALS)


def shown(p, se):
    """'12.3 % ± 0.4', '< 0.1 %' (odds below SHOWN_BELOW), '0 %' (never in any simulation)."""
    if p == 0:
        return "0 %"
    if p < SHOWN_BELOW:
        return "< 0.1 %"
    if p > 1 - SHOWN_BELOW and p < 1:
        return "> 99.9 %"
    text = f"{100 * p:.1f} %"
    if se is not None and se > 0:
        text += f" ± {100 * se:.1f}" if se >= 0.0005 else " ± <0.1"
    return text


def odds_json(sim):
    """{"gold": {"p", "se", "shown"}, ...}: the odds with their Monte-Carlo error."""
    m, se = sim.medals(), sim.medal_errors()
    return {k: {"p": m[k], "se": se[k], "shown": shown(m[k], se[k])} for k in MEDALS}


def simulate(ours, others, hib, earlier):
    """score_fn for batched_odds: one batch of simulated ranks."""
    def fn(gaps, rho, sims, seed):
        return simulate_ranks(ours, others, gaps, rho, sims, seed, hib, earlier=earlier)
    return fn


__all__ = ["batched_odds", "odds_json", "shown", "earlier_teams", "check_submitted", "settled",
           "BATCHES", "REL_ERROR", "SHOWN_BELOW"]
