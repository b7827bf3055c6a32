"""`kmetric check-metric FILE`: a metric file's doctests, run as Kaggle runs them
when a metric notebook is saved (in a worker process, like scoring)."""
import sys


def register(sub):
    s = sub.add_parser("check-metric", help="run a metric file's doctests (its self-check)")
    s.add_argument("metric_file", metavar="FILE", help="a Kaggle metric file (.py or .ipynb)")
    s.add_argument("--metric-timeout", metavar="SECONDS", help="time limit (default 1800)")
    s.add_argument("--metric-sandbox", metavar="auto|off|require", default="auto",
                   help="the sandbox, as for `kmetric score --metric-file`")
    s.add_argument("--metric-python", metavar="PATH", help="run it in another Python")
    s.set_defaults(run=run)
    return s


def run(args):
    from ..errors import InputError
    from ..metricfile.runner import MetricFailed, MetricWorker
    from ..metricfile.source import load_source
    from .metricfile import refusal, start, tell
    args.metric_memory_gb, args.executor = None, "local"
    limits = start(args)
    if limits is None:
        return 2
    w = None
    try:
        source = load_source(args.metric_file)
        with MetricWorker(source, (), None, limits) as w:
            tell(w, args)
            attempted, failed, report = w.doctests()
    except (InputError, MetricFailed) as e:
        return refusal(e, w)
    if not attempted:
        print(f"{source.name}: no doctests to run")
        return 0
    if failed:
        sys.stdout.write(report)
        print(f"{source.name}: {failed} of {attempted} doctest examples failed")
        return 2
    print(f"{source.name}: all {attempted} doctest examples passed")
    return 0
