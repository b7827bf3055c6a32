"""`kmetric compare --metric-file FILE`: the built-in compare (analysis/comparison.py) with
the file registered as a Metric (metricfile.metric.FileMetric), as the app and the Python
API compare it: the same statistics, keys and words, where they differ included. What is
the file's own: its limits (time, memory, Python, sandbox), the counts capped to what fits
in its time limit, and the progress of a run that takes long (stderr)."""
import os
import sys
import time
from contextlib import contextmanager
from dataclasses import replace

from ..metricfile.notice import call_time
from .metricfile import output_notes, refusal, start, tell, unavailable
from .metricfile_stats import LONG
from .output import dumps

# The command's defaults with a metric file (every replicate is a call of foreign code);
# a count given with its flag is taken as given.
CAPS = {"replicates": ("bootstrap", 1000), "permutations": ("permutations", 1000),
        "splits": ("splits", 500)}


def _capped(args, copts, flags=("bootstrap", "permutations", "splits")):
    """``flags``: the command's own flags of these counts (the report's --splits is the
    shake-up's)."""
    return replace(copts, **{k: min(getattr(copts, k), cap) for k, (flag, cap) in CAPS.items()
                             if flag not in flags or getattr(args, flag, None) is None})


def _calls(copts, k, splits, n):
    """Calls of a compare of ``k`` files of ``n`` rows with ``splits`` Usage sides (counted
    with a metric file that logs its calls): each file's score and bootstrap per side, then
    per pair the swaps (2 a permutation), the order flips (4 a split), the blend curve
    and its held-out halves (3 x 21), and where they differ (a call a row, at most 50)."""
    pairs = k * (k - 1) // 2
    return (k * ((1 + splits) * copts.replicates + 3)
            + pairs * (2 * copts.permutations + 4 * copts.splits + 63 + min(n, 50)))


SLACK = 1.5      # measured: the calls keep the processes busy about 2/3 of the time


def _fit(copts, w, seconds, k, splits, n, notes):
    """CompareOptions whose calls fit in the first worker's time left (a note says so)."""
    from ..metricfile.kaggle import plan_replicates
    want = _calls(copts, k, splits, n)
    fit, est = plan_replicates(w, SLACK * seconds, want)
    if fit >= want:
        return copts, est
    scale = max(fit, 1) / want
    out = replace(copts, replicates=max(2, int(copts.replicates * scale)),
                  permutations=int(copts.permutations * scale),
                  splits=max(1, int(copts.splits * scale)))
    notes.append(f"{out.replicates} of {copts.replicates} bootstrap replicates, "
                 f"{out.permutations} of {copts.permutations} permutations and {out.splits} of "
                 f"{copts.splits} splits: as many as fit in the time limit")
    return out, est


def capped_compare(args, copts, w, fs, usage, notes):
    """Compare's options for a metric file: the command's caps, then what fits in the time."""
    sides = 0 if usage is None else int((usage == 0).any()) + int((usage == 1).any())
    return _fit(_capped(args, copts, ("bootstrap",)), w, fs.call_seconds, len(args.submissions),
                sides, fs.n_rows, notes)[0]


class _Said:
    """compare's progress(fraction, words) on stderr: a line every 10 s (1 s, in place, on
    a terminal), shown only for a run estimated longer than a few seconds."""

    def __init__(self, estimate, detail, stream=None):
        self.stream = stream or sys.stderr
        self.shown = estimate > LONG
        self.tty = getattr(self.stream, "isatty", lambda: False)()
        self.last = time.monotonic()
        if self.shown:
            print(f"kmetric: compare: about {estimate:.0f} s for {detail}", file=self.stream)

    def __call__(self, fraction, words):
        now = time.monotonic()
        if not self.shown or fraction >= 1 or now - self.last < (1.0 if self.tty else 10.0):
            return
        self.last = now
        text = f"kmetric: compare: {100 * fraction:.0f}% ({words})"
        print("\r" + text if self.tty else text, end="" if self.tty else "\n",
              file=self.stream, flush=True)

    def end(self):
        if self.shown and self.tty:
            print(file=self.stream)


@contextmanager
def file_metric_in_use(args, limits, say_it=True):
    """(FileMetric registered, Options of it, its first worker, FileScore of the first pair,
    Usage codes) for a command on files: the file as a Metric of the contract, as the app
    and the Python API use it; closed and unregistered after. InputError or MetricFailed."""
    from ..analysis.scoring import Options
    from ..metricfile.kaggle import metric_args, registered, score_file
    from ..metricfile.metric import PREFIX, file_metric
    first = (args.truth, args.submissions[0])
    metric = file_metric(args.metric_file, args.higher_is_better, paths=first,
                         id_column=args.id_column, workers=max(1, min(os.cpu_count() or 1, 8)),
                         executor=args.executor, limits=limits)
    try:
        w = metric.worker(*first, args.id_column)
        if say_it:
            tell(w, args)
        fs, usage = score_file(w, args.metric_arg, args.higher_is_better)   # the call's time
        own = metric_args(metric.info, args.metric_arg, w.source.name)
        metric.take_args(own)
        with registered(metric):
            yield metric, Options(metric=metric.name, id_column=args.id_column,
                                  **{PREFIX + k: v for k, v in own.items()}), w, fs, usage
    finally:
        metric.close()


def file_json(fs, w):
    """``metric_file`` of the JSON: the file, its arguments and where it ran."""
    return {"path": fs.source.path, "sha256": fs.source.sha256, "function": "score",
            "args": fs.args, **w.place()}


def run_compare(args, copts, human_lines):
    """``human_lines(cmp, d)``: compare's lines in words (cli/compare.py's)."""
    from ..analysis.comparison import compare_files
    from ..errors import Cancelled, InputError
    from ..metricfile.runner import MetricFailed
    limits = start(args, unavailable(args))
    if limits is None:
        return 2
    copts, notes = _capped(args, copts), []
    w = None
    try:
        with file_metric_in_use(args, limits) as (metric, options, w, fs, usage):
            sides = 0 if usage is None else int((usage == 0).any()) + int((usage == 1).any())
            copts, est = _fit(copts, w, fs.call_seconds, len(args.submissions), sides,
                              fs.n_rows, notes)
            said = _Said(est, f"{len(args.submissions)} files on {w.workers} processes "
                              f"({call_time(fs.call_seconds)} a call)")
            cmp = compare_files(args.truth, args.submissions, options, copts, progress=said)
            said.end()
            place, output = file_json(fs, w), w.output()
    except (InputError, MetricFailed) as e:
        return refusal(e, w)
    except Cancelled:
        print("kmetric: interrupted", file=sys.stderr)
        return 130
    d = cmp.to_json()
    d["metric_file"] = place
    if notes:
        d["warnings"] = notes + d.get("warnings", [])
    for line in cmp.problems:
        print(f"kmetric: {line}", file=sys.stderr)
    output_notes(fs.source.name, output, d)
    print(dumps(d) if args.json else "\n".join(human_lines(cmp, d)))
    return 2 if cmp.skipped else 0
