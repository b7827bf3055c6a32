"""The Public/Private shake-up: histogram of simulated Private - Public gaps.

``show_shakeup(sh)`` takes a ``kmetric_gui.core.shakeup.Shakeup`` (as made by
``kmetric_gui.analysis.stats.shakeup``); the panel only draws, it computes nothing
but the histogram's bins.
"""
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget
from ...core.shakeup import histogram
from ...core.words import plural
from ..crash import guarded

BAR = (120, 150, 200)
MIDDLE = (70, 110, 180)        # bars inside the 5-95 % range
ACTUAL = (200, 30, 30)


class _Plot(pg.PlotWidget):
    """A chart that asks for a modest height: in the dock's scroll area pyqtgraph's 480 px
    hint pushed the axis below the fold, and without one the texts overprinted the chart."""

    @guarded
    def sizeHint(self):
        return QSize(300, 150)


class ShakeupPanel(QWidget):
    """Histogram of Private - Public over random splits, the actual gap, a summary."""

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.title = QLabel("Shake-up: no data yet")
        self.title.setObjectName("shakeupTitle")
        self.title.setWordWrap(True)
        self.plot = _Plot(background="w")
        self.plot.setLabel("bottom", "private − public")
        self.plot.getAxis("bottom").enableAutoSIPrefix(False)   # gaps read as scores, not x0.001
        self.plot.setLabel("left", "splits")
        self.plot.setMouseEnabled(x=False, y=False)      # the wheel scrolls the dock
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.plot.setMinimumHeight(120)          # the dock shrinks the chart, not the texts
        lay.addWidget(self.title)
        lay.addWidget(self.plot, 1)
        lay.addWidget(self.summary)
        self.bars = None
        self.actual_line = None
        self.shakeup = None

    def clear(self, message="Shake-up: no data yet"):
        self.plot.clear()
        self.bars = self.actual_line = self.shakeup = None
        self.title.setText(message)
        self.summary.setText("")

    def mark_updating(self):
        """The histogram shown is of the numbers before: said until the new one arrives."""
        if self.shakeup is not None:
            self.title.setText("<span style='color:#b06000'>Shake-up: updating for the new "
                               "score; the histogram below is of the numbers before</span>")

    def show_shakeup(self, sh):
        """Draw a core ``Shakeup``: histogram, zero line, 5-95 % range, actual gap."""
        self.clear()
        self.shakeup = sh
        s = sh.summary()
        self.title.setText(f"Shake-up: {sh.splits:,} random splits, Public {sh.public_fraction:.0%} "
                           f"({sh.n_public:,} of {sh.n_units:,} {plural(sh.kind)}), seed {sh.seed}")
        edges, counts = histogram(sh.gap)
        if counts.size:
            mid = (edges[:-1] + edges[1:]) / 2
            inside = (mid >= s["p05"]) & (mid <= s["p95"])
            brushes = [pg.mkBrush(*(MIDDLE if k else BAR)) for k in inside]
            self.bars = pg.BarGraphItem(x0=edges[:-1], x1=edges[1:], height=counts,
                                        brushes=brushes, pen=pg.mkPen("w"))
            self.plot.addItem(self.bars)
        self.plot.addItem(pg.InfiniteLine(pos=0.0, angle=90,
                                          pen=pg.mkPen((120, 120, 120), style=Qt.DashLine)))
        if np.isfinite(sh.actual_gap):
            self.actual_line = pg.InfiniteLine(
                pos=sh.actual_gap, angle=90, pen=pg.mkPen(ACTUAL, width=2.5),
                label=f"actual {sh.actual_gap:+.4f}", labelOpts={"position": 0.9, "color": ACTUAL,
                                                                  "fill": (255, 255, 255, 200)})
            self.plot.addItem(self.actual_line)
            lo, hi = min(edges[0], sh.actual_gap), max(edges[-1], sh.actual_gap)
            pad = 0.05 * (hi - lo or 1e-3)
            self.plot.setXRange(lo - pad, hi + pad, padding=0)
        self.summary.setText(summary_text(sh))


def summary_text(sh):
    """The numbers under the histogram, in words (HTML)."""
    s = sh.summary()
    if not np.isfinite(s["mean"]):
        return "Every simulated split was undefined on one side: no gap to show."
    parts = [f"Private − Public over random splits: mean <b>{s['mean']:+.4f}</b>, "
             f"sd {s['sd']:.4f}; 90% of the splits fall in "
             f"<b>[{s['p05']:+.4f}, {s['p95']:+.4f}]</b> (median {s['p50']:+.4f}); "
             f"{getattr(sh, 'worse_sign', 'a negative gap')}: Private scores worse."]
    if np.isfinite(sh.actual_gap):
        parts.append(f"The actual split's gap <b>{sh.actual_gap:+.4f}</b> is at percentile "
                     f"<b>{sh.actual_percentile:.1f}</b> of the simulated gaps.")
    else:
        parts.append("No Usage column: the actual gap is unknown.")
    if sh.undefined:
        parts.append(f"{sh.undefined:,} split(s) had an undefined score on one side and are "
                     f"left out of these numbers.")
    return " ".join(parts)
