"""`--metric-file FILE`: score with a competition's own metric file (kmetric_gui.metricfile)."""
from .output import dumps
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
    g.add_argument("--metric-memory-gb", metavar="GB",
                   help="memory limit of each of the metric's processes (default: half the RAM)")
    g.add_argument("--metric-sandbox", metavar="auto|off|require", default="auto",
                   help="Linux with bubblewrap: run the metric with no network and the files "
                        "read-only but its scratch folder (auto: where it works; require: refuse "
                        "to run without it)")
    g.add_argument("--metric-python", metavar="PATH",
                   help="run the metric in another Python (e.g. a venv with older pandas); it "
                        "needs pandas and pyarrow")
    g.add_argument("--executor", metavar="local|dask:ADDRESS", default="local",
                   help="where the bootstrap's calls run: local processes (default) or an existing "
                        "Dask cluster (needs the 'cluster' extra; its workers must see the files' paths)")
    if fixes:
        g.add_argument("--fix-budget", metavar="SECONDS",
                       help="with --top-fixes: seconds for re-scoring single fixes, largest error "
                            "first (default 60); the list says when it is approximate")


def _limits(args, problems):
    """The run's Limits from the flags (each problem one line)."""
    import os

    from ..metricfile.runner import Limits
    from ..metricfile.sandbox import MODES
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
    mode = getattr(args, "metric_sandbox", "auto") or "auto"
    if mode not in MODES:
        problems.append(f"--metric-sandbox expects auto, off or require; got '{mode}'")
    python = getattr(args, "metric_python", None)
    if python is not None:
        why = python_problem(python)
        if why:
            problems.append(f"--metric-python {python}: {why}")
        python = os.path.abspath(python)
    return Limits(timeout if timeout is not None else Limits().timeout, memory, python, mode)


def python_problem(path):
    """Why ``path`` cannot be another Python to run a metric in, or None."""
    import os
    if not os.path.exists(path):
        return "no such file"
    if os.path.isdir(path):
        return "a folder, not a Python interpreter (give e.g. VENV/bin/python)"
    if not os.access(path, os.X_OK):
        return "not an executable file"
    return None


def tell(w, args):
    """Start the run's processes and say, once per content and place, that the file is
    code running with the user's rights (and the sandbox's limits, if any). stderr."""
    from ..metricfile import notice
    from ..metricfile.seen import first_note
    env = w.start()
    if env is None:
        return
    state = env["sandbox"]
    key = f"{w.source.sha256}:{'sandbox' if state.used else 'none'}:{w.limits.python or 'own'}"
    if first_note(key):
        for line in notice.note(w.source.name, state, w.limits, env):
            print(f"kmetric: note: {line}", file=sys.stderr)


def say(lines):
    """Problems on stderr, one line each; the exit code 2."""
    for line in lines:
        print(f"kmetric: {line}", file=sys.stderr)
    return 2


def start(args, more=(), notice=True):
    """The run's Limits, or None once the flags' problems (the limits', then ``more``)
    are printed. (The note comes with the run: ``tell``.)"""
    problems = []
    limits = _limits(args, problems)
    problems += list(more)
    if problems:
        say(problems)
        return None
    return limits


def refusal(e, w=None):
    """A refused input (every problem) or a failed metric (its one line): exit 2; what
    the metric wrote (``w``) said after it, cut."""
    code = say(getattr(e, "problems", None) or [str(e)])
    if w is not None:
        output_notes(w.source.name, w.output())
    return code


def _fmt(x):
    return "undefined" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.6f}"


