"""Flags shared by the commands: the metric options of `kmetric score`."""
from __future__ import annotations

from typing import TYPE_CHECKING

import argparse

if TYPE_CHECKING:
    from ..analysis.scoring import Options


class Parser(argparse.ArgumentParser):
    """argparse whose refusals are one line, the flag and the reason first, with the way to
    the flags' list: `kmetric: --beta: expected a number: ... (see 'kmetric score --help')`,
    exit 2. argparse's own prints the whole usage first (22 lines for `score`), and the
    line that matters comes last. The subcommands' parsers are made of this class too."""

    def parse_args(self, args=None, namespace=None):
        found, extra = self.parse_known_args(args, namespace)
        if extra:       # named here, so the hint is the subcommand's own --help
            command = getattr(found, "command", None)
            where = f"{self.prog} {command}" if command else self.prog
            self.exit(2, f"kmetric: unrecognized arguments: {' '.join(extra)} "
                         f"(see '{where} --help')\n")
        return found

    def error(self, message):
        text = " ".join(str(message).split())          # one line, whatever argparse wrote
        if text.startswith("argument "):
            text = text[len("argument "):]
        self.exit(2, f"kmetric: {text} (see '{self.prog} --help')\n")


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
    """--metric, the common flags, then every registered metric's declared options. A metric
    option's flag is in the arguments only when given (its default is the metric's own)."""
    from ..metrics import REGISTRY
    from ..metrics.schema import all_options
    s.add_argument("--metric", choices=list(REGISTRY))
    s.add_argument("--competition", metavar="SLUG",
                   help="a Kaggle competition of the catalog ('kmetric competitions'): its "
                        "metric, options, id and target columns; flags given here win")
    s.add_argument("--id-column", help="the id column; 'a,b' for a key of several columns "
                   "(image and class, trip and time)")
    s.add_argument("--target-column", help="the scored column(s): NAME, several comma-separated, "
                   "or SOLUTION=SUBMISSION where the files name it differently; the "
                   "solution's other columns are left alone")
    s.add_argument("--usage-map", metavar="VALUE=SPLIT,...",
                   help="Usage spellings beyond Public/PublicTest/Private/PrivateTest/Ignored/"
                        "None...: VALUE=public|private|ignored, comma-separated")
    s.add_argument("--extra-ids", choices=["refuse", "ignore"], default=None,
                   help="submission ids the solution lacks: refused (default), or left out "
                        "with a note (scored on the solution's ids)")
    s.add_argument("--unscored-value", type=float_arg, metavar="V",
                   help="solution rows holding V in every scored column are left out with a "
                        "note (rows of -1 in every 0/1 label column always are)")
    owners = {}
    for m in REGISTRY.values():
        for o in m.options:
            owners.setdefault(o.name, []).append(m.name)
    for o in all_options(REGISTRY.values()).values():
        if not o.cli:
            continue
        where = ", ".join(owners[o.name])
        help_text = f"{where}: {o.help}" if o.help else where
        kw = dict(dest=o.name, default=argparse.SUPPRESS, help=help_text)
        if o.type is bool and o.default:     # on unless said: the flag (--no-name) turns it off
            s.add_argument(o.flag, action="store_false", **kw)
        elif o.type is bool:
            s.add_argument(o.flag, action="store_true", **kw)
        elif o.choices:
            s.add_argument(o.flag, choices=list(o.choices), **kw)
        else:
            s.add_argument(o.flag, type=schema_arg(o), metavar=o.name.upper(), **kw)
    s.add_argument("--max-inflated-gb", type=gb_arg, metavar="GB",
                   help=".gz/.zip: refuse files inflating past this size (default: what memory holds; "
                        "also lifts the compressed-bomb check)")


