"""The view of a metric without its own: score and interval, and what each unit
contributes (the score without it, from the metric's per-unit statistics).

Contributions come from ``Metric.units``: a unit's contribution is the score
minus the score with the unit left out, signed so that a positive number means
the unit pulls the score the wrong way (it costs). They are computed on the
worker; the view shows the units that cost most first.
"""
import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QLabel, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)
from ...core.words import plural

SHOWN = 500               # units listed (the costliest)


def contributions(report):
    """(unit positions, cost of each) of a report, costliest first (at most SHOWN), or None
    when the metric's statistics are not per unit (cells)."""
    metric = report.definition
    u = metric.units(report.result)
    if u.stats is None or u.cells is not None:
        return None
    stats = np.asarray(u.stats, dtype=np.float64)
    total = stats.sum(axis=0)
    score = float(u.score(total[None, :])[0])
    out = np.empty(stats.shape[0])
    step = max(1, (1 << 20) // max(stats.shape[1], 1))
    for a in range(0, stats.shape[0], step):
        out[a:a + step] = u.score(total[None, :] - stats[a:a + step])
    cost = out - score if metric.higher_is_better else score - out
    cost = np.where(np.isfinite(cost), cost, -np.inf)
    k = min(SHOWN, cost.size)
    top = np.argpartition(-cost, k - 1)[:k] if k else np.zeros(0, dtype=np.int64)
    top = top[np.argsort(-cost[top], kind="stable")]
    return top, cost[top]


class GenericView(QWidget):
    rows_requested = Signal(object, str)      # solution rows to show in the table

    def __init__(self, context=None, parent=None):
        super().__init__(parent)
        self.jobs = context.jobs if context else None
        self.session = context.session if context else None
        self.report = None
        self.units = np.zeros(0, dtype=np.int64)
        lay = QVBoxLayout(self)
        self.title = QLabel("")
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.interval = QLabel("")
        self.note = QLabel("")
        self.note.setWordWrap(True)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["id", "cost", "score without it"])
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._selected)
        for w in (self.title, self.interval, self.note):
            lay.addWidget(w)
        lay.addWidget(self.table, 1)      # the room is the table's (none when it is hidden)
        lay.addStretch(0)

    def set_report(self, report, new_data=False):
        self.report = report
        m = report.definition
        way = "higher" if m.higher_is_better else "lower"
        score = "undefined" if report.score != report.score else f"{report.score:.6f}"
        self.title.setText(f"<b>{m.label}</b> {score} on {report.n_rows:,} {plural(m.unit)} "
                           f"({way} is better)")
        self.note.setText(f"The {plural(m.unit)} that cost most: the score minus the score without "
                          f"each (signed so that a positive cost pulls the score the wrong way).")
        self.table.setRowCount(0)

        def job(progress=None, cancel=None):
            return contributions(report)
        if self.jobs is not None:
            gen = self.session.generation if self.session is not None else None
            self.jobs.submit("generic-contributions", job, self._show, generation=gen)
        else:
            self._show(job())

    def _show(self, found):
        if found is None or self.report is None:
            self.note.setText("This metric's statistics are not per unit: no contributions.")
            self.table.setVisible(False)         # no empty table under that sentence
            return
        self.table.setVisible(True)
        units, cost = found
        self.units = units
        from ...analysis.fixes import scored_rows
        rows = scored_rows(self.report.prepared)
        sol_rows = units if rows is None else rows[units]
        ids = self.report.prepared.id_array.take(np.asarray(sol_rows, dtype=np.int64)).to_pylist()
        score = self.report.score
        sign = 1.0 if self.report.definition.higher_is_better else -1.0
        self.table.setRowCount(len(ids))
        for r, (i, c) in enumerate(zip(ids, cost.tolist())):
            without = score + sign * c
            for k, text in enumerate((str(i), f"{c:+.6g}", f"{without:.6g}")):
                item = QTableWidgetItem(text)
                if k:
                    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                self.table.setItem(r, k, item)
        self._sol_rows = np.asarray(sol_rows, dtype=np.int64)

    def _selected(self):
        rows = sorted({i.row() for i in self.table.selectedIndexes()})
        if rows and hasattr(self, "_sol_rows"):
            picked = self._sol_rows[rows]
            self.rows_requested.emit(lambda prep, r: np.isin(r, picked), f"{picked.size} rows")

    def set_stats(self, stats):
        iv = (stats.intervals or {}).get("ci") if stats is not None else None
        if iv is None:
            self.interval.setText("")
            return
        self.interval.setText(f"{100 * iv.level:g}% interval [{iv.low:.6g}, {iv.high:.6g}]")
