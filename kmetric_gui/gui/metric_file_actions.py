"""A competition's own metric file in the app: opened from File > Open metric file…,
a drop on the window, the recent list, a project or `kmetric-gui --metric-file`;
run only after the app's own "Run it" for that content (metricfile/seen.py keeps
the app's list apart from the CLI's) or when started explicitly from the command
line; the metric runs in processes of its own (metric_file_jobs), in the sandbox
where there is one, in another Python if asked.

Once run, the file is the session's metric (metric_file_session.py): the table's
data, edits included, is what it scores, once per pair and per edit. The dock shows
that score (its first one of a pair is the dock's own job, installed as the
session's data only when it scored: a file that fails never replaces the data
shown), beside the file's score of the table as on disk once edited; the interval
is the score panel's, the comparison with other files the session's (Compare: each
file scored once by the file, the shown one not again). What goes wrong is said in
the dock and the Validation panel. The ``ask_*`` methods are the only dialogs (tests replace them).
"""
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from ..metricfile import seen
from ..metricfile.notice import call_time
from ..metricfile.arg_schema import arg_options, as_texts, required
from . import metric_file_jobs as jobs_
from . import metric_file_ui as ui
from .metric_file_project import MAX_RECENT, RecentAndProject  # noqa: F401 -- MAX_RECENT: tests
from .metric_file_doc import LANE, DocActions
from .metric_file_problems import Problems
from .metric_file_session import SessionMetric

SUFFIXES = (".py", ".ipynb")
KINDS = ("metricfile-read", "metricfile-inspect", "metricfile", "metricfile-check")
COMPARE = "compare"            # the session's comparison (gui/compare_jobs.py), shown here


def is_metric_file(path):
    return Path(str(path)).suffix.lower() in SUFFIXES


