"""The score, its leaderboard splits and what was chosen, in plain words."""
import math

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QVBoxLayout

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
        self.metric_label.setText(f"{rep.definition.label} — {rep.n_rows:,} rows")
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
        lines += rep.definition.summary_lines(rep)
        self.detail.setText("<br>".join(lines))
        self.reason.setText(f"<i>Chosen: {rep.reason}.</i><br><i>Layout: {rep.layout}.</i>")
