"""File > Export report…: the numbers on the worker, the drawing on the GUI thread.

The worker hashes the files, counts their rows, computes the intervals, the
shake-up and the top fixes and writes the tables; the GUI thread then draws
the plots and the PDF (Qt widgets live there) and writes index.html and
report.json. The folder opens when done. ``ask_*`` / ``open_folder`` are
the only dialogs (tests replace them).
"""
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFileDialog, QMessageBox

from ..errors import InputError
from ..report import FolderError, build_report, file_info, is_nonempty, prepare_folder, score_entry
from ..report.build import count_rows
from ..report.write import write_index, write_tables
from ..analysis.stats import ShakeupOptions, StatsOptions

TOP_FIXES = 20


class ReportExporter(QObject):
    written = Signal(str)         # the folder
    failed = Signal(str)

    def __init__(self, win):
        super().__init__(win)
        self.win = win

    def ask_folder(self):
        start = self.win.settings.value("last_folder", str(Path.home()))
        return QFileDialog.getExistingDirectory(self.win, "Export the report into this folder", start)

    def ask_write_into(self, folder):
        return QMessageBox.question(
            self.win, "Folder not empty", f"{folder} is not empty. Write the report into it? "
            "(files of an older report are replaced, other files are kept)",
            QMessageBox.Yes | QMessageBox.No, QMessageBox.No) == QMessageBox.Yes

    def open_folder(self, folder):
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    def show_problem(self, text):
        self.failed.emit(text)
        self.win.statusBar().showMessage(text, 0)
        QMessageBox.warning(self.win, "Export report", text)

    def export_dialog(self):
        folder = self.ask_folder()
        if folder:
            self.export(folder)

    def export(self, folder, open_when_done=True):
        s = self.win.session
        if s.results is None or s.data is None:
            self.show_problem("Nothing to report yet: open a truth and a submission file first")
            return False
        force = is_nonempty(folder)
        if force and not self.ask_write_into(folder):
            return False
        try:
            out = prepare_folder(folder, force)
        except FolderError as e:
            self.show_problem(str(e))
            return False
        report, truth, sub = s.results.report, s.truth_path, s.sub_path
        edits = len(s.changes()) if s.dirty else 0
        shown = getattr(s, "comparison", None)      # the Compare tab's, when current
        cmp = shown.comparison if shown is not None and s.is_current(shown.generation) else None
        others = list(shown.paths) if cmp is not None else []
        # The app's statistics settings when the user chose some, else the defaults.
        ci, shake = getattr(s, "stats_settings", None) or (StatsOptions(), ShakeupOptions())

        def job(progress, cancel):
            progress(0.05, "report: hashing and counting the files")
            files = [file_info(truth, "solution", count_rows(truth, "solution"), cancel),
                     file_info(sub, "submission", count_rows(sub, "submission"), cancel)]
            files += [file_info(p, "submission", count_rows(p, "submission"), cancel) for p in others]
            progress(0.4, "report: intervals, shake-up and top fixes")
            from .stats_controls import group_kw
            kw = group_kw(report, truth, (ci, shake))     # the row groups in force
            try:
                entry = score_entry(sub, report, ci, shake, TOP_FIXES, cancel, **kw)
            except InputError:            # e.g. too few units to split: the report goes without
                entry = score_entry(sub, report, ci, None, TOP_FIXES, cancel, **kw)
            data = build_report(truth, [entry], files=files, edits=edits, comparison=cmp, cancel=cancel)
            write_tables(data, out)
            return data

        def done(data):
            from .report_render import render_steps
            self._draw(data, out, render_steps(data, out), open_when_done)

        # Not bound to the generation: the report is of the numbers shown when it was asked
        # for (an immutable ScoreReport), whatever the user edits meanwhile.
        self.win.jobs.submit("report", job, done, on_error=lambda e: self.show_problem(str(e)))
        return True

    def _draw(self, data, out, steps, open_when_done):
        """One plot (or the PDF) per event-loop turn on the GUI thread, then the index."""
        try:
            name = next(steps, None)
            if name is not None:
                self.win.statusBar().showMessage(f"report: drew {name}")
                QTimer.singleShot(0, self, lambda: self._draw(data, out, steps, open_when_done))
                return
            write_index(data, out)
        except (OSError, RuntimeError) as e:
            self.show_problem(f"report not finished: {e}")
            return
        self.win.settings.setValue("last_folder", str(out))
        self.win.statusBar().showMessage(f"Report written to {out}", 8000)
        self.written.emit(str(out))
        if open_when_done:
            self.open_folder(out)
