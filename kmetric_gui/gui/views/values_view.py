"""The anatomy of metrics that are a mean of one number per row or query (edit distance,
word Jaccard, KL divergence, Laplace log likelihood, NDCG): the distribution of those
numbers and the rows furthest from their best value first, each said in the metric's
words (select rows to show them in the table).

Numbers come from the report on the worker (``values_data``); the view draws.
"""
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter

from ...core.anatomy import largest_first
from ...core.words import plural
from ..widgets.axes import relabel
from .family_base import FamilyView, RowsTable, fmt, ids_of, plot, share, solution_rows


def values_data(report):
    m, r, prep = report.definition, report.result, report.prepared
    v = np.asarray(r.values, dtype=np.float64)
    cost = np.abs(v - np.asarray(m.fixed_value(r), dtype=np.float64))
    order = largest_first(cost)
    sol = solution_rows(prep, order)
    details = m.fix_details(report, order, sol) or [""] * order.size
    table = [[str(i), fmt(v[k], 6), fmt(cost[k], 4), d]
             for i, k, d in zip(ids_of(prep, sol), order.tolist(), details)]
    fin = v[np.isfinite(v)]
    hist = np.histogram(fin, bins=40) if fin.size else (np.zeros(0), np.zeros(1))
    return {"hist": hist, "table": table, "sol": sol, "right": int(np.count_nonzero(cost == 0))}


class ValuesView(FamilyView):
    def __init__(self, context=None, parent=None):
        super().__init__(context, parent)
        self.data = None
        split = QSplitter(Qt.Horizontal)
        self.hist = plot("Each unit's value", "units", "value")
        self.hist.getAxis("bottom").enableAutoSIPrefix(False)
        self.furthest = RowsTable(["id", "value", "from best", "what is wrong"], right=(1, 2))
        self.furthest.setToolTip("The units furthest from their best value first; select "
                                 "rows to show them in the table")
        self.furthest.picked.connect(lambda rows: self.request_rows(rows, f"{rows.size} rows"))
        split.addWidget(self.hist)
        split.addWidget(self.furthest)
        share(split, 2, 3)
        self.layout_.addWidget(split, 1)
        drawn = lambda: self.data is not None       # noqa: E731
        self.export.add_plot("values per unit", self.hist, drawn)
        self.export.add_table("furthest from best", self.furthest.to_csv, drawn)

    def set_report(self, report, new_data=False):
        self.report, self.prep = report, report.prepared
        self.run("values", lambda: values_data(report), self._show)

    def _show(self, d):
        self.data = d
        m = self.report.definition
        units = plural(m.unit)
        # The metric's name is the axis below: a title of both was cut at 1280x720.
        self.hist.setTitle(f"Each {m.unit}'s value")
        relabel(self.hist, "bottom", m.label)
        relabel(self.hist, "left", units)
        self.summary.setText(f"{self.score_text()}<br>{d['right']:,} {units} at their best "
                             f"value (the best: {m.fix_words}); the others furthest from it "
                             "first.")
        p = self.hist
        p.clear()
        counts, edges = d["hist"]
        if counts.size:
            p.addItem(pg.BarGraphItem(x0=edges[:-1], x1=edges[1:], height=counts,
                                      brush=(31, 119, 180), pen=pg.mkPen((255, 255, 255, 80))))
            p.setYRange(0, max(1.0, float(counts.max())) * 1.08, padding=0)
        self.furthest.fill(d["table"], d["sol"])
