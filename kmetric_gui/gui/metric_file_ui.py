"""The window's parts for a metric file: menu entries, the "Metric file" dock, the
arguments group in the Options panel, and the questions asked (the ``ask_*``
functions of MetricFileActions call these; tests replace those methods)."""
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDockWidget, QFormLayout, QGroupBox, QScrollArea,
                               QLineEdit, QMessageBox)

from .widgets.metric_file_panel import MetricFilePanel

METRIC_FILTER = "Metric files (*.py *.ipynb);;All files (*)"


def _menu(win, title):
    for a in win.menuBar().actions():
        if a.menu() is not None and a.text().replace("&", "") == title:
            return a.menu()
    return win.menuBar().addMenu(title)


def _action(menu, text, slot, keys, before=None):
    a = QAction(text, menu)
    a.setShortcut(QKeySequence(keys))
    a.triggered.connect(lambda *_: slot())
    if before is not None:
        menu.insertAction(before, a)
    else:
        menu.addAction(a)
    return a


def add_menus(win, mf):
    """File > Open metric file… / Recent metric files / Close; Score > Run, Check;
    Help > the metric file's docstring. Returns the actions that enable and disable."""
    f = _menu(win, "File")
    before = win.recent_menu.menuAction() if getattr(win, "recent_menu", None) else None
    acts = {"open": _action(f, "Open &metric file…", mf.open_dialog, "Ctrl+M", before)}
    mf.recent_menu = f.addMenu("Recent metric &files")
    if before is not None:
        f.insertMenu(before, mf.recent_menu)
    acts["close"] = _action(f, "Close metric file", mf.close, "Ctrl+Alt+M", before)
    s = _menu(win, "Score")
    acts["run"] = _action(s, "Run the metric &file again", mf.run_again, "Ctrl+Shift+M")
    acts["check"] = _action(s, "Check the metric file (its &doctests)", mf.check, "Ctrl+Shift+K")
    h = _menu(win, "Help")
    acts["doc"] = _action(h, "The metric file's &docstring", mf.show_doc, "Shift+F1")
    v = _menu(win, "View")
    v.addAction(mf.dock.toggleViewAction())
    return acts


def add_dock(win):
    panel = MetricFilePanel()
    dock = QDockWidget("Metric file", win)
    dock.setObjectName("metricFileDock")
    area = QScrollArea()                # a short screen scrolls the panel, never clips it
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
    area.setWidget(panel)
    dock.setWidget(area)
    win.addDockWidget(Qt.LeftDockWidgetArea, dock)
    if getattr(win, "docks", None):        # under Options: its number in sight beside its arguments
        win.splitDockWidget(win.docks[0], dock, Qt.Vertical)
    dock.hide()                     # until a metric file is opened
    return dock, panel


FIXED_ROWS = 3                 # direction, sandbox, Python; then score()'s own arguments


class ArgsBox(QGroupBox):
    """The metric file's direction, where it runs (the sandbox, another Python) and its
    extra arguments (from its signature's schema)."""

    def __init__(self, on_change, on_refused, on_place=lambda: None):
        super().__init__("Metric file")
        self.form = QFormLayout(self)
        self.on_change, self.on_refused, self.on_place = on_change, on_refused, on_place
        self.direction = QComboBox()
        self.direction.addItem("higher is better", True)
        self.direction.addItem("lower is better", False)
        self.direction.currentIndexChanged.connect(lambda *_: self.on_change())
        self.form.addRow("Direction", self.direction)
        self.sandbox = QComboBox()
        for mode, text in (("auto", "where available"), ("off", "off"), ("require", "required")):
            self.sandbox.addItem(text, mode)
        self.sandbox.setToolTip("Linux with bubblewrap: the metric runs with no network, the files "
                                "read-only but its scratch folder, ~/.ssh and other secrets hidden "
                                "(--metric-sandbox)")
        self.sandbox.currentIndexChanged.connect(lambda *_: self.on_place())
        self.form.addRow("Sandbox", self.sandbox)
        self.python = QLineEdit()
        self.python.setPlaceholderText("kmetric's own")
        self.python.setToolTip("Another Python to run the metric in, e.g. a venv with older pandas "
                               "(VENV/bin/python; it needs pandas and pyarrow) (--metric-python)")
        self.python.editingFinished.connect(self._python_edited)
        self.form.addRow("Python", self.python)
        self._python = None
        self.specs, self.widgets, self.values = {}, {}, {}
        self.hide()

    def place(self):
        """(another Python or None, the sandbox mode) in force."""
        return self._python, self.sandbox.currentData()

    def set_place(self, python, mode):
        self.sandbox.blockSignals(True)
        self.sandbox.setCurrentIndex(max(0, self.sandbox.findData(mode or "auto")))
        self.sandbox.blockSignals(False)
        self._python = python or None
        self.python.setText(python or "")

    def _python_edited(self):
        import os
        text = self.python.text().strip()
        if text and not (os.path.isfile(text) and os.access(text, os.X_OK)):
            self.python.setText(self._python or "")
            self.on_refused(f"Python {text} refused: not an executable file; the metric keeps "
                            f"{self._python or 'kmetric' + chr(39) + 's own Python'}")
            return
        value = os.path.abspath(text) if text else None
        if value != self._python:
            self._python = value
            self.python.setText(value or "")
            self.on_place()

    def set_direction(self, hib):
        self.direction.blockSignals(True)
        self.direction.setCurrentIndex(0 if hib else 1)
        self.direction.blockSignals(False)

    def higher_is_better(self):
        return self.direction.currentData()

    def set_options(self, name, options, values):
        """One field per argument, showing ``values`` (name -> value in force)."""
        while self.form.rowCount() > FIXED_ROWS:
            self.form.removeRow(FIXED_ROWS)
        self.setTitle(f"Metric file: {name}")
        self.specs = {o.name: o for o in options}
        self.widgets, self.values = {}, dict(values)
        for o in options:
            if o.type is bool:
                w = QCheckBox(o.title)
                w.setChecked(bool(values.get(o.name)))
                w.toggled.connect(lambda v, n=o.name: self._accept(n, bool(v)))
            else:
                w = QLineEdit("" if values.get(o.name) is None else str(values[o.name]))
                w.setPlaceholderText("required" if o.help.endswith("(required)") else "default")
                w.editingFinished.connect(lambda n=o.name: self._edited(n))
            w.setToolTip(o.help)
            self.widgets[o.name] = w
            self.form.addRow("" if o.type is bool else o.title, w)
        self.show()

    def _edited(self, name):
        w, spec = self.widgets[name], self.specs[name]
        try:
            value = spec.parse(w.text()) if w.text().strip() else None
        except ValueError as e:
            kept = self.values.get(name)
            w.setText("" if kept is None else str(kept))
            self.on_refused(f"Metric file argument {name} refused: {e}; it stays "
                            f"{'the default' if kept is None else kept}")
            return
        w.setText("" if value is None else str(value))
        self._accept(name, value)

    def _accept(self, name, value):
        if value != self.values.get(name):
            self.values[name] = value
            self.on_change()

    def clear(self):
        while self.form.rowCount() > FIXED_ROWS:
            self.form.removeRow(FIXED_ROWS)
        self.specs, self.widgets, self.values = {}, {}, {}
        self.hide()


