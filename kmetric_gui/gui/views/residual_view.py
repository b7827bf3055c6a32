"""The anatomy of regression metrics (RMSE, RMSLE, MAE, MCRMSE): truth vs prediction
(every point up to 20,000 rows, a 2-D density beyond), the residuals' histogram, and
the rows with the largest errors first (select one to go to it in the table).

Numbers come from core/anatomy.py on the worker; the view draws. Rows are ordered by
the metric's own error; a column shows it only where it is not the residual or its size
(RMSLE: log(1 + prediction) − log(1 + truth)).
"""
import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter

from ...fields import field_ndim
from ...metrics.base import take
from ..widgets import scatter_draw
from .column_choice import ColumnChoice
from .family_base import (FamilyView, RowsTable, fmt, ids_of, plot, scored, share,
                          solution_rows)

HEADERS = ["id", "truth", "prediction", "residual"]


def residual_data(prep, result, j):
    """Residuals of column ``j`` over the scored rows and the largest errors' table rows."""
    from ...core.anatomy import residuals
    rows = scored(prep)
    t, p = take(prep.truth, rows), take(prep.pred, rows)
    err = np.asarray(result.errors)
    if np.ndim(t) == 2:
        t, p = t[:, j], p[:, j]
        err = err[:, j] if err.ndim == 2 else err
    res = residuals(t, p, err)
    sol = solution_rows(prep, res.order)
    ids = ids_of(prep, sol)
    # A column equal to the residual (or its absolute value) repeats what is beside it.
    own = not (np.array_equal(err, res.residual, equal_nan=True)
               or np.array_equal(err, np.abs(res.residual), equal_nan=True))
    table = [[str(i), fmt(t[k], 6), fmt(p[k], 6), fmt(res.residual[k], 4)]
             + ([fmt(err[k], 4)] if own else []) for i, k in zip(ids, res.order.tolist())]
    return {"res": res, "t": t, "p": p, "table": table, "sol": sol, "own_error": own}


class ResidualView(ColumnChoice, FamilyView):
    def __init__(self, context=None, parent=None):
        super().__init__(context, parent)
        self.data = None
        self.add_column_chooser()
        split = QSplitter(Qt.Horizontal)
        self.scatter = plot("Truth vs prediction", "prediction", "truth")
        right = QSplitter(Qt.Vertical)
        self.hist = plot("Residuals (prediction − truth)", "rows", "residual")
        self.hist.setToolTip("Residuals of the middle 99% of rows; the 0.5% at each end are "
                             "counted in the end bars")
        self.largest = RowsTable(HEADERS + ["error"], right=range(1, 5))
        self.largest.setToolTip("The largest errors first (the metric's own error); select "
                                "rows to show them in the table")
        self.largest.picked.connect(lambda rows: self.request_rows(rows, f"{rows.size} rows"))
        right.addWidget(self.hist)
        right.addWidget(self.largest)
        share(right, 2, 3)
        split.addWidget(self.scatter)
        split.addWidget(right)
        share(split, 9, 11)
        self.layout_.addWidget(split, 1)
        drawn = lambda: self.data is not None
        self.export.add_plot("truth vs prediction", self.scatter, drawn)
        self.export.add_plot("residuals", self.hist, drawn)
        self.export.add_table("largest errors", self.largest.to_csv, drawn)

    def set_report(self, report, new_data=False):
        self.report, self.prep = report, report.prepared
        names = list(self.prep.target_columns)
        many = field_ndim(self.prep, "truth") == 2
        self.set_columns(names, many, new_data)
        self._compute()

    def _compute(self):
        prep, result, j = self.prep, self.report.result, self.column()
        self.run("residuals", lambda: residual_data(prep, result, j), self._show)

    def _show(self, d):
        self.data = d
        res = d["res"]
        extra = self.column_words(getattr(self.report.result, "column_scores", None))
        how = "every row" if res.sample is not None else \
            f"density of {res.residual.size:,} rows (darker: more rows)"
        self.summary.setText(f"{self.score_text()}{extra}<br>Truth vs prediction: {how}; "
                             f"the dashed line is a perfect prediction.")
        self._draw_scatter(d)
        self._draw_hist(res)
        headers = HEADERS + (["error"] if d["own_error"] else [])
        self.largest.setColumnCount(len(headers))
        self.largest.setHorizontalHeaderLabels(headers)
        self.largest.fill(d["table"], d["sol"])

    def _draw_scatter(self, d):
        res = d["res"]
        lo, hi = res.span
        spans = ((lo, hi), (lo, hi))
        k = res.sample
        scatter_draw.points_or_density(self.scatter, res.density, spans,
                                       *((d["t"][k], d["p"][k]) if res.density is None else ()))
        scatter_draw.line(self.scatter, [lo, hi], [lo, hi], spans)    # a perfect prediction

    def _draw_hist(self, res):
        scatter_draw.histogram(self.hist, res.hist)
