"""A competition's metric file as one more metric of the contract (metrics/base.py).

Registered under ``file:<file name>`` once the user runs it, it gets every
analysis a built-in gets: its score is Kaggle's call of ``score()`` on the
session's current data (the table's edits travel to the worker as cells),
its statistics re-score resampled rows in its workers (``units``), compare
pairs submissions on the same rows, blends call it on blended frames, fix
first re-scores rows set to their truth. What is specific to foreign code —
trust, worker processes, limits — stays in runner.py and worker.py.

Its options are score()'s extra arguments, named ``arg_<name>`` so they never
meet a built-in option of the same name; its direction is the file's
declaration or the user's answer.
"""
import threading
from dataclasses import dataclass, field

import numpy as np

from ..errors import Cancelled, InputError
from ..metrics.base import Metric, Plan
from ..metrics.schema import Option
from ..tables import Column
from .file_blocks import _Table, _Ids, FileBlock, cells_spec, _CellsOf, _shown

PREFIX = "arg_"
LIVE_WORKERS = 2          # worker pools kept running (the shown submission and one compared)


class ScoreFailed(InputError):
    """The metric's own code failed on this data (an edit, a resample): one line, said
    where the score is shown; the numbers of the data before stay, marked out of date."""


@dataclass(frozen=True)
class FileResult:
    score: float
    rows: object                 # positions scored (None: every row)
    spec: object                 # the cells of the edited data, as the worker takes them
    n: int                       # rows scored
    total: int                   # rows of the aligned frames
    worker: object = None        # the runner.MetricWorker that scored it (statistics call it)
    args: dict = None            # score()'s keyword arguments
    seconds: float = 0.0
    undefined_reason: "str | None" = None
    # (replicates, seed) -> the bootstrap's scores: an interval and compare's paired
    # draws are the same calls (units._Scorer)
    replicates: dict = field(default_factory=dict, compare=False, repr=False)


