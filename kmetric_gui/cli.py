"""`kmetric` command: score a Kaggle solution/submission pair headless.

Exit codes: 0 scored (an undefined score too), 2 invalid input (one line
per problem on stderr), 1 a bug (one line; KMETRIC_DEBUG=1 shows the trace).
"""
import argparse
import json
import math
import os
import sys

from . import __version__


def _int(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def _float(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(v):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return v


def build_parser():
    p = argparse.ArgumentParser(prog="kmetric", description="Kaggle metric scoring.")
    p.add_argument("--version", action="version", version=f"kmetric {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("score", help="score a submission against a solution file")
    s.add_argument("truth", help="solution file (CSV, TSV, .gz, .zip, Parquet)")
    s.add_argument("submission", help="submission file")
    s.add_argument("--metric", choices=["qwk", "lwlrap", "fbeta"])
    s.add_argument("--weights", choices=["quadratic", "linear", "none"], default="quadratic")
    s.add_argument("--min-rating", type=_int)
    s.add_argument("--max-rating", type=_int)
    s.add_argument("--id-column")
    s.add_argument("--target-column")
    s.add_argument("--ties", choices=["worst", "original"], default="worst")
    s.add_argument("--beta", type=_float, default=0.5)
    s.add_argument("--threshold", type=_float, default=0.5)
    s.add_argument("--matching", choices=["one-to-one", "many-to-one"], default="one-to-one")
    s.add_argument("--clean", action="store_true", help="F-beta: clean text as in the competition")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def _fmt(x):
    return "undefined" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.6f}"


def _human(rep):
    from .scoring import report_json
    d = report_json(rep)
    lines = [f"metric:  {rep.metric}  ({rep.reason})",
             f"layout:  {rep.layout}",
             f"rows:    {rep.n_rows}",
             f"score:   {_fmt(d['score'])}"]
    if d.get("undefined_reason"):
        lines.append(f"         undefined: {d['undefined_reason']}")
    for name in ("public", "private"):
        if name in d:
            lines.append(f"{name + ':':<9}{_fmt(d[name])}")
    if rep.metric == "fbeta":
        lines.append(f"counts:  TP {d['tp']}  FP {d['fp']}  FN {d['fn']}  "
                     f"(precision {_fmt(d['precision'])}, recall {_fmt(d['recall'])})")
    if rep.metric == "lwlrap" and d["tied_positives"]:
        lines.append(f"ties:    {d['tied_positives']} positive label(s) tie another class's "
                     f"score (counted as '{d['ties']}')")
    return "\n".join(lines)


def score_command(args):
    from .errors import InputError
    from .scoring import Options, score_files
    opts = Options(metric=args.metric, weights=args.weights, min_rating=args.min_rating,
                   max_rating=args.max_rating, id_column=args.id_column,
                   target_column=args.target_column, ties=args.ties, beta=args.beta,
                   threshold=args.threshold, matching=args.matching, clean=args.clean)
    try:
        rep = score_files(args.truth, args.submission, opts)
    except InputError as e:
        for line in e.problems:
            print(f"kmetric: {line}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(rep.to_json()))
    else:
        print(_human(rep))
    return 0


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return score_command(args)
    except KeyboardInterrupt:
        print("kmetric: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug: one line, never a traceback unless asked
        if os.environ.get("KMETRIC_DEBUG"):
            raise
        print(f"kmetric: internal error ({type(e).__name__}: {e}); "
              "rerun with KMETRIC_DEBUG=1 for details and report it", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
