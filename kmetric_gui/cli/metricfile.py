"""`--metric-file FILE`: score with a competition's own metric file (kmetric_gui.metricfile)."""
import json
import math
import sys

from .stats import _number


def add_metric_file_options(s):
    g = s.add_argument_group("a competition's own metric file (Kaggle's score() function)")
    g.add_argument("--metric-file", metavar="FILE",
                   help="score with FILE's score(solution, submission, row_id_column_name, ...) "
                        "(.py or .ipynb); the file runs as code in a separate process")
    g.add_argument("--metric-arg", metavar="NAME=VALUE", action="append", default=[],
                   help="an extra argument of score() (repeatable), typed from its signature")
    d = g.add_mutually_exclusive_group()
    d.add_argument("--higher-is-better", dest="higher_is_better", action="store_const", const=True)
    d.add_argument("--lower-is-better", dest="higher_is_better", action="store_const", const=False)
    g.add_argument("--metric-timeout", metavar="SECONDS",
                   help="stop the metric after this many seconds in all (default 1800, Kaggle's)")
    g.add_argument("--metric-memory-gb", metavar="GB", help="memory limit of the metric's process")
    g.add_argument("--executor", metavar="local|dask:ADDRESS", default="local",
                   help="where the bootstrap's calls run: local processes (default) or an existing "
                        "Dask cluster (needs the 'cluster' extra; its workers must see the files' paths)")


def _limits(args, problems):
    timeout = memory = None
    if args.metric_timeout is not None:
        timeout = _number(args.metric_timeout, "--metric-timeout", problems)
        if timeout is not None and timeout <= 0:
            problems.append(f"--metric-timeout must be above 0; got {args.metric_timeout}")
    if args.metric_memory_gb is not None:
        memory = _number(args.metric_memory_gb, "--metric-memory-gb", problems)
        if memory is not None and memory <= 0:
            problems.append(f"--metric-memory-gb must be above 0; got {args.metric_memory_gb}")
    if args.executor != "local" and not (args.executor.startswith("dask:") and len(args.executor) > 5):
        problems.append(f"--executor expects local or dask:ADDRESS; got '{args.executor}'")
    return timeout, memory


def _tell_once(metric_file):
    """The once-per-file notice that a metric file runs as code here (stderr)."""
    from ..metricfile.seen import NOTICE, first_time
    from ..metricfile.source import load_source
    try:
        source = load_source(metric_file)
    except Exception:
        return                      # the run itself reports what is wrong with the file
    if first_time(source.sha256):
        print("kmetric: note: " + NOTICE.format(name=source.name), file=sys.stderr)


def _fmt(x):
    return "undefined" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.6f}"


def to_json(fs):
    d = {"metric": f"file:{fs.source.name}",
         "metric_file": {"path": fs.source.path, "sha256": fs.source.sha256, "function": "score",
                         "args": fs.args},
         "score": fs.score, "higher_is_better": fs.higher_is_better, "n_rows": fs.n_rows}
    d.update(fs.splits)
    return d


def human_lines(fs):
    lines = [f"metric:  file {fs.source.name}  ({'higher' if fs.higher_is_better else 'lower'} is better)",
             f"rows:    {fs.n_rows}", f"score:   {_fmt(fs.score)}"]
    for name, v in fs.splits.items():
        lines.append(f"{name + ':':<9}{_fmt(v)}")
    if fs.args:
        lines.append("args:    " + ", ".join(f"{k}={v!r}" for k, v in fs.args.items()))
    return lines


