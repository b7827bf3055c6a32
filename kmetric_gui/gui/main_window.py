"""The main window: files in, validation, score, editable joined table.

Composes panels and routes work to the worker; holds no metric math.
"""
import json
from pathlib import Path

import numpy as np
from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QUndoStack
from PySide6.QtWidgets import (QFileDialog, QHBoxLayout, QHeaderView, QLabel,
                               QLineEdit, QMainWindow, QMessageBox, QProgressBar,
                               QPushButton, QSplitter, QTableView, QTabWidget,
                               QVBoxLayout, QWidget, QDockWidget)

from ..errors import InputError
from ..paths import resources_dir
from ..io import ValidationFailed
from ..scoring import Options, load, score_prepared
from ..core import apply_cuts
from .edits import ArrayEdit, CellEdit, save_atomic, submission_csv
from .models.joined import build_columns, raw_columns, refresh_derived
from .models.table import ColumnsModel, sorted_rows
from .views.fbeta_view import FbetaView
from .views.kappa_view import KappaView
from .views.lwlrap_view import LwlrapView
from .widgets.drop_zone import DropZone, dropped_paths
from .widgets.options_panel import OptionsPanel
from .widgets.problems_panel import ProblemsPanel
from .widgets.score_panel import ScorePanel
from .worker import WorkController

RESOURCES = resources_dir()
DEMOS = {"qwk": "weighted kappa (APTOS-like)", "lwlrap": "LwLRAP (FSDKaggle2019-like)",
         "fbeta": "Jaccard F-beta (Coleridge-like)"}
MAX_RECENT = 8
FILE_FILTER = "Tables (*.csv *.tsv *.gz *.zip *.parquet *.pq);;All files (*)"


def demo_paths(name="qwk"):
    folder = RESOURCES / "demo"
    return str(folder / f"{name}_solution.csv"), str(folder / f"{name}_submission.csv")


def settings():
    import os
    path = os.environ.get("KMETRIC_SETTINGS")
    if path:   # tests and portable use: an explicit ini file
        return QSettings(path, QSettings.IniFormat)
    return QSettings("kmetric_gui", "kmetric-gui")


def guess_roles(paths):
    """(truth, submission) from two dropped paths, by their names."""
    a, b = paths
    def is_sub(p):
        return "sub" in Path(p).name.lower() or "pred" in Path(p).name.lower()
    if is_sub(a) and not is_sub(b):
        return b, a
    return a, b


