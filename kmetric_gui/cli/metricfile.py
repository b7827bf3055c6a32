"""`--metric-file FILE`: score with a competition's own metric file (kmetric_gui.metricfile)."""
import json
import math
import sys

from .stats import _number


def add_metric_file_options(s, fixes=False):
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
    if fixes:
        g.add_argument("--fix-budget", metavar="SECONDS",
                       help="with --top-fixes: seconds for re-scoring single fixes, largest error "
                            "first (default 60); the list says when it is approximate")


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


def say(lines):
    """Problems on stderr, one line each; the exit code 2."""
    for line in lines:
        print(f"kmetric: {line}", file=sys.stderr)
    return 2


def start(args, more=(), notice=True):
    """(timeout, memory) after the once-per-file notice, or None once the flags'
    problems (the limits', then ``more``) are printed."""
    problems = []
    limits = _limits(args, problems)
    problems += list(more)
    if problems:
        say(problems)
        return None
    if notice:
        _tell_once(args.metric_file)
    return limits


def refusal(e):
    """A refused input (every problem) or a failed metric (its one line): exit 2."""
    return say(getattr(e, "problems", None) or [str(e)])


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
    more, budget = [], None
    if getattr(args, "fix_budget", None) is not None:
        budget = _number(args.fix_budget, "--fix-budget", more)
        if budget is not None and budget <= 0:
            more.append(f"--fix-budget must be above 0; got {args.fix_budget}")
    limits = start(args, more)
    if limits is None:
        return 2
    import os
    timeout, memory = limits
    top = getattr(args, "top_fixes", None)
    workers = max(1, min(os.cpu_count() or 1, 8)) if ci or shake or top else 1
    try:
        with open_worker(args.metric_file, (args.truth, args.submission), args.id_column,
                         timeout, memory, workers, args.executor) as w:
            fs, usage = score_file(w, args.metric_arg, args.higher_is_better)
            d, lines = to_json(fs), human_lines(fs)
            if ci is not None:
                _interval(w, fs, usage, ci, d, lines, bootstrap)
            if shake is not None:
                from .metricfile_stats import shakeup_into
                shakeup_into(w, fs, usage, shake, d, lines)
            if top:
                from .metricfile_stats import fixes_into
                fixes_into(w, fs, usage, top, budget, d, lines)
            printed = w.printed()
        _parity(args, fs, d, lines)
    except (InputError, MetricFailed) as e:
        return refusal(e)
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
    from ..analysis.stats import interval_text
    from ..metricfile.kaggle import plan_replicates
    from .metricfile_stats import Progress
    b, est = plan_replicates(w, fs.call_seconds, ci.replicates)
    if b < 2:
        raise MetricFailed(f"metric file {fs.source.name}: one call takes {fs.call_seconds:.1f} s; no "
                           "bootstrap fits in the time left (raise --metric-timeout)")
    progress = Progress("bootstrap", est, f"{b} replicates on {w.workers} processes "
                        f"({fs.call_seconds:.2f} s a call)")
    import time
    until = time.monotonic() + 0.85 * w.remaining()     # workers starting late cannot overrun
    values, failed = bootstrap(w, fs, usage, b, ci.seed, progress=progress, until=until)
    progress.end()
    b = len(values)
    if b < ci.replicates:
        lines.append(f"note: {b} of {ci.replicates} replicates, as many as fit in the time limit")
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
    limits = start(args)
    if limits is None:
        return 2
    timeout, memory = limits
    try:
        d = compare_with_file(args.metric_file, args.truth, args.submissions, args.metric_arg,
                              args.higher_is_better, args.id_column, timeout, memory, copts.level,
                              min(copts.replicates, 1000) if args.bootstrap is None else copts.replicates,
                              copts.seed, args.executor,
                              copts.permutations if args.permutations else min(copts.permutations, 1000),
                              copts.splits if args.splits else min(copts.splits, 500),
                              copts.public_fraction, copts.alphas or 101, _progress_for)
    except (InputError, MetricFailed) as e:
        return refusal(e)
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
        if p["permutations"]:
            print(f"      p-value {_fmt(p['p_value'])} ({p['permutations']} random swaps of each "
                  "row's predictions, two-sided)")
        if p["p_order_flips"] is not None:
            print(f"      P(order flips) {p['p_order_flips']:.3f} (random splits, "
                  f"{100 * d['public_fraction']:.0f}% Public)")
        b = p.get("blend")
        if b and b["best_alpha"] is not None:
            print(f"      blend {p['a']} x alpha + {p['b']} x (1 - alpha): best alpha "
                  f"{b['best_alpha']:.2f} scores {_fmt(b['best_score'])}")
    for w in d.get("warnings", []):
        print(f"note: {w}")
    return 0


def _progress_for(what, estimate, detail):
    from .metricfile_stats import Progress
    return Progress(what, estimate, detail)