class FileMetric(Metric):
    unit = "row"
    view = ""                   # the generic anatomy
    foreign = True              # its options are score()'s arguments, its own names
    demo_detected = False

    def __init__(self, source, info, higher_is_better, open_worker):
        from .arg_schema import arg_options
        self.source, self.info = source, info
        self.name = f"file:{source.name}"
        self.label = f"{source.name} (metric file)"
        self.higher_is_better = bool(higher_is_better)
        self.options = tuple(Option(PREFIX + o.name, o.type, o.default, help=o.help,
                                    label=o.name, cli=False) for o in arg_options(info, source.name))
        self._open = open_worker                 # (truth, submission) -> runner.MetricWorker
        self._workers = {}                       # paths -> worker, most recent last
        self._lock = threading.Lock()

    # -- workers -----------------------------------------------------------------------
    def worker(self, truth, submission, id_column=None):
        key = (str(truth), str(submission), id_column)
        with self._lock:
            w = self._workers.pop(key, None) or self._open(*key)
            self._workers[key] = w
            for old in list(self._workers.values())[:-LIVE_WORKERS]:
                old.kill()                       # stopped, not closed: started again if asked
            return w

    def kill(self, for_good=False):
        """Every worker's processes ended at once, not waited for (the app's UI thread).
        ``for_good``: a call still waiting on them (one not given a cancel, e.g. fix
        first's) stops at its next check instead of starting them again."""
        with self._lock:
            workers = list(self._workers.values())
        for w in workers:
            if for_good:
                w.cancel_check = lambda: True
            w.kill()

    def close(self):
        with self._lock:
            workers, self._workers = list(self._workers.values()), {}
        for w in workers:
            w.close()

    def take_args(self, values):
        """Arguments a ``**kwargs`` score() takes beyond its named ones (``--metric-arg``)
        declared as options too, so ``call_args`` passes them on."""
        known = {o.name for o in self.options}
        self.options += tuple(Option(PREFIX + k, type(v), None, label=k, cli=False)
                              for k, v in values.items() if PREFIX + k not in known)

    def call_args(self, options):
        """score()'s keyword arguments from the options (unset ones left to its defaults)."""
        out = {}
        for o in self.options:
            v = getattr(options, o.name, None)
            if v is not None:
                out[o.name[len(PREFIX):]] = v
        return out

    # -- layout: the files as the worker reads them -------------------------------------
    def fit(self, sub_targets, sample=None):
        return None                              # never guessed: run by the user's choice

    def lean_load(self, truth_path, submission_path, options, sol_name, sub_name, step):
        from ..io.prepare import Prepared
        step(0.1, f"{self.source.name}: reading the files in its worker")
        w = self.worker(truth_path, submission_path, options.id_column)
        n, usage, id_col = w.prepare()
        table = _Table(w)
        cols = table.data()
        sol_names, sub_names = [c for c, _ in cols["sol"]], [c for c, _ in cols["sub"]]
        return Prepared(self.name, f"metric file {self.source.name}", id_col, sub_names,
                        _Ids(table, n), FileBlock(table, "sol", sol_names, n),
                        FileBlock(table, "sub", sub_names, n), usage,
                        layout=f"id '{id_col}'; solution columns {', '.join(sol_names)}; "
                               f"submission columns {', '.join(sub_names)}")

    def build(self, ctx):
        raise InputError(f"metric file {self.source.name}: the files are read by its worker")

    # -- scoring -------------------------------------------------------------------------
    def plan(self, prep, options):
        return Plan(prep.truth, prep.pred, params={"worker": prep.truth.table.worker,
                                                   "args": self.call_args(options)})

    def score(self, plan, rows, options, cancel):
        return self.score_all(plan, {"all": rows}, options, cancel)["all"]

    def score_all(self, plan, row_sets, options, cancel):
        """Every split in one batch of calls (spread over the pool), as Kaggle calls them."""
        w, args, spec = plan.params["worker"], plan.params["args"], cells_spec(plan)
        total = len(plan.truth)
        out = {k: FileResult(np.nan, r, spec, 0, total, w, args, undefined_reason="no rows")
               for k, r in row_sets.items() if r is not None and not len(r)}   # never called
        names = [k for k in row_sets if k not in out]
        sets = [row_sets[k] if spec is None else {"rows": row_sets[k], "cells": spec}
                for k in names]
        results = run(w, args, sets, cancel, chunk=len(sets))    # one round trip, in order
        for k, r in zip(names, results):
            rows = row_sets[k]
            n = total if rows is None else len(rows)
            out[k] = FileResult(float(r[1]), rows, spec, n, total, w, args,
                                r[3] if len(r) > 3 and r[3] is not None else 0.0)
        return {k: out[k] for k in row_sets}

    def reference(self, prep, options, rows=None):
        """The file's score() called in this process on frames read by pandas, as a plain
        script would (conformance test only)."""
        from .reference import plain_call
        return plain_call(self.source, prep, self.call_args(options), rows)

    def perfect(self, prep):
        """The submission's columns of the solution's names set to the truth everywhere."""
        return self.fix_rows(prep, np.arange(len(prep.truth)))[1]

    # -- statistics ----------------------------------------------------------------------
    def units(self, result):
        from .units import FileUnits
        return FileUnits(self, result)

    def paired(self, reports, split="all"):
        from .units import FilePairs
        return FilePairs(self, reports, split)

    blend_points = 21               # each point is a call of the metric
    fix_words = "prediction set to the truth (the submission's columns of the solution's names)"

    def blend(self, report_a, report_b, alphas=None, rows=None):
        from .moves import blend
        return blend(self, report_a, report_b, alphas, rows)

    def blend_why_not(self, report_a, report_b):
        return "the two submissions share no numeric prediction column to blend"

    def blend_prediction(self, prep_a, pred_b, alpha):
        """A's block with every numeric column both share set to the blend (as cells)."""
        out = prep_a.pred.editable()
        for j, name in enumerate(out.names):
            if name in pred_b.names and out.numeric(j) and pred_b.numeric(pred_b.names.index(name)):
                b = pred_b.values(pred_b.names.index(name))
                mixed = alpha * out.values(j).astype(np.float64) + (1 - alpha) * b
                for i, v in enumerate(mixed.tolist()):
                    out[i, j] = v
        return out

    def fix_rows(self, prep, rows):
        """The submission's columns of the solution's names set to the truth on ``rows``."""
        out = prep.pred.editable()
        for j, name in enumerate(out.names):
            if name in prep.truth.names:
                k = prep.truth.names.index(name)
                for r in np.asarray(rows, np.int64).tolist():
                    out[r, j] = prep.truth[r, k]
        return "pred", out

    def differ(self, report_a, report_b, engine, i, j):
        from .moves import differ
        return differ(self, report_a, report_b)

    def fixes(self, report, rows, top, cancel=None):
        from .moves import fixes
        return fixes(self, report, rows, top, cancel=cancel)

    def fix_details(self, report, units, sol_rows):
        prep = report.prepared
        shared = [j for j, c in enumerate(prep.pred.names) if c in prep.truth.names]
        out = []
        for row in np.asarray(sol_rows).tolist():
            parts = []
            for j in shared[:3]:
                t = prep.truth[row, prep.truth.names.index(prep.pred.names[j])]
                parts.append(f"{prep.pred.names[j]}: truth {_shown(t)}, predicted "
                             f"{_shown(prep.pred[row, j])}")
            out.append("; ".join(parts) or "prediction set to the truth")
        return out

    # -- output --------------------------------------------------------------------------
    def json_fields(self, report):
        src = self.source
        return {"metric_file": {"path": src.path, "sha256": src.sha256, "function": "score",
                                "args": self.call_args(report.options)}}

    def summary_lines(self, report):
        word = "higher" if self.higher_is_better else "lower"
        return [f"{report.n_rows:,} rows; {word} is better; scored by {self.source.name}"]

    def submission_rows(self, prep):
        sub = prep.pred
        header = [prep.id_column] + list(sub.names)
        ids = prep.ids
        return header, ([ids[i]] + [sub[i, j] for j in range(len(sub.names))]
                        for i in range(len(ids)))

    def table_columns(self, prep):
        from ..fields import FieldSpec
        out = []
        for side, block in (("truth", prep.truth), ("pred", prep.pred)):
            word = "solution" if side == "truth" else "submission"
            for j, name in enumerate(block.names):
                out.append(Column(f"{name} ({word})", _CellsOf(block, j), FieldSpec(side, j),
                                  _shown, align_right=block.numeric(j),
                                  tooltip=f"the {word}'s '{name}' (editable)"))
        return out

    def parse(self, spec, text, prep):
        from ..numbers import parse_number
        block = prep.truth if spec.name == "truth" else prep.pred
        if block.numeric(spec.part):
            return parse_number(text)
        return str(text)