class MainWindow(QMainWindow):
    scored = Signal(object)          # ScoreReport shown
    failed = Signal(str)             # an error shown (first line)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("kmetric — Kaggle metric analyzer")
        self.setAcceptDrops(True)
        self.truth_path = self.sub_path = None
        self.prep = self.report = None
        self.columns = []
        self.table_kind = None              # "joined" or "raw:<role>"
        self._raw = {}
        self.settings = settings()
        self.work = WorkController(self)
        self.metric_views = {}
        self.undo = QUndoStack(self)
        self._rescore_timer = QTimer(self, singleShot=True, interval=30)
        self._rescore_timer.timeout.connect(self.rescore)
        self._build_ui()
        self._build_menus()
        self._connect()
        self._restore()

    # -- construction ------------------------------------------------------------
    def _build_ui(self):
        self.truth_zone = DropZone("Truth (solution)")
        self.sub_zone = DropZone("Submission")
        zones = QWidget()
        zl = QHBoxLayout(zones)
        zl.setContentsMargins(0, 0, 0, 0)
        zl.addWidget(self.truth_zone)
        zl.addWidget(self.sub_zone)

        self.score_panel = ScorePanel()
        self.score_panel.setMinimumWidth(200)
        self.views = QTabWidget()
        self.kappa_view = KappaView(work=self.work)
        self.lwlrap_view = LwlrapView(work=self.work)
        self.fbeta_view = FbetaView(work=self.work)
        self.views.addTab(self.kappa_view, "Kappa anatomy")
        self.views.addTab(self.lwlrap_view, "LwLRAP anatomy")
        self.views.addTab(self.fbeta_view, "F-beta anatomy")
        self.views.setVisible(False)
        top_split = QSplitter(Qt.Horizontal)
        top_split.addWidget(self.score_panel)
        top_split.addWidget(self.views)
        top_split.setStretchFactor(0, 1)
        top_split.setStretchFactor(1, 4)
        top_split.setSizes([260, 900])

        self.model = ColumnsModel(self)
        self.model.on_sort = self._request_sort
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicatorShown(True)
        self.table.horizontalHeader().setSectionsMovable(True)
        vh = self.table.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.Fixed)      # no per-row size queries
        vh.setDefaultSectionSize(22)
        hh = self.table.horizontalHeader()
        hh.setDefaultSectionSize(150)
        hh.setStretchLastSection(True)
        self.table.setAlternatingRowColors(True)
        self.table.setSelectionBehavior(QTableView.SelectRows)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter rows by id (Ctrl+F)…")
        self.filter.setClearButtonEnabled(True)
        self.table_label = QLabel("")
        self.show_all = QPushButton("Show all rows")
        self.show_all.setVisible(False)
        top = QHBoxLayout()
        top.addWidget(self.filter, 1)
        top.addWidget(self.show_all)
        top.addWidget(self.table_label)
        table_box = QWidget()
        tl = QVBoxLayout(table_box)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addLayout(top)
        tl.addWidget(self.table)

        split = QSplitter(Qt.Vertical)
        split.addWidget(top_split)
        split.addWidget(table_box)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([600, 260])
        self.splitter = split
        central = QWidget()
        cl = QVBoxLayout(central)
        cl.addWidget(zones)
        cl.addWidget(split, 1)
        self.setCentralWidget(central)

        self.options_panel = OptionsPanel()
        dock = QDockWidget("Options", self)
        dock.setObjectName("optionsDock")
        dock.setWidget(self.options_panel)
        self.addDockWidget(Qt.LeftDockWidgetArea, dock)
        self.problems = ProblemsPanel()
        pdock = QDockWidget("Validation", self)
        pdock.setObjectName("validationDock")
        pdock.setWidget(self.problems)
        self.addDockWidget(Qt.LeftDockWidgetArea, pdock)
        self.splitDockWidget(dock, pdock, Qt.Vertical)
        self.problems_dock = pdock

        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(220)
        self.progress_label = QLabel("")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the running job (Esc)")
        for w in (self.progress_label, self.progress, self.cancel_button):
            self.statusBar().addPermanentWidget(w)
            w.setVisible(False)
        self.resize(1440, 900)
        self.resizeDocks([dock], [300], Qt.Horizontal)
        self.resizeDocks([dock, pdock], [420, 380], Qt.Vertical)

    def _build_menus(self):
        m = self.menuBar().addMenu("&File")
        self.act_open_truth = m.addAction("Open &truth…", lambda: self.browse("truth"),
                                          QKeySequence("Ctrl+T"))
        self.act_open_sub = m.addAction("&Open submission…", lambda: self.browse("submission"),
                                        QKeySequence.Open)
        demo = m.addMenu("Open &demo")
        for name, label in DEMOS.items():
            demo.addAction(label, lambda n=name: self.open_files(*demo_paths(n)))
        self.recent_menu = m.addMenu("&Recent")
        m.addSeparator()
        self.act_save = m.addAction("&Save submission as…", self.save_as, QKeySequence("Ctrl+Shift+S"))
        self.act_save.setEnabled(False)
        m.addSeparator()
        m.addAction("&Quit", self.close, QKeySequence.Quit)
        e = self.menuBar().addMenu("&Edit")
        self.act_undo = self.undo.createUndoAction(self, "&Undo")
        self.act_undo.setShortcut(QKeySequence("Ctrl+Z"))
        self.act_redo = self.undo.createRedoAction(self, "&Redo")
        self.act_redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        e.addAction(self.act_undo)
        e.addAction(self.act_redo)
        e.addSeparator()
        e.addAction("&Filter rows", self.filter.setFocus, QKeySequence.Find)
        s = self.menuBar().addMenu("&Score")
        s.addAction("&Rescore", self.reload, QKeySequence("F5"))
        self.act_cancel = s.addAction("&Cancel", self.cancel, QKeySequence("Esc"))
        h = self.menuBar().addMenu("&Help")
        h.addAction("&About", self._about)

    def _connect(self):
        self.truth_zone.file_dropped.connect(lambda p: self.set_file("truth", p))
        self.sub_zone.file_dropped.connect(lambda p: self.set_file("submission", p))
        self.truth_zone.browse_requested.connect(lambda: self.browse("truth"))
        self.sub_zone.browse_requested.connect(lambda: self.browse("submission"))
        self.options_panel.changed.connect(self._options_changed)
        self.work.result.connect(self._on_result)
        self.work.error.connect(self._on_error)
        self.work.progress.connect(self._on_progress)
        self.work.busy_changed.connect(self._on_busy)
        self.cancel_button.clicked.connect(self.cancel)
        self.model.edit_requested.connect(self._on_edit)
        self.model.edit_rejected.connect(self._on_edit_rejected)
        self.problems.problem_activated.connect(self._select_problem)
        self.filter.textChanged.connect(lambda: QTimer.singleShot(0, self._refresh_rows))
        self.show_all.clicked.connect(self.clear_filters)
        self.kappa_view.drill_down.connect(self._kappa_drill)
        self.kappa_view.weights_changed.connect(self._view_weights)
        self.kappa_view.apply_cuts.connect(self._apply_cuts)
        self.lwlrap_view.ties_changed.connect(
            lambda t: self.options_panel.ties.setCurrentIndex(self.options_panel.ties.findData(t)))
        self.fbeta_view.option_changed.connect(self._fbeta_option)
        self.undo.cleanChanged.connect(self._update_title)
        self._drill = None
        self._sort = None

    # -- files -------------------------------------------------------------------
    def browse(self, role):
        start = self.settings.value("last_folder", str(Path.home()))
        path, _ = QFileDialog.getOpenFileName(self, f"Open {role} file", start, FILE_FILTER)
        if path:
            self.set_file(role, path)

    def set_file(self, role, path):
        if not self._confirm_discard():
            return
        self.settings.setValue("last_folder", str(Path(path).parent))
        if role == "truth":
            self.truth_path = path
            self.truth_zone.set_path(path)
        else:
            self.sub_path = path
            self.sub_zone.set_path(path)
        self.reload()

    def open_files(self, truth, submission):
        """Open both files at once (command line, demo, recent, two dropped files)."""
        if not self._confirm_discard():
            return
        self.truth_path, self.sub_path = str(truth), str(submission)
        self.truth_zone.set_path(self.truth_path)
        self.sub_zone.set_path(self.sub_path)
        self.settings.setValue("last_folder", str(Path(self.sub_path).parent))
        self.reload()

    def dragEnterEvent(self, event):
        if len(dropped_paths(event.mimeData())) in (1, 2):
            event.acceptProposedAction()

    def dropEvent(self, event):
        paths = dropped_paths(event.mimeData())
        if len(paths) == 2:
            event.acceptProposedAction()
            self.open_files(*guess_roles(paths))
        elif len(paths) == 1:
            event.acceptProposedAction()
            self.set_file("submission" if self.truth_path else "truth", paths[0])

    # -- work --------------------------------------------------------------------
    def reload(self):
        """Read, validate and score both files on the worker."""
        if not (self.truth_path and self.sub_path):
            missing = "truth" if not self.truth_path else "submission"
            self.score_panel.clear(f"Now open the {missing} file")
            return
        truth, sub, opts = self.truth_path, self.sub_path, self.options_panel.options()
        self._rescore_timer.stop()
        self.work.cancel("rescore")

        def job(progress, cancel):
            try:
                prep = load(truth, sub, opts, progress, cancel)
            except ValidationFailed as e:
                e.raw = {role: raw_columns(t) for role, t in e.tables.items()}
                raise
            report = score_prepared(prep, opts, progress, cancel)
            prep.ids        # converted here, not on the UI thread
            return "loaded", prep, report, build_columns(prep, report)
        self.work.submit("score", job)

    def rescore(self):
        """Score the current (possibly edited) data again with current options."""
        if self.prep is None:
            return self.reload()
        prep, opts = self.prep, self.options_panel.options()

        def job(progress, cancel):
            return "rescored", prep, score_prepared(prep, opts, progress, cancel)
        self.work.submit("rescore", job)

    def cancel(self):
        self.work.cancel()
        self.statusBar().showMessage("Cancelled", 4000)

    def _options_changed(self, what):
        if what == "reload" or self.prep is None:
            if self._confirm_discard():
                self.reload()
        else:
            self.rescore()

    def _on_busy(self, busy):
        for w in (self.progress_label, self.progress, self.cancel_button):
            w.setVisible(busy)
        if busy:
            self.progress.setValue(0)

    def _on_progress(self, channel, fraction, message):
        self.progress.setValue(int(fraction * 1000))
        self.progress_label.setText(message)

    def _on_result(self, channel, result):
        if channel.startswith("kappa-"):
            self.kappa_view.on_work_result(channel, result)
            return
        if channel.startswith("lwlrap-"):
            self.lwlrap_view.on_work_result(channel, result)
            return
        if channel.startswith("fbeta-"):
            self.fbeta_view.on_work_result(channel, result)
            return
        if channel == "apply-cuts":
            prep, new = result
            if prep is self.prep:
                self.undo.push(ArrayEdit("Apply cut points", prep.pred, new, self._array_edited))
            return
        if channel == "rows":
            self.model.set_rows(result)
            self._update_table_label()
            return
        if channel == "save":
            path = result
            self.undo.setClean()
            self.statusBar().showMessage(f"Saved {path}", 6000)
            return
        kind, prep = result[0], result[1]
        if kind == "loaded":
            self.prep, self.report, self.columns = prep, result[2], result[3]
            self.undo.clear()
            self.model.set_columns(self.columns, len(prep))
            self.table_kind = "joined"
            self._after_table_change()
            self._remember_recent()
        elif prep is not self.prep:
            return                          # a rescore of data since replaced
        else:
            self.report = result[2]
            for col in refresh_derived(self.columns, self.report):
                self.model.refresh_column(col)
        self.problems.set_problems([])
        self.options_panel.show_metric(self.report.metric)
        self._show_metric_view(self.report)
        self.score_panel.show_report(self.report)
        self.act_save.setEnabled(True)
        self.scored.emit(self.report)

    def _on_error(self, channel, exc):
        if isinstance(exc, InputError):
            problems = getattr(exc, "report", None) or exc.problems
            self.problems.set_problems(problems)
            self.problems_dock.show()
            self.problems_dock.raise_()
            first = str(problems[0])
            self.score_panel.clear("Invalid input — see Validation")
            self.score_panel.detail.setText(first)
            self.statusBar().showMessage(first, 10000)
            raw = getattr(exc, "raw", None)
            if channel == "score":
                self.prep = self.report = None
                self.views.setVisible(False)
                self.act_save.setEnabled(False)
                self._raw = raw or {}
                role = "submission" if "submission" in self._raw else next(iter(self._raw), None)
                if role:
                    self._show_raw(role)
                else:
                    self.model.set_columns([], 0)
                    self.table_kind = None
            self.failed.emit(first)
            return
        self.failed.emit(str(exc))
        show_error_dialog(self, "Something went wrong", str(exc), getattr(exc, "details", ""))

    # -- metric views ---------------------------------------------------------------
    def _show_metric_view(self, report):
        views = {"qwk": self.kappa_view, "lwlrap": self.lwlrap_view, "fbeta": self.fbeta_view}
        view = views.get(report.metric)
        self.views.setVisible(view is not None)
        for v in views.values():
            self.views.setTabVisible(self.views.indexOf(v), v is view)
        if view is not None:
            self.views.setCurrentWidget(view)
            view.set_report(report)

    def _kappa_drill(self, truth_rating, pred_rating, label):
        prep, cuts = self.prep, self.report.cuts if self.report else None
        lo = int(self.report.result.labels[0]) if self.report else 0

        def mask(rows):
            pred = prep.pred if cuts is None else apply_cuts(prep.pred, cuts, lo)
            return (prep.truth[rows] == truth_rating) & (pred[rows] == pred_rating)
        self.filter_rows(mask, label)

    def _fbeta_option(self, name, value):
        """The F-beta view's controls drive the options panel (which rescores)."""
        panel = self.options_panel
        if name == "threshold":
            panel.threshold.setValue(value)
        elif name == "beta":
            panel.beta.setValue(value)
        elif name == "matching":
            panel.matching.setCurrentText(value)
        elif name == "clean":
            panel.clean.setChecked(value)

    def _view_weights(self, weights):
        if self.options_panel.weights.currentText() != weights:
            self.options_panel.weights.setCurrentText(weights)   # rescoring follows

    def _apply_cuts(self, cuts):
        prep = self.prep
        if prep is None or self.report is None or self.report.cuts is None:
            return
        lo = int(self.report.result.labels[0])

        def job(progress, cancel):
            return prep, apply_cuts(prep.pred, cuts, lo).astype(prep.pred.dtype)
        self.work.submit("apply-cuts", job)

    def _array_edited(self):
        for c in range(len(self.model.columns)):
            self.model.refresh_column(c)
        self._edited()

    # -- table -------------------------------------------------------------------
    def _show_raw(self, role):
        cols, n = self._raw[role]
        self.model.set_columns(cols, n)
        self.table_kind = f"raw:{role}"
        self._after_table_change()

    def _after_table_change(self):
        self.filter.clear()
        self._drill = None
        self._sort = None
        self.show_all.setVisible(False)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.AscendingOrder)
        self._update_table_label()

    def _update_table_label(self):
        what = "" if self.table_kind in (None, "joined") else f" of the {self.table_kind[4:]} file"
        self.table_label.setText(f"{self.model.rowCount():,} of {self.model.n_source:,} rows{what}")

    def _request_sort(self, column, order):
        if 0 <= column < len(self.model.columns):
            self._sort = (column, order == Qt.DescendingOrder)
        else:
            self._sort = None                   # no sort column: source order
        self._refresh_rows()

    def filter_rows(self, mask_fn, label):
        """Show only rows where mask_fn(source_rows) is True (drill-down)."""
        self._drill = (mask_fn, label)
        self.show_all.setVisible(True)
        self.show_all.setText(f"Show all rows ({label})")
        self._refresh_rows()

    def clear_filters(self):
        self._drill = None
        self.show_all.setVisible(False)
        self.filter.clear()
        self._refresh_rows()

    def _refresh_rows(self):
        """Filter, drill-down and sort in one worker job: the index map."""
        if not self.model.columns:
            return
        text = self.filter.text().strip().lower()
        ids = self.model.columns[0].values
        n = self.model.n_source
        drill = self._drill
        sort = None
        if self._sort is not None:
            c = self.model.columns[self._sort[0]]
            sort = (c.values, self._sort[1], c.sort_key)

        def job(progress, cancel):
            keep = np.ones(n, dtype=bool)
            if drill is not None:
                keep &= drill[0](np.arange(n))
            if text:
                keep &= np.fromiter((text in str(v).lower() for v in ids), bool, n)
            rows = np.flatnonzero(keep)
            if sort is not None:
                rows = sorted_rows(sort[0], rows, sort[1], sort[2])
            return rows
        self.work.submit("rows", job)

    def _select_problem(self, problem):
        if problem is None or not getattr(problem, "rows", None):
            return
        role = problem.role
        if role in self._raw and self.table_kind != f"raw:{role}":
            self._show_raw(role)
        r = self.model.view_row(problem.rows[0])
        if r >= 0:
            self.table.selectRow(r)
            self.table.scrollTo(self.model.index(r, 0), QTableView.PositionAtCenter)

    # -- edits -------------------------------------------------------------------
    def _on_edit(self, source_row, col, old, new):
        if self.table_kind != "joined":
            return
        self.undo.push(CellEdit(self.model, source_row, col, old, new, self._edited))

    def _edited(self):
        self._rescore_timer.start()     # coalesce bursts of edits into one rescore
        self._update_title()

    def _on_edit_rejected(self, message):
        self.statusBar().showMessage(f"Edit rejected — {message}", 8000)
        self.problems.header.setText(f"<b>Edit rejected:</b> {message}")

    def save_as(self):
        if self.prep is None:
            return
        start = str(Path(self.sub_path).with_name(Path(self.sub_path).stem + "_edited.csv"))
        path, _ = QFileDialog.getSaveFileName(self, "Save submission as", start, "CSV (*.csv)")
        if path:
            self.save_to(path)

    def save_to(self, path):
        """Write the edited submission atomically (on the worker)."""
        if self.truth_path and Path(path).resolve() == Path(self.truth_path).resolve():
            self.statusBar().showMessage("Refusing to overwrite the solution file", 8000)
            return False
        prep = self.prep

        def job(progress, cancel):
            save_atomic(path, submission_csv(prep))
            return path
        self.work.submit("save", job)
        return True

    def _confirm_discard(self):
        if self.undo.isClean():
            return True
        answer = self.ask_unsaved()
        if answer == QMessageBox.Save:
            self.save_as()
            return self.undo.isClean()
        return answer == QMessageBox.Discard

    def ask_unsaved(self):
        return QMessageBox.question(
            self, "Unsaved edits", "The submission has edits that are not saved. Save them?",
            QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)

    def _update_title(self, *_):
        star = "" if self.undo.isClean() else " *"
        name = Path(self.sub_path).name if self.sub_path else ""
        self.setWindowTitle(f"kmetric — {name}{star}" if name else "kmetric — Kaggle metric analyzer")

    # -- settings ----------------------------------------------------------------
    def _remember_recent(self):
        pair = [self.truth_path, self.sub_path]
        recent = [p for p in self._recent() if p != pair]
        recent.insert(0, pair)
        self.settings.setValue("recent", json.dumps(recent[:MAX_RECENT]))
        self._fill_recent()

    def _recent(self):
        try:
            return [list(p) for p in json.loads(self.settings.value("recent", "[]"))]
        except (TypeError, ValueError):
            return []

    def _fill_recent(self):
        self.recent_menu.clear()
        for truth, sub in self._recent():
            self.recent_menu.addAction(f"{Path(sub).name}  ←  {Path(truth).name}",
                                       lambda t=truth, s=sub: self.open_files(t, s))
        self.recent_menu.setEnabled(bool(self._recent()))

    def _restore(self):
        geo = self.settings.value("geometry")
        if geo is not None:
            self.restoreGeometry(geo)
        state = self.settings.value("window_state")
        if state is not None:
            self.restoreState(state)
        try:
            saved = json.loads(self.settings.value("options", "{}"))
            self.options_panel.set_options(Options(**saved))
        except (TypeError, ValueError):
            pass
        self._fill_recent()

    def closeEvent(self, event):
        if not self._confirm_discard():
            event.ignore()
            return
        from dataclasses import asdict
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("window_state", self.saveState())
        self.settings.setValue("options", json.dumps(asdict(self.options_panel.options())))
        self.settings.sync()
        self.work.shutdown()
        event.accept()

    def _about(self):
        from .. import __version__
        QMessageBox.about(self, "About kmetric", f"<b>kmetric_gui {__version__}</b><br>"
                          "Kaggle metric analyzer: weighted kappa, LwLRAP, Jaccard F-beta.")


def show_error_dialog(parent, title, message, details=""):
    box = QMessageBox(QMessageBox.Critical, title, message, QMessageBox.Ok, parent)
    box.setInformativeText("The app is still running; your data is unchanged.")
    if details:
        box.setDetailedText(details)
    box.setModal(True)
    box.open()          # not exec(): never block a worker result or a test
    return box
