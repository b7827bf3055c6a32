"""The anatomy of label metrics (accuracy, F1): the confusion matrix with drill-down and
each class's counts, precision, recall and F1.

The matrix is counted on the worker (metrics.kernels.classification.labels_and_confusion over the
scored rows); a click on a cell lists that (truth, prediction) cell's rows in the
table, a click on a class its errors. The drill-downs are filters on the data as it
stands, so they follow edits.
"""
import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter

from ...metrics.base import take
from ..widgets.heatmap import Heatmap
from .family_base import FamilyView, RowsTable, fmt, scored, scored_mask, share


def label_sets(values):
    """True when the rows hold sets of labels (multi-label rows), not one label each."""
    return isinstance(values, list) and bool(values) and isinstance(values[0], tuple)


def set_counts(truth, pred):
    """(labels, L x L co-occurrence counts, rows holding each label, rows predicting it) of
    rows of label sets: cell (i, j) counts rows whose truth holds i and prediction j, so
    the diagonal is each label's true positives."""
    labels = np.array(sorted({x for r in truth for x in r} | {x for r in pred for x in r}),
                      dtype=object)
    index = {x: i for i, x in enumerate(labels.tolist())}
    k = labels.size
    m = np.zeros((k, k), dtype=np.int64)
    support, predicted = np.zeros(k, np.int64), np.zeros(k, np.int64)
    for t, p in zip(truth, pred):
        ti, pi = [index[x] for x in t], [index[x] for x in p]
        support[ti] += 1
        predicted[pi] += 1
        if ti and pi:
            m[np.ix_(ti, pi)] += 1
    return labels, m, support, predicted


def confusion_data(prep):
    """(labels, K x K counts, per-class rows of texts) over the scored rows (rows of label
    sets: the labels' co-occurrence, truth by prediction)."""
    from ...metrics.kernels.classification import labels_and_confusion
    rows = scored(prep)
    if label_sets(prep.truth):
        labels, m, support, predicted = set_counts(take(prep.truth, rows), take(prep.pred, rows))
    else:
        labels, m = labels_and_confusion(take(prep.truth, rows), take(prep.pred, rows))
        support, predicted = m.sum(axis=1), m.sum(axis=0)
    tp = np.diag(m).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(predicted > 0, tp / predicted, np.nan)
        recall = np.where(support > 0, tp / support, np.nan)
        f1 = np.where(2 * tp + (predicted - tp) + (support - tp) > 0,
                      2 * tp / (support + predicted), np.nan)
    per_class = [[str(lab), f"{int(s):,}", f"{int(p):,}", f"{int(t):,}", fmt(pr, 3), fmt(rc, 3),
                  fmt(f, 3)]
                 for lab, s, p, t, pr, rc, f in zip(labels.tolist(), support, predicted, tp,
                                                    precision, recall, f1)]
    return labels, m, per_class


class ConfusionView(FamilyView):
    def __init__(self, context=None, parent=None):
        super().__init__(context, parent)
        self.labels = np.zeros(0)
        self.matrix = np.zeros((0, 0))
        split = QSplitter(Qt.Horizontal)
        self.heat = Heatmap("Confusion matrix", row_axis="truth", col_axis="prediction")
        self.heat.setToolTip("Rows of each (truth, prediction) pair; click a cell to list its rows")
        self.heat.cell_clicked.connect(self._cell_clicked)
        self.classes = RowsTable(["class", "truth", "pred.", "right", "prec.", "recall", "F1"],
                                 right=range(1, 7))
        self.classes.setToolTip("Each class: rows in the truth, rows predicted, rows right, "
                                "precision, recall, F1; select a class to list the rows it is "
                                "wrong on (its truth or its prediction, not both)")
        self.classes.itemSelectionChanged.connect(self._class_clicked)
        split.addWidget(self.heat)
        split.addWidget(self.classes)
        share(split, 11, 9)
        self.layout_.addWidget(split, 1)
        self.export.add_heatmap("confusion matrix", self.heat)
        self.export.add_table("per class", self.classes.to_csv,
                              lambda: self.classes.rowCount() > 0)

    def set_report(self, report, new_data=False):
        self.report, self.prep = report, report.prepared
        self.summary.setText(self.score_text() + " &nbsp;·&nbsp; rows: truth, columns: "
                             "prediction; off-diagonal cells are the errors")
        prep = self.prep
        self.run("confusion", lambda: confusion_data(prep), self._show)

    def _show(self, data):
        self.labels, self.matrix, per_class = data
        names = [str(v) for v in self.labels.tolist()]
        k = self.matrix.shape[0]
        self.heat.set_matrix(self.matrix, names, integer=True,
                             outline=(self.matrix > 0) & ~np.eye(k, dtype=bool))
        self.classes.fill(per_class, np.zeros(0))

    def _cell_clicked(self, i, j):
        if self.report is None or i >= self.labels.size or j >= self.labels.size:
            return
        t, p = self.labels[i], self.labels[j]

        def mask(prep, rows):
            if label_sets(prep.truth):
                hit = np.array([t in prep.truth[r] and p in prep.pred[r] for r in rows], bool)
                return hit & scored_mask(prep, rows)
            return (prep.truth[rows] == t) & (prep.pred[rows] == p) & scored_mask(prep, rows)
        self.rows_requested.emit(mask, f"truth {t}, prediction {p}")

    def _class_clicked(self):
        picked = sorted({i.row() for i in self.classes.selectedIndexes()})
        if not picked or self.report is None or picked[0] >= self.labels.size:
            return
        c = self.labels[picked[0]]

        def mask(prep, rows):
            if label_sets(prep.truth):
                wrong = np.array([(c in prep.truth[r]) != (c in prep.pred[r]) for r in rows], bool)
                return wrong & scored_mask(prep, rows)
            t, p = prep.truth[rows], prep.pred[rows]
            return ((t == c) != (p == c)) & scored_mask(prep, rows)
        self.rows_requested.emit(mask, f"errors of class {c}")
