"""The anatomy of weighted kappa: O, W, E and the products, interactive.

Every number comes from a core KappaResult (the data's, or the what-if
matrix's via kappa_from_confusion); the view only draws and routes clicks.
"""
from html import escape

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QHBoxLayout, QLabel,
                               QLineEdit, QSpinBox, QTableWidget, QTableWidgetItem,
                               QTabWidget, QVBoxLayout, QWidget)

from ...metrics.kernels import apply_cuts, kappa_from_confusion
from .kappa_cuts import CutsTab
from ..widgets.export import ExportButton
from ..widgets.heatmap import Heatmap
from ..widgets.lazy import LazyPages
from ..widgets.reflow import ReflowGrid
from .kappa_presets import MATRICES, PRESETS, agreement_band, matrix_of  # noqa: F401 (MATRICES: tests)

class KappaView(QWidget):
    rows_requested = Signal(object, str)        # mask_fn(prepared, rows), label
    option_changed = Signal(str, object)        # ("weights", "linear")
    transform_requested = Signal(str, object)   # label, fn(prepared) -> (field, new array)

    def __init__(self, context=None, parent=None):
        super().__init__(parent)
        self.jobs = context.jobs if context else None
        self.session = context.session if context else None
        self.data_result = None                 # from the files
        self.result = None                      # what is shown (data or what-if)
        self.prep = self.report = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        bar = QHBoxLayout()
        self.source = QComboBox()
        self.source.addItem("Current data", "data")
        self.source.addItem("What-if: start from the current data", "whatif-data")
        self.source.addItem("What-if: empty K x K matrix", "whatif-empty")
        for i, (title, _) in enumerate(PRESETS):
            self.source.addItem(f"What-if: {title}", f"preset-{i}")
        self.source.setToolTip("Show the files' matrices, or edit a confusion matrix by hand")
        self.source.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.source.setMinimumContentsLength(14)          # long preset titles must not widen the view
        self.weights = QComboBox()
        self.weights.addItems(["quadratic", "linear", "none"])
        self.normalised = QCheckBox("normalised (÷ N)")
        self.names = QLineEdit()
        self.names.setPlaceholderText("class names, comma-separated (e.g. 0 - No DR, 1 - Mild, …)")
        export = self.export = ExportButton()
        bar.addWidget(QLabel("Show"))
        bar.addWidget(self.source, 2)
        bar.addWidget(QLabel("Weights"))
        bar.addWidget(self.weights)
        bar.addWidget(self.normalised)
        bar.addWidget(self.names, 2)
        bar.addWidget(export)
        lay.addLayout(bar)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextSelectableByMouse)
        lay.addWidget(self.summary)

        self.tabs = QTabWidget()
        grid = self.grid = ReflowGrid()        # 3 x 2, 2 x 3 or tabs, as the width allows
        self.maps = {}
        for key, title, div in MATRICES:
            h = Heatmap(title, diverging=div)
            self.maps[key] = h
            grid.add(h, title.split(" — ")[0])
            export.add_plot(title, h).add_table(title, h.to_csv)
        self.gain_map = Heatmap("Δκ if one row of the cell were fixed", diverging=True, totals=False)
        self.gain_map.setToolTip("Exact change of kappa from moving one row of this cell to the "
                                 "diagonal (its prediction set to its truth); click: its rows")
        grid.add(self.gain_map, "Δκ gain")
        export.add_plot("gain map", self.gain_map).add_table("gain map", self.gain_map.to_csv)
        self.gain_map.cell_clicked.connect(self._cell_clicked)
        self.maps["observed"].cell_clicked.connect(self._cell_clicked)
        self.maps["observed"].setToolTip("Click a cell to list its rows in the table")
        self.tabs.addTab(grid, "Matrices")

        # The charts of the other tabs are made when a tab is first shown (~8 ms a chart).
        self.lazy = LazyPages(self.tabs)
        bal = self.balance_page = QWidget()
        QHBoxLayout(bal)
        self.cost_box = QWidget()
        cl = QVBoxLayout(self.cost_box)
        row = QHBoxLayout()
        row.addWidget(QLabel("Distance cost for true class"))
        self.cost_class = QComboBox()
        row.addWidget(self.cost_class, 1)
        cl.addLayout(row)
        self._balance = self._cost = None
        self.tabs.addTab(bal, "Balance && cost")

        what = QWidget()
        wl = QVBoxLayout(what)
        row = QHBoxLayout()
        row.addWidget(QLabel("K"))
        self.k_spin = QSpinBox(minimum=2, maximum=40, value=4)
        row.addWidget(self.k_spin)
        self.whatif_hint = QLabel("Edit any count: every matrix and kappa follow at once.")
        row.addWidget(self.whatif_hint, 1)
        wl.addLayout(row)
        self.editor = QTableWidget()
        wl.addWidget(self.editor, 1)
        self.tabs.addTab(what, "What-if editor")

        self.cuts = CutsTab(self.jobs, self.session)
        self.cuts.transform_requested.connect(self.transform_requested)
        self.cuts_tab = self.tabs.addTab(self.cuts, "Cut points")
        self.tabs.setTabVisible(self.cuts_tab, False)
        lay.addWidget(self.tabs, 1)
        self.lazy.add(bal, self._make_balance)
        self.lazy.add(self.cuts, lambda: self.cuts.dist)

        self.source.currentIndexChanged.connect(self._source_changed)
        self.weights.currentTextChanged.connect(self._weights_changed)
        self.normalised.toggled.connect(self._redraw)
        self.names.editingFinished.connect(self._redraw)
        self.cost_class.currentIndexChanged.connect(self._draw_cost)
        self.editor.itemChanged.connect(self._editor_changed)
        self.k_spin.valueChanged.connect(self._k_changed)
        drawn = lambda: self.result is not None
        export.add_plot("class balance", lambda: self.balance, drawn)
        export.add_plot("distance cost", lambda: self.cost, drawn)
        export.add_plot("cut points", lambda: self.cuts.dist, lambda: self.cuts.drawn is not None)

    def _make_balance(self):
        from ..widgets.theme import style_plot
        from ..widgets.axes import ElidingAxis
        # Short titles (half the page at 1280x720); names cut to their room, not run together.
        self._balance = pg.PlotWidget(background="w", title="Class balance",
                                      axisItems={"bottom": ElidingAxis("bottom")})
        self._balance.setToolTip("Rows of each class in the truth and in the prediction")
        self._balance.addLegend(offset=(10, 10))
        self._balance.setMouseEnabled(False, False)
        self._cost = pg.PlotWidget(background="w", title="Error weight by predicted class",
                                   axisItems={"bottom": ElidingAxis("bottom")})
        self._cost.setMouseEnabled(False, False)
        self._cost.setLabel("bottom", "predicted class")
        self._cost.setLabel("left", "error weight")
        for p in (self._balance, self._cost):
            style_plot(p)
        if self.result is not None:     # before the layout sizes them, as when they were made eagerly
            self._draw_balance(self.result, self.labels(self.result))    # (the ranges' padding
            self._draw_cost()                                            # depends on the size)
        self.cost_box.layout().addWidget(self._cost)
        self.balance_page.layout().addWidget(self._balance, 1)
        self.balance_page.layout().addWidget(self.cost_box, 1)
        for w in (self._balance, self.cost_box, self._cost):
            w.show()                # now, not queued: the page is painted with them

    @property
    def balance(self):
        self.lazy.ensure(self.balance_page)
        return self._balance

    @property
    def cost(self):
        self.lazy.ensure(self.balance_page)
        return self._cost

    # -- inputs ----------------------------------------------------------------------
    def set_report(self, report, new_data=False):
        """New numbers from the files (after load, edit or option change)."""
        self.report, self.prep = report, report.prepared
        self.data_result = report.result
        if new_data:                             # other files: nothing of the old ones stays
            self.source.blockSignals(True)
            self.source.setCurrentIndex(0)
            self.source.blockSignals(False)
        self.weights.blockSignals(True)
        self.weights.setCurrentText(report.result.weighting)
        self.weights.blockSignals(False)
        continuous = report.cuts is not None
        self.tabs.setTabVisible(self.cuts_tab, continuous)
        if continuous:
            self.cuts.set_report(report, new_data)
        else:
            self.cuts.cut_result = self.cuts.cut_generation = None
            self.cuts.drawn = None      # no cut-points chart to export for integer ratings
            self.cuts.follow_notes(report)
            self.apply_button.setEnabled(False)
        if self.mode() == "data":
            self.show_result(self.data_result)
            self._fill_editor(self.data_result.observed, self.data_result.labels, recompute=False)

    def mode(self):
        return "data" if self.source.currentData() == "data" else "whatif"

    def labels(self, result):
        names = [s.strip() for s in self.names.text().split(",") if s.strip()]
        vals = [str(v) for v in result.labels]
        return names if len(names) == len(vals) else vals

    def show_result(self, result):
        self.result = result
        self._redraw()

    # -- drawing ---------------------------------------------------------------------
    def _redraw(self):
        r = self.result
        if r is None:
            return
        labels = self.labels(r)
        n = r.n if r.n > 0 else 1.0
        scale = n if self.normalised.isChecked() else 1.0
        for key, _, _ in MATRICES:
            m = matrix_of(r, key)
            outline = None
            if key == "observed":
                outline = (m > 0) & ~np.eye(m.shape[0], dtype=bool)
            self.maps[key].set_matrix(m, labels, outline=outline,
                                      integer=key == "observed" and np.all(m == np.round(m)),
                                      scale=1.0 if key == "weights" else scale)
        self._draw_summary(r)
        self._draw_balance(r, labels)
        current = self.cost_class.currentIndex()
        self.cost_class.blockSignals(True)
        self.cost_class.clear()
        self.cost_class.addItems(labels)
        self.cost_class.setCurrentIndex(min(max(current, 0), len(labels) - 1))
        self.cost_class.blockSignals(False)
        self._draw_cost()

    def _draw_summary(self, r):
        n = r.n
        where = "what-if matrix" if self.mode() == "whatif" else "the files"
        if r.undefined_reason:
            kappa = f"<b>undefined</b> — {escape(str(r.undefined_reason))}"
        else:
            kappa = f"<b>{r.score:.6f}</b> ({agreement_band(r.score)})"
        norm = (lambda v: f"{v / n:.5f}") if n else (lambda v: "—")
        self.summary.setText(
            f"κ = 1 − Σ W·O / Σ W·E = {kappa} &nbsp;·&nbsp; from {where}, N = {n:,.0f}, "
            f"{r.weighting} weights<br>"
            f"numerator Σ W·O = {r.numerator:.4f} (÷N: {norm(r.numerator)}) &nbsp;·&nbsp; "
            f"denominator Σ W·E = {r.denominator:.4f} (÷N: {norm(r.denominator)})<br>"
            "<span style='color:palette(mid)'>Agreement bands (seed 003: 0-0.2 poor, 0.2-0.4 moderate, "
            "0.4-0.6 good, 0.6-0.8 very good, 0.8-1 perfect) are conventions, not "
            "properties of the metric.</span>")

    def _draw_balance(self, r, labels):
        p = self._balance
        if p is None:
            return
        p.clear()
        x = np.arange(len(labels))
        p.addItem(pg.BarGraphItem(x=x - 0.2, height=r.hist_true, width=0.38,
                                  brush=(31, 119, 180), name="truth"))
        p.addItem(pg.BarGraphItem(x=x + 0.2, height=r.hist_pred, width=0.38,
                                  brush=(255, 127, 14), name="prediction"))
        p.getAxis("bottom").setTicks([list(zip(x, labels))])
        p.setToolTip("Rows of each class in the truth and in the prediction\nclasses: "
                     + ", ".join(map(str, labels)))
        top = float(max(r.hist_true.max(initial=0), r.hist_pred.max(initial=0))) or 1.0
        p.setYRange(0, top * 1.5, padding=0)      # headroom: the legend never covers a bar

    def _draw_cost(self):
        r, p = self.result, self._cost
        if r is None or p is None:
            return
        i = max(self.cost_class.currentIndex(), 0)
        w = r.weights[i]
        x = np.arange(w.size)
        p.clear()
        p.plot(x, w, pen=pg.mkPen((200, 60, 40), width=3), symbol="o", symbolSize=7,
               symbolBrush=(200, 60, 40))
        p.addItem(pg.InfiniteLine(pos=i, angle=90, pen=pg.mkPen((120, 40, 160), width=2,
                                                                 style=Qt.DashLine)))
        p.setYRange(0, 1.05)
        p.setXRange(-0.5, w.size - 0.5, padding=0)      # room for the first and last names
        p.getAxis("bottom").setTicks([list(zip(x, self.labels(r)))])

    # -- what-if -----------------------------------------------------------------------
    def _source_changed(self):
        data = self.source.currentData()
        if data == "data":
            self.show_result(self.data_result)
            return
        if data == "whatif-data" and self.data_result is not None:
            m, labels = self.data_result.observed, self.data_result.labels
        elif data and data.startswith("preset-"):
            m = np.array(PRESETS[int(data.split("-")[1])][1], dtype=float)
            labels = np.arange(m.shape[0])
        else:
            k = self.k_spin.value()
            m, labels = np.zeros((k, k)), np.arange(k)
        self._fill_editor(m, labels)
        self.tabs.setCurrentIndex(2 if data == "whatif-empty" else self.tabs.currentIndex())

    def _fill_editor(self, m, labels, recompute=True):
        self._whatif_labels = np.asarray(labels)
        k = m.shape[0]
        self.k_spin.blockSignals(True)
        self.k_spin.setValue(k)
        self.k_spin.blockSignals(False)
        self.editor.blockSignals(True)
        self.editor.setRowCount(k)
        self.editor.setColumnCount(k)
        heads = [str(v) for v in labels]
        self.editor.setHorizontalHeaderLabels([f"pred {h}" for h in heads])
        self.editor.setVerticalHeaderLabels([f"true {h}" for h in heads])
        for i in range(k):
            for j in range(k):
                v = m[i, j]
                self.editor.setItem(i, j, QTableWidgetItem(f"{int(v)}" if v == int(v) else f"{v:g}"))
        self.editor.blockSignals(False)
        if recompute:
            self._recompute_whatif()

    def _k_changed(self, k):
        if self.mode() == "whatif":
            self._fill_editor(np.zeros((k, k)), np.arange(k))

    def whatif_matrix(self):
        k = self.editor.rowCount()
        m = np.zeros((k, k))
        for i in range(k):
            for j in range(k):
                item = self.editor.item(i, j)
                try:
                    m[i, j] = max(0.0, float(item.text())) if item and item.text().strip() else 0.0
                except ValueError:
                    m[i, j] = 0.0
        return m

    def set_whatif_cell(self, i, j, value):
        self.editor.item(i, j).setText(str(value))

    def _editor_changed(self, item):
        try:
            v = float(item.text())
            ok = v >= 0 and np.isfinite(v)
        except ValueError:
            ok = False
        if not ok:
            self.whatif_hint.setText(f"'{item.text()}' is not a count (a number ≥ 0); "
                                     "it counts as 0.")
        else:
            self.whatif_hint.setText("Edit any count: every matrix and kappa follow at once.")
        self._recompute_whatif()

    def _recompute_whatif(self):
        m = self.whatif_matrix()
        self.show_result(kappa_from_confusion(m, weights=self.weights.currentText(),
                                              labels=self._whatif_labels))

    def _weights_changed(self, w):
        if self.mode() == "whatif":
            self._recompute_whatif()
        self.option_changed.emit("weights", w)

    def _cell_clicked(self, i, j):
        if self.mode() != "data" or self.data_result is None:
            return
        labels = self.data_result.labels
        names = self.labels(self.data_result)
        t, p = int(labels[i]), int(labels[j])
        cuts, lo = self.report.cuts, int(labels[0])

        def mask(prep, rows):
            pred = prep.pred if cuts is None else apply_cuts(prep.pred, cuts, lo)
            return (prep.truth[rows] == t) & (pred[rows] == p)
        self.rows_requested.emit(mask, f"truth {names[i]}, prediction {names[j]}")

    def set_gains(self, gains):
        """The exact gain map of the files' data (K x K, nan where nothing to move)."""
        if self.data_result is None or gains is None or gains.shape != self.data_result.observed.shape:
            return
        self.gains = gains
        shown = np.nan_to_num(gains, nan=0.0)
        self.gain_map.set_matrix(shown, self.labels(self.data_result),
                                 outline=shown == np.nanmax(shown) if np.any(shown > 0) else None)

    # the Cut points tab's parts, for tests and exports
    @property
    def optimise_button(self):
        return self.cuts.optimise_button

    @property
    def apply_button(self):
        return self.cuts.apply_button

    @property
    def cut_result(self):
        return self.cuts.cut_result
