"""The "Fix first" tab: the units whose fix gains the most, in greedy order,
with the exact score after each; and the metric's optimiser checked on rows
it was not fitted on (does the tuned gain survive, or is it noise?)."""
from html import escape

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QSplitter,
                               QVBoxLayout, QWidget)

from ..widgets.fix_first import FixFirstPanel


class FixesPage(QWidget):
    rows_requested = Signal(object, str)        # mask_fn(prepared, rows), label
    honest_requested = Signal()
    transform_requested = Signal(str, object)    # fix one unit from the keyboard (undoable)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.panel = FixFirstPanel()
        self.honest_button = QPushButton("Check the optimiser on held-out rows")
        self.honest_button.setToolTip("Fit cut points / the Jaccard threshold on Public and "
                                      "score Private (and the reverse): is the gain real?")
        self.honest_text = QLabel("")
        self.honest_text.setWordWrap(True)
        self.honest_text.setTextInteractionFlags(Qt.TextSelectableByMouse)
        # Scrolls when the pane is shorter than the words (the list above keeps its room).
        self.honest_scroll = QScrollArea()
        self.honest_scroll.setWidgetResizable(True)
        self.honest_scroll.setFrameShape(QFrame.NoFrame)
        self.honest_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.honest_scroll.setWidget(self.honest_text)
        bar = QHBoxLayout()
        bar.addWidget(self.honest_scroll, 1)
        bar.addWidget(self.honest_button, 0, Qt.AlignTop)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        # The list above, the held-out check below, in a splitter: squeezed in one layout
        # the curves got ~10 px even at 1920x1080 (the list's minimum took the rest).
        lower = QWidget()
        low = QVBoxLayout(lower)
        low.setContentsMargins(0, 0, 0, 0)
        low.addLayout(bar)
        self.curves = CurvePlots()
        self.curves.setVisible(False)
        self.curves.setMinimumHeight(130)
        low.addWidget(self.curves, 1)
        self.split = QSplitter(Qt.Vertical)
        self.split.setChildrenCollapsible(False)
        self.split.addWidget(self.panel)
        self.split.addWidget(lower)
        self.split.setStretchFactor(0, 1)
        lay.addWidget(self.split, 1)
        self.panel.rows_selected.connect(self._rows)
        self.panel.fix_requested.connect(self._fix)
        self.honest_button.clicked.connect(self.honest_requested)

    def show_fixes(self, top_fixes, has_optimiser):
        self.panel.set_top_fixes(top_fixes)
        self.honest_button.setVisible(has_optimiser)
        # Without an optimiser the lower pane would be empty: the list and its curve take
        # the page (at 1280x720 the curve's scores ran into each other).
        self.split.widget(1).setVisible(has_optimiser)
        self.honest_text.setText("")
        self.curves.setVisible(False)

    def show_honest(self, report):
        if report is None:
            self.honest_text.setText("Nothing to fit here (integer ratings need no cut points).")
            return
        had = self.curves.isVisible()
        self.curves.show_curve(report.curve)
        if self.curves.isVisibleTo(self) and not had:      # room for the curves: half the page
            total = sum(self.split.sizes())
            self.split.setSizes([total // 2, total - total // 2])
        lines = report.lines()
        self.honest_text.setText("<b>" + escape(lines[0]) + "</b><br>" + "<br>".join(
            escape(line.strip()) for line in lines[1:]))
        self._room_for_text()

    def _room_for_text(self):
        """The lower pane at least as tall as the check's words: a splitter keeps its
        sizes, and at 1280x720 the text was cut after its third line."""
        lower = self.split.widget(1)
        width = self.honest_text.width() if self.honest_text.width() > 50 else \
            max(100, lower.width() - self.honest_button.sizeHint().width() - 10)
        need = self.honest_text.heightForWidth(width) + 6
        if self.curves.isVisible():
            need += self.curves.minimumHeight()
        sizes = self.split.sizes()
        total = sum(sizes)
        if total and sizes[1] < need:
            # At most half: the list and its curve keep theirs (the words scroll).
            # The list's minimum leaves out its summary's wrapped lines: one more line.
            keep = self.panel.minimumSizeHint().height() + self.fontMetrics().lineSpacing()
            low = min(need, total // 2, total - keep)
            if low > sizes[1]:
                self.split.setSizes([total - low, low])

    def _fix(self, rows):
        """The unit fixed as the metric fixes it (Metric.fix_rows): the edit the list's gain
        is about."""
        rows = np.asarray(rows, dtype=np.int64)
        r = self.panel.current_row()
        name = self.panel.model.ids[r] if r is not None else rows[0]

        def fn(prep):
            from ...metrics import get_metric
            return get_metric(prep.metric).fix_rows(prep, rows)
        self.transform_requested.emit(f"Fix {self.panel.unit} {name}", fn)

    def _rows(self, rows):
        rows = np.asarray(rows, dtype=np.int64)
        self.rows_requested.emit(lambda prep, r: np.isin(r, rows),
                                 f"{rows.size} {self.panel.unit}(s) to fix first")


class CurvePlots(QWidget):
    """Score against the optimised setting (threshold, beta) with bootstrap bands and
    the curve of each part, as the honest check computed them."""

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.threshold = self.beta = None       # made with the first curve (~8 ms a chart)

    def _make_plots(self):
        from ..widgets.theme import style_plot
        self.threshold = pg.PlotWidget(background="w", title="Score vs Jaccard threshold")
        self.beta = pg.PlotWidget(background="w", title="Score vs β")
        for p, x in ((self.threshold, "threshold"), (self.beta, "β")):
            p.setLabel("bottom", x)
            p.setLabel("left", "score")
            p.getAxis("left").enableAutoSIPrefix(False)     # scores read as they are
            # Bottom left: scores fall as the threshold or β grows, so that corner is
            # empty (top left, the names covered the curves).
            p.addLegend(offset=(10, -10))
            style_plot(p)
            self.layout().addWidget(p)

    def show_curve(self, curve):
        if not curve or "thresholds" not in curve:
            self.setVisible(False)
            return
        if self.threshold is None:
            self._make_plots()
        self.setVisible(True)
        self._draw(self.threshold, curve["thresholds"], curve["score"], curve["low"], curve["high"],
                   {k: v for k, v in curve.items() if k not in _KEYS})
        if "betas" in curve:
            self._draw(self.beta, curve["betas"], curve["beta_score"], curve["beta_low"],
                       curve["beta_high"], {})

    @staticmethod
    def _draw(plot, x, y, low, high, parts):
        plot.clear()
        lo = plot.plot(x, low, pen=pg.mkPen((150, 170, 210)))
        hi = plot.plot(x, high, pen=pg.mkPen((150, 170, 210)))
        plot.addItem(pg.FillBetweenItem(lo, hi, brush=pg.mkBrush(150, 170, 210, 90)))
        plot.plot(x, y, pen=pg.mkPen((30, 60, 150), width=2.5), name="all (95% band)")
        for n, (name, values) in enumerate(parts.items()):
            plot.plot(x, values, pen=pg.mkPen(PART_COLOURS[n % 2], width=1.5, style=Qt.DashLine),
                      name=name)


_KEYS = {"thresholds", "score", "low", "high", "betas", "beta_score", "beta_low", "beta_high"}
PART_COLOURS = ((200, 90, 30), (40, 150, 60))
