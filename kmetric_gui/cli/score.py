"""`kmetric score TRUTH SUBMISSION`: validate, then score (or list every problem)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .output import dumps
import math
import sys

from .fixes import add_fix_options, fix_lines, fixes_for
from .metricfile import add_metric_file_options
from .options import (add_metric_options, check_competition_layout, check_given,
                      competition_json, competition_lines, competition_of, options_from_args,
                      print_problems)
from .stats import add_stats_options, apply_stats, groups_of, stats_options

if TYPE_CHECKING:
    import argparse


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    s = sub.add_parser("score", help="score a submission against a solution file")
    s.add_argument("truth", help="solution file (CSV, TSV, .gz, .zip, Parquet)")
    s.add_argument("submission", help="submission file")
    add_metric_options(s)
    add_stats_options(s, groups=True)
    add_fix_options(s)
    add_metric_file_options(s, fixes=True)
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(run=run)
    return s


def fmt(x):
    return "undefined" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.6f}"


def human(rep, d):
    return "\n".join(human_lines(rep, d))


def human_lines(rep, d):
    lower = "" if rep.definition.higher_is_better else ", lower is better"
    lines = [f"metric:  {rep.metric}  ({rep.reason}{lower})",
             f"layout:  {rep.layout}",
             f"rows:    {rep.n_rows}",
             f"score:   {fmt(d['score'])}"]
    if d.get("undefined_reason"):
        lines.append(f"         undefined: {d['undefined_reason']}")
    for name in ("public", "private"):
        if name in d:
            lines.append(f"{name + ':':<9}{fmt(d[name])}")
    lines += rep.definition.human_lines(rep, d)
    lines += [f"note:    {n}" for n in d.get("notes", ())]
    return lines


def looks_like(args):
    """A note naming the one catalog competition whose files have these headers (cheap: two
    headers and a dictionary lookup; bench/catalog.py)."""
    from ..analysis.competitions import matching
    from ..io.read import read_header
    try:
        comp = matching(read_header(args.truth, "solution"),
                        read_header(args.submission, "submission"))
    except Exception:       # the pair was read and scored: a header read again never fails
        return []
    if comp is None:
        return []
    if comp.metric is None:     # --competition would refuse it: say what gives its number
        return [f"note:    looks like competition {comp.slug} ({comp.title}); no built-in "
                f"metric gives its number ({comp.metric_file_needed}): score it with its "
                "metric file (--metric-file FILE)"]
    return [f"note:    looks like competition {comp.words()}; score it with "
            f"--competition {comp.slug}"]


def run(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..analysis.scoring import load, report_json, score_prepared
    ci, shake, problems = stats_options(args)
    for line in problems:
        print(f"kmetric: {line}", file=sys.stderr)
    if problems:
        return 2
    if args.metric_file:
        from .metricfile import run_score
        try:            # the competition's id column is the one its metric file is given
            comp = competition_of(args)
        except InputError as e:
            print_problems(e, sys.stderr)
            return 2
        if comp is not None and not args.id_column:
            args.id_column = comp.id_column
        return run_score(args, ci, shake)
    try:
        options = options_from_args(args)
        check_competition_layout(args, args.truth, [args.submission])
        prep = load(args.truth, args.submission, options)
        prep.keep_columns = False       # scored once: the text need not outlive the coding
        rep = score_prepared(prep, options)
        check_given(options, rep.definition)
        d = report_json(rep, costly=args.json)     # the human lines show no DeLong
        lines = human_lines(rep, d)
        comp = competition_json(args, rep)
        if comp is not None:
            d["competition"] = comp
            lines[1:1] = competition_lines(args, rep)
            if not args.metric:
                user = f"metric {comp['metric']} chosen by the user"
                by = f"metric {comp['metric']} of competition {comp['slug']}"
                lines[0] = lines[0].replace(user, by)
                if d.get("chosen") == user:
                    d["chosen"] = by
        groups = groups_of(rep, args) if ci or shake or args.top_fixes else None
        if ci or shake:
            apply_stats(rep, d, lines, ci, shake, groups)
        tf = fixes_for(rep, args, d)
        if tf is not None:
            lines += fix_lines(tf, args.top_fixes, groups)
    except InputError as e:
        print_problems(e, sys.stderr)
        return 2
    if not args.json and comp is None:
        lines += looks_like(args)       # last: the lines above keep their order
    print(dumps(d) if args.json else "\n".join(lines))
    return 0
