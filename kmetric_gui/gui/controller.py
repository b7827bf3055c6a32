"""Between the session (state) and the worker: load, score, edit, save.

The session owns the state; this object turns user requests into jobs and
typed results back into session updates. It never draws and holds no metric
logic (the metric's module does that through the registry).
"""
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from ..errors import InputError
from ..analysis.scoring import load, score_prepared
from ..state import Results
from ..tables import Column
from .analysis_jobs import ANALYSIS, AnalysisJobs, Fixes  # noqa: F401 (Fixes, kept importable)
from .compare_jobs import CompareJobs
from .saving_jobs import Saving


@dataclass(frozen=True)
class Loaded:
    prep: object
    report: object
    truth: "str | None" = None       # the files read (the session takes them with the data)
    submission: "str | None" = None


@dataclass(frozen=True)
class Scored:
    report: object


@dataclass(frozen=True)
class Transformed:
    field_name: str
    array: object
    label: str


READ_FIELDS = ("metric", "id_column", "target_column", "usage_map", "extra_ids",
               "unscored_value")    # options read with the files


def raw_columns(table):
    """Every column of a raw pyarrow table as text (to show invalid files)."""
    cols = []
    for name in table.column_names:
        vals = table.column(name).to_numpy(zero_copy_only=False).astype(object)
        cols.append(Column(name, vals, fmt=lambda v: "" if v is None else str(v)))
    return cols, table.num_rows


