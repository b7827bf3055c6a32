"""The score, its leaderboard splits and what was chosen, in plain words."""
import math

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QVBoxLayout

NAMES = {"qwk": "Weighted kappa", "lwlrap": "LwLRAP", "fbeta": "Jaccard F-beta"}


def fmt(x):
    return "undefined" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.6f}"


class ScorePanel(QFrame):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setFrameShape(QFrame.StyledPanel)
        lay = QVBoxLayout(self)
        self.metric_label = QLabel("No files yet")
        self.metric_label.setObjectName("metricName")
        self.score_label = QLabel("—")
        self.score_label.setObjectName("bigScore")
        self.score_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        f = self.score_label.font()
        f.setPointSize(f.pointSize() * 2 + 4)
        f.setBold(True)
        self.score_label.setFont(f)
        grid = QGridLayout()
        self.public = QLabel("")
        self.private = QLabel("")
        self.detail = QLabel("")
        self.detail.setWordWrap(True)
        self.reason = QLabel("")
        self.reason.setWordWrap(True)
        self.reason.setObjectName("reason")
        grid.addWidget(self.public, 0, 0)
        grid.addWidget(self.private, 1, 0)
        lay.addWidget(self.metric_label)
        lay.addWidget(self.score_label)
        lay.addLayout(grid)
        lay.addWidget(self.detail)
        lay.addWidget(self.reason)
        lay.addStretch(1)

    def clear(self, message="No files yet"):
        self.metric_label.setText(message)
        for w in (self.public, self.private, self.detail, self.reason):
            w.setText("")
        self.score_label.setText("—")

    def show_report(self, rep):
        r = rep.result
        self.metric_label.setText(f"{NAMES[rep.metric]} — {rep.n_rows:,} rows")
        self.score_label.setText(fmt(r.score))
        self.score_label.setToolTip(repr(r.score))
        for name, label in (("public", self.public), ("private", self.private)):
            s = rep.splits.get(name)
            label.setText(f"{name.title()} LB: <b>{fmt(s.score)}</b>" if s is not None else "")
            if s is not None and s.undefined_reason:
                label.setToolTip(s.undefined_reason)
        lines = []
        if r.undefined_reason:
            lines.append(f"<b>Undefined:</b> {r.undefined_reason}")
        if rep.metric == "qwk":
            lines.append(f"{r.weighting} weights, ratings {r.labels[0]}..{r.labels[-1]} "
                         f"(K = {r.labels.size}); numerator {r.numerator:.4g}, "
                         f"denominator {r.denominator:.4g}")
        elif rep.metric == "lwlrap":
            lines.append(f"{r.n_positives:,} positive labels over {r.per_class.size} classes")
            if r.tied_positives:
                lines.append(f"{r.tied_positives:,} positive label(s) tie another class's score "
                             f"(counted as '{r.ties}' — switch under Options)")
        else:
            lines.append(f"TP {r.tp:,} · FP {r.fp:,} · FN {r.fn:,} — precision "
                         f"{fmt(r.precision)}, recall {fmt(r.recall)} "
                         f"(β = {r.beta:g}, threshold {r.threshold:g}, {r.matching})")
        self.detail.setText("<br>".join(lines))
        self.reason.setText(f"<i>Chosen: {rep.reason}.</i><br><i>Layout: {rep.layout}.</i>")