class MetricFileActions(DocActions, Problems, RecentAndProject, QObject):
    scored = Signal(object)        # metric_file_jobs.Scored shown
    compared = Signal(object)      # the compare JSON object shown
    failed = Signal(str)           # an error shown (first line)
    ready = Signal(object)         # the file inspected: its arguments are in the panel

    def __init__(self, win):
        super().__init__(win)
        self.win = win
        self.source = self.info = self.last = None
        self.options, self.notes = [], []
        self._pending = None           # (args, higher_is_better) from a project
        self._last_key = None
        self._disk = self._shown = None      # (run key, the file's score of the table as on disk)
        self._adopt_after = False
        self.dock, self.panel = ui.add_dock(win)
        self.args_box = ui.add_args_box(win, self._args_changed,
                                        lambda t: win.statusBar().showMessage(t, 10000),
                                        self._place_changed)
        self.actions = ui.add_menus(win, self)
        self.session_metric = SessionMetric(win)
        self.panel.open_requested.connect(self.open_dialog)
        self.panel.run_requested.connect(self.run_again)
        self.panel.cancel_requested.connect(self.cancel)
        self.panel.details_requested.connect(self.show_details)
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._maybe_run)
        s = win.session
        s.files_changed.connect(lambda *_: self._timer.start())
        s.compare_changed.connect(self._session_compared)
        s.results_changed.connect(lambda *_: (self._session_scored(), self._show_parity()))
        win.options_panel.stats_changed.connect(self._interval)
        win.jobs.busy_changed.connect(self._busy)
        win.jobs.ended.connect(self._job_ended)
        win.jobs.progress.connect(self._progress)
        win.controller.message.connect(self._message)
        self.fill_recent()
        self._enable()

    # -- the questions (tests replace these) -------------------------------------------
    def ask_run(self, name, state):
        """"Run it"? ``state``: the sandbox a run gets (the question says what it limits)."""
        return ui.ask_run(self.win, name, state)

    def ask_direction(self, name):
        return ui.ask_direction(self.win, name)

    def ask_open_path(self):
        return ui.ask_open_path(self.win)

    # -- opening -----------------------------------------------------------------------
    def open_dialog(self):
        path = self.ask_open_path()
        if path:
            self.open(path)

    def open(self, path, args=None, higher_is_better=None, expected_sha=None, explicit=False,
             python=None, sandbox="auto"):
        """Read the file (on a worker), ask unless the app was told "Run it" for this content
        (``explicit``: the user named it on the command line), then read its signature.
        ``python``/``sandbox``: where it runs (a project's; else what the Options hold)."""
        if python is not None or sandbox != "auto":
            self.args_box.set_place(python, sandbox)
        mode = self.args_box.place()[1]
        self._pending = (dict(args or {}), higher_is_better, expected_sha, explicit)
        self.dock.show()
        self.dock.raise_()
        self.panel.set_running(True, f"Reading {Path(path).name}…")
        self.win.jobs.submit("metricfile-read", lambda progress, cancel: jobs_.read(path, mode),
                             self._read, on_error=self._failed, lane=LANE)

    def _trust_key(self, source):
        """The app's "Run it" is for this content in this Python (another Python is another
        program to run: a project naming one asks again)."""
        python = self.args_box.place()[0]
        return source.sha256 + (f"@{python}" if python else "")

    def _read(self, read):
        source, state = read
        expected = self._pending[2] if self._pending else None
        explicit = bool(self._pending and self._pending[3])
        self.notes = []
        if expected and expected != source.sha256:
            self.notes.append(f"The metric file {source.name} changed since the project was saved "
                              "(its sha256 differs).")
        key = self._trust_key(source)
        if not explicit and not seen.trusted(key):
            if not self.ask_run(source.name, state):
                self.panel.set_running(False, f"{source.name} not run (you said no).")
                self._say(f"Metric file {source.name} not opened")
                return
            seen.trust(key)
        self.close(quiet=True)
        self.source = source
        self._remember(source.path)
        self.win.settings.setValue("last_metric_folder", str(Path(source.path).parent))
        self.panel.set_source(source.name, source.sha256, None)
        self.panel.set_running(True, f"Loading {source.name} in its own process…")
        if self.notes:
            self.panel.show_error(" ".join(self.notes))
            self._say(" ".join(self.notes))
        python, mode = self.args_box.place()
        self.panel.show_place("")
        self.win.jobs.submit("metricfile-inspect",
                             lambda progress, cancel: jobs_.inspect(source, cancel, python, mode),
                             lambda info: self._inspected(source, info), on_error=self._failed,
                             lane=LANE)

    def _inspected(self, source, info):
        if source is not self.source:
            return
        args, hib = (self._pending or ({}, None))[:2]
        self._pending = None
        self.info = info
        self.options = arg_options(info, source.name)
        values = {o.name: o.default for o in self.options}
        for name, v in args.items():
            if name in values:
                values[name] = v
            else:
                self.notes.append(f"argument {name} of the project is not one of score()'s; left out")
        if hib is None:
            hib = info.get("higher_is_better")
        if hib is None:
            hib = self.ask_direction(source.name)
        if hib is None:
            self.panel.set_running(False, "No direction chosen: the metric file is not run.")
            self.close()
            return
        self.args_box.set_direction(hib)
        self.args_box.set_options(source.name, self.options, values)
        doc = (info.get("doc") or "").strip().splitlines()
        self.panel.set_source(source.name, source.sha256, hib, doc[0] if doc else "")
        if self.notes:
            self.panel.show_error(" ".join(self.notes))
        self._enable()
        self.ready.emit(info)
        self._adopt_after = True         # the metric in use once it scored the pair
        self.run()

    def close(self, quiet=False):
        for kind in KINDS[1:]:
            self.win.jobs.cancel(kind)
        self.source = self.info = self.last = None
        self.options, self._last_key = [], None
        self._disk = self._shown = None
        self._adopt_after = False
        if not quiet:
            self.session_metric.release()     # the metric in use before comes back
        self.args_box.clear()
        self.panel.clear_results()
        if not quiet:
            self.panel.title.setText("No metric file.")
            self.dock.hide()
        self._enable()

    # -- running -----------------------------------------------------------------------
    def current_run(self):
        s = self.win.session
        if self.source is None or self.info is None or not (s.truth_path and s.sub_path):
            return None
        vals = self.args_box.values
        python, mode = self.args_box.place()
        return jobs_.Run(self.source, s.truth_path, s.sub_path, s.options.id_column,
                         tuple(as_texts(vals)), bool(self.args_box.higher_is_better()),
                         python=python, sandbox=mode)

    def _maybe_run(self):
        """Other files shown: the file in use scores them in the session's own load; a
        file waiting for a pair (opened first) is tried on them now."""
        run = self.current_run()
        if run is None or run.key == self._last_key or self.session_metric.in_use():
            return
        if self._adopt_after:
            self.run()

    def _adopt(self):
        """The file as the session's metric (the table's data scored by it): its first
        score of the pair is the dock's job, shown once it is the session's."""
        python, mode = self.args_box.place()
        self.session_metric.adopt(self.source, self.info, bool(self.args_box.higher_is_better()),
                                  dict(self.args_box.values), python, mode, on_error=self._failed)

    def run_again(self):
        """Run (again): the session's data scored again by the file, made the metric in
        use again if another was chosen since."""
        if self.info is None:
            return
        if self.session_metric.in_use() and self.current_run() is not None:
            self.panel.set_running(True, f"Scoring with {self.source.name}…")
            self.win.controller.rescore()
            return
        self._adopt_after = True
        self.run()

    def _args_changed(self):
        if self.info is None:
            return
        m = self.session_metric.metric
        if not self.session_metric.in_use() or (
                m is not None and m.higher_is_better != bool(self.args_box.higher_is_better())):
            self._adopt_after = True      # another direction is another metric; not in use:
            self.run()                    # the arguments are for a score by the file
        else:
            self.session_metric.set_args(dict(self.args_box.values))

    def _place_changed(self):
        """Another Python or sandbox mode: asked again where that Python is new for this
        content (metricfile/seen.py), then read and run there."""
        if self.source is not None:
            hib = self.args_box.higher_is_better()
            self.open(self.source.path, dict(self.args_box.values), hib, self.source.sha256)

    def run(self):
        """The file made the session's metric on the pair shown (one score of it, the
        session's, shown here); in use already, the session scores what changes."""
        run = self.current_run()
        if run is None:
            if self.source is not None and self.info is not None:
                self.panel.set_running(False, "Open a truth and a submission file to score them "
                                              "with the metric file.")
            return
        missing = required(self.options, self.args_box.values)
        if missing:
            self._show_problem(f"metric file {run.source.name}: score() needs "
                               + ", ".join(missing) + " (give it under Options)", validation=True)
            return
        if self.session_metric.in_use() and not self._adopt_after:
            return
        self._adopt_after = False
        self._last_key = run.key
        self.last = self._disk = self._shown = None
        self.panel.clear_results()
        self.panel.set_running(True, f"Scoring with {run.source.name}…")
        self._adopt()

    def _session_scored(self):
        """The session's result by the file in use: the dock's numbers (one score of each
        pair and edit, the session's)."""
        s, sm = self.win.session, self.session_metric
        r = s.results
        if (sm.metric is None or r is None or r is self._shown or r.report.metric != sm.metric.name
                or not s.is_current(r.generation) or self.source is None):
            return
        self._shown = r
        run = self.current_run()
        if run is None:
            return
        self._last_key = run.key
        self._scored(jobs_.shown(run, sm.metric, r.report))

    def _scored(self, result):
        self.last = result
        fs = result.fs
        if self._disk is None or self._disk[0] != result.run.key:
            self._disk = None
        if not len(self.win.session.data.overlay):      # the table as on disk
            self._disk = (result.run.key, fs.score)
        self.panel.show_score(fs.score, fs.splits)
        self.panel.set_running(False, f"Scored {fs.n_rows:,} rows in its own processes "
                                      f"({call_time(fs.call_seconds)} a call)."
                               + ui.output_words(result.output))
        self.panel.show_place(ui.place_words(result.place))
        self._show_parity()
        self._say(f"Metric file {fs.source.name}: {fs.score:.6f}")
        self.scored.emit(result)
        self._interval()
        self._session_compared(self.win.session.comparison)

    def _interval(self):
        if self.last is None:
            return
        if self.session_metric.in_use():     # the score panel's interval is this file's
            self.panel.interval.setText("Interval: in the score panel (this file, re-scoring "
                                        "resampled rows of the table)")
        else:
            self.panel.interval.setText("Interval: in the score panel once this file is the "
                                        "metric in use (Run again)")

    def _compares(self):
        """The session's comparison is the file's: it is the metric in use and scored."""
        return self.last is not None and self.session_metric.in_use()

    def _session_compared(self, res):
        """The session's comparison of the shown submission with the other files (its
        compare job scores each of them once with the file, through the contract; the
        shown one is the session's report, not scored again): the dock's table."""
        if res is None:
            if not self.win.session.compare_paths:
                self.panel.table.setRowCount(0)
                self.panel.table.hide()
            return
        sm, cmp = self.session_metric, res.comparison
        if not self._compares():
            return
        if res.problems:
            self.panel.show_error("Not compared: " + " ".join(res.problems))
        if cmp is None or cmp.metric != sm.metric.name:
            return
        d = cmp.to_json()
        self.panel.show_comparison(d)
        self.compared.emit(d)

    def _progress(self, kind, fraction, message):
        if kind == COMPARE and self._compares():
            self.panel.set_running(True, f"Comparing with {self.source.name}: {message}")

    def _message(self, text, _timeout=0):
        """The session's comparison failed (gui/compare_jobs.py says it in the status bar)."""
        if text.startswith("Not compared:") and self._compares():
            self.panel.show_error(text)

    def _show_parity(self):
        from .metric_file_session import parity_text
        self.panel.show_parity(parity_text(self.win.session, self.session_metric.name,
                                           self._disk[1] if self._disk else None))

    def cancel(self):
        for kind in self._kinds():
            self.win.jobs.cancel(kind)
        self.panel.set_running(False, "Cancelled: the metric's processes were stopped.")

    def _kinds(self):
        """The jobs the dock stops and waits for: its own, and the session's comparison
        while that is the file's."""
        return KINDS + ((COMPARE,) if self._compares() else ())

    def _job_ended(self, kind, outcome):
        """However a metric-file job ended (Esc included), the dock is idle once none runs:
        Run again on, Cancel off."""
        if kind == "metricfile" and outcome in ("cancelled", "superseded") and \
                not self.win.jobs.running("metricfile"):
            self.session_metric.drop_pending()   # its trial stopped: nothing installed
        kinds = self._kinds()
        if kind not in kinds or any(k in kinds for k in self.win.jobs.in_flight()):
            return
        if self.panel.running():
            self.panel.set_running(False, "Stopped: the metric's processes were ended. Run again "
                                          "to score." if outcome == "cancelled" else "")

    def opening(self):
        """A file is being read, loaded or scored for the first time, or waits to be
        tried on the next pair: it may become the metric in use (no built-in need be
        asked for)."""
        waiting = self.info is not None and self._adopt_after
        return waiting or any(self.win.jobs.running(k) for k in KINDS[:3])

    def _busy(self, busy):
        running = [k for k in self.win.jobs.in_flight() if k in self._kinds()]
        self.panel.cancel_button.setEnabled(bool(running))

    def _enable(self):
        on = self.source is not None
        for key in ("close", "run", "check", "doc"):
            self.actions[key].setEnabled(on)
