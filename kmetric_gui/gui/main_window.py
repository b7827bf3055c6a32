"""The main window: composes the drop zones, score panel, anatomy tabs, table,
docks and menus, and connects them to the session (state), the controller
(jobs) and each other. It holds no metric logic and routes no results."""
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (QDockWidget, QHBoxLayout, QMainWindow,
                               QMessageBox, QScrollArea, QSplitter, QVBoxLayout,
                               QWidget)

from ..errors import InputError
from ..analysis.scoring import Options
from ..state import Session
from . import dialogs
from .controller import AppController
from .freshness import Freshness
from .app_settings import settings  # noqa: F401 -- settings: tests
from .crash import guarded
from .file_actions import FILE_FILTER, FileActions, demo_paths, guess_roles, save_start  # noqa: F401
from .jobs import JobController
from .menus import build_menus
from .looks_like import LooksLike
from .stats_controls import StatsControls
from .metric_file_actions import MetricFileActions
from .table_panel import TablePanel
from .unsaved import UnsavedEdits
from .window_settings import WindowSettings
from .views import ViewContext
from .views.tabs import MetricTabs, style_plots
from .widgets.drop_zone import DropZone
from .widgets.options_panel import OptionsPanel
from .widgets.problems_panel import ProblemsPanel
from .widgets.progress import StatusProgress
from .widgets.score_panel import ScorePanel
from .widgets.shakeup_panel import ShakeupPanel
from .widgets.welcome import Welcome

APP_TITLE = "kmetric — Kaggle metric analyzer"


def scrolling(widget):
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
    area.setWidget(widget)
    return area


