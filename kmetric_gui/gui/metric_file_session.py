"""A metric file as the session's metric: once the user said "Run it" (or named it on
the command line) and its direction is known, the file is registered as a metric of
the contract (metricfile/metric.py, ``file:<name>``) and the shown pair is read and
scored with it. From then on it is a metric like a built-in: the table shows its
columns and takes edits, every edit is rescored by its worker process on a worker
thread (a newer edit supersedes), Compare, Blend, Where they differ and Fix first
come from the contract. The metric in use before is remembered: choosing it (or any
built-in) in Options > Metric goes back; closing the metric file does too.

The file's code never runs here: the FileMetric only holds the opener of its
contained workers (metricfile/runner.py), started by the jobs that score.
"""
from PySide6.QtCore import QObject, Signal

from ..metricfile.metric import PREFIX
from .metric_file_jobs import first_score

LANE = "background"          # never queues the data's own load and score behind it
HOLD = "metricfile"          # the session's hold on edits while the file scores its first pair
WORKERS = 2                  # processes a statistic may spread over (2 cores shared)


def call_options(values):
    """score()'s arguments set in the dock, as the metric's option names (unset: left out,
    the file's own default applies)."""
    return {PREFIX + k: v for k, v in values.items() if v is not None}


class SessionMetric(QObject):
    adopted = Signal(str)         # the metric file is the session's metric (its name)
    released = Signal()           # it is not registered any more

    def __init__(self, win):
        super().__init__(win)
        self.win = win
        self.metric = None        # the registered FileMetric, or None
        self.pending = None       # a FileMetric scoring its first pair (not in use yet)
        self.before = None        # Options > Metric before the file (None: auto)
        win.controller.edit_failed.connect(self._edit_failed)

    def _edit_failed(self, why):
        """The metric's code failed on this edit: said in Validation; the numbers of the
        data before stay, marked out of date (freshness.py)."""
        from .widgets.metric_file_panel import cut
        win = self.win
        win.problems.set_problems([cut(why)], title="<b>The metric failed on this edit</b> (the "
                                  "numbers shown are of the data before; undo or edit again)")
        win.problems_dock.show()
        win.problems_dock.raise_()
        win.freshness.soon()

    @property
    def name(self):
        return self.metric.name if self.metric is not None else None

    def in_use(self):
        s = self.win.session
        return self.metric is not None and s.options.metric == self.metric.name

    # -- taking the file as the metric ------------------------------------------------
    def adopt(self, source, info, higher_is_better, values, python=None, sandbox="auto",
              on_error=None):
        """Register the file as a metric and score the shown pair with it (after the
        answer about unsaved edits). In use already (another direction, place or
        content): the session reads the pair again with it. Else its first score is a
        trial (``first_score``, the dock's "metricfile" job): installed as the session's
        data when it scored, so a file that fails never replaces the data shown
        (``on_error`` says why) and the pair is scored once."""
        from ..metricfile.metric import FileMetric
        from .metric_file_jobs import WORKER_NICE

        def opened(truth, submission, id_col):
            from ..metricfile.kaggle import open_worker
            from ..metricfile.runner import DEFAULT_TIMEOUT, Limits
            w = open_worker(source.path, (truth, submission), id_col, workers=WORKERS,
                            limits=Limits(DEFAULT_TIMEOUT, python=python, sandbox=sandbox,
                                          take_spare=False))
            w.nice = WORKER_NICE          # its processes yield the CPU to the window
            return w
        metric = FileMetric(source, info, higher_is_better, opened)
        win = self.win

        def go():
            s = win.session
            if not (s.truth_path and s.sub_path):
                metric.close()
                return
            in_use = self.in_use()
            self.drop_pending()
            self._unregister()
            before = s.options.metric
            self.before = before if not _is_file(before) else self.before
            if in_use:
                self._install(metric, values)
                win.controller.options_changed(self._options(metric.name, call_options(values)),
                                               True)
                self.adopted.emit(metric.name)
                return
            self._register(metric)        # its options are known (validated) from now on
            self.pending = metric
            options = self._options(metric.name, call_options(values))
            truth, submission = s.truth_path, s.sub_path
            s.hold(f"{source.name} reads and scores the files; edits are taken again once it "
                   "scored them (Esc stops it)", owner=HOLD)
            win.jobs.submit("metricfile", lambda progress, cancel: first_score(
                metric, truth, submission, options, progress, cancel),
                lambda first: self._first(metric, values, options, first),
                on_error=lambda e: self._first_failed(metric, e, on_error), lane=LANE)
        if not win.request_discard(go) and self.metric is not metric and self.pending is not metric:
            metric.close()            # nothing started yet; said no or saving first

    def _register(self, metric):
        from ..metrics import register
        register(metric)

    def _install(self, metric, values):
        """``metric`` registered as the one in use: on the Options' list, its arguments."""
        self._register(metric)
        self.metric = metric
        panel = self.win.options_panel
        if panel.metric_combo.findData(metric.name) < 0:
            panel.metric_combo.blockSignals(True)
            panel.metric_combo.addItem(metric.label, metric.name)
            panel.metric_combo.blockSignals(False)
        panel.foreign_values = dict(call_options(values))

    def _first(self, metric, values, options, first):
        """The trial scored: its data and report are the session's (the same files still
        shown), else the session reads the files now shown with it."""
        if metric is not self.pending:
            return
        self.pending = None
        win, s = self.win, self.win.session
        self._install(metric, values)
        options = self._options(metric.name, call_options(values))
        s.release(HOLD)
        if (s.truth_path, s.sub_path) == (first.truth, first.submission):
            from .controller import Loaded
            # a load of the same files with the metric before is not wanted any more
            # (it would replace this data and score the file again)
            win.jobs.cancel("load")
            s.set_options(options)
            # the window's own ending of a load (gui/controller.py): data, report, statistics
            win.controller._loaded(Loaded(first.prep, first.report, first.truth, first.submission))
        else:
            win.controller.options_changed(options, True)
        self.adopted.emit(metric.name)

    def _first_failed(self, metric, exc, on_error):
        if metric is self.pending:
            self.drop_pending()
        if on_error is not None:
            on_error(exc)

    def drop_pending(self):
        """A trial that did not score (failed, stopped, superseded): unregistered, its
        processes killed, edits taken again."""
        from ..metrics import REGISTRY, unregister
        metric, self.pending = self.pending, None
        if metric is None:
            return
        if REGISTRY.get(metric.name) is metric:
            unregister(metric.name)
        metric.kill()
        metric.close()
        self.win.session.release(HOLD)

    def set_args(self, values):
        """score()'s arguments changed in the dock: the session's data rescored."""
        if not self.in_use():
            return False
        params = call_options(values)
        self.win.options_panel.foreign_values = dict(params)
        options = self._options(self.metric.name, params)
        if options != self.win.session.options:
            self.win.controller.options_changed(options, False)
        return True

    def _options(self, metric, params):
        """The session's options with ``metric`` and the file's arguments ``params`` (the
        other metric options kept)."""
        from ..analysis.options import COMMON_NAMES
        from ..analysis.scoring import Options
        o = self.win.session.options
        common = {k: getattr(o, k) for k in COMMON_NAMES}
        common["metric"] = metric
        keep = {k: v for k, v in o.params if not k.startswith(PREFIX)}
        return Options(**common, params={**keep, **params})

    def saved_options(self):
        """The session's options as a project keeps them: with the metric file in use,
        the metric in use before it (the file is kept as the project's metric file)."""
        o = self.win.session.options
        return self._options(self.before, {}) if _is_file(o.metric) else o

    # -- going back --------------------------------------------------------------------
    def release(self, back=True):
        """The file is no longer a metric: the metric in use before comes back (the data
        read again with it) when the file was in use."""
        self.drop_pending()
        if self.metric is None:
            return
        was_in_use = self.in_use()
        options = self._options(self.before, {})
        if back and was_in_use:
            # first superseded (new options: its results out of date, its score and
            # analysis jobs stopped by the reload), then unregistered
            self.win.controller.options_changed(options, True)
        self._unregister()
        self.released.emit()

    def _unregister(self):
        from ..metrics import unregister
        metric, self.metric = self.metric, None
        if metric is None:
            return
        panel = self.win.options_panel
        i = panel.metric_combo.findData(metric.name)
        if i >= 0:
            panel.metric_combo.blockSignals(True)
            panel.metric_combo.removeItem(i)
            panel.metric_combo.blockSignals(False)
        panel.foreign_values = {}
        unregister(metric.name)
        # Its processes are killed, not waited for: the UI thread never waits on them.
        metric.kill()
        metric.close()

    def kill(self):
        """The window closes: its processes end and every call on them stops."""
        for metric in (self.metric, self.pending):
            if metric is not None:
                metric.kill(for_good=True)

    def shutdown(self):
        """The window closes: every process of the file's workers ends."""
        self.drop_pending()
        metric, self.metric = self.metric, None
        if metric is not None:
            from ..metrics import unregister
            unregister(metric.name)
            metric.kill()
            metric.close()