def add_args_box(win, on_change, on_refused, on_place):
    box = ArgsBox(on_change, on_refused, on_place)
    win.options_panel.layout().insertWidget(1, box)      # under Files
    return box


def run_question(name, state):
    """The question's text: what the code may do here, plainly (metricfile/notice.py)."""
    from ..metricfile.notice import rights
    return (f"The metric file {name} is Python code. {rights(state)} It runs in processes of its "
            "own, stopped at its time limit. Run it only if you trust where it came from.\n\n"
            "You are asked once for each file content.")


def ask_run(win, name, state):
    box = QMessageBox(QMessageBox.Warning, "Run a metric file?", run_question(name, state),
                      QMessageBox.Yes | QMessageBox.Cancel, win)
    box.setTextFormat(Qt.PlainText)
    box.button(QMessageBox.Yes).setText("&Run it")
    box.setDefaultButton(QMessageBox.Cancel)
    return box.exec() == QMessageBox.Yes


def show_details(win, name, text):
    """The whole text behind a cut message (plain text, read-only)."""
    from PySide6.QtWidgets import QPlainTextEdit

    from .dialogs import _dialog
    view = QPlainTextEdit()
    view.setReadOnly(True)
    view.setPlainText(text)
    return _dialog(win, f"{name} — details", view, size=(720, 420))


def ask_direction(win, name):
    box = QMessageBox(QMessageBox.Question, "Which way is better?",
                      f"The metric file {name} does not say whether a higher or a lower score is "
                      "better. Which is it?", QMessageBox.Cancel, win)
    box.setTextFormat(Qt.PlainText)
    hi = box.addButton("&Higher is better", QMessageBox.AcceptRole)
    lo = box.addButton("&Lower is better", QMessageBox.AcceptRole)
    box.exec()
    return True if box.clickedButton() is hi else False if box.clickedButton() is lo else None


def ask_open_path(win):
    from PySide6.QtWidgets import QFileDialog
    start = win.settings.value("last_metric_folder", win.settings.value("last_folder", str(Path.home())))
    return QFileDialog.getOpenFileName(win, "Open a metric file", start, METRIC_FILTER)[0]


def show_doc(win, name, doc):
    from PySide6.QtWidgets import QTextBrowser

    from .dialogs import _dialog
    view = QTextBrowser()
    view.setPlainText(doc or f"{name}: score() has no docstring.")
    return _dialog(win, f"{name} — score()", view, size=(640, 420))


def place_words(place):
    """Where the metric ran, for the dock: the sandbox (or why none) and its Python."""
    if not place:
        return ""
    sb = place.get("sandbox") or {}
    where = (f"Sandbox: {sb.get('tool')} ({sb.get('limits')})." if sb.get("used")
             else f"No sandbox: {sb.get('reason') or 'none here'}.")
    py = place.get("python") or {}
    libs = ", ".join(f"{k} {py[k]}" for k in ("pandas", "numpy") if py.get(k))
    other = "" if py.get("own", True) else f" at {py.get('path')}"
    return f"{where} Python {py.get('version') or '?'}{other}" + (f" ({libs})." if libs else ".")


def output_words(output):
    """What the metric wrote (captured, never shown whole): sizes and a first line, cut."""
    words = []
    for stream, verb in (("stdout", "printed"), ("stderr", "wrote to standard error")):
        text, total = (output or {}).get(stream, ("", 0))
        if not total:
            continue
        lines = text.strip().splitlines()
        first = " ".join(lines[0].split())[:120] if lines else ""
        size = f"{total:,} bytes" if total < 1 << 20 else f"{total / (1 << 20):.1f} MB"
        words.append(f" It {verb} {size}" + (f"; first line: {first}" if first else "") + ".")
    return "".join(words)