class MainWindow(FileActions, UnsavedEdits, QMainWindow):
    scored = Signal(object)          # a ScoreReport is shown
    failed = Signal(str)             # an error is shown (first line)

    def __init__(self, parent=None, size=None):
        super().__init__(parent)
        self.setAcceptDrops(True)
        self.settings = settings()
        self.session = Session(Options(allow_continuous=True))
        self.jobs = JobController(lambda: self.session.generation, self)
        self.controller = AppController(self.session, self.jobs, self)
        self._discarding = False
        self._build_ui()
        self.actions_ = build_menus(self)
        self.metric_file = MetricFileActions(self)     # File > Open metric file…, its dock
        self.saved_state = WindowSettings(self)
        self._connect()
        self.freshness = Freshness(self)
        self.stats_controls = StatsControls(self)       # coverage check, row groups
        self.looks_like = LooksLike(self)               # proposes a competition by header
        self._restore()
        self.session.set_stats_settings(self.options_panel.stats_settings())
        if size:              # exactly this size, whatever the saved layout (docs, tests)
            self.reset_layout()
            self.resize(*size)
        self._history_changed()

    # -- construction ------------------------------------------------------------
    def _build_ui(self):
        self.truth_zone = DropZone("Truth (solution)")
        self.sub_zone = DropZone("Submission")
        self.compare_zone = DropZone("Compare with", multiple=True)
        zones = QWidget()
        zl = QHBoxLayout(zones)
        zl.setContentsMargins(0, 0, 0, 0)
        zl.addWidget(self.truth_zone)
        zl.addWidget(self.sub_zone)
        zl.addWidget(self.compare_zone)
        self.score_panel = ScorePanel()
        self.tabs = MetricTabs(ViewContext(self.jobs, self.session))
        self.tabs.settings = self.settings
        self.top_split = QSplitter(Qt.Horizontal)
        score_area = scrolling(self.score_panel)
        score_area.setMinimumWidth(200)            # the score is never cut
        self.top_split.addWidget(score_area)
        self.top_split.setCollapsible(0, False)
        self.welcome = Welcome()                  # until there is something to show
        self.welcome.demo_requested.connect(self.open_demo)
        self.top_split.addWidget(self.welcome)
        self.top_split.addWidget(self.tabs)
        for i, stretch in enumerate((0, 1, 1)):     # the score keeps its width; views grow
            self.top_split.setStretchFactor(i, stretch)
        self.table_panel = TablePanel(self.session, self.jobs, self.controller)
        self.splitter = QSplitter(Qt.Vertical)
        self.splitter.addWidget(self.top_split)
        self.splitter.addWidget(self.table_panel)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        central = QWidget()
        cl = QVBoxLayout(central)
        cl.addWidget(zones)
        cl.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self.options_panel = OptionsPanel()
        self.problems = ProblemsPanel()
        self.shakeup = ShakeupPanel()
        style_plots(self.shakeup)
        self.docks = []
        for title, name, widget, area in (
                ("Options", "optionsDock", self.options_panel, Qt.LeftDockWidgetArea),
                ("Validation", "validationDock", self.problems, Qt.LeftDockWidgetArea),
                ("Shake-up", "shakeupDock", self.shakeup, Qt.LeftDockWidgetArea)):
            dock = QDockWidget(title, self)
            dock.setObjectName(name)
            # Short screens scroll, never clip (the shake-up's chart ignores its 480 px size
            # hint, so it shrinks to its minimum before the panel scrolls).
            dock.setWidget(scrolling(widget))
            if widget is self.options_panel:   # Tab into a clipped field would scroll sideways
                dock.widget().setMinimumWidth(widget.minimumSizeHint().width() + 14)
            self.addDockWidget(area, dock)
            self.docks.append(dock)
        self.splitDockWidget(self.docks[0], self.docks[1], Qt.Vertical)
        self.tabifyDockWidget(self.docks[1], self.docks[2])     # Validation | Shake-up
        self.problems_dock = self.docks[1]
        self.status_progress = StatusProgress(self.statusBar(), self.controller.cancel)
        self._default_state = None
        screen = self.screen().availableGeometry() if self.screen() else None
        w, h = (1440, 900) if screen is None else (min(1440, int(screen.width() * 0.95)),
                                                   min(900, int(screen.height() * 0.92)))
        self.resize(w, h)                          # never larger than the screen

    def _connect(self):
        s, c = self.session, self.controller
        self.truth_zone.file_dropped.connect(lambda p: self.set_file("truth", p))
        self.sub_zone.file_dropped.connect(lambda p: self.set_file("submission", p))
        self.truth_zone.browse_requested.connect(lambda: self.browse("truth"))
        self.sub_zone.browse_requested.connect(lambda: self.browse("submission"))
        self.compare_zone.files_dropped.connect(c.compare_jobs.add)
        self.compare_zone.browse_requested.connect(self.browse_compare)
        s.compare_changed.connect(lambda res: self.tabs.show_comparison(res, bool(s.compare_paths)))
        self.options_panel.changed.connect(self._options_changed)
        # The panel is a view of the session's options: whoever sets them (a project, a
        # demo, saved settings, a stopped load), the panel shows what is in force.
        s.options_changed.connect(self.options_panel.set_options)
        self.options_panel.refused.connect(lambda text: self.statusBar().showMessage(text, 10000))
        self.problems.problem_activated.connect(self._select_problem)
        self.tabs.option_changed.connect(self.options_panel.set_option)
        self.tabs.rows_requested.connect(self.table_panel.filter_rows)
        self.tabs.transform_requested.connect(lambda label, fn: c.transform(label, fn))
        s.files_changed.connect(self._files_changed)
        s.history_changed.connect(self._history_changed)
        s.problems_changed.connect(self._problems_changed)
        s.results_changed.connect(self._results_changed)
        s.data_changed.connect(self._data_changed)
        c.message.connect(lambda text, ms: self.statusBar().showMessage(text, ms))
        c.failed.connect(self.failed)
        c.metric_ambiguous.connect(self._choose_metric)
        c.saved.connect(lambda _: self._remember_recent())
        self.jobs.error.connect(self._unexpected_error)
        self.jobs.busy_changed.connect(self.status_progress.busy)
        self.jobs.progress.connect(self.status_progress.progress)
        self.jobs.progress.connect(self._load_progress)
        self.jobs.busy_changed.connect(self._load_stopped)
        self.options_panel.stats_changed.connect(
            lambda: c.stats_settings_changed(self.options_panel.stats_settings()))
        s.stats_changed.connect(self._stats_changed)
        c.fixes_ready.connect(lambda f: self.tabs.show_fixes(f.metric, f.top, f.gains,
                                                             f.has_optimiser))
        self.tabs.honest_requested.connect(c.check_honest)
        self.tabs.message.connect(lambda text: self.statusBar().showMessage(text, 0))
        c.honest_ready.connect(lambda h: self.tabs.fixes.show_honest(h))

    def ask_metric(self, names):
        """Which of the metrics that fit the files to use (None: none chosen)."""
        from PySide6.QtWidgets import QInputDialog
        name, ok = QInputDialog.getItem(self, "Choose the metric", "Several metrics fit these "
                                        "files. Score them with:", names, 0, False)
        return name if ok else None

    def _choose_metric(self, names):
        # Asked once the failed load has ended (its progress gone), and not at all if
        # newer files or a metric file (e.g. named with --metric-file) are on their way.
        QTimer.singleShot(0, self, lambda: None if self.jobs.running("load") or
                          self.metric_file.opening() else self._set_metric(self.ask_metric(names)))

    def _set_metric(self, name):
        combo = self.options_panel.metric_combo
        if name and combo.findData(name) >= 0:
            combo.setCurrentIndex(combo.findData(name))     # reloads with that metric

    def fit_to(self, size):
        """Exactly this size; docks close when the views need their room (View menu)."""
        w, h = size
        for dock in [None] + self.docks[::-1]:
            if dock is not None:
                dock.hide()
                self.layout().activate()         # minimum sizes without that dock
            hint = self.minimumSizeHint()
            if hint.width() <= w and hint.height() <= h:
                break
        self.setMinimumSize(0, 0)
        self.resize(w, h)

    def discard_and_close(self):
        """Close without asking about edits (screenshot mode; tests)."""
        self._discarding = True
        self.close()

    @guarded
    def closeEvent(self, event):
        if self.session.dirty and not self._discarding:
            answer = self.ask_unsaved()
            if answer != QMessageBox.Discard:
                event.ignore()
                path = self.ask_save_path() if answer == QMessageBox.Save else ""
                if path:     # closes once the file is written (not before, not if it fails)
                    self.save_then(path, self.discard_and_close)
                return
        self._save_settings()
        # A metric file's processes are killed first: a job waiting on them ends at once.
        self.metric_file.session_metric.kill()
        self.jobs.shutdown()
        self.metric_file.session_metric.shutdown()     # and closed (any started since)
        event.accept()

    # -- session events --------------------------------------------------------------
    def _options_changed(self, what):
        options = self.options_panel.options()
        if what != "reload":
            self.controller.options_changed(options, False)
            return

        def go():               # new data: edits saved (then read again) or discarded first
            self.options_panel.set_options(options)
            self.controller.options_changed(options, True)
        # Nothing changes before the answer about unsaved edits: the panel shows the
        # options in force until then (and after Cancel).
        self.options_panel.set_options(self.session.options)
        self.request_discard(go)

    def _files_changed(self):
        s = self.session
        self.truth_zone.set_path(s.truth_path)
        self.sub_zone.set_path(s.sub_path)
        self.compare_zone.set_paths(s.compare_paths)
        self._history_changed()

    def _history_changed(self):
        s, a = self.session, self.actions_
        a["undo"].setEnabled(s.can_undo)
        a["undo"].setText(f"&Undo {s.undo_text}".rstrip())
        a["redo"].setEnabled(s.can_redo)
        a["redo"].setText(f"&Redo {s.redo_text}".rstrip())
        a["save"].setEnabled(s.data is not None)
        name = Path(s.sub_path).name if s.sub_path else ""
        star = " *" if s.dirty else ""
        self.setWindowTitle(f"kmetric — {name}{star}" if name else APP_TITLE)

    def _load_progress(self, kind, fraction, message):
        """While files are read and nothing is scored yet, the score panel says so
        (it said "No files yet" under both files' names)."""
        if kind == "load" and self.score_panel.score_label.text() == "—" and message \
                and message != "done":           # the last step's word, not a step
            self.score_panel.metric_label.setText(f"{message[0].upper()}{message[1:]}…")

    def _load_stopped(self, busy):
        """A load cancelled before it scored: the panel must not keep saying it reads."""
        p = self.score_panel
        if not busy and p.score_label.text() == "—" and p.metric_label.text().endswith("…"):
            p.clear("Stopped: nothing scored")
            p.detail.setText("Ctrl+R reads the files again.")

    def _problems_changed(self, problems):
        notes = self.session.problems_are_notes    # on scored data, not errors
        self.problems.set_problems(problems, title=(
            f"<b>Scored, with {len(problems)} note(s):</b>" if notes and problems else None))
        if problems:
            self.problems_dock.show()
            self.problems_dock.raise_()
        if problems and not notes:
            # Nothing on screen may keep the numbers of data that is not shown any more.
            self.score_panel.clear("Invalid input — see Validation" if self.session.data is None
                                   else "Not scored — see Validation")
            self.score_panel.detail.setText(str(problems[0]))
            if self.session.data is not None:       # a failed rescore: the views are stale
                self.tabs.setVisible(False)
                self.table_panel.mark_unscored()

    def _data_changed(self, version):
        self.welcome.setVisible(False)
        if version is None:
            self.tabs.hide_views()
            self.actions_["save"].setEnabled(False)

    def _results_changed(self, results):
        if results is None:
            return
        report = results.report
        self.options_panel.show_metric(report.metric)
        self.score_panel.show_report(report)
        # The score shows at once; the anatomy redraws on the next turn of the event
        # loop, if these numbers are still the current ones by then.
        QTimer.singleShot(0, self, lambda: self._show_anatomy(results))   # dropped with the window
        self._remember_recent()

    @guarded
    def showEvent(self, event):
        super().showEvent(event)
        # The Fix first page is made on the first idle turn after the window shows: made
        # when the first fixes arrived it took 30 ms of the turn that draws the anatomy,
        # and made when a load starts its widgets waited on the reading worker's GIL.
        if getattr(self.tabs, "fixes", None) is None:
            QTimer.singleShot(0, self, self.tabs.prepare_fixes)

    def _show_anatomy(self, results):
        # superseded before this turn (other options, e.g. a metric file closed): not drawn
        if self.session.results is results and self.session.is_current(results.generation):
            self.tabs.show_report(results.report, self.session.data.base)
            self.scored.emit(results.report)      # score, anatomy and table all shown

    def _select_problem(self, problem):
        if problem is not None and getattr(problem, "rows", None):
            self.table_panel.select_source_row(problem.rows[0], problem.role)

    def _unexpected_error(self, kind, exc):
        text = str(exc) if isinstance(exc, (InputError, OSError)) else f"{type(exc).__name__}: {exc}"
        self.problems.set_problems([f"{'Saving' if kind.startswith('save') else 'Work'} "
                                    f"failed: {text}"], title="<b>Something went wrong</b>")
        self.failed.emit(text)
        dialogs.show_error(self, "Something went wrong", text, getattr(exc, "details", ""))

    def _stats_changed(self, stats):
        seed = self.session.stats_settings[0].seed if self.session.stats_settings else 0
        s = self.session
        self.score_panel.show_stats(stats.stats if stats else None, seed,
                                    pending=s.stats_settings is not None)
        if stats is None:
            self.freshness.soon()      # "not computed" when no job of the new settings runs
            return
        if stats.stats.shakeup is not None:
            self.shakeup.show_shakeup(stats.stats.shakeup)
            if not self.session.problems:
                self.docks[2].raise_()
        elif stats.stats.shakeup_problem:     # e.g. whole groups too few to split: say why
            self.shakeup.clear(f"Shake-up: not computed ({stats.stats.shakeup_problem})")
        self.tabs.show_stats(stats.stats)

    # -- settings and help ------------------------------------------------------------
    def _remember_recent(self):
        self.saved_state.remember_recent()

    def _recent(self):
        return self.saved_state.recent()

    def _restore(self):
        self.saved_state.restore()

    def _save_settings(self):
        self.saved_state.save()

    def reset_layout(self):
        self.saved_state.reset_layout()

    def show_help(self):
        dialogs.show_help(self)

    def show_shortcuts(self):
        dialogs.show_shortcuts(self)

    def show_about(self):
        dialogs.show_about(self)