def parity_text(s, name, disk):
    """The score of the data shown beside the file's score of the files on disk, like
    with like: the file's own score of the table (edits included) when it is the metric
    in use (``name``); a built-in's only while the table is as on disk."""
    results = s.results
    if disk is None or results is None or s.data is None:
        return ""
    rep = results.report
    edits = len(s.data.overlay)
    if rep.metric == name:
        if edits:
            return (f"The table, with {edits} edited cell(s), scored by this file: "
                    f"{rep.score:.6f} (the files on disk: {disk:.6f})")
        return (f"The table, scored by this file in the app: {rep.score:.6f}"
                + (" — as on disk" if _same(rep.score, disk) else f" (the files on disk: {disk:.6f})"))
    label = getattr(rep.definition, "label", rep.metric)
    if edits:
        return (f"Built-in {label} ({rep.metric}) is in use and scores the edited table; choose "
                "this file in Options > Metric to score the edits with it")
    return (f"Built-in {label} ({rep.metric}), in use for the data shown: {rep.score:.6f}; the "
            f"file minus the built-in: {disk - rep.score:+.3g}"
            + (" — the same number" if _same(disk, rep.score) else
               " — a different number on the same files"))


def _same(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def _is_file(name):
    return isinstance(name, str) and name.startswith("file:")
