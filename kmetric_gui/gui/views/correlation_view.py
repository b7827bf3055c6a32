"""The anatomy of the correlations (Pearson, Spearman, Kendall): truth against prediction
on their own scales with the least-squares line (Pearson), or their ranks as shares of
the rows with the diagonal of a perfect ranking (Spearman, Kendall); how far apart each
row is (standard scores, or ranks); and the rows furthest apart first (select one to go
to it in the table). A column chooser for several target columns.

Numbers come from metrics/kernels/correlation.py (``scatter``) on the worker; the view draws.
"""
import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter

from ..widgets.axes import relabel
from ..widgets import scatter_draw
from .column_choice import ColumnChoice
from .family_base import (FamilyView, RowsTable, fmt, ids_of, plot, scored, share,
                          solution_rows)
from ...core.anatomy import largest_first
from ...metrics.base import take

HEADERS = ["id", "truth", "prediction", "apart"]


def correlation_data(prep, result, j):
    from ...metrics.kernels.correlation import scatter
    sc = scatter(result, j)
    order = largest_first(sc.error)
    sol = solution_rows(prep, order)
    rows = scored(prep)
    t, p = take(prep.truth, rows), take(prep.pred, rows)
    if np.ndim(t) == 2:
        t, p = t[:, j], p[:, j]
    table = [[str(i), fmt(t[k], 6), fmt(p[k], 6), fmt(sc.error[k], 4)]
             for i, k in zip(ids_of(prep, sol), order.tolist())]
    return {"sc": sc, "table": table, "sol": sol}


class CorrelationView(ColumnChoice, FamilyView):
    def __init__(self, context=None, parent=None):
        super().__init__(context, parent)
        self.data = None
        self.add_column_chooser()
        split = QSplitter(Qt.Horizontal)
        self.scatter = plot("Truth vs prediction", "prediction", "truth")
        right = QSplitter(Qt.Vertical)
        self.hist = plot("How far apart", "rows", "prediction − truth")
        self.furthest = RowsTable(HEADERS, right=range(1, 4))
        self.furthest.setToolTip("The rows furthest from the truth on the correlation's own "
                                 "scale first; select rows to show them in the table")
        self.furthest.picked.connect(lambda rows: self.request_rows(rows, f"{rows.size} rows"))
        for p in (self.scatter, self.hist):       # shares and scores as they are, no "x0.001"
            for side in ("left", "bottom"):
                p.getAxis(side).enableAutoSIPrefix(False)
        right.addWidget(self.hist)
        right.addWidget(self.furthest)
        share(right, 2, 3)
        split.addWidget(self.scatter)
        split.addWidget(right)
        share(split, 9, 11)
        self.layout_.addWidget(split, 1)
        drawn = lambda: self.data is not None       # noqa: E731
        self.export.add_plot("truth vs prediction", self.scatter, drawn)
        self.export.add_plot("how far apart", self.hist, drawn)
        self.export.add_table("furthest apart", self.furthest.to_csv, drawn)

    def set_report(self, report, new_data=False):
        self.report, self.prep = report, report.prepared
        names = list(self.prep.target_columns)
        many = len(names) > 1
        self.set_columns(names, many, new_data)
        self._compute()

    def _compute(self):
        prep, result, j = self.prep, self.report.result, self.column()
        self.run("correlation", lambda: correlation_data(prep, result, j), self._show)

    def _show(self, d):
        self.data = d
        sc, r = d["sc"], self.report.result
        ranks = r.kind != "pearson"
        extra = self.column_words(r.column_scores)
        what = ("ranks as shares of the rows; the dashed diagonal is a perfect ranking" if ranks
                else "each on its own scale; the dashed line is the least-squares fit")
        how = "every row" if sc.sample is not None else \
            f"density of {sc.x.size:,} rows (darker: more rows)"
        self.summary.setText(f"{self.score_text()}{extra}<br>Truth vs prediction ({how}): {what}. "
                             f"Apart: {'rank share' if ranks else 'standard score'} of the "
                             "prediction minus the truth's.")
        word = "rank share" if ranks else "standard score"
        relabel(self.scatter, "left", f"prediction ({word})" if ranks else "prediction")
        relabel(self.scatter, "bottom", f"truth ({word})" if ranks else "truth")
        relabel(self.hist, "bottom", f"prediction − truth ({word})")
        self._draw_scatter(sc)
        self._draw_hist(sc)
        self.furthest.fill(d["table"], d["sol"])

    def _draw_scatter(self, sc):
        k = sc.sample
        scatter_draw.points_or_density(self.scatter, sc.density, sc.spans,
                                       *((sc.x[k], sc.y[k]) if sc.density is None else ()))
        (x0, x1), _ = sc.spans
        slope, icept = sc.line
        scatter_draw.line(self.scatter, [x0, x1], [icept + slope * x0, icept + slope * x1],
                          sc.spans)

    def _draw_hist(self, sc):
        scatter_draw.histogram(self.hist, sc.hist)
