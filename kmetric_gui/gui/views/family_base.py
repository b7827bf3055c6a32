"""What the families' anatomy views share: a job for their numbers (on the worker, inline
without a job controller), a short summary line, an Export button and a clickable
"largest first" table whose rows select solution rows in the app's table."""
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QLabel,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from ...core.words import plural
from ...io.saving import csv_text
from ..widgets.export import ExportButton
from ..widgets import menus_later


def scored(prep):
    """Solution rows of the overall score (None: every row), as scoring picks them."""
    from ...metrics.base import split_rows
    return split_rows(prep.usage)


def solution_rows(prep, positions):
    """Solution rows of positions among the scored rows."""
    rows = scored(prep)
    positions = np.asarray(positions, dtype=np.int64)
    return positions if rows is None else rows[positions]


def ids_of(prep, sol_rows):
    return prep.id_array.take(np.asarray(sol_rows, dtype=np.int64)).to_pylist()


def scored_mask(prep, rows):
    """True on the rows the score counts (not Ignored by Usage)."""
    usage = prep.usage
    return np.ones(len(rows), bool) if usage is None else usage[rows] != 2


def plot(title, left, bottom):
    p = pg.PlotWidget(background="w", title=title, enableMenu=False)
    menus_later.later(p)
    p.setLabel("left", left)
    p.setLabel("bottom", bottom)
    p.setMouseEnabled(False, False)
    p.hideButtons()
    p.setMinimumSize(160, 120)
    return p


class RowsTable(QTableWidget):
    """A read-only table of at most a few hundred listed rows; a selection emits their
    solution rows."""
    picked = Signal(object)            # np.ndarray of solution rows

    def __init__(self, headers, right=(), parent=None):
        super().__init__(0, len(headers), parent)
        self.setHorizontalHeaderLabels(headers)
        self.right = set(right)
        self.sol_rows = np.zeros(0, np.int64)
        self.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)   # compact
        # A right-aligned last column stretched puts its numbers out of sight in a narrow pane.
        self.horizontalHeader().setStretchLastSection(len(headers) - 1 not in self.right)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.Interactive)
        # Column widths from the first rows, not all of them (a fill after each edit).
        self.horizontalHeader().setResizeContentsPrecision(40)
        self.itemSelectionChanged.connect(self._selected)

    def fill(self, texts, sol_rows):
        self.blockSignals(True)
        self.clearSelection()
        self.setRowCount(len(texts))
        right = Qt.AlignRight | Qt.AlignVCenter           # once, not per cell (an enum "or")
        self.setUpdatesEnabled(False)
        for r, row in enumerate(texts):
            for k, text in enumerate(row):
                item = QTableWidgetItem(text)
                if k in self.right:
                    item.setTextAlignment(right)
                self.setItem(r, k, item)
        self.setUpdatesEnabled(True)
        self.sol_rows = np.asarray(sol_rows, dtype=np.int64)
        self.blockSignals(False)
        self.resizeColumnsToContents()

    def _selected(self):
        rows = sorted({i.row() for i in self.selectedIndexes()})
        if rows and self.sol_rows.size:
            self.picked.emit(self.sol_rows[[r for r in rows if r < self.sol_rows.size]])

    def to_csv(self):
        head = [self.horizontalHeaderItem(k).text() for k in range(self.columnCount())]
        body = [[self.item(r, k).text() if self.item(r, k) else ""
                 for k in range(self.columnCount())] for r in range(self.rowCount())]
        return csv_text([head] + body)


class FamilyView(QWidget):
    rows_requested = Signal(object, str)      # mask_fn(prepared, rows), label

    def __init__(self, context=None, parent=None):
        super().__init__(parent)
        self.jobs = context.jobs if context else None
        self.session = context.session if context else None
        self.report = self.prep = self.data = None
        lay = self.layout_ = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.bar = QHBoxLayout()
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.export = ExportButton()
        self.bar.addWidget(self.summary, 1)
        self.bar.addWidget(self.export)
        lay.addLayout(self.bar)

    def run(self, kind, job, done):
        """``job()`` on the worker (numbers), ``done(result)`` on the UI thread (drawing)."""
        if self.jobs is None:
            done(job())
            return
        gen = self.session.generation if self.session is not None else None
        self.jobs.submit(kind, lambda progress=None, cancel=None: job(), done, generation=gen)

    def request_rows(self, sol_rows, label):
        picked = np.asarray(sol_rows, dtype=np.int64)
        self.rows_requested.emit(lambda prep, r: np.isin(r, picked), label)

    def score_text(self):
        r, m = self.report, self.report.definition
        score = "undefined" if r.score != r.score else f"{r.score:.6f}"
        way = "higher" if m.higher_is_better else "lower"
        return f"{m.label} <b>{score}</b> on {r.n_rows:,} {plural(m.unit)} ({way} is better)"


def share(splitter, *parts):
    """Initial sizes of a splitter's panes in these proportions (stretch factors too)."""
    for k, part in enumerate(parts):
        splitter.setStretchFactor(k, part)
    splitter.setSizes([100 * part for part in parts])


def fmt(v, digits=4):
    if isinstance(v, (float, np.floating)):
        return "—" if not np.isfinite(v) else f"{float(v):.{digits}g}"
    return str(v)
