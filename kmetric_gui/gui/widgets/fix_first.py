"""A "fix first" panel: the units whose fix gains the most, a slider for N and the curve.

Feed it a ``kmetric_gui.analysis.fixes.TopFixes`` (or a core FixList with ids): the
list shows each unit's id, gain and the exact score after fixing it and all
above it; the slider picks N, the curve marks it, and ``rows_selected``
carries the solution rows of the first N units (or of the rows picked in
the list) so the table can show them.
"""
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QSlider,
                               QSpinBox, QTableView, QVBoxLayout, QWidget)

from ...core.words import plural
from ..crash import guarded
from ..models.table import fit_columns
from . import menus_later

_PICKED = QColor(255, 243, 205)


class _FixModel(QAbstractTableModel):
    """Rank, id, gain, score after, what is wrong: columns of arrays, no per-cell copies."""
    HEADERS = ("#", "id", "gain", "score after", "error")

    def __init__(self):
        super().__init__()
        self.ids, self.gains, self.after, self.details, self.top = [], np.zeros(0), np.zeros(0), [], 0

    def set_data(self, ids, gains, after, details=None):
        self.beginResetModel()
        self.ids, self.gains, self.after = list(ids), np.asarray(gains), np.asarray(after)
        self.details = list(details) if details else [""] * len(self.ids)
        self.endResetModel()

    def set_top(self, n):
        old, self.top = self.top, n
        lo, hi = min(old, n), max(old, n)
        if hi > lo and self.rowCount():
            self.dataChanged.emit(self.index(lo, 0), self.index(min(hi, self.rowCount()) - 1, 4),
                                  [Qt.BackgroundRole])

    @guarded
    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self.ids)

    @guarded
    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else 5

    @guarded
    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role == Qt.DisplayRole and orientation == Qt.Horizontal:
            return self.HEADERS[section]
        return None

    @guarded
    def data(self, index, role=Qt.DisplayRole):
        r, c = index.row(), index.column()
        if role == Qt.DisplayRole:
            if c == 0:
                return str(r + 1)
            if c == 1:
                return str(self.ids[r])
            if c == 2:
                return f"{self.gains[r]:+.6f}"
            if c == 3:
                return f"{self.after[r]:.6f}"
            return self.details[r]
        if role == Qt.ToolTipRole and c == 1:
            return str(self.ids[r])          # the whole id when its column elides it
        if role == Qt.ToolTipRole and c in (2, 3):
            return (f"fixing this unit after the {r} above it changes the score by "
                    f"{self.gains[r]:+.10g}, to {self.after[r]:.10g}")
        if role == Qt.TextAlignmentRole:
            return int((Qt.AlignLeft if c in (1, 4) else Qt.AlignRight) | Qt.AlignVCenter)
        if role == Qt.BackgroundRole and r < self.top:
            return _PICKED
        return None