def run_score(args, ci, shake):
    from ..errors import Cancelled, InputError
    from ..metricfile.kaggle import MetricFailed, bootstrap, open_worker, score_file
    problems = []
    timeout, memory = _limits(args, problems)
    if shake is not None:
        problems.append("--shakeup is not available with --metric-file yet")
    if problems:
        for line in problems:
            print(f"kmetric: {line}", file=sys.stderr)
        return 2
    import os
    _tell_once(args.metric_file)
    workers = max(1, min(os.cpu_count() or 1, 8)) if ci else 1
    try:
        with open_worker(args.metric_file, (args.truth, args.submission), args.id_column,
                         timeout, memory, workers, args.executor) as w:
            fs, usage = score_file(w, args.metric_arg, args.higher_is_better)
            d, lines = to_json(fs), human_lines(fs)
            if ci is not None:
                _interval(w, fs, usage, ci, d, lines, bootstrap)
            printed = w.printed()
        _parity(args, fs, d, lines)
    except InputError as e:
        for line in e.problems:
            print(f"kmetric: {line}", file=sys.stderr)
        return 2
    except MetricFailed as e:
        print(f"kmetric: {e}", file=sys.stderr)
        return 2
    except Cancelled:
        print("kmetric: interrupted", file=sys.stderr)
        return 130
    if printed.strip():
        first = printed.strip().splitlines()[0][:120]
        print(f"kmetric: note: metric file {fs.source.name} printed to standard output "
              f"(kept out of this output); its first line: {first}", file=sys.stderr)
    print(json.dumps(d) if args.json else "\n".join(lines))
    return 0


def _parity(args, fs, d, lines):
    """A built-in beside the file (named with --metric, or detection's when it agrees)."""
    from .options import options_from_args
    from ..metricfile.parity import parity
    p, note = parity(args.truth, args.submission, options_from_args(args), fs.score, fs.n_rows)
    if p is not None:
        d["parity"] = p
    if note:
        lines.append(f"parity:  {note}")


def _interval(w, fs, usage, ci, d, lines, bootstrap):
    from ..core.intervals import percentile_interval
    from ..metricfile.runner import MetricFailed
    from ..stats import interval_text
    from ..metricfile.kaggle import plan_replicates
    b, est = plan_replicates(w, fs.call_seconds, ci.replicates)
    if b < 2:
        raise MetricFailed(f"metric file {fs.source.name}: one call takes {fs.call_seconds:.1f} s; no "
                           "bootstrap fits in the time left (raise --metric-timeout)")
    if est > 5:
        print(f"kmetric: bootstrap: about {est:.0f} s for {b} replicates on {w.workers} processes "
              f"({fs.call_seconds:.2f} s a call)", file=sys.stderr)
    if b < ci.replicates:
        lines.append(f"note: {b} of {ci.replicates} replicates, as many as fit in the time limit")
    values, failed = bootstrap(w, fs, usage, b, ci.seed)
    iv = percentile_interval(values, ci.level)
    d["ci"] = iv.to_dict(ci.seed)
    for i, line in enumerate(lines):
        if line.startswith("score:"):
            lines[i] = f"{line}  {interval_text(iv, ci.seed)}"
    if failed:
        kinds = sorted({r[1] for r in failed})[:3]
        lines.append(f"note: {len(failed)} of {b} replicates failed in the metric and "
                     f"count as undefined ({'; '.join(kinds)})")


def run_compare(args, copts):
    from ..errors import InputError
    from ..metricfile.compare import compare_with_file
    from ..metricfile.runner import MetricFailed
    problems = []
    timeout, memory = _limits(args, problems)
    if problems:
        for line in problems:
            print(f"kmetric: {line}", file=sys.stderr)
        return 2
    _tell_once(args.metric_file)
    try:
        d = compare_with_file(args.metric_file, args.truth, args.submissions, args.metric_arg,
                              args.higher_is_better, args.id_column, timeout, memory, copts.level,
                              min(copts.replicates, 1000) if args.bootstrap is None else copts.replicates,
                              copts.seed, args.executor)
    except InputError as e:
        for line in e.problems:
            print(f"kmetric: {line}", file=sys.stderr)
        return 2
    except MetricFailed as e:
        print(f"kmetric: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(d))
        return 0
    word = "higher" if d["higher_is_better"] else "lower"
    print(f"metric:  {d['metric']} ({word} is better), {d['n_units']} rows; "
          f"{100 * copts.level:g}% intervals by re-scoring resampled rows")
    for s in d["submissions"]:
        ci = s["ci"]
        print(f"  {s['name']}: {_fmt(s['score'])} [{_fmt(ci['low'])}, {_fmt(ci['high'])}]")
    for p in d["pairs"]:
        ci = p["delta_ci"]
        share = "-" if p["p_b_better"] is None else f"{p['p_b_better']:.3f}"
        print(f"  {p['b']} - {p['a']}: {p['delta']:+.6f} [{_fmt(ci['low'])}, {_fmt(ci['high'])}]; "
              f"share of replicates where {p['b']} is better: {share}")
    return 0