def to_json(fs, w=None):
    """The score object; ``w`` (the run's MetricWorker) adds where it ran: its Python,
    the sandbox, the limits (``metric_file.python``, ``.sandbox``, ...)."""
    d = {"metric": f"file:{fs.source.name}",
         "metric_file": {"path": fs.source.path, "sha256": fs.source.sha256, "function": "score",
                         "args": fs.args, **(w.place() if w is not None else {})},
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


def unavailable(args):
    """Statistics flags a metric file cannot honour, each refused in one line (never
    ignored): they need the metric's per-row statistics, which a metric file does not give."""
    out = []
    if getattr(args, "coverage_check", False):
        out.append("--coverage-check is not available with --metric-file: it needs the metric's "
                   "per-row statistics (a metric file would re-score 200 simulated data sets "
                   "times the replicates)")
    for flag in ("group_column", "groups"):
        if getattr(args, flag, None) is not None:
            out.append(f"--{flag.replace('_', '-')} is not available with --metric-file: "
                       "whole groups are resampled from the metric's per-row statistics")
    return out


def run_score(args, ci, shake):
    from ..errors import Cancelled, InputError
    from ..metricfile.kaggle import MetricFailed, bootstrap, open_worker, score_file
    more, budget = unavailable(args), None
    if getattr(args, "fix_budget", None) is not None:
        budget = _number(args.fix_budget, "--fix-budget", more)
        if budget is not None and budget <= 0:
            more.append(f"--fix-budget must be above 0; got {args.fix_budget}")
    limits = start(args, more)
    if limits is None:
        return 2
    import os
    top = getattr(args, "top_fixes", None)
    workers = max(1, min(os.cpu_count() or 1, 8)) if ci or shake or top else 1
    w = None
    try:
        with open_worker(args.metric_file, (args.truth, args.submission), args.id_column,
                         workers=workers, executor=args.executor, limits=limits) as w:
            tell(w, args)
            fs, usage = score_file(w, args.metric_arg, args.higher_is_better)
            d, lines = to_json(fs, w), human_lines(fs)
            if ci is not None:
                _interval(w, fs, usage, ci, d, lines, bootstrap)
            if shake is not None:
                from .metricfile_stats import shakeup_into
                shakeup_into(w, fs, usage, shake, d, lines)
            if top:
                from .metricfile_stats import fixes_into
                fixes_into(w, fs, usage, top, budget, d, lines)
            output = w.output()
        _parity(args, fs, d, lines)
    except (InputError, MetricFailed) as e:
        return refusal(e, w)
    except Cancelled:
        print("kmetric: interrupted", file=sys.stderr)
        return 130
    output_notes(fs.source.name, output, d)
    print(dumps(d) if args.json else "\n".join(lines))
    return 0


def output_notes(name, output, d=None):
    """What the metric wrote to its standard output and error: captured (never passed on),
    said in a line each, cut; the sizes in JSON (``metric_file.output``)."""
    for stream, verb, where in (("stdout", "printed", "standard output"),
                                ("stderr", "wrote", "standard error")):
        text, total = output.get(stream, ("", 0))
        if d is not None:
            d["metric_file"].setdefault("output", {})[f"{stream}_bytes"] = total
        if not total:
            continue
        lines = text.strip().splitlines()
        first = cut(" ".join(lines[0].split()), 120) if lines else ""
        print(f"kmetric: note: metric file {name} {verb} {_size(total)} to {where} (kept out of this output)"
              + (f"; its first line: {first}" if first else ""), file=sys.stderr)


def _size(n):
    for unit, scale in (("MB", 1 << 20), ("kB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def cut(text, limit):
    from ..metricfile.worker import cut as _cut
    return _cut(text, limit)


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
    from ..metricfile.runner import MetricFailed
    from ..analysis.stats import file_interval, interval_text
    from ..metricfile.kaggle import plan_replicates
    from ..metricfile.notice import call_time
    from .metricfile_stats import Progress
    b, est = plan_replicates(w, fs.call_seconds, ci.replicates)
    if b < 2:
        raise MetricFailed(f"metric file {fs.source.name}: one call takes {fs.call_seconds:.1f} s; no "
                           "bootstrap fits in the time left (raise --metric-timeout)")
    progress = Progress("bootstrap", est, f"{b} replicates on {w.workers} processes "
                        f"({call_time(fs.call_seconds)} a call)")
    import time
    until = time.monotonic() + 0.85 * w.remaining()     # workers starting late cannot overrun
    values, failed = bootstrap(w, fs, usage, b, ci.seed, progress=progress, until=until)
    progress.end()
    b = len(values)
    if b < ci.replicates:
        lines.append(f"note: {b} of {ci.replicates} replicates, as many as fit in the time limit")
    iv = file_interval(values, ci.level, fs.n_rows)
    d["ci"] = iv.to_dict(ci.seed)
    for i, line in enumerate(lines):
        if line.startswith("score:"):
            lines[i] = f"{line}  {interval_text(iv, ci.seed)}"
            lines[i + 1:i + 1] = [f"         warning: {w}" for w in iv.warnings]
            break
    if failed:
        kinds = sorted({r[1] for r in failed})[:3]
        lines.append(f"note: {len(failed)} of {b} replicates failed in the metric and "
                     f"count as undefined ({'; '.join(kinds)})")