class AppController(Saving, AnalysisJobs, QObject):
    fixes_ready = Signal(object)     # Fixes of the results shown
    honest_ready = Signal(object)    # optimisers.HonestReport (or None) of the results shown
    scored = Signal(object)          # a ScoreReport is shown
    failed = Signal(str)             # an error is shown (first line)
    raw_tables = Signal(object)      # {role: (columns, n_rows)} of files that failed validation
    message = Signal(str, int)       # status bar text, timeout in ms (0: until the next)
    saved = Signal(str)
    metric_ambiguous = Signal(list)  # names of the metrics that fit the files: the user chooses
    loading = Signal(str, str)       # the files being read (shown until the load ends)
    unsay = Signal(str)              # a status text no longer true: cleared if still shown
    options_restored = Signal(object)   # options in force changed back (the panel follows)
    edit_failed = Signal(str)        # a metric's own code failed on the edited data (one line)

    def __init__(self, session, jobs, parent=None):
        super().__init__(parent)
        self.session, self.jobs = session, jobs
        # Edits of one event-loop batch (e.g. a paste) share one rescore.
        self._rescore_timer = QTimer(self, singleShot=True, interval=0)
        self._rescore_timer.timeout.connect(self._rescore_if_stale)
        session.data_changed.connect(self._data_changed)
        self._warned_formulas = False
        self._shown_version = None       # the data version of the report shown
        self._problem_shown = False      # the status bar says why the data was not scored
        self.compare_jobs = CompareJobs(session, jobs, self.message, self.unsay.emit)
        self._reading = None             # (truth, submission) of the load in flight
        self._read_options = None        # the options the data shown was read with
        self.failed_edit = None          # (generation, why): the metric failed on that data
        jobs.ended.connect(self._job_ended)
        self._give_back_due = False      # data was replaced: free memory goes back when idle
        jobs.busy_changed.connect(self._idle_give_back)

    # -- loading and scoring ---------------------------------------------------------
    def open_files(self, truth=None, submission=None):
        """Open files: the session takes the new paths together with their data once
        it is read (a cancelled or superseded load leaves the old files, names and
        data together); with one file missing the path is only remembered."""
        s = self.session
        t = str(truth) if truth is not None else (self._reading or (s.truth_path,))[0]
        u = str(submission) if submission is not None else \
            (self._reading or (None, s.sub_path))[1]
        if not (t and u):
            s.set_files(truth, submission)
            return
        self.reload(t, u)

    def reload(self, truth=None, submission=None):
        """Read, validate and score the files on the worker (replaces the data); by
        default the files of the load in flight, else the session's."""
        s = self.session
        if truth is None or submission is None:
            truth, submission = self._reading or (s.truth_path, s.sub_path)
        if not (truth and submission):
            return False
        opts = s.options
        self._rescore_timer.stop()
        self.jobs.cancel("score")
        # The data shown goes (replaced, or cleared if the files are invalid): its
        # analysis must not keep a core busy beside the load until the new data lands.
        self._stop_analysis(ANALYSIS + ("honest",))

        def job(progress, cancel):
            try:
                prep = load(truth, submission, opts, progress, cancel)
            except InputError as e:
                tables = getattr(e, "tables", None) or {}
                e.raw = {role: raw_columns(t) for role, t in tables.items()}
                raise
            report = score_prepared(prep, opts, progress, cancel)
            # Converted here, not on the UI thread: the ids as Arrow text (the table reads
            # the rows in sight), and as Python strings where a metric's views index them.
            prep.id_array
            if report.definition.ids_in_views:
                prep.ids
            return Loaded(prep, report, truth, submission)
        self._reading = (truth, submission)
        # Edits now would be replaced by the new data without a word: none are taken.
        s.hold("new files are being read; edits are taken again once they are loaded "
               "(Esc stops reading)")
        self.loading.emit(truth, submission)
        self.jobs.submit("load", job, self._loaded,
                         on_error=lambda e: self._load_failed(e, truth, submission))
        return True

    def _job_ended(self, kind, outcome):
        if kind == "load" and not self.jobs.running("load"):
            self._reading = None
            self.session.release()
            if outcome in ("cancelled", "superseded"):
                self._keep_read_options()

    def _keep_read_options(self):
        """A load stopped: the options that choose how files are read (metric, columns)
        go back to those of the data shown — it was not read with the new ones."""
        s, read = self.session, self._read_options
        if s.data is None or read is None:
            return
        back = {f: getattr(read, f) for f in READ_FIELDS if getattr(read, f) != getattr(s.options, f)}
        if back:
            s.set_options(s.options.with_(**back))
            self.options_restored.emit(s.options)

    def _new_truth(self, truth):
        if truth is not None and str(truth) != self.session.truth_path:
            self.compare_jobs.clear()        # files compared with another truth do not carry over

    def _loaded(self, result):
        s = self.session
        self._reading = None
        s.release()
        self._new_truth(result.truth)
        s.load(result.prep, result.truth, result.submission)
        self._read_options = result.report.options
        self._problem_shown = False
        self.message.emit("", 0)             # the status of the data before (its problems) goes
        report = result.report
        if report.options != s.options:      # options changed while loading: score again
            self.rescore()
            return
        if s.accept(Results(s.generation, report)):
            self._shown_version = s.data
        self.scored.emit(report)
        self.compute_stats()
        self._give_back()

    def _give_back(self):
        """Data was replaced: once every job on it has ended (nothing refers to the old
        arrays any more), its memory goes back to the system (gui/memory.py)."""
        self._give_back_due = True
        self._idle_give_back(self.jobs.busy)

    def _idle_give_back(self, busy):
        if busy or not self._give_back_due:
            return
        import gc
        from .memory import give_back
        self._give_back_due = False
        gc.collect()          # cycles still holding old arrays (the UI thread collects: gc_guard)
        self.jobs.submit("give-back", lambda progress, cancel: give_back(), lambda _: None)

    def _load_failed(self, exc, truth=None, submission=None):
        problems = getattr(exc, "report", None) or getattr(exc, "problems", None) or [str(exc)]
        if getattr(exc, "in_app", None):          # metrics.AmbiguousMetric: no CLI flag here
            problems = [exc.in_app]
        problems = list(problems) + set_in_options(self.session.options)
        self._reading = None
        self.session.release()
        self._new_truth(truth)
        self.session.clear(problems, truth, submission)
        self.raw_tables.emit(getattr(exc, "raw", None) or {})
        self._give_back()
        self._problem_shown = True
        self.message.emit(str(problems[0]), 0)
        self.failed.emit(str(problems[0]))
        names = getattr(exc, "names", None)       # metrics.AmbiguousMetric: ask which one
        if isinstance(names, list) and names:
            self.metric_ambiguous.emit(names)

    def rescore(self):
        """Score the current (possibly edited) data with the current options."""
        s = self.session
        if s.data is None:
            return self.reload()
        if self.jobs.running("load"):
            return self.reload()             # the data in flight replaces the current one
        snap = s.snapshot()
        prev, prev_version = s.results, self._shown_version
        cells = None
        if (prev is not None and prev_version is not None and prev_version.base is snap.data.base
                and prev.generation.options == snap.options):
            cells = changed_cells(prev_version.overlay, snap.data.overlay)

        def job(progress, cancel):
            if cells is not None:      # a few edited cells: from the sufficient statistics
                report = prev.report.definition.rescore_cells(prev.report, cells, prev_version,
                                                              snap.data)
                if report is not None:
                    return Scored(report)
            return Scored(score_prepared(snap.data.prepared(), snap.options, progress, cancel))

        def done(result):
            if s.accept(Results(snap.generation, result.report)):
                self._shown_version = snap.data
                if self._problem_shown:      # "Not scored: ..." of the data before
                    self._problem_shown = False
                    self.message.emit("", 0)
                    s.set_problems(list(getattr(snap.data.base, "notes", ())), notes=True)
                self.scored.emit(result.report)
                self.compute_stats()
        self.jobs.submit("score", job, done,
                         on_error=lambda e: self._score_failed(e, snap.generation),
                         generation=snap.generation)

    def stats_settings_changed(self, settings):
        self.session.set_stats_settings(settings)
        self.compute_stats()

    def _score_failed(self, exc, generation=None):
        s = self.session
        foreign = getattr(s.metric, "foreign", False)     # a metric file's own code said no
        if isinstance(exc, InputError) and foreign and s.results is not None and \
                (generation is None or s.is_current(generation)):
            # A metric file failed on this edit: said, and the numbers before stay, out
            # of date (freshness.py marks them with this reason).
            self.failed_edit = (s.generation, str(exc))
            self._problem_shown = True       # said until the next score of this data
            self.message.emit(f"Not scored: {exc}", 0)
            self.failed.emit(str(exc))
            self.edit_failed.emit(str(exc))
            return
        if isinstance(exc, InputError):
            self.session.set_problems(getattr(exc, "problems", [str(exc)]))
            self._problem_shown = True
            self.message.emit(f"Not scored: {exc}", 0)
            self.failed.emit(str(exc))
            return
        self.jobs.error.emit("score", exc)

    def _rescore_if_stale(self):
        s = self.session
        if s.data is not None and not (s.results and s.is_current(s.results.generation)):
            self.rescore()

    def options_changed(self, options, needs_reload):
        self.session.set_options(options)
        if needs_reload or self.session.data is None:
            self.reload()
        else:
            self.rescore()

    def _data_changed(self, version):
        if version is not None:
            self._rescore_timer.start()      # coalesce bursts of edits into one rescore

    # -- edits -------------------------------------------------------------------------
    def edit(self, spec, unit, text):
        """A typed cell: the reason when refused, else None (the edit is on the history)."""
        s = self.session
        report = s.results.report if s.results else None
        why = s.edit_text(spec, unit, text)
        if why:
            self.message.emit(f"Edit refused — {why}", 0)
        else:
            note = report.definition.edit_note(report, spec, s.data.value(spec, unit)) \
                if report is not None else None
            self.message.emit(note or f"Edited row {int(unit) + 1}", 0 if note else 4000)
        return why

    def paste(self, cells, names=None):
        """Typed cells ``(spec, unit, text)`` as one edit (one undo step), or none of
        them; returns the first refusal in words (``names``: spec -> column shown),
        else None."""
        refused = self.session.edit_texts(cells, f"Paste {len(cells)} cell(s)")
        if refused:
            spec, unit, why = refused[0]
            where = f"{(names or {}).get(spec, spec.name)}, row {int(unit) + 1}: " \
                if spec is not None else ""
            more = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
            self.message.emit(f"Paste refused, nothing changed — {where}{why}{more}", 0)
            return f"{where}{why}"
        self.message.emit(f"Pasted {len(cells)} cell(s)", 4000)
        return None

    def transform(self, label, fn, disables=()):
        """A whole-field change computed on the worker (e.g. apply cut points)."""
        snap = self.session.snapshot()
        if snap.data is None:
            return

        def job(progress, cancel):
            name, array = fn(snap.data.prepared())
            return Transformed(name, array, label)
        def done(r):
            why = self.session.replace_field(r.field_name, r.array, r.label)
            if why:
                self.message.emit(f"{r.label} not applied — {why}", 0)
        self.jobs.submit("transform", job, done, generation=snap.generation, disables=disables)

    def cancel(self):
        self.jobs.cancel()
        self.message.emit("Cancelled", 4000)


def changed_cells(old, new):
    """Keys of the overlay whose value differs between two versions of the same data."""
    keys = set(old) | set(new)
    marker = object()
    out = []
    for k in keys:
        a, b = old.get(k, marker), new.get(k, marker)
        if a is marker or b is marker or not _equal(a, b):
            out.append(k)
    return out


def _equal(a, b):
    import numpy as np
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b)
    return a == b


def set_in_options(options):
    """Lines saying which settings of Options chose how the refused files were read: the
    files may be fine for another metric or column (said, so the user knows where to look)."""
    from ..metrics import REGISTRY
    out = []
    m = REGISTRY.get(options.metric) if options.metric else None
    if m is not None:
        out.append(f"metric set in Options: {m.label} ({m.name}); choose auto in Options > "
                   "Metric to take it from the files")
    if options.target_column:
        out.append(f"target column set in Options: {options.target_column}; clear it to take "
                   "it from the files")
    return out

