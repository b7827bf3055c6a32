"""Compare's "where they differ" for any metric with per-unit effects (a
``kernels.differ.UnitDiffer``): the units where A and B differ, the largest effect
first (a click shows the unit's rows in the table), and, when the metric gives them,
bands (AUC: the pairs each one orders better, by A's score)."""
import math

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QHeaderView, QSizePolicy, QSplitter,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from ...core.words import plural

LISTED = 200      # rows of the table (the metric describes this many in words)


def _num(x, d=4):
    return "undefined" if x is None or not math.isfinite(x) else f"{x:+.{d}g}"


def _table(headers):
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.setEditTriggers(QAbstractItemView.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectRows)
    t.verticalHeader().setVisible(False)
    t.verticalHeader().setDefaultSectionSize(t.fontMetrics().height() + 6)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.Interactive)
    t.horizontalHeader().setStretchLastSection(True)
    t.setWordWrap(False)
    t.setTextElideMode(Qt.ElideRight)
    return t


def _put(table, rows, right):
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            item = QTableWidgetItem(str(text))
            item.setToolTip(str(text))        # the whole text where the column cuts it
            if c in right:
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
            table.setItem(r, c, item)


class UnitDifferPanel(QWidget):
    units_picked = Signal(object)      # unit positions among the compared units

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.split = QSplitter(Qt.Vertical)
        self.units = _table(["id", "Δ", "better", "A", "B"])
        self.units.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Expanding)
        self.units.itemSelectionChanged.connect(self._picked)
        self.units.setToolTip("Select rows to show them in the table")
        self.bands = _table(["band", "rows", "pairs B orders better", "pairs A orders better"])
        self.split.addWidget(self.units)
        self.split.addWidget(self.bands)
        self.split.setChildrenCollapsible(False)
        lay.addWidget(self.split)
        self.listed = np.zeros(0, np.int64)

    def show_differ(self, d, ids, a, b):
        """Fill from a UnitDiffer; returns the sentence above it."""
        n = min(LISTED, d.units.size)
        better = d.b_better[:n]
        worse = (d.delta[:n] < 0) if d.higher_is_better else (d.delta[:n] > 0)
        rows = []
        for k in range(n):
            u = int(d.units[k])
            rows.append([str(ids[u]), _num(float(d.delta[k])),
                         "B" if better[k] else "A" if worse[k] else "tie",
                         d.a_text[k] if k < len(d.a_text) else "",
                         d.b_text[k] if k < len(d.b_text) else ""])
        self.units.blockSignals(True)
        _put(self.units, rows, right={1})
        self.units.clearSelection()
        self.units.blockSignals(False)
        self._fit()
        self.listed = d.units[:n]
        self.bands.setVisible(bool(d.bands))
        if d.bands:
            _put(self.bands, [[lab, f"{m:,}", f"{g:,.1f}", f"{ga:,.1f}"] for lab, m, g, ga in d.bands],
                 right={1, 2, 3})
            self.bands.resizeColumnsToContents()
            self.split.setSizes([300, 200])
        b_wins, a_wins = d.wins
        units = plural(d.unit)
        more = f" (the {n:,} largest listed)" if d.units.size > n else ""
        return (f"{d.units.size:,} of {d.n_units:,} {units} differ{more}: B is better on "
                f"{b_wins:,}, A on {a_wins:,}. Δ: {d.what}; "
                f"{'higher' if d.higher_is_better else 'lower'} is better. "
                "Select rows to show them in the table.")

    def _fit(self):
        """Id, Δ and "better" to their contents (the id capped), A and B share the rest."""
        t = self.units
        t.resizeColumnsToContents()
        fm = t.fontMetrics()
        cap = fm.horizontalAdvance("8" * 24) + 16
        if t.columnWidth(0) > cap:
            t.setColumnWidth(0, cap)
        rest = t.viewport().width() - sum(t.columnWidth(c) for c in range(3))
        t.setColumnWidth(3, max(fm.horizontalAdvance("m" * 12), rest // 2))

    def _picked(self):
        rows = sorted({i.row() for i in self.units.selectedIndexes()})
        rows = [r for r in rows if r < self.listed.size]
        if rows:
            self.units_picked.emit(self.listed[rows])
