"""The anatomy of probability metrics (ROC AUC, log loss): the ROC curve with its
operating points, and the calibration diagram (mean predicted vs observed rate per bin)
with the rows of each bin. Multi-class and multi-label: one class (column) at a time,
one-vs-rest.

Numbers come from core/anatomy.py on the worker; the view draws. Selecting an operating
point lists the rows it calls positive.
"""
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel, QSplitter, QVBoxLayout, QWidget

from ...fields import field_ndim
from ...metrics.base import take
from .family_base import FamilyView, RowsTable, fmt, plot, scored, scored_mask, share

BINS = 10


def roc_data(prep, j):
    """ROC points (thinned to draw), operating points and calibration of class ``j``."""
    from ...core import anatomy
    rows = scored(prep)
    y, s = anatomy.one_vs_rest(take(prep.truth, rows), take(prep.pred, rows), j)
    roc = anatomy.roc_points(y, s)
    keep = anatomy.thin_curve(roc.fpr, roc.tpr)
    ops = anatomy.operating_points(y, s, roc=roc)
    probs = bool(s.size) and s.min() >= 0 and s.max() <= 1
    cal = anatomy.calibration(y, s, BINS) if probs else None
    auc = float(np.sum(np.diff(roc.fpr) * (roc.tpr[1:] + roc.tpr[:-1])) / 2) \
        if roc.positives and roc.negatives else np.nan          # trapezoids: ties count one half
    return {"fpr": roc.fpr[keep], "tpr": roc.tpr[keep], "points": roc.fpr.size,
            "pos": roc.positives, "neg": roc.negatives, "ops": ops, "cal": cal, "auc": auc}