def run(w, args, sets, cancel=None, progress=None, count=None, chunk=None):
    """Result tuples of row sets in the worker; the metric's failure raised in one line."""
    from .runner import MetricFailed
    try:
        results = w.score_sets(args, sets, cancel=cancel, progress=progress, count=count,
                               chunk=chunk)
    except MetricFailed as e:
        raise _failed(e) from None
    except Cancelled:
        raise
    for r in results:
        if r[0] != "ok":
            try:
                w._raise(r)
            except InputError:
                raise
            except MetricFailed as e:
                raise _failed(e) from None
    return results


def _failed(e):
    """The metric's failure as a ScoreFailed, its whole text kept for the details."""
    out = ScoreFailed(str(e))
    out.details = getattr(e, "details", None)
    return out


def file_metric(path, higher_is_better=None, *, paths=(), id_column=None, timeout=None,
                memory_gb=None, workers=1, executor="local", nice=0, limits=None):
    """A FileMetric of the metric file at ``path`` (not registered): its signature and
    direction read in a worker (InputError / runner.MetricFailed in one line). With
    ``paths`` (solution, submission) that worker is kept to score them. ``limits``: a
    runner.Limits (time, memory, Python, sandbox) instead of timeout and memory_gb."""
    from .opening import direction, open_worker

    def opened(truth, submission, id_col):
        w = open_worker(path, (truth, submission), id_col, timeout, memory_gb, workers, executor,
                        limits)
        w.nice = nice
        return w
    first = opened(*paths, id_column) if paths else opened("", "", None)
    try:
        info = first.inspect()
        hib = direction(info, higher_is_better, first.source.name)
    except BaseException:
        first.close()
        raise
    metric = FileMetric(first.source, info, hib, opened)
    if paths:
        metric._workers[(str(paths[0]), str(paths[1]), id_column)] = first
    else:
        first.close()
    return metric