def options_from_args(args: argparse.Namespace) -> Options:
    """The options of the flags given; a metric option the chosen metric does not declare is
    refused (InputError) in words."""
    from ..analysis.scoring import Options, declared_options
    from ..errors import InputError
    gb = getattr(args, "max_inflated_gb", None)
    kw = {name: getattr(args, name) for name in declared_options() if hasattr(args, name)}
    metric, id_column, target = args.metric, args.id_column, args.target_column
    extra_ids = getattr(args, "extra_ids", None)
    comp = competition_of(args)
    if comp is not None:
        from ..analysis.competitions import merged
        if metric is None or metric == comp.metric:
            metric, kw = comp.metric, merged(comp, kw)
        id_column = id_column or comp.id_column
        target = target or comp.target_column
        extra_ids = extra_ids or comp.extra_ids
    try:
        return Options(metric=metric, id_column=id_column,
                       target_column=target,
                       max_inflated=None if gb is None else int(gb * 1e9),
                       usage_map=getattr(args, "usage_map", None),
                       extra_ids=extra_ids or "refuse",
                       unscored_value=getattr(args, "unscored_value", None), **kw)
    except ValueError as e:
        raise InputError(_flagged(str(e))) from None


def competition_of(args):
    """The catalog's competition named by --competition (None: none named); InputError for
    a name the catalog lacks (the closest listed) or one no built-in scores."""
    name = getattr(args, "competition", None)
    if not name:
        return None
    from ..analysis.competitions import needs_metric_file, resolve
    comp = resolve(name)
    if not getattr(args, "metric", None) and not getattr(args, "metric_file", None):
        needs_metric_file(comp)
    return comp


def check_competition_layout(args, truth, submissions):
    """InputError (one line) when the files' headers differ from the named competition's."""
    comp = competition_of(args)
    if comp is None or args.id_column or args.target_column:
        return
    from ..io.read import read_header
    gb = getattr(args, "max_inflated_gb", None)
    limit = None if gb is None else int(gb * 1e9)
    sol = read_header(truth, "solution", limit)
    for path in submissions:
        problem = comp.layout_problem(sol, read_header(path, "submission", limit))
        if problem:
            from ..errors import InputError
            raise InputError(problem)


def competition_json(args, rep=None, options=None):
    """The JSON ``competition`` object (slug, title, metric, options in force), or None.
    ``rep`` a score report, or ``options`` the Options in force (compare, select, rank)."""
    comp = competition_of(args)
    if comp is None:
        return None
    from ..metrics import get_metric
    options = rep.options if rep is not None else options
    metric = rep.definition if rep is not None else get_metric(options.metric)
    own = {o.name for o in metric.options}
    names = [k for k in comp.options if k in own and metric.name == comp.metric]
    names += [k for k, _ in options.params if k not in names]
    values = {k: getattr(options, k) for k in names}
    d = comp.to_json({k: list(v) if isinstance(v, tuple) else v for k, v in values.items()})
    d["metric"] = metric.name
    if comp.metric_file_needed:
        d["metric_file_needed"] = comp.metric_file_needed
    return d


def competition_lines(args, rep=None, options=None):
    """Human lines: the competition resolved, and why its number may differ."""
    d = competition_json(args, rep, options)
    if d is None:
        return []
    opts = ", ".join(f"{k}={v}" for k, v in d["options"].items()) or "defaults"
    lines = [f"competition: {d['slug']} ({d['title']}): {d['metric']}, {opts}"]
    if d.get("metric_file_needed"):
        lines.append(f"note:    not the leaderboard's number: {d['metric_file_needed']}; "
                     "its metric file gives that (--metric-file)")
    return lines


def _flagged(message):
    """An option's message with its flag's spelling (``--min-rating``)."""
    name = message.split(" ", 1)[0]
    return f"--{name.replace('_', '-')}{message[len(name):]}" if name.isidentifier() else message


def check_given(options, metric):
    """InputError when a flag given is not an option of the metric in use (detected or
    chosen): it would change nothing, silently."""
    from ..errors import InputError
    foreign = options.foreign(metric)
    if foreign:
        flags = ", ".join("--" + n.replace("_", "-") for n in foreign)
        raise InputError(f"{flags}: not an option of {metric.label} ({metric.name}), the metric "
                         "in use; drop it or choose the metric with --metric")


def print_problems(error, stream):
    for line in error.problems:
        print(f"kmetric: {line}", file=stream)
