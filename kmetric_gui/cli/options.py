"""Flags shared by the commands: the metric options of `kmetric score`."""
from __future__ import annotations

from typing import TYPE_CHECKING

import argparse

if TYPE_CHECKING:
    from ..scoring import Options


def int_arg(text):
    """A whole number in the strict grammar of numbers.py (no hex, no underscores)."""
    from ..numbers import parse_rating
    try:
        return parse_rating(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"expected a whole number: {e}") from None


def float_arg(text):
    """A finite decimal number in the strict grammar of numbers.py."""
    from ..numbers import parse_number
    try:
        return parse_number(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"expected a number: {e}") from None


def gb_arg(text):
    v = float_arg(text)
    if v <= 0:
        raise argparse.ArgumentTypeError(f"expected a size in GB above 0, got {text}")
    return v


def add_metric_options(s: argparse.ArgumentParser) -> None:
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
    s.add_argument("--max-inflated-gb", type=gb_arg, metavar="GB",
                   help=".gz/.zip: refuse files inflating past this size (default: what memory holds; "
                        "also lifts the compressed-bomb check)")


def options_from_args(args: argparse.Namespace) -> Options:
    from ..scoring import Options
    return Options(metric=args.metric, weights=args.weights, min_rating=args.min_rating,
                   max_rating=args.max_rating, id_column=args.id_column,
                   target_column=args.target_column, ties=args.ties, beta=args.beta,
                   threshold=args.threshold, matching=args.matching, clean=args.clean,
                   max_inflated=(None if getattr(args, "max_inflated_gb", None) is None
                                 else int(args.max_inflated_gb * 1e9)))


def print_problems(error, stream):
    for line in error.problems:
        print(f"kmetric: {line}", file=stream)
