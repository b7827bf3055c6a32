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
        self.metric_label.setWordWrap(True)      # "Reading <solution> and <submission>…"
        self.score_label = QLabel("—")
        self.score_label.setObjectName("bigScore")
        self.score_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        f = self.score_label.font()
        f.setPointSize(f.pointSize() * 2 + 4)
        f.setBold(True)
        self.score_label.setFont(f)
        self.interval = QLabel("")
        self.interval.setObjectName("interval")
        self.interval.setWordWrap(True)
        self.interval.setTextInteractionFlags(Qt.TextSelectableByMouse)
        grid = QGridLayout()
        self.public = QLabel("")
        self.private = QLabel("")
        for w in (self.public, self.private):
            w.setWordWrap(True)
        self.detail = QLabel("")
        self.detail.setWordWrap(True)
        self.reason = QLabel("")
        self.reason.setWordWrap(True)
        self.reason.setObjectName("reason")
        self.change = QLabel("")           # previous score and the change (watched files)
        self.change.setObjectName("scoreChange")
        grid.addWidget(self.public, 0, 0)
        grid.addWidget(self.private, 1, 0)
        grid.addWidget(self.change, 2, 0)
        lay.addWidget(self.metric_label)
        lay.addWidget(self.score_label)
        lay.addWidget(self.interval)
        lay.addLayout(grid)
        lay.addWidget(self.detail)
        lay.addWidget(self.reason)
        lay.addStretch(1)

    def clear(self, message="No files yet"):
        self.metric_label.setText(message)
        for w in (self.public, self.private, self.detail, self.reason, self.interval):
            w.setText("")
        self.score_label.setText("—")

    def show_report(self, rep):
        r = rep.result
        self._splits = {name: rep.splits.get(name) for name in ("public", "private")}
        self.interval.setText("<span style='color:#777'>interval: computing…</span>")
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

    def show_stats(self, stats, seed=0):
        """The bootstrap intervals next to the score and the Public / Private scores."""
        if stats is None:
            self.interval.setText("")
            return
        from ...stats import interval_text
        ci = stats.intervals.get("ci")
        self.interval.setText(interval_text(ci, seed) if ci is not None else "")
        for name, label in (("public", self.public), ("private", self.private)):
            s, iv = self._splits.get(name), stats.intervals.get(f"{name}_ci")
            if s is not None and iv is not None:
                short = interval_text(iv, seed).split(" CI ")[0]
                label.setText(f"{name.title()} LB: <b>{fmt(s.score)}</b> {short}")

    def show_change(self, previous, current):
        """'previous 0.774 → change +0.0042' until the next change (None: nothing)."""
        if previous is None or current is None:
            self.change.setText("")
            return
        if not (math.isfinite(previous) and math.isfinite(current)):
            self.change.setText(f"previous {fmt(previous)}")
            return
        delta = current - previous
        color = "#1a7f37" if delta > 0 else "#b42318" if delta < 0 else "#5b6675"
        self.change.setText(f"previous {fmt(previous)} · change "
                            f"<b style='color:{color}'>{delta:+.4f}</b>")
        self.change.setToolTip(f"{previous!r} → {current!r} (difference {delta!r})")