class RocView(FamilyView):
    def __init__(self, context=None, parent=None):
        super().__init__(context, parent)
        self.data = None
        self.class_label = QLabel("Class")
        self.chooser = QComboBox()
        self.chooser.setToolTip("One class (or label column) against the rest")
        self.chooser.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        self.bar.insertWidget(0, self.chooser)
        self.bar.insertWidget(0, self.class_label)
        self.chooser.currentIndexChanged.connect(self._class_changed)
        split = QSplitter(Qt.Horizontal)
        left, right = QSplitter(Qt.Vertical), QSplitter(Qt.Vertical)
        self.roc = plot("ROC curve", "true positive rate", "false positive rate")
        self.ops = RowsTable(["threshold", "TPR", "FPR", "prec.", "pos."], right=range(5))
        self.ops.setToolTip("Operating points (score ≥ threshold is positive): true and false "
                            "positive rates, precision, rows called positive; ★ the largest "
                            "TPR − FPR. Select one to list the rows it calls positive.")
        self.ops.itemSelectionChanged.connect(self._op_clicked)
        left.addWidget(self.roc)
        left.addWidget(self.ops)
        self.reliability = plot("Calibration", "observed rate", "mean predicted")
        self.counts = plot("Rows per bin", "rows", "predicted probability")
        self.cal_note = QLabel("")
        self.cal_note.setWordWrap(True)
        self.cal_note.hide()
        box = QWidget()
        bl = QVBoxLayout(box)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(self.reliability, 1)
        bl.addWidget(self.cal_note)
        right.addWidget(box)
        right.addWidget(self.counts)
        share(left, 11, 9)
        share(right, 3, 2)
        split.addWidget(left)
        split.addWidget(right)
        self.layout_.addWidget(split, 1)
        drawn = lambda: self.data is not None
        self.export.add_plot("ROC curve", self.roc, drawn)
        self.export.add_table("operating points", self.ops.to_csv, drawn)
        self.export.add_plot("calibration", self.reliability,
                             lambda: drawn() and self.data["cal"] is not None)
        self.export.add_plot("rows per bin", self.counts,
                             lambda: drawn() and self.data["cal"] is not None)

    def set_report(self, report, new_data=False):
        self.report, self.prep = report, report.prepared
        prep = self.prep
        many = field_ndim(prep, "pred") == 2
        names = list(prep.classes or prep.target_columns) if many else []
        current = self.chooser.currentIndex()
        self.chooser.blockSignals(True)
        self.chooser.clear()
        self.chooser.addItems([str(c) for c in names])
        self.chooser.setCurrentIndex(0 if new_data or current < 0 else min(current, len(names) - 1))
        self.chooser.blockSignals(False)
        self.chooser.setVisible(many)
        self.class_label.setVisible(many)
        self._compute()

    def column(self):
        return max(self.chooser.currentIndex(), 0)

    def _class_changed(self):
        if self.report is not None:
            self._compute()

    def _compute(self):
        prep, j = self.prep, self.column()
        self.run("roc", lambda: roc_data(prep, j), self._show)

    def _show(self, d):
        self.data = d
        which = f" &nbsp;·&nbsp; class <b>{self.chooser.currentText()}</b> vs rest" \
            if self.chooser.isVisible() else ""
        self.summary.setText(f"{self.score_text()}{which}<br>{d['pos']:,} positive, "
                             f"{d['neg']:,} negative rows; this curve's AUC {fmt(d['auc'])} "
                             f"({d['points']:,} points)")
        self._draw_roc(d)
        self._draw_calibration(d["cal"])

    def _draw_roc(self, d):
        p, ops = self.roc, d["ops"]
        p.clear()
        if not (d["pos"] and d["neg"]):        # one class only: no curve, no rates
            self.summary.setText(self.summary.text() + " — one class only: no ROC curve")
            self.ops.fill([], np.zeros(0))
            return
        p.plot([0, 1], [0, 1], pen=pg.mkPen((150, 150, 150), width=1, style=Qt.DashLine))
        p.plot(d["fpr"], d["tpr"], pen=pg.mkPen((31, 119, 180), width=2))
        ok = np.isfinite(ops.fpr) & np.isfinite(ops.tpr)
        p.plot(ops.fpr[ok], ops.tpr[ok], pen=None, symbol="o", symbolSize=8,
               symbolBrush=(255, 127, 14))
        if ops.best >= 0 and ok[ops.best]:
            p.plot([ops.fpr[ops.best]], [ops.tpr[ops.best]], pen=None, symbol="star",
                   symbolSize=16, symbolBrush=(214, 39, 40))
        p.setXRange(0, 1, padding=0.02)
        p.setYRange(0, 1, padding=0.02)
        rows = [[("★ " if k == ops.best else "") + fmt(t), fmt(ops.tpr[k], 3), fmt(ops.fpr[k], 3),
                 fmt(ops.precision[k], 3), f"{int(ops.predicted[k]):,}"]
                for k, t in enumerate(ops.thresholds)]
        self.ops.fill(rows, np.zeros(0))

    def _draw_calibration(self, cal):
        r, c = self.reliability, self.counts
        r.clear()
        c.clear()
        if cal is None:
            self.cal_note.setText("Scores outside [0, 1] are not probabilities: no calibration.")
            self.cal_note.show()
            return
        self.cal_note.hide()
        full = cal.counts > 0
        r.plot([0, 1], [0, 1], pen=pg.mkPen((150, 150, 150), width=1, style=Qt.DashLine))
        r.plot(cal.mean_predicted[full], cal.observed[full], pen=pg.mkPen((31, 119, 180), width=2),
               symbol="o", symbolSize=8, symbolBrush=(31, 119, 180))
        r.setXRange(0, 1, padding=0.02)
        r.setYRange(0, 1, padding=0.02)
        mid = (cal.edges[:-1] + cal.edges[1:]) / 2
        c.addItem(pg.BarGraphItem(x=mid, height=cal.counts, width=0.9 / BINS,
                                  brush=(31, 119, 180)))
        c.setXRange(0, 1, padding=0.02)
        c.setYRange(0, max(1, int(cal.counts.max())) * 1.1, padding=0)

    def _op_clicked(self):
        picked = sorted({i.row() for i in self.ops.selectedIndexes()})
        if not picked or self.data is None:
            return
        t = float(self.data["ops"].thresholds[picked[0]])
        j, many = self.column(), field_ndim(self.prep, "pred") == 2

        def mask(prep, rows):
            s = prep.pred[:, j] if many else prep.pred
            return (s[rows] >= t) & scored_mask(prep, rows)
        self.rows_requested.emit(mask, f"score ≥ {t:.4g}")