class FixFirstPanel(QWidget):
    """Ranked fixes, a slider for N and the cumulative curve (score after the first N fixes)."""

    rows_selected = Signal(list)     # solution rows of the units: the first N, or those picked
    fix_requested = Signal(list)     # solution rows of the unit to fix now (keyboard: F / Enter)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows = np.zeros(0, dtype=np.int64)
        self.score = float("nan")
        self.unit = "row"
        self.words = "prediction set to the truth"
        self._reason = None
        self.summary = QLabel("Nothing to fix yet")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.slider = QSlider(Qt.Horizontal)
        self.spin = QSpinBox()
        for w in (self.slider, self.spin):
            w.setRange(0, 0)
        self.slider.setToolTip("how many of the listed fixes to apply")
        self.model = _FixModel()
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        head = self.table.horizontalHeader()
        for c in range(5):      # fitted once per list (set_fixes), not on every repaint
            head.setSectionResizeMode(c, QHeaderView.Interactive)
        # The "error" words take what is left: a stretched id column cut the gains.
        head.setStretchLastSection(True)
        self.plot = pg.PlotWidget(background="w", enableMenu=False)
        menus_later.later(self.plot)
        self.plot.setMinimumHeight(90)      # the held-out curves below need room too
        self.plot.setLabel("bottom", "fixes applied (greedy order)")
        self.plot.setLabel("left", "score")
        self.plot.getAxis("left").enableAutoSIPrefix(False)   # scores read as they are
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.curve = self.plot.plot([], [], pen=pg.mkPen((33, 102, 172), width=2),
                                    symbol="o", symbolSize=4, symbolBrush=(33, 102, 172))
        self.marker = pg.InfiniteLine(0, angle=90, movable=True,
                                      pen=pg.mkPen((178, 24, 43), width=1.5))
        self.plot.addItem(self.marker)
        row = QHBoxLayout()
        row.addWidget(QLabel("fix the first"))
        row.addWidget(self.slider, 1)
        row.addWidget(self.spin)
        lay = QVBoxLayout(self)
        lay.addWidget(self.summary)
        lay.addLayout(row)
        lay.addWidget(self.plot, 2)
        lay.addWidget(self.table, 3)
        self.slider.valueChanged.connect(self.spin.setValue)
        self.spin.valueChanged.connect(self.slider.setValue)
        self.slider.valueChanged.connect(self._update_top)
        self.marker.sigPositionChangeFinished.connect(self._marker_moved)
        self.table.selectionModel().selectionChanged.connect(self._picked)
        self.table.installEventFilter(self)
        self.table.setToolTip("Down / N: next; F or Enter: fix the selected one (Ctrl+Z undoes)")
        self._cursor = None              # the list row worked on: kept when the list is redone

    # -- input -------------------------------------------------------------------
    def set_top_fixes(self, top_fixes):
        """Show a ``kmetric_gui.analysis.fixes.TopFixes``."""
        self.set_fixes(top_fixes.fixes, top_fixes.ids, top_fixes.rows, top_fixes.unit,
                       top_fixes.details, top_fixes.words)

    def set_fixes(self, fixes, ids=None, rows=None, unit="row", details=None,
                  words="prediction set to the truth"):
        """Show a core FixList; ids label the units, rows are what ``rows_selected`` carries,
        details say what is wrong with each unit, ``words`` what a fix is (the metric's)."""
        n = len(fixes)
        self.unit, self.score, self.words = unit, float(fixes.score), words
        self.rows = np.asarray(fixes.units if rows is None else rows, dtype=np.int64)
        self.model.set_data(fixes.units.tolist() if ids is None else ids, fixes.gains,
                            fixes.score_after, details)
        x = np.arange(n + 1)
        y = np.concatenate(([fixes.score], fixes.score_after))
        ok = np.isfinite(y)                  # an undefined score has no point on the curve
        self.curve.setData(x[ok], y[ok])
        self.marker.setBounds((0, max(n, 0)))
        self._reason = fixes.undefined_reason
        # No list, no axes: an empty plot (with a meaningless range) says nothing.
        self.plot.setVisible(n > 0)
        self.table.setVisible(n > 0)
        for w in (self.slider, self.spin):
            w.blockSignals(True)
            w.setRange(0, n)
            w.setValue(min(n, 10))
            w.blockSignals(False)
        self.setEnabled(True)
        self._update_top(self.slider.value(), emit=False)
        if self._cursor is not None and n:
            # Working down the list: the fixed unit left it, the next one is at its place.
            sel = self.table.selectionModel()
            sel.blockSignals(True)
            self.table.selectRow(min(self._cursor, n - 1))
            sel.blockSignals(False)
            self.table.viewport().update()
        # Widths from the first rows only: measuring all 1,000 on every change froze the
        # window for a second after each edit (Qt's own fit walks a hidden table's rows).
        # Capped at a UUID's width (36 characters): wider ids elide, with a tooltip.
        fit_columns(self.table, (0, 1, 2, 3),
                    cap=self.table.fontMetrics().horizontalAdvance("8" * 36) + 16)
        # Numbers are never cut: the fit above left "+0.007150" a pixel short (elided).
        fm, head = self.table.fontMetrics(), self.table.horizontalHeader()
        for c in (2, 3):
            texts = [self.model.data(self.model.index(r, c)) for r in range(min(n, 30))]
            need = max((fm.horizontalAdvance(t) for t in texts), default=0) + 16
            if head.sectionSize(c) < need:
                head.resizeSection(c, need)

    def clear(self, message="Nothing to fix yet"):
        from ...core.attribution import empty_fixes
        self.set_fixes(empty_fixes(float("nan")))
        self.summary.setText(message)

    # -- output ------------------------------------------------------------------
    def first_rows(self, n=None):
        n = self.slider.value() if n is None else n
        return self.rows[:n].tolist()

    def set_top(self, n):
        self.slider.setValue(int(n))

    def _update_top(self, n, emit=True):
        self.model.set_top(n)
        self.marker.setValue(n)
        self.summary.setText(self._summary(n))
        if emit:
            self.rows_selected.emit(self.first_rows(n))

    def _summary(self, n):
        total = self.model.rowCount()
        units = plural(self.unit)
        if self._reason:
            return f"No gains: {self._reason}"
        if total == 0:
            return f"Every {self.unit} is already right: nothing to fix"
        if n == 0:
            return f"Score {self.score:.6f}. Move the slider to fix the first {units} of the list."
        after = float(self.model.after[n - 1])
        fix = self.words
        return (f"Fixing the first {n} {units if n != 1 else self.unit} ({fix}) takes the "
                f"score from {self.score:.6f} to {after:.6f} "
                f"({after - self.score:+.6f}, recomputed exactly).")

    def _marker_moved(self):
        self.slider.setValue(int(round(self.marker.value())))

    def _picked(self, *_):
        picked = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        if picked:
            self.rows_selected.emit(self.rows[picked].tolist())

    # -- keyboard flow: next / fix / next -----------------------------------------
    @guarded
    def eventFilter(self, obj, event):
        from PySide6.QtCore import QEvent
        if obj is self.table and event.type() == QEvent.KeyPress and not event.modifiers():
            key = event.key()
            if key in (Qt.Key_F, Qt.Key_Return, Qt.Key_Enter):
                self.fix_current()
                return True
            if key == Qt.Key_N:
                self.select_next()
                return True
        return super().eventFilter(obj, event)

    def current_row(self):
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return rows[0].row() if rows else None

    def select_next(self):
        r = self.current_row()
        r = 0 if r is None else min(r + 1, self.model.rowCount() - 1)
        if r >= 0:
            self.table.selectRow(r)
            self._cursor = r

    def fix_current(self):
        r = self.current_row()
        if r is None:
            if not self.model.rowCount():
                return
            r = 0
            self.table.selectRow(0)
        self._cursor = r
        self.fix_requested.emit([int(self.rows[r])])
