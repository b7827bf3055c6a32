"""`kmetric select TRUTH SUB1 SUB2 ...`: which submissions to submit at the deadline.

Every candidate is scored on the same bootstrap draws; for each its score,
interval and P(it is the best of all); the set of ``--pick`` candidates most
likely to hold the best, against the top by score; how alike the candidates
are; a verdict in words. Problems of every file are listed on stderr (exit
2); when enough files are valid the others are still advised on.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import math

from .compare import _table
from ..metrics import get_metric
from .options import (add_metric_options, check_competition_layout)
from .stats import MAX_COUNT, _count, _fraction, _number
from ..core.words import plural

if TYPE_CHECKING:
    import argparse


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    s = sub.add_parser("select", help="which submissions to pick as final: P(best) of each and "
                                      "the best pair")
    s.add_argument("truth", help="validation labels (CSV, TSV, .gz, .zip, Parquet)")
    s.add_argument("submissions", nargs="+", metavar="SUBMISSION",
                   help="candidate submission files, each scored on the same rows")
    s.add_argument("--pick", metavar="K", help="how many to submit (default 2)")
    add_metric_options(s)
    g = s.add_argument_group("statistics")
    g.add_argument("--ci", metavar="LEVEL", help="confidence level of the intervals (default 0.95)")
    g.add_argument("--bootstrap", metavar="B",
                   help=f"joint bootstrap replicates, shared by every candidate (default 2000, at "
                        f"most {MAX_COUNT:,})")
    g.add_argument("--seed", metavar="S", help="random seed (default 0)")
    g.add_argument("--draws", choices=["auto", "exact", "normal"],
                   help="exact: every replicate redraws the units; normal: the sums of the "
                        "per-unit statistics drawn with the bootstrap's mean and covariance "
                        "(fast on large files); auto (default) picks by size")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(run=run)
    return s


def select_options(args):
    """(SelectOptions or None, problems) from the flags."""
    from ..analysis.select import SelectOptions
    problems = []
    kw = {}
    if args.pick is not None:
        v = _number(args.pick, "--pick", problems, integer=True)
        if v is not None and v < 1:
            problems.append(f"--pick must be 1 or more; got {args.pick}")
        kw["pick"] = v
    if args.ci is not None:
        kw["level"] = _fraction(args.ci, "--ci", problems)
    if args.bootstrap is not None:
        kw["replicates"] = _count(args.bootstrap, "--bootstrap", problems)
    if args.seed is not None:
        v = _number(args.seed, "--seed", problems, integer=True)
        if v is not None and v < 0:
            problems.append(f"--seed must be 0 or more; got {args.seed}")
        kw["seed"] = v
    if args.draws:
        kw["draws"] = args.draws
    pick = kw.get("pick") or 2
    if not problems and len(args.submissions) < pick + 1:
        problems.append(f"picking {pick} needs at least {pick + 1} submissions; "
                        f"got {len(args.submissions)}")
    if problems:
        return None, problems
    return SelectOptions(**kw), []


def _f(x, d=4):
    return "undefined" if x is None or not math.isfinite(x) else f"{x:.{d}f}"


def _pct(x):
    return "-" if x is None else f"{100 * x:.1f}%"


def human_lines(adv, d):
    o = adv.options
    s = adv.selection
    better = "higher" if d["higher_is_better"] else "lower"
    how = ("every replicate redraws the units" if d["draws"] == "exact" else
           "normal draws of the per-unit statistics' sums, with the bootstrap's mean and covariance")
    lines = [f"metric:  {d['metric']} ({better} is better), {d['n_units']} {plural(d['unit'])}; "
             f"{d['replicates']} joint replicates shared by all ({how}), seed {o.seed}", ""]
    level = f"{100 * o.level:g}% CI"
    order = sorted(range(len(adv.names)), key=lambda c: -(s.p_best[c] if math.isfinite(s.p_best[c])
                                                          else -1))
    rows = []
    for c in order:
        cand = d["candidates"][c]
        ci = cand["ci"]
        span = ("[undefined]" if ci["low"] is None else f"[{_f(ci['low'])}, {_f(ci['high'])}]")
        r = s.agreement[c].copy()
        r[c] = -math.inf
        twin = int(max(range(r.size), key=lambda j: r[j] if math.isfinite(r[j]) else -math.inf))
        like = f"{adv.names[twin]} ({r[twin]:.2f})" if math.isfinite(r[twin]) else "-"
        rows.append([cand["name"], _f(cand["score"]), span, _pct(cand["p_best"]), like])
    lines += _table(["candidate", "score", level, "P(best)", "most alike (score corr.)"], rows)
    lines.append("")
    for label, key in (("best set", "best_set"), ("top by score", "top_by_score"),
                       ("least shortfall", "least_shortfall_set")):
        b = d[key]
        lines.append(f"{label + ':':<17}{', '.join(b['names'])}  P(holds the best) "
                     f"{_pct(b['p_contains_best'])}, expected shortfall {_f(b['expected_shortfall'], 5)}")
    lines += ["", f"verdict: {d['verdict']}"]
    for w in d.get("warnings", []):
        lines.append(f"warning: {w}")
    return lines


def run(args: argparse.Namespace) -> int:
    from ..analysis.select import select_files
    from .decide import run_analysis

    def compute(options, sopts):
        check_competition_layout(args, args.truth, args.submissions)
        return select_files(args.truth, args.submissions, options, sopts)
    return run_analysis(args, select_options(args), compute, human_lines,
                        definition=lambda adv: get_metric(adv.metric),
                        stderr=lambda adv, d: adv.problems, failed=lambda adv: bool(adv.skipped))
