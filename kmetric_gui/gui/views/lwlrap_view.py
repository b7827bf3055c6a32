"""The anatomy of LwLRAP: per-class scores and weights, per-sample rankings.

Numbers come from the core's LwlrapResult and sample_ranking; the view only
draws, orders rows (on the worker for big files) and routes selections.
"""
from html import escape

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QHeaderView, QLabel, QSplitter,
                               QTableView, QTabWidget, QVBoxLayout, QWidget)

from ...metrics.kernels import sample_ranking
from ..models.table import Column, ColumnsModel, fit_columns, sorted_rows
from ..widgets.export import ExportButton, columns_csv
from ..widgets.heatmap import Heatmap
from ..widgets.lazy import LazyPages
from ..widgets.whiskers import add_whiskers

OVERVIEW_SAMPLES = 60     # rows of the precision overview (the worst samples)


class LwlrapView(QWidget):
    option_changed = Signal(str, object)        # ("ties", "original")

    def __init__(self, context=None, parent=None):
        super().__init__(parent)
        self.jobs = context.jobs if context else None
        self.session = context.session if context else None
        self.report = self.prep = self.result = None
        self.sample_order = np.zeros(0, dtype=np.int64)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.ties = QComboBox()
        self.ties.addItem("ties: worst rank", "worst")
        self.ties.addItem("ties: original order", "original")
        self.export = ExportButton()
        top.addWidget(self.summary, 1)
        top.addWidget(self.ties)
        top.addWidget(self.export)
        lay.addLayout(top)
        self.tabs = QTabWidget()

        # Classes: variable-width bars (width = class weight, so area = contribution).
        cls = QWidget()
        cl = QHBoxLayout(cls)
        from ..widgets.axes import ElidingAxis
        self.class_plot = pg.PlotWidget(background="w", axisItems={"bottom": ElidingAxis("bottom")},
                                        title="Per-class LwLRAP")      # the axis says what the width is
        self.class_plot.setLabel("left", "class lwlrap")
        self.class_plot.setLabel("bottom", "classes, worst first (width ∝ positive labels)")
        self.class_plot.setMouseEnabled(False, False)
        self.class_model = ColumnsModel(self)
        # A few hundred classes at most: sorted right here through the index map.
        self.class_model.on_sort = self._sort_classes
        self.class_table = QTableView()
        self.class_table.setModel(self.class_model)
        self.class_table.setSortingEnabled(True)
        # Each column as wide as its header and values (a few hundred rows at most):
        # equal stretched columns elided every number at 1280 px. Narrower than that,
        # the table scrolls sideways instead of cutting values.
        hh = self.class_table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeToContents)
        hh.setStretchLastSection(True)
        self.class_table.verticalHeader().setVisible(False)
        cl.addWidget(self.class_plot, 4)
        cl.addWidget(self.class_table, 3)
        self.tabs.addTab(cls, "Classes")

        # Samples: worst first, and the selected sample's ranking.
        smp = QSplitter(Qt.Horizontal)
        self.samples_model = ColumnsModel(self)
        self.samples = QTableView()
        self.samples.setModel(self.samples_model)
        self.samples.setSelectionBehavior(QTableView.SelectRows)
        self.samples.setSelectionMode(QTableView.SingleSelection)
        self.samples.verticalHeader().setDefaultSectionSize(20)
        self.samples.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        detail = self.detail = QWidget()
        dl = QVBoxLayout(detail)
        self.sample_title = QLabel("Pick a sample on the left")
        self.sample_title.setWordWrap(True)
        self._rank_plot = None          # made when the Samples tab is first shown (~8 ms)
        self.current_sample = None
        self.steps = QLabel("")
        self.steps.setWordWrap(True)
        self.steps.setTextInteractionFlags(Qt.TextSelectableByMouse)
        dl.addWidget(self.sample_title)
        dl.addWidget(self.steps)
        smp.addWidget(self.samples)
        smp.addWidget(detail)
        smp.setSizes([380, 620])
        self.tabs.addTab(smp, "Samples")
        self.samples_page = smp

        self.overview = Heatmap("Precision of each positive label (worst samples; – : not positive)",
                                totals=False, row_axis="sample", col_axis="class")
        self.tabs.addTab(self.overview, "Overview")
        lay.addWidget(self.tabs, 1)
        self.lazy = LazyPages(self.tabs)
        self.lazy.add(smp, self._make_rank_plot)
        (self.export.add_plot("per-class chart", self.class_plot)
         .add_table("per-class table", lambda: columns_csv(self.class_model))
         .add_table("samples table", lambda: columns_csv(self.samples_model))
         .add_plot("sample ranking", lambda: self.rank_plot, lambda: self.current_sample is not None)
         .add_plot("precision overview", self.overview)
         .add_table("precision overview", self.overview.to_csv))

        self.ties.currentIndexChanged.connect(
            lambda: self.option_changed.emit("ties", self.ties.currentData()))
        self.samples.selectionModel().currentRowChanged.connect(
            lambda cur, _: cur.isValid() and self.show_sample(int(self.samples_model.rows[cur.row()])))
        self.overview.cell_clicked.connect(self._overview_clicked)

    def _make_rank_plot(self):
        from ..widgets.theme import style_plot
        from ..widgets.axes import ElidingAxis
        p = self._rank_plot = pg.PlotWidget(background="w", title="Classes ranked by score",
                                            axisItems={"bottom": ElidingAxis("bottom")})
        p.setMouseEnabled(False, False)
        p.setLabel("left", "score")
        # Once, now, while the range is 0..1: pyqtgraph 0.14 works the prefix out from the range
        # at this call even when turning it off, so after a 0..0.6 sample it read 0..600.
        p.getAxis("left").enableAutoSIPrefix(False)
        style_plot(p)
        if self.current_sample is not None:     # before the layout sizes it, as when made eagerly
            self._draw_ranking()
        self.detail.layout().insertWidget(1, p, 1)     # between the title and the steps
        p.show()                                # now, not queued: the tab is painted with it

    @property
    def rank_plot(self):
        self.lazy.ensure(self.samples_page)
        return self._rank_plot

    def _sort_classes(self, col, order):
        m = self.class_model
        if 0 <= col < len(m.columns):
            m.set_rows(sorted_rows(m.columns[col].values, np.arange(m.n_source),
                                   order == Qt.DescendingOrder))

    # -- inputs -------------------------------------------------------------------------
    def set_report(self, report, new_data=False):
        self.report, self.prep, self.result = report, report.prepared, report.result
        r = self.result
        self.ties.blockSignals(True)
        self.ties.setCurrentIndex(self.ties.findData(r.ties))
        self.ties.blockSignals(False)
        text = (f"LwLRAP <b>{r.score:.6f}</b> = Σ per-class lwlrap × class weight = mean "
                f"precision over {r.n_positives:,} positive labels of {len(self.prep.ids):,} "
                f"samples.")
        if r.tied_positives:
            text += (f"<br><b>{r.tied_positives:,}</b> positive label(s) tie another class's "
                     f"score; counted as <i>{escape(str(r.ties))}</i> — switch to compare.")
        self.summary.setText(text)
        self._draw_classes()
        if self.jobs is not None:
            scores, ids, prep = r.sample_scores, self.prep.ids, self.prep

            def job(progress, cancel):
                # After an incremental rescore the edited truth is made here, not on the UI thread;
                # the contributions too (a bincount over every positive label).
                n_lab, contrib = prep.truth.sum(axis=1), r.sample_contributions
                key = np.where(np.isnan(scores), np.inf, scores)
                order = np.argsort(key, kind="stable")          # worst first
                return order, [
                    Column("sample", ids), Column("lwlrap", scores, fmt=_f4, align_right=True),
                    Column("labels", n_lab, align_right=True),
                    Column("contribution", contrib, fmt=lambda v: f"{v:.2e}", align_right=True)]
            gen = self.session.generation if self.session is not None else None
            self.jobs.submit("lwlrap-samples", job, self._samples_ready, generation=gen)

    def _samples_ready(self, result):
        order, cols = result
        self.sample_order = order
        self.samples_model.set_columns(cols, len(order))
        self.samples_model.set_rows(order)
        fit_columns(self.samples)       # right-aligned counts were cut off at 100 px
        self._draw_overview()
        keep = self._same_sample()
        if keep is None and len(order):
            keep = int(order[0])                # the worst sample, on new data
        self.current_sample = None              # what is shown is from the data before
        if keep is not None:
            self.select_sample(keep)

    def _same_sample(self):
        """The source row of the sample picked before (same id), after an edit or a rescore."""
        old = getattr(self, "_shown_id", None)
        if old is None:
            return None
        ids, i = self.prep.ids, self._shown_row
        if i < len(ids) and ids[i] == old:      # rows keep their place under edits: no search
            return i
        hit = np.flatnonzero(np.asarray(ids) == old)
        return int(hit[0]) if hit.size else None

    # -- drawing ----------------------------------------------------------------------
    def _draw_classes(self):
        r, names = self.result, self.prep.classes
        order = np.argsort(np.where(r.class_weights > 0, r.per_class, np.inf), kind="stable")
        order = order[r.class_weights[order] > 0]
        p = self.class_plot
        p.clear()
        w = r.class_weights[order]
        x0 = np.concatenate(([0.0], np.cumsum(w)[:-1]))
        cmap = pg.ColorMap([0.0, 0.5, 1.0], [(215, 48, 39), (254, 224, 139), (26, 152, 80)])
        colors = [pg.mkBrush(*cmap.map(float(v), mode="byte")) for v in r.per_class[order]]
        p.addItem(pg.BarGraphItem(x0=x0, x1=x0 + w * 0.97, height=r.per_class[order],
                                  brushes=colors, pen=pg.mkPen("w")))
        p.addItem(pg.InfiniteLine(pos=r.score, angle=0, label=f"overall {r.score:.4f}",
                                  pen=pg.mkPen((200, 30, 30), width=2, style=Qt.DashLine),
                                  # at the left, above the worst classes (the lowest bars):
                                  # at the right it was cut by the edge and covered bars
                                  labelOpts={"position": 0.02, "color": (200, 30, 30),
                                             "anchors": [(0, 1), (0, 1)],
                                             "fill": (255, 255, 255, 200)}))
        centers = x0 + w / 2
        self._bars = (order, centers)               # where class intervals get whiskers
        self._whiskers = None
        # Names cut to their bar's room by the axis when drawn (it knows the real width).
        p.getAxis("bottom").setTicks([[(c, str(names[i])) for c, i in zip(centers, order)]])
        p.setXRange(0, float(w.sum()), padding=0.01)
        p.setYRange(0, 1.05)
        counts = r.class_positives
        self.class_model.set_columns([
            Column("class", np.array(names, dtype=object)),
            Column("lwlrap", np.where(counts > 0, r.per_class, np.nan), fmt=_f4, align_right=True),
            Column("weight", r.class_weights, fmt=lambda v: f"{v:.4f}", align_right=True),
            Column("positives", counts, align_right=True)], len(names))
        self.class_table.sortByColumn(1, Qt.AscendingOrder)      # worst classes first

    def set_stats(self, stats):
        """Interval whiskers on the per-class bars (from the bootstrap of the samples)."""
        ivs = getattr(stats, "class_intervals", None)
        if not ivs or getattr(self, "_bars", None) is None:
            return
        if self._whiskers is not None:
            self.class_plot.removeItem(self._whiskers)
        order, centers = self._bars
        names = self.prep.classes
        low = np.array([ivs[names[i]].low if names[i] in ivs else np.nan for i in order])
        high = np.array([ivs[names[i]].high if names[i] in ivs else np.nan for i in order])
        self._whiskers = add_whiskers(self.class_plot, centers, low, high)
        self.class_intervals = ivs

    def set_gains(self, gains):
        """Per-class share of the score and the gain of ranking the class perfectly."""
        if gains is None or self.prep is None:
            return
        cls = gains[0]
        if cls.share.size != len(self.prep.classes):
            return
        cols = [c for c in self.class_model.columns if c.name not in ("share", "gain if perfect")]
        cols += [Column("share", cls.share, fmt=lambda v: f"{v:.4f}", align_right=True,
                        tooltip="per-class lwlrap × class weight (the shares sum to the score)"),
                 Column("gain if perfect", cls.gain, fmt=lambda v: f"{v:+.4f}", align_right=True,
                        tooltip="score change if this class's positives were ranked first")]
        rows = self.class_model.rows
        self.class_model.set_columns(cols, len(self.prep.classes))
        self.class_model.set_rows(rows)
        self.class_gains = cls

    def _draw_overview(self):
        r, prep = self.result, self.prep
        rows = [i for i in self.sample_order[:OVERVIEW_SAMPLES * 2]
                if not np.isnan(r.sample_scores[i])][:OVERVIEW_SAMPLES]
        # A cell that is no positive label has no precision: '–', in the colour below
        # every precision (the colour bar's 'none'), so a precision of 0 stays visible.
        m = np.full((len(rows), len(prep.classes)), np.nan)
        where = {row: n for n, row in enumerate(rows)}
        keep = np.isin(r.positive_rows, rows)
        for s, c, v in zip(r.positive_rows[keep], r.positive_classes[keep], r.precisions[keep]):
            m[where[int(s)], c] = v
        self.overview_rows = rows
        self.overview.set_matrix(m, [str(prep.ids[i]) for i in rows], col_labels=prep.classes,
                                 levels=(-0.25, 1.0), low_label="none")

    def _overview_clicked(self, i, j):
        if 0 <= i < len(self.overview_rows):
            self.select_sample(self.overview_rows[i])
            self.tabs.setCurrentIndex(1)

    def select_sample(self, source_row):
        r = self.samples_model.view_row(source_row)
        if r >= 0:
            self.samples.selectRow(r)           # shows it (currentRowChanged) unless current
            self.samples.scrollTo(self.samples_model.index(r, 0))
        if self.current_sample != source_row:
            self.show_sample(source_row)

    def show_sample(self, i):
        prep, r = self.prep, self.result
        truth, scores = prep.truth[i], prep.pred[i]
        order, ranks, hits, prec = sample_ranking(truth, scores, ties=r.ties)
        names = prep.classes
        n_pos = int(truth.sum())
        contrib = np.nansum(prec) / r.n_positives if r.n_positives else 0.0
        self.current_sample = i
        self._shown_id, self._shown_row = prep.ids[i], i
        self.sample_precisions = prec
        self._ranking = (truth, scores, order, ranks, hits)
        self.sample_title.setText(
            f"<b>{escape(str(prep.ids[i]))}</b>: {n_pos} true label(s) "
            f"({escape(', '.join(names[j] for j in np.flatnonzero(truth))) or 'none'}); sample lwlrap "
            f"{_f4(r.sample_scores[i])}, contribution {contrib:.3e} of the score")
        if self._rank_plot is not None:
            self._draw_ranking()
        lines = [f"{escape(str(names[j]))}: rank {ranks[j]}, {hits[j]} true label(s) at or above it → "
                 f"precision {hits[j]}/{ranks[j]} = {prec[j]:.4f}"
                 for j in order if truth[j]]
        self.steps.setText("<br>".join(lines) + (
            f"<br>Sample lwlrap = mean of these = {_f4(r.sample_scores[i])}" if lines else
            "No true labels: this sample adds nothing to the score."))

    def _draw_ranking(self):
        truth, scores, order, ranks, hits = self._ranking
        names = self.prep.classes
        p = self._rank_plot
        p.clear()
        shown = order[:min(len(order), 25)]
        x = np.arange(len(shown))
        brushes = [pg.mkBrush((44, 160, 44) if truth[j] else (170, 170, 170)) for j in shown]
        p.addItem(pg.BarGraphItem(x=x, height=scores[shown], width=0.8, brushes=brushes))
        p.getAxis("bottom").setTicks([[(k, str(names[j])) for k, j in enumerate(shown)]])
        p.setXRange(-0.5, len(shown) - 0.5, padding=0)
        for k, j in enumerate(shown):
            if truth[j]:
                t = pg.TextItem(f"{hits[j]}/{ranks[j]}", color=(20, 100, 20), anchor=(0.5, 1))
                t.setPos(k, scores[j])
                p.addItem(t)


def _f4(v):
    return "—" if v is None or (isinstance(v, float) and np.isnan(v)) else f"{v:.4f}"
