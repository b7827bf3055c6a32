"""Flags shared by the commands: the metric options of `kmetric score`."""
from __future__ import annotations

from typing import TYPE_CHECKING

import argparse

if TYPE_CHECKING:
    from ..analysis.scoring import Options


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


def schema_arg(option):
    """An argparse type reading one declared option (metrics/schema.py) in numbers.py's grammar."""
    def parse(text):
        try:
            return option.parse(text)
        except ValueError as e:
            what = {int: "a whole number", float: "a number"}.get(option.type, "a value")
            raise argparse.ArgumentTypeError(f"expected {what}: {e}") from None
    parse.__name__ = option.name
    return parse


def add_metric_options(s: argparse.ArgumentParser) -> None:
    """--metric, the common flags, then every registered metric's declared options."""
    from ..metrics import REGISTRY
    from ..metrics.schema import all_options
    s.add_argument("--metric", choices=list(REGISTRY))
    s.add_argument("--id-column")
    s.add_argument("--target-column")
    owners = {}
    for m in REGISTRY.values():
        for o in m.options:
            owners.setdefault(o.name, []).append(m.name)
    for o in all_options(REGISTRY.values()).values():
        where = ", ".join(owners[o.name])
        help_text = f"{where}: {o.help}" if o.help else where
        if o.type is bool and o.default:     # on unless said: --name / --no-name
            s.add_argument(o.flag, dest=o.name, action=argparse.BooleanOptionalAction,
                           default=True, help=help_text)
        elif o.type is bool:
            s.add_argument(o.flag, dest=o.name, action="store_true", help=help_text)
        elif o.choices:
            s.add_argument(o.flag, dest=o.name, choices=list(o.choices), default=o.default,
                           help=help_text)
        else:
            s.add_argument(o.flag, dest=o.name, type=schema_arg(o), default=o.default,
                           metavar=o.name.upper(), help=help_text)
    s.add_argument("--max-inflated-gb", type=gb_arg, metavar="GB",
                   help=".gz/.zip: refuse files inflating past this size (default: what memory holds; "
                        "also lifts the compressed-bomb check)")


def options_from_args(args: argparse.Namespace) -> Options:
    from ..analysis.scoring import Options, declared_options
    gb = getattr(args, "max_inflated_gb", None)
    kw = {name: getattr(args, name) for name in declared_options() if hasattr(args, name)}
    return Options(metric=args.metric, id_column=args.id_column, target_column=args.target_column,
                   max_inflated=None if gb is None else int(gb * 1e9)).with_(**kw)


def print_problems(error, stream):
    for line in error.problems:
        print(f"kmetric: {line}", file=stream)
