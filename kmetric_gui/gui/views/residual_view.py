"""The anatomy of regression metrics (RMSE, RMSLE, MAE, MCRMSE): truth vs prediction
(every point up to 20,000 rows, a 2-D density beyond), the residuals' histogram, and
the rows with the largest errors first (select one to go to it in the table).

Numbers come from core/anatomy.py on the worker; the view draws. Rows are ordered by
the metric's own error; a column shows it only where it is not the residual or its size
(RMSLE: log(1 + prediction) − log(1 + truth)).
"""
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QSplitter

from ...fields import field_ndim
from ...metrics.base import take
from ..widgets.theme import SEQUENTIAL, is_dark
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
        p, res = self.scatter, d["res"]
        p.clear()
        lo, hi = res.span
        if res.density is not None:
            d = np.log1p(res.density.T)
            # Every occupied cell visible (the map's pale end skipped), empty cells clear.
            rgba = SEQUENTIAL[is_dark()].map(0.25 + 0.75 * d / max(float(d.max()), 1e-12),
                                             mode="byte").reshape(d.shape + (4,))
            rgba[..., 3] = np.where(d > 0, 255, 0)
            img = pg.ImageItem(rgba, axisOrder="row-major")
            img.setRect(QRectF(lo, lo, hi - lo, hi - lo))
            p.addItem(img)
        else:
            k = res.sample
            p.addItem(pg.ScatterPlotItem(d["t"][k], d["p"][k], size=4, pen=None,
                                         brush=pg.mkBrush(31, 119, 180, 110)))
        p.plot([lo, hi], [lo, hi], pen=pg.mkPen((214, 39, 40), width=1.5, style=Qt.DashLine))
        p.setXRange(lo, hi, padding=0.03)
        p.setYRange(lo, hi, padding=0.03)

    def _draw_hist(self, res):
        p = self.hist
        p.clear()
        counts, edges = res.hist
        if counts.size:
            p.addItem(pg.BarGraphItem(x0=edges[:-1], x1=edges[1:], height=counts,
                                      brush=(31, 119, 180), pen=pg.mkPen((255, 255, 255, 80))))
            p.addItem(pg.InfiniteLine(pos=0, angle=90, pen=pg.mkPen((214, 39, 40), width=1.5,
                                                                    style=Qt.DashLine)))
            p.setYRange(0, float(counts.max()) * 1.08, padding=0)
