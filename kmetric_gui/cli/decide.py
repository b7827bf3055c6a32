"""What `kmetric compare`, `select` and `rank` do around their analysis: the flags'
problems, the metric's options, the competition named, the output (words or JSON) and
the exit code, the same for the three."""
import sys

from .options import (check_given, competition_json, competition_lines, options_from_args,
                      print_problems)
from .output import dumps


def run_analysis(args, parsed, compute, human, *, definition, stderr=lambda result, d: [],
                 failed=lambda result: False):
    """``parsed``: (the command's own options, problems); ``compute(options, own)``: the
    result (with ``to_json()``); ``definition(result)``: its metric's definition (None:
    nothing scored); ``human(result, d)``: the lines in words. Returns the exit code."""
    from ..errors import InputError
    own, problems = parsed
    for line in problems:
        print(f"kmetric: {line}", file=sys.stderr)
    if problems:
        return 2
    try:
        options = options_from_args(args)
        result = compute(options, own)
        d_metric = definition(result)
        if d_metric is not None:
            check_given(options, d_metric)
    except InputError as e:
        print_problems(e, sys.stderr)
        return 2
    d = result.to_json()
    lines = []
    if getattr(args, "competition", None) and d.get("metric"):
        in_force = options.with_(metric=d["metric"])
        d["competition"] = competition_json(args, options=in_force)
        lines = competition_lines(args, options=in_force)
    for line in stderr(result, d):
        print(f"kmetric: {line}", file=sys.stderr)
    print(dumps(d) if args.json else "\n".join(lines + human(result, d)))
    return 2 if failed(result) else 0
