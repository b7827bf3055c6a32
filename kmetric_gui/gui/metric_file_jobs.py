"""What the app asks of a metric file, as job functions for the worker threads
(gui/jobs.py). The metric's code runs in its worker process (metricfile/runner.py);
these functions only wait on it, with the job's Cancel wired to kill that process.
Scoring is the session's: the file's first score of a pair is its FileMetric's load and
score (``first_score``), and every score the dock shows is the session's (``shown``).
No Qt here."""
from dataclasses import dataclass

from ..errors import InputError
from ..metricfile.runner import DEFAULT_TIMEOUT, Limits, MetricWorker
from ..metricfile.source import load_source

INSPECT_TIMEOUT = 120.0       # loading the file and reading its signature
WORKER_NICE = 10              # the metric's processes yield the CPU to the window


@dataclass(frozen=True)
class Run:
    """Everything a run needs, read on the UI thread (plain values)."""
    source: object            # MetricSource the user agreed to run
    truth: str
    submission: str
    id_column: "str | None"
    texts: tuple              # NAME=VALUE arguments
    higher_is_better: bool
    timeout: float = DEFAULT_TIMEOUT
    python: "str | None" = None   # another Python (--metric-python), None: kmetric's own
    sandbox: str = "auto"         # --metric-sandbox

    @property
    def key(self):
        return (self.source.sha256, self.truth, self.submission, self.id_column, self.texts,
                self.higher_is_better, self.python, self.sandbox)

    def limits(self):
        return Limits(self.timeout, python=self.python, sandbox=self.sandbox, keep=True)


@dataclass(frozen=True)
class Scored:
    run: Run
    fs: object                # metricfile.kaggle.FileScore
    usage: object
    place: dict = None        # where it ran: Python, libraries, sandbox (MetricWorker.place)
    output: dict = None       # what it wrote: {"stdout"|"stderr": (first text, bytes)}


def _unchanged(source):
    """The file as the user agreed to run it: refused when its content changed since."""
    now = load_source(source.path)
    if now.sha256 != source.sha256:
        raise InputError(f"metric file {source.name} changed on disk since it was opened (its sha256 "
                         "differs): open it again to run the new content")


def read(path, sandbox_mode="auto"):
    """(the file's source, the sandbox a run would get): said in the question before it runs."""
    from ..metricfile.sandbox import probe
    return load_source(path), probe(sandbox_mode)


def inspect(source, cancel, python=None, sandbox="auto"):
    """The signature, docstring and declared direction (the file's code runs: in its worker)."""
    with MetricWorker(source, (), None, Limits(INSPECT_TIMEOUT, python=python, sandbox=sandbox,
                                              keep=True)) as w:
        w.cancel_check = cancel
        return w.inspect()


def doctests(source, cancel, python=None, sandbox="auto"):
    with MetricWorker(source, (), None, Limits(python=python, sandbox=sandbox, keep=True)) as w:
        w.cancel_check = cancel
        return w.doctests()


@dataclass(frozen=True)
class First:
    """The file's first score of the pair, read and scored by its FileMetric as the
    window's own load does: handed to the session as its data, never scored again."""
    prep: object
    report: object
    truth: str
    submission: str


def first_score(metric, truth, submission, options, progress, cancel):
    """The session's load and score of the pair with the (registered) metric file; on a
    worker thread. A failure leaves the data shown as it was (nothing is installed)."""
    from ..analysis.scoring import load, score_prepared
    _unchanged(metric.source)
    progress(0.1, f"running {metric.source.name} in its own processes")
    prep = load(truth, submission, options, progress, cancel)
    report = score_prepared(prep, options, progress, cancel)
    prep.id_array                 # converted here, as the window's own load does
    return First(prep, report, truth, submission)


def shown(run, metric, report):
    """The session's score by the metric file, as the dock shows it (a Scored of the
    table's data: its edits included)."""
    from ..metricfile.kaggle import FileScore
    r = report.result
    w = getattr(r, "worker", None)
    prep = report.prepared
    fs = FileScore(metric.source, metric.call_args(report.options), metric.higher_is_better,
                   report.n_rows, report.score,
                   {k: v.score for k, v in report.splits.items() if k in ("public", "private")},
                   getattr(prep, "id_column", "") or "", "", (metric.info or {}).get("doc", ""),
                   getattr(r, "seconds", 0.0) or 0.0)
    place = w.place() if w is not None else None
    output = w.output() if w is not None else None
    return Scored(run, fs, getattr(prep, "usage", None), place, output)


def compare(run, others, level, replicates, seed, progress, cancel):
    """`kmetric compare --json` of the submission and the others under the metric file."""
    from ..metricfile.compare import compare_with_file
    _unchanged(run.source)
    return compare_with_file(run.source.path, run.truth, [run.submission, *others], run.texts,
                             run.higher_is_better, run.id_column, None, None, level,
                             replicates, seed, cancel=cancel, progress=progress, nice=WORKER_NICE,
                             limits=run.limits())
