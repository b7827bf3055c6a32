"""Flags shared by the commands: the metric options of `kmetric score`."""
import argparse
import math


def int_arg(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def float_arg(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(v):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return v


def add_metric_options(s):
    from ..metrics import METRIC_NAMES
    s.add_argument("--metric", choices=list(METRIC_NAMES))
    s.add_argument("--weights", choices=["quadratic", "linear", "none"], default="quadratic")
    s.add_argument("--min-rating", type=int_arg)
    s.add_argument("--max-rating", type=int_arg)
    s.add_argument("--id-column")
    s.add_argument("--target-column")
    s.add_argument("--ties", choices=["worst", "original"], default="worst")
    s.add_argument("--beta", type=float_arg, default=0.5)
    s.add_argument("--threshold", type=float_arg, default=0.5)
    s.add_argument("--matching", choices=["one-to-one", "many-to-one"], default="one-to-one")
    s.add_argument("--clean", action="store_true", help="F-beta: clean text as in the competition")


def options_from_args(args):
    from ..scoring import Options
    return Options(metric=args.metric, weights=args.weights, min_rating=args.min_rating,
                   max_rating=args.max_rating, id_column=args.id_column,
                   target_column=args.target_column, ties=args.ties, beta=args.beta,
                   threshold=args.threshold, matching=args.matching, clean=args.clean)


def print_problems(error, stream):
    for line in error.problems:
        print(f"kmetric: {line}", file=stream)
