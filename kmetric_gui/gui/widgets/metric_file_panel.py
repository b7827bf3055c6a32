"""The "Metric file" dock: what a competition's own metric file gave for the files
open (score, Public/Private, interval, the built-in beside it, the comparison),
where it ran (sandbox, Python), what is running, and what went wrong. It draws only;
results come typed. Every label is plain text: a metric's messages and output are
shown as written (an <img> in a message is text, never a picture), and cut."""
import math
import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QPushButton, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from ..crash import guarded

SHOWN = 400                   # characters of a line in the dock (a metric's message is cut at
                              # 280 in its worker); the rest behind Details


def cut(text, limit=SHOWN):
    text = str(text)
    if len(text) <= limit:
        return text
    return text[:limit - 40].rstrip() + f"… (cut; {len(text):,} characters in all)"


def breakable(text):
    """A zero-width space in every run of 40 characters without a space: a wrapped label
    can then break a message such as 'BBBB…' instead of running past the dock."""
    return re.sub(r"(\S{40})(?=\S)", "\\1\u200b", text)


def plain_label(text=""):
    label = QLabel(text)
    label.setTextFormat(Qt.PlainText)
    return label


class Line(QLabel):
    """A plain-text line of the dock, hidden while empty (a short dock shows what is said)."""

    def __init__(self):
        super().__init__("")
        self.setTextFormat(Qt.PlainText)
        self.setWordWrap(True)
        self.hide()

    @guarded
    def setText(self, text):
        super().setText(text)
        self.setVisible(bool(text))


def fmt(x):
    return "undefined" if x is None or (isinstance(x, float) and not math.isfinite(x)) else f"{x:.6f}"


def interval_words(ci):
    if not ci or ci.get("low") is None:
        return ""
    return f"[{fmt(ci['low'])}, {fmt(ci['high'])}]"


class MetricFilePanel(QWidget):
    run_requested = Signal()
    cancel_requested = Signal()
    open_requested = Signal()
    details_requested = Signal(str)      # the full text behind the cut error

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        self.title = plain_label("No metric file. Drop a .py or .ipynb metric file on the window, "
                                 "or File > Open metric file…")
        self.title.setWordWrap(True)
        self.status = Line()
        self.status.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.place = Line()                  # the sandbox and the Python it runs in
        self.place.setStyleSheet("color: #555;")
        self.score_label = plain_label("—")
        f = self.score_label.font()
        f.setPointSizeF(f.pointSizeF() * 1.6)
        f.setBold(True)
        self.score_label.setFont(f)
        self.score_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.splits = Line()
        self.interval = Line()
        self.parity = Line()
        self.error = Line()
        self.error.setStyleSheet("color: #b00020;")
        self.error.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.details = ""
        self.details_button = QPushButton("Details…")
        self.details_button.setToolTip("The whole message and where in the file it was raised")
        self.details_button.clicked.connect(lambda *_: self.details_requested.emit(self.details))
        self.details_button.hide()
        buttons = QHBoxLayout()
        self.open_button = QPushButton("Open…")
        self.run_button = QPushButton("Run again")
        self.cancel_button = QPushButton("Cancel")
        for b, sig in ((self.open_button, self.open_requested), (self.run_button, self.run_requested),
                       (self.cancel_button, self.cancel_requested)):
            b.clicked.connect(lambda *_, s=sig: s.emit())
            buttons.addWidget(b)
        buttons.addStretch(1)
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(["Submission", "Score", "Interval", "Δ vs first",
                                              "Share better"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.setMinimumHeight(110)
        self.table.hide()
        # what went wrong first: a short dock (1280x720) shows it without scrolling
        for w in (self.title, self.status, self.error, self.details_button, self.score_label,
                  self.splits, self.interval, self.parity, self.place):
            lay.addWidget(w, 0, Qt.AlignLeft) if w is self.details_button else lay.addWidget(w)
        lay.addLayout(buttons)
        lay.addWidget(self.table, 1)
        lay.addStretch(0)
        self.set_running(False)

    def set_source(self, name, sha256, higher_is_better, doc_line=""):
        word = {True: "higher is better", False: "lower is better"}.get(higher_is_better, "")
        self.title.setText(f"{name} ({word})" if word else name)
        f = self.title.font()
        f.setBold(True)
        self.title.setFont(f)
        self.title.setToolTip(f"sha256 {sha256}\nRuns in processes of its own. Once run it is the "
                              "metric in use: the table's edits are what it scores, and the "
                              "score here is the table's (once edited, the files on disk's "
                              "score is given beside it)."
                              + (f"\n\n{doc_line}" if doc_line else ""))
        self.clear_results()

    def clear_results(self):
        self.score_label.setText("—")
        for w in (self.splits, self.interval, self.parity):
            w.setText("")
        self.show_error("")
        self.table.setRowCount(0)
        self.table.hide()

    def set_running(self, running, text=""):
        self.cancel_button.setEnabled(running)
        self.run_button.setEnabled(not running)
        if text or not running:
            self.status.setText(cut(text, 2 * SHOWN))

    def running(self):
        return self.cancel_button.isEnabled()

    def show_place(self, text):
        self.place.setText(text)

    def show_score(self, score, splits):
        self.error.setText("")
        self.score_label.setText(fmt(score))
        self.splits.setText("   ".join(f"{k.capitalize()}: {fmt(v)}" for k, v in splits.items()))

    def show_interval(self, ci, level, note=""):
        tail = f" — {note}" if note else ""
        self.interval.setText(f"{100 * level:g}% interval: {interval_words(ci)}{tail}")

    def show_parity(self, text):
        self.parity.setText(text)

    def show_error(self, text, details=None):
        """One line, cut; the whole text (``details``, else the line itself when cut)
        behind the Details button."""
        text = str(text)
        self.error.setText(breakable(cut(text)))
        self.details = details or (text if len(text) > SHOWN else "")
        self.details_button.setVisible(bool(self.details))

    def show_comparison(self, d):
        subs, pairs = d["submissions"], d["pairs"]
        first = {p["b"]: p for p in pairs if p["a"] == subs[0]["name"]}
        self.table.setRowCount(len(subs))
        for r, s in enumerate(subs):
            p = first.get(s["name"])
            cells = [s["name"], fmt(s["score"]), interval_words(s["ci"]),
                     "" if p is None else f"{p['delta']:+.6f}",
                     "" if p is None or p["p_b_better"] is None else f"{p['p_b_better']:.3f}"]
            for c, text in enumerate(cells):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        self.table.show()
