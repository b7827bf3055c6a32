"""Dialogs: errors, help (the project's own docs), shortcuts, about."""
from pathlib import Path

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QMessageBox,
                               QTableWidget, QTableWidgetItem, QTextBrowser, QVBoxLayout)

from ..paths import resources_dir
from .crash import guarded


def fallback_help():
    """The registered metrics, when docs/metrics.md is not there."""
    from ..metrics import REGISTRY
    lines = [f"- **{m.label}** (`--metric {m.name}`), "
             f"{'higher' if m.higher_is_better else 'lower'} is better" for m in REGISTRY.values()]
    return "# The metrics\n" + "\n".join(lines) + "\n"


def show_error(parent, title, message, details=""):
    box = QMessageBox(QMessageBox.Critical, title, message, QMessageBox.Ok, parent)
    box.setInformativeText("The app is still running; your data is unchanged.")
    if details:
        box.setDetailedText(details)
    box.setModal(True)
    box.open()          # not exec(): never block a worker result or a test
    return box


_LABELS = ((QMessageBox.Save, "&Save…"), (QMessageBox.Discard, "&Discard"),
           (QMessageBox.Cancel, "Cancel"))


def question_box(parent, title, text, buttons, default):
    """A question whose buttons have Alt mnemonics (Qt's standard Discard has none)."""
    box = QMessageBox(QMessageBox.Question, title, text, buttons, parent)
    box.setDefaultButton(default)
    for which, label in _LABELS:
        if box.button(which) is not None:
            box.button(which).setText(label)
    return box


def ask(parent, title, text, buttons, default):
    """The standard button chosen (Cancel when the box is closed)."""
    return QMessageBox.StandardButton(question_box(parent, title, text, buttons, default).exec())


def help_markdown():
    """docs/metrics.md of the repository or of the installed resources."""
    for path in (resources_dir().parent / "docs" / "metrics.md",
                 resources_dir() / "docs" / "metrics.md"):
        if path.exists():
            return path.read_text(encoding="utf-8")
    return fallback_help()


def _dialog(parent, title, widget, size=(720, 560)):
    d = QDialog(parent)
    d.setWindowTitle(title)
    lay = QVBoxLayout(d)
    lay.addWidget(widget)
    buttons = QDialogButtonBox(QDialogButtonBox.Close)
    buttons.rejected.connect(d.reject)
    lay.addWidget(buttons)
    d.resize(*size)
    d.open()
    return d


def show_help(parent):
    view = QTextBrowser()
    view.setOpenExternalLinks(False)
    view.setMarkdown(help_markdown())
    return _dialog(parent, "Metrics explained", view)


def shortcut_rows(window):
    """(menu path, shortcut) of every action with a shortcut, for the Help list."""
    rows = []

    def walk(menu, path):
        for a in menu.actions():
            if a.menu():
                walk(a.menu(), path + [a.text().replace("&", "")])
            elif not a.isSeparator() and not a.shortcut().isEmpty():
                rows.append((" > ".join(path + [a.text().replace("&", "")]),
                             a.shortcut().toString(QKeySequence.NativeText)))
    for a in window.menuBar().actions():
        walk(a.menu(), [a.text().replace("&", "")])
    return rows


def show_shortcuts(parent):
    rows = shortcut_rows(parent)
    table = QTableWidget(len(rows), 2)
    table.setHorizontalHeaderLabels(["Action", "Shortcut"])
    for r, (name, keys) in enumerate(rows):
        table.setItem(r, 0, QTableWidgetItem(name))
        table.setItem(r, 1, QTableWidgetItem(keys))
    table.resizeColumnsToContents()
    table.setEditTriggers(QTableWidget.NoEditTriggers)
    return _dialog(parent, "Keyboard shortcuts", table, (620, 520))


def show_about(parent):
    from .. import __version__
    from ..metrics import REGISTRY
    names = ", ".join(m.label for m in REGISTRY.values())
    QMessageBox.about(parent, "About kmetric", f"<b>kmetric_gui {__version__}</b><br>"
                      f"Kaggle metric analyzer: {names}.<br>"
                      "MIT licence.")


class ChosenPath(str):
    """The path chosen in the Save dialog, carrying the row order chosen with it
    (``file_order``: True, False, or None when no choice was offered)."""

    file_order = None


class SaveSubmissionDialog(QFileDialog):
    """Save as…: the solution file is refused in the dialog itself, before the
    "Replace?" question (asked, then refused in the status bar, it read as a yes).
    ``source``: the file the submission was read from; the rows can then keep that
    file's own order (on by default: a diff against it shows only the edits)."""

    def __init__(self, parent, start, solution=None, source=None):
        super().__init__(parent, "Save submission as", start, "CSV (*.csv)")
        self.setAcceptMode(QFileDialog.AcceptSave)
        self.setOption(QFileDialog.DontUseNativeDialog)     # accept() must be ours
        self.setDefaultSuffix("csv")
        self.solution = solution
        self.file_order = QCheckBox("&Keep the rows in the order of the file opened "
                                    f"({Path(source).name})" if source else
                                    "&Keep the rows in the order of the file opened")
        self.file_order.setChecked(bool(source))
        self.file_order.setEnabled(bool(source))
        self.file_order.setToolTip(
            "On: rows in the order of the submission's own file as it is on disk now, so "
            "a diff shows only the edits. Off: rows in the solution's order (the app's)."
            if source else "The submission was not read from a file: rows in the "
            "solution's order.")
        grid = self.layout()
        if grid is not None and hasattr(grid, "rowCount"):
            grid.addWidget(self.file_order, grid.rowCount(), 0, 1, -1)
        self.selectFile(start)

    def refuse(self, text):                 # tests replace this
        QMessageBox.warning(self, "Save submission as", text)

    @guarded
    def accept(self):
        files = self.selectedFiles()
        if self.solution and files and _same_file(files[0], self.solution):
            self.refuse(f"{Path(files[0]).name} is the solution file: choose another name "
                        "(the solution is never overwritten).")
            return
        super().accept()


def _same_file(a, b):
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


def ask_submission_path(parent, start, solution=None, source=None):
    """The path chosen in a Save submission dialog ("" when cancelled), a ChosenPath
    whose ``file_order`` is the row order chosen (None without a source file)."""
    dlg = SaveSubmissionDialog(parent, start, solution, source)
    if dlg.exec() != QDialog.Accepted:
        return ""
    path = ChosenPath(dlg.selectedFiles()[0])
    path.file_order = dlg.file_order.isChecked() if source else None
    return path
