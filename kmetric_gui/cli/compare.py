"""`kmetric compare TRUTH A B [C ...]`: which submission to choose.

A leaderboard (score, interval, Public, Private) and, for each pair, the
difference B - A with its paired bootstrap interval, the share of bootstrap
replicates where B wins, the
approximate-randomisation p-value and P(order flips) between Public and
Private. Problems of every file are listed on stderr (exit 2); when at
least two files are valid they are still compared.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import math

from .metricfile import add_metric_file_options
from .options import (add_metric_options, check_competition_layout)
from .stats import MAX_COUNT, METHOD_CHOICES, _count, _fraction, _number, add_group_options
from ..core.words import plural

if TYPE_CHECKING:
    import argparse


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    s = sub.add_parser("compare", help="compare two or more submissions against one solution")
    s.add_argument("truth", help="solution file (CSV, TSV, .gz, .zip, Parquet)")
    s.add_argument("submissions", nargs="+", metavar="SUBMISSION", help="two or more submission files")
    add_metric_options(s)
    g = s.add_argument_group("statistics")
    g.add_argument("--ci", metavar="LEVEL", help="confidence level of the intervals (default 0.95)")
    g.add_argument("--bootstrap", metavar="B",
                   help=f"paired bootstrap replicates (default 2000, at most {MAX_COUNT:,})")
    g.add_argument("--permutations", metavar="P",
                   help=f"random swaps for the p-value (default 2000, 0 skips it, at most {MAX_COUNT:,})")
    g.add_argument("--ci-method", choices=METHOD_CHOICES,
                   help="interval method of each score (default auto, as for `kmetric score`); "
                        "differences use percentile, or bca when asked")
    g.add_argument("--seed", metavar="S", help="random seed (default 0)")
    g.add_argument("--coverage-check", action="store_true",
                   help="measure each score's interval coverage at this size (200 datasets "
                        "simulated from the data)")
    add_group_options(g)
    g.add_argument("--public-fraction", metavar="F",
                   help="Public share for P(order flips) (0 < F < 1; default: the Usage column's "
                        "share when the solution has one, else 0.3)")
    g.add_argument("--splits", metavar="S", help="random Public/Private splits for P(order flips) "
                                                  "(default 2000)")
    add_metric_file_options(s)
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(run=run)
    return s


def compare_options(args):
    """(CompareOptions or None, problems) from the flags."""
    from ..analysis.comparison import CompareOptions
    problems = []
    kw = {}
    if args.ci is not None:
        kw["level"] = _fraction(args.ci, "--ci", problems)
    if args.bootstrap is not None:
        kw["replicates"] = _count(args.bootstrap, "--bootstrap", problems)
    if args.permutations is not None:
        v = _number(args.permutations, "--permutations", problems, integer=True)
        if v is not None and not 0 <= v <= MAX_COUNT:
            problems.append(f"--permutations must be between 0 and {MAX_COUNT:,}; got {args.permutations}")
        kw["permutations"] = v
    if args.seed is not None:
        v = _number(args.seed, "--seed", problems, integer=True)
        if v is not None and v < 0:
            problems.append(f"--seed must be 0 or more; got {args.seed}")
        kw["seed"] = v
    if args.public_fraction is not None:
        kw["public_fraction"] = _fraction(args.public_fraction, "--public-fraction", problems)
    if args.splits is not None:
        kw["splits"] = _count(args.splits, "--splits", problems)
    if args.ci_method:
        kw["method"] = args.ci_method
    if args.coverage_check:
        from ..core.coverage import SIMULATIONS
        kw["coverage_check"] = SIMULATIONS
    if len(args.submissions) < 2:
        problems.append(f"compare needs at least 2 submissions; got {len(args.submissions)}")
    if problems:
        return None, problems
    return CompareOptions(**kw), []


def _f(x, d=4, sign=False):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "undefined"
    return f"{x:+.{d}f}" if sign else f"{x:.{d}f}"


def _ci(iv, sign=False):
    lo, hi = iv["low"], iv["high"]
    if lo is None or hi is None:
        return "[undefined]"
    return f"[{_f(lo, sign=sign)}, {_f(hi, sign=sign)}]"


def _p(x):
    if x is None:
        return "-"
    return "<0.001" if 0 < x < 0.001 else f"{x:.3f}"


def _table(head, rows, left=1):
    """Columns padded to their widths; the first ``left`` columns (names) left-aligned."""
    widths = [max(len(str(r[k])) for r in [head] + rows) for k in range(len(head))]

    def line(r):
        cells = [str(c).ljust(w) if k < left else str(c).rjust(w)
                 for k, (c, w) in enumerate(zip(r, widths))]
        return "  ".join(cells).rstrip()
    return [line(head)] + [line(r) for r in rows]


def human_lines(cmp, d):
    o = cmp.options
    lower = not d.get("higher_is_better", True)
    lines = [f"metric:  {d['metric']}{' (lower is better)' if lower else ''}, "
             f"{d['n_units']} {plural(d['unit'])} compared; "
             f"{100 * o.level:g}% intervals ({o.method}, {o.replicates} replicates, seed {o.seed})"]
    level = f"{100 * o.level:g}% CI"
    has_split = any(s["public"] is not None for s in d["submissions"])
    head = ["submission", "score", level] + (["public", "private"] if has_split else [])
    rows = []
    for s in d["submissions"]:
        row = [s["name"], _f(s["score"]), _ci(s["ci"])]
        if has_split:
            row += [_f(s["public"]), _f(s["private"])]
        rows.append(row)
    lines += [""] + _table(head, rows)
    lines += [f"coverage check: {s['name']}: {100 * s['ci']['coverage']['measured']:.1f}% of "
              f"{s['ci']['coverage']['simulations']} datasets simulated from the data covered"
              for s in d["submissions"] if (s["ci"].get("coverage") or {}).get("measured") is not None]
    lines += [f"warning: {s['name']}: {w}" for s in d["submissions"] for w in s["ci"]["warnings"]]
    lines += ["", f"pairs (delta = B - A; p-value from {o.permutations} random swaps; order flips "
                  f"over {o.splits} random splits with {_pct(cmp.public_fraction)} Public):"]
    holm = any("p_value_holm" in p for p in d["pairs"])
    head = ["A", "B", "delta", level, "B wins", "p-value"] + (["Holm p"] if holm else []) \
        + ["P(order flips)"]
    if has_split:
        head += ["public delta", "private delta"]
    rows = []
    for p in d["pairs"]:
        row = [p["a"], p["b"], _f(p["delta"], sign=True), _ci(p["delta_ci"], sign=True),
               _p(p["p_b_better"]), _p(p["p_value"]) if p["permutations"] else "-"]
        if holm:
            row.append(_p(p.get("p_value_holm")) if p["permutations"] else "-")
        row.append(_p(p["p_order_flips"]))
        if has_split:
            row += [_f(p["public_delta"], sign=True), _f(p["private_delta"], sign=True)]
        rows.append(row)
    lines += _table(head, rows, left=2)
    lines += meaning_lines(o, holm)
    if len(d["submissions"]) > 2:
        lines += [""] + _matrix(d)
    blends = [p for p in d["pairs"] if "blend" in p and p["blend"]["best_alpha"] is not None]
    if blends:
        lines.append("")
        for p in blends:
            b = p["blend"]
            lines.append(f"blend {p['a']} x alpha + {p['b']} x (1 - alpha): best alpha "
                         f"{b['best_alpha']:.2f} scores {_f(b['best_score'])}")
            for h in b.get("held_out", []):
                if h["alpha"] is not None:
                    lines.append(f"  held out: alpha {h['alpha']:.2f} fitted on {h['fit_on']} scores "
                                 f"{_f(h['score'])} on {h['held']} (A alone {_f(h['a_score'])}, "
                                 f"B alone {_f(h['b_score'])})")
    for w in d.get("warnings", []):
        lines.append(f"warning: {w}")
    return lines


def meaning_lines(o, holm):
    """What the columns mean, in words (what each number is, and is not)."""
    lines = ["",
             f"intervals ({100 * o.level:g}%): for the score (or delta) on the whole population "
             "this test set was drawn from, i.e. on a very large new test set drawn like it; "
             "another test set of this size varies more",
             "B wins: the share of bootstrap replicates (resampled test sets) in which B scores "
             "better than A; not the probability that B is better"]
    if o.permutations:
        lines.append("p-value: two-sided, under the null that A's and B's predictions are "
                     "exchangeable within each unit (each unit's pair swapped at random)")
    if holm:
        lines.append("Holm p: the p-value adjusted for testing every pair at once (Holm's "
                     "step-down); use it when picking among 3 or more submissions")
    return lines


def _matrix(d):
    """Row A, column B: B - A and the share of replicates B wins, submissions numbered as listed."""
    subs = d["submissions"]
    k = len(subs)
    cell = {}
    for p in d["pairs"]:
        i = next(n for n, s in enumerate(subs) if s["name"] == p["a"])
        j = next(n for n, s in enumerate(subs) if s["name"] == p["b"])
        cell[i, j] = f"{_f(p['delta'], sign=True)} ({_p(p['p_b_better'])})"
        neg = None if p["delta"] is None else 0.0 - p["delta"]
        cell[j, i] = f"{_f(neg, sign=True)} ({_p(p['p_a_better'])})"
    head = ["B - A (B wins)"] + [f"B = #{j + 1}" for j in range(k)]
    rows = [[f"A = #{i + 1} {subs[i]['name']}"] + [cell.get((i, j), "") for j in range(k)]
            for i in range(k)]
    return _table(head, rows)


def _pct(f):
    return "?" if f is None else f"{100 * f:.0f}%"


def run(args: argparse.Namespace) -> int:
    from ..analysis.comparison import compare_files
    from .decide import run_analysis
    parsed = compare_options(args)
    if args.metric_file and not parsed[1]:
        from .metricfile_metric import run_compare
        return run_compare(args, parsed[0], human_lines)

    def compute(options, copts):
        check_competition_layout(args, args.truth, args.submissions)
        return compare_files(args.truth, args.submissions, options, copts,
                             group_column=args.group_column, groups_file=args.groups)
    return run_analysis(args, parsed, compute, human_lines,
                        definition=lambda cmp: cmp.submissions[0].report.definition
                        if cmp.submissions else None,
                        stderr=lambda cmp, d: cmp.problems, failed=lambda cmp: bool(cmp.skipped))
