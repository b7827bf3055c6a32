"""What the app asks of a metric file, as job functions for the worker threads
(gui/jobs.py). The metric's code runs in its worker process (metricfile/runner.py);
these functions only wait on it, with the job's Cancel wired to kill that process.
No Qt here."""
import os
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


@dataclass(frozen=True)
class Interval:
    run: Run
    ci: dict
    level: float
    replicates: int
    asked: int
    failed: int


def _unchanged(source):
    """The file as the user agreed to run it: refused when its content changed since."""
    now = load_source(source.path)
    if now.sha256 != source.sha256:
        raise InputError(f"metric file {source.name} changed on disk since it was opened (its sha256 "
                         "differs): open it again to run the new content")


def _worker(run, workers, cancel):
    w = MetricWorker(run.source, (run.truth, run.submission), run.id_column, run.limits(), workers)
    w.cancel_check = cancel           # Cancel kills the process within a tenth of a second
    w.nice = WORKER_NICE
    return w


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


def score(run, progress, cancel):
    from ..metricfile.kaggle import score_file
    _unchanged(run.source)
    progress(0.1, f"running {run.source.name} in its own process")
    with _worker(run, 1, cancel) as w:
        try:
            fs, usage = score_file(w, run.texts, run.higher_is_better)
        except Exception as e:                 # what it wrote goes with its failure
            e.output = w.output()
            raise
        place, output = w.place(), w.output()
    return Scored(run, fs, usage, place, output)


def interval(scored, level, replicates, seed, progress, cancel):
    """A percentile interval by re-scoring resampled rows (with the CLI's cautions); B capped
    by the time limit."""
    from ..analysis.stats import file_interval
    from ..metricfile.kaggle import bootstrap, plan_replicates
    run = scored.run
    workers = max(1, min(os.cpu_count() or 1, 8))
    with _worker(run, workers, cancel) as w:
        b, _est = plan_replicates(w, scored.fs.call_seconds, replicates)
        b = max(b, 0)
        if b < 2:
            raise InputError(f"metric file {run.source.name}: one call takes "
                             f"{scored.fs.call_seconds:.1f} s; no bootstrap fits in the time limit")

        def step(done, total):
            progress(done / total, f"{run.source.name}: interval, {done} of {total} replicates")
        values, failed = bootstrap(w, scored.fs, scored.usage, b, seed, cancel=cancel, progress=step)
    return Interval(run, file_interval(values, level, scored.fs.n_rows).to_dict(seed), level, b,
                    replicates, len(failed))


def compare(run, others, level, replicates, seed, progress, cancel):
    """`kmetric compare --json` of the submission and the others under the metric file."""
    from ..metricfile.compare import compare_with_file
    _unchanged(run.source)
    return compare_with_file(run.source.path, run.truth, [run.submission, *others], run.texts,
                             run.higher_is_better, run.id_column, None, None, level,
                             replicates, seed, cancel=cancel, progress=progress, nice=WORKER_NICE,
                             limits=run.limits())
