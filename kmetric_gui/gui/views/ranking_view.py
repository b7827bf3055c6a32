"""The anatomy of MAP@K: the distribution of per-query average precision and the
queries that cost most (the AP each misses: 1 − AP, 0 for a query with nothing
relevant); select queries to show them in the table.

Numbers come from core/anatomy.py on the worker; the view draws.
"""
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter

from ...metrics.base import take
from .family_base import (FamilyView, RowsTable, fmt, ids_of, plot, scored, share,
                          solution_rows)

ITEMS_SHOWN = 10


def ranking_data(prep, result):
    from ...core.anatomy import query_costs
    qc = query_costs(result.ap, result.actual_sizes)
    sol = solution_rows(prep, qc.order)
    ids = ids_of(prep, sol)
    rows = scored(prep)
    truth, pred = take(prep.truth, rows), take(prep.pred, rows)
    k = result.k

    def items(xs, n):
        xs = list(xs)
        return " ".join(xs[:n]) + (" …" if len(xs) > n else "")
    table = [[str(i), fmt(result.ap[q]), f"{int(result.hits[q])}", f"{int(result.actual_sizes[q])}",
              fmt(qc.cost[q]), items(pred[q], k), items(truth[q], ITEMS_SHOWN)]
             for i, q in zip(ids, qc.order.tolist())]
    perfect = int(np.count_nonzero(result.ap >= 1.0))
    zero = int(np.count_nonzero(result.ap <= 0.0))
    return {"qc": qc, "table": table, "sol": sol, "perfect": perfect, "zero": zero}


class RankingView(FamilyView):
    def __init__(self, context=None, parent=None):
        super().__init__(context, parent)
        self.data = None
        split = QSplitter(Qt.Horizontal)
        self.hist = plot("AP of each query", "queries", "AP@K")      # fits at 1280x720
        self.costly = RowsTable(["id", "AP@K", "hits", "relevant", "cost", "predicted (first K)",
                                 "relevant items"], right=range(1, 5))
        self.costly.setToolTip("The queries that cost most first (cost: 1 − AP, 0 with nothing "
                               "relevant); select queries to show them in the table")
        self.costly.picked.connect(lambda rows: self.request_rows(rows, f"{rows.size} queries"))
        split.addWidget(self.hist)
        split.addWidget(self.costly)
        share(split, 2, 3)
        self.layout_.addWidget(split, 1)
        drawn = lambda: self.data is not None
        self.export.add_plot("AP per query", self.hist, drawn)
        self.export.add_table("costliest queries", self.costly.to_csv, drawn)

    def set_report(self, report, new_data=False):
        self.report, self.prep = report, report.prepared
        prep, result = self.prep, report.result
        self.run("ranking", lambda: ranking_data(prep, result), self._show)

    def _show(self, d):
        self.data = d
        r = self.report.result
        self.summary.setText(f"{self.score_text()} &nbsp;·&nbsp; K = {r.k}<br>"
                             f"{d['perfect']:,} queries with AP 1, {d['zero']:,} with AP 0; "
                             f"MAP@K is the mean of the AP of every query.")
        p = self.hist
        p.clear()
        counts, edges = d["qc"].hist
        p.addItem(pg.BarGraphItem(x0=edges[:-1], x1=edges[1:], height=counts,
                                  brush=(31, 119, 180), pen=pg.mkPen((255, 255, 255, 80))))
        p.setXRange(0, 1, padding=0.02)
        p.setYRange(0, max(1.0, float(counts.max())) * 1.08, padding=0)
        self.costly.fill(d["table"], d["sol"])
