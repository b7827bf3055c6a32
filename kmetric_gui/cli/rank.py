"""`kmetric rank TRUTH SUB --leaderboard LB.csv`: where the submission may land.

Our private - public gap (the shake-up simulator with a Usage column, else the
bootstrap's spread) and every other team's gap from the same noise model
correlated with ours (core/rank.py): the distribution of our private rank and
the probability of each Kaggle medal, with sensitivity lines at correlation
0 and 1. The model is printed with the numbers.
"""
from __future__ import annotations

from typing import TYPE_CHECKING


from ..metrics import get_metric
from .options import (add_metric_options, check_competition_layout)
from .stats import MAX_COUNT, _count, _number

if TYPE_CHECKING:
    import argparse


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    s = sub.add_parser("rank", help="where a submission may land on the private leaderboard, "
                                    "and its medal odds")
    s.add_argument("truth", help="solution file (a Usage column gives the shake-up)")
    s.add_argument("submission", help="submission file")
    s.add_argument("--leaderboard", metavar="LB.csv", required=True,
                   help="Kaggle's public leaderboard download (TeamId,TeamName,SubmissionDate,"
                        "Score; .csv or .zip) or a two-column team,score CSV")
    s.add_argument("--correlation", metavar="R",
                   help="correlation of the other teams' private - public gaps with ours "
                        "(-1..1; default 0.5)")
    s.add_argument("--simulations", metavar="N", help="simulated private leaderboards "
                                                      "(default 10000)")
    s.add_argument("--team", metavar="NAME", help="our own row on the leaderboard (left out of "
                                                  "the other teams)")
    s.add_argument("--submission-time", metavar="WHEN",
                   help="when our submission was made, for ties (Kaggle ranks equal scores by "
                        "submission time, earlier first): last (default: every tie counts "
                        "against us), first, or a date-time compared with the leaderboard's "
                        "SubmissionDate, e.g. 2024-05-01T13:45:00")
    s.add_argument("--seed", metavar="S", help="random seed (default 0)")
    add_metric_options(s)
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(run=run)
    return s


def rank_options(args):
    from ..analysis.ranking import RankOptions
    problems, kw = [], {}
    if args.correlation is not None:
        v = _number(args.correlation, "--correlation", problems)
        if v is not None and not -1 <= v <= 1:
            problems.append(f"--correlation must be from -1 to 1; got {args.correlation}")
        kw["correlation"] = v
    if args.simulations is not None:
        kw["simulations"] = _count(args.simulations, "--simulations", problems)
    if args.seed is not None:
        v = _number(args.seed, "--seed", problems, integer=True)
        if v is not None and v < 0:
            problems.append(f"--seed must be 0 or more; got {args.seed}")
        kw["seed"] = v
    if args.team is not None:
        kw["team"] = args.team
    if args.submission_time is not None:
        from ..analysis.ranking_odds import check_submitted
        from ..errors import InputError
        try:
            kw["submitted"] = check_submitted(args.submission_time)
        except InputError as e:
            problems.append(str(e))
    if problems:
        return None, problems
    if MAX_COUNT < kw.get("simulations", 0):
        return None, [f"--simulations must be at most {MAX_COUNT:,}"]
    return RankOptions(**kw), []


def _medals(odds):
    return "  ".join(f"{k} {odds[k]['shown']}" for k in ("gold", "silver", "bronze", "none"))


def human_lines(d):
    better = "higher" if d["higher_is_better"] else "lower"
    t = d["thresholds"]
    lines = [f"metric:  {d['metric']} ({better} is better); our score {d['score']:.6g}, "
             f"{d['teams']} teams (leaderboard {d['leaderboard']} + us)",
             f"now:     rank {d['rank_now']} of {d['teams']}",
             f"private: rank {d['rank_p50']} (median), 90% between {d['rank_p05']} and "
             f"{d['rank_p95']}  [correlation {d['correlation']:g}, {d['simulations']} simulations, "
             f"{d['splits']} simulated gaps in {d['batches']} batches]",
             f"medals:  {_medals(d['medal_odds'])}  (± Monte-Carlo error)",
             f"         gold to rank {t['gold']}, silver to {t['silver']}, bronze to {t['bronze']}"]
    for s in d["sensitivity"]:
        lines.append(f"  at correlation {s['correlation']:g}: rank {s['rank_p50']} "
                     f"[{s['rank_p05']}, {s['rank_p95']}]; {_medals(s['medal_odds'])}")
    lines.append("assumptions:")
    lines += [f"  - {a}" for a in d["assumptions"]]
    for w in d.get("warnings", []):
        lines.append(f"warning: {w}")
    return lines


def run(args: argparse.Namespace) -> int:
    from ..analysis.ranking import rank_files, read_leaderboard
    from .decide import run_analysis

    def compute(options, ropts):
        board = read_leaderboard(args.leaderboard)
        check_competition_layout(args, args.truth, [args.submission])
        return rank_files(args.truth, args.submission, board, options, ropts)
    return run_analysis(args, rank_options(args), compute, lambda where, d: human_lines(d),
                        definition=lambda where: get_metric(where.metric),
                        stderr=lambda where, d: [f"warning: {w}" for w in d.get("warnings", [])])
