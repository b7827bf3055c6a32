"""The Compare view: which submission to choose.

``show_comparison(cmp)`` takes a ``kmetric_gui.analysis.comparison.Comparison`` and
only draws it: the leaderboard with intervals, the pairwise table, where the
selected pair differs (kappa: the A x B agreement heatmap, a click selects
those rows; LwLRAP: per-class delta bars; F-beta: per-document deltas) and the
blend curve with its best alpha.
"""
import math
from html import escape

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QHeaderView, QLabel, QSizePolicy, QStackedWidget,
                               QTabWidget, QVBoxLayout, QWidget)

from ...errors import InputError
from ...metrics.kernels.differ import FbetaDiffer, KappaDiffer, LwlrapDiffer, UnitDiffer
from .compare_names import (PAIR_HEADERS, NameDelegate, PairNames, fill as _fill, fit_pairs,
                            shared_start, table as _table)
from .compare_units import UnitDifferPanel
from ..crash import guarded
from ..widgets.axes import ElidingAxis
from ..widgets.heatmap import Heatmap
from ...core.words import plural

GAIN, LOSS, CURVE, BEST = (40, 130, 70), (200, 70, 60), (40, 90, 170), (200, 30, 30)


def _metric_words(name):
    """The metric's name as the CLI spells it; a metric file's label (its file name)."""
    from ...metrics import REGISTRY
    m = REGISTRY.get(name)
    return m.label if getattr(m, "foreign", False) else str(name)


def num(x, d=4, sign=False):
    if x is None:
        return "–"
    if not math.isfinite(x):
        return "undefined"
    return f"{x:+.{d}f}" if sign else f"{x:.{d}f}"


def interval(iv, sign=False):
    if iv is None or not (math.isfinite(iv.low) and math.isfinite(iv.high)):
        return "undefined"
    return f"[{num(iv.low, sign=sign)}, {num(iv.high, sign=sign)}]"


def prob(x):
    if x is None or not math.isfinite(x):
        return "–"
    return "<0.001" if 0 < x < 0.001 else f"{x:.3f}"


class AgreementHeatmap(Heatmap):
    """The A x B agreement counts; a cell's tooltip says which submission is right there."""
    differ = None

    def cell_tip(self, i, j):
        text = "rows where A and B give these ratings" + super().cell_tip(i, j)
        d = self.differ
        if d is None or i >= d.agreement.shape[0] or j >= d.agreement.shape[1]:
            return text
        return (f"{text}\ntruth is A's rating on {int(d.a_right[i, j])} of them, B's on "
                f"{int(d.b_right[i, j])}\nkappa(B) moves {num(d.cell_delta[i, j], sign=True)} "
                "with these rows against A's ratings")


class CompareView(QWidget):
    """Leaderboard, pairs and the selected pair's details. ``rows_selected`` carries
    solution rows (a kappa agreement cell, an F-beta document) for the data table."""
    rows_selected = Signal(object)
    pair_changed = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.cmp, self.pair = None, None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.title = QLabel("Compare: add two or more submissions")
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        self.leaderboard = _table(["submission", "score", "interval", "public", "private"])
        # Short headers (their meaning in the tooltip): at 1280x720 the nine columns
        # needed a scroll bar and left the names ~40 px.
        self.pairs = _table([h for h, _ in PAIR_HEADERS])
        for c, (_, tip) in enumerate(PAIR_HEADERS):
            self.pairs.horizontalHeaderItem(c).setToolTip(tip)
        # The names give way to the numbers, each keeping what tells it from the others
        # (the end of the file name); the whole name in the tooltip.
        self.names = NameDelegate(self.pairs)
        for c in (0, 1):
            self.pairs.horizontalHeader().setSectionResizeMode(c, QHeaderView.Interactive)
            self.pairs.setItemDelegateForColumn(c, self.names)
        self.pairs.setWordWrap(False)
        self.pairs.itemSelectionChanged.connect(self._pair_selected)
        lay.addWidget(self.leaderboard)
        lay.addWidget(self.pairs)
        self.tabs = QTabWidget()
        lay.addWidget(self.tabs, 1)
        self.differ_page = QWidget()
        self.differ_lay = QVBoxLayout(self.differ_page)
        self.differ_lay.setContentsMargins(0, 0, 0, 0)
        self.who = PairNames()          # which file is A, which is B (the notes say A and B)
        self.differ_lay.addWidget(self.who)
        self.differ_note = QLabel("")
        self.differ_note.setWordWrap(True)
        self.differ_note.setAutoFillBackground(True)     # no stale plot pixels under the text
        self.differ_lay.addWidget(self.differ_note)
        self.stack = QStackedWidget()
        self.differ_lay.addWidget(self.stack, 1)
        self.empty = QWidget()
        self.heatmap = AgreementHeatmap("")      # the note above says what it is
        self.heatmap.setAccessibleName("rows where A and B give these ratings")
        self.heatmap.cell_clicked.connect(self._kappa_cell)
        # Class names cut to their room (they ran together at 1280x720); short labels:
        # the note above the plots says what they draw.
        self.bar_plot = pg.PlotWidget(background="w", axisItems={"bottom": ElidingAxis("bottom")})
        self.bar_plot.setLabel("left", "lwlrap, B − A")
        self.bar_plot.getAxis("left").enableAutoSIPrefix(False)
        self.bar_plot.setMouseEnabled(x=True, y=False)
        self.docs = _table(["document", "Δ", "better", "A tp/fp/fn", "B tp/fp/fn"])
        self.docs.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Expanding)
        self.docs.itemSelectionChanged.connect(self._doc_selected)
        self.unit_panel = UnitDifferPanel()
        self.unit_panel.units_picked.connect(
            lambda units: self.rows_selected.emit(self.cmp.unit_rows(units)))
        for w in (self.empty, self.heatmap, self.bar_plot, self.docs, self.unit_panel):
            self.stack.addWidget(w)
        self.blend_page = QWidget()
        bl = QVBoxLayout(self.blend_page)
        bl.setContentsMargins(0, 0, 0, 0)
        self.blend_note = QLabel("")
        self.blend_note.setWordWrap(True)
        self.blend_plot = pg.PlotWidget(background="w")
        self.blend_plot.setLabel("bottom", "α (weight of A; 0 = B alone, 1 = A alone)")
        self.blend_plot.setLabel("left", "blend score")
        self.blend_plot.getAxis("left").enableAutoSIPrefix(False)
        self.blend_plot.setMouseEnabled(x=False, y=False)
        bl.addWidget(self.blend_note)
        bl.addWidget(self.blend_plot, 1)
        self.blend_curve = self.best_line = None
        self.tabs.addTab(self.differ_page, "Where they differ")
        self.tabs.addTab(self.blend_page, "Blend")
        self.bars = None
        self.doc_rows = np.zeros(0, dtype=np.int64)

    # -- whole comparison ---------------------------------------------------------
    def show_comparison(self, cmp):
        self.cmp = cmp
        self._shown_name = cmp.submissions[0].name if cmp.submissions else None
        o = cmp.options
        subs = cmp.submissions
        # One line (the settings in its tooltip): the heatmap below needs the height.
        lower = "" if cmp.higher_is_better else " (lower is better)"
        self.title.setText(
            f"<b>{escape(_metric_words(cmp.metric))}</b>{lower}: "
            f"{len(subs)} submissions on {cmp.n_units:,} {plural(cmp.unit)}; "
            f"{100 * o.level:g}% intervals, {o.replicates:,} replicates, seed {o.seed}"
            + "".join(f"<br><span style='color:#b06000'>⚠ {escape(str(w))}</span>" for w in cmp.warnings))
        self.title.setToolTip(
            f"{100 * o.level:g}% intervals ({o.method}, {o.replicates:,} replicates, seed {o.seed}); "
            f"p-values from {o.permutations:,} random swaps; order flips over {o.splits:,} random "
            f"splits with {100 * (cmp.public_fraction or 0):.0f}% Public.")
        best = cmp.best      # in the metric's direction
        _fill(self.leaderboard, [[("★ " if i == best else "") + s.name, num(s.score),
                                  interval(s.intervals.get("ci")), num(s.split_score("public")),
                                  num(s.split_score("private"))] for i, s in enumerate(subs)])
        rows, tips = [], []
        for p in cmp.pairs:
            st = p.stats
            pub, priv = p.split_stats.get("public"), p.split_stats.get("private")
            rows.append([subs[p.a].name, subs[p.b].name, num(st.delta, sign=True),
                         interval(st.delta_ci, sign=True), prob(st.p_b_better),
                         prob(st.p_value) if st.permutations else "–", prob(st.p_order_flips),
                         num(pub.delta, sign=True) if pub else "–",
                         num(priv.delta, sign=True) if priv else "–"])
            tips.append(_pair_tip(subs[p.a].name, subs[p.b].name, st))
        _fill(self.pairs, rows, tips, left=2)
        for r, p in enumerate(cmp.pairs):       # a name's tooltip is the whole name
            for c, k in ((0, p.a), (1, p.b)):
                self.pairs.item(r, c).setToolTip(f"{subs[k].name}\n\n{tips[r]}")
        fit_pairs(self.pairs)
        self._fit_heights()
        if cmp.pairs:
            self.pairs.selectRow(0)
            self.select_pair(0)

    def _fit_heights(self):
        """Each table as tall as its rows (6 at most, more scroll), plus its horizontal
        scroll bar when the columns are wider than the table: the bar hid the only pair."""
        for t in (self.leaderboard, self.pairs):
            rows = min(t.rowCount(), 6)
            wide = sum(t.columnWidth(c) for c in range(t.columnCount())) > \
                t.width() - 2 * t.frameWidth() - (t.verticalScrollBar().width()
                                                  if t.rowCount() > 6 else 0)
            t.setFixedHeight(t.horizontalHeader().sizeHint().height() + 2 * t.frameWidth()
                             + sum(t.rowHeight(r) for r in range(rows))
                             + (t.horizontalScrollBar().sizeHint().height() if wide else 0))

    @guarded
    def resizeEvent(self, event):
        super().resizeEvent(event)
        if self.cmp is not None:
            fit_pairs(self.pairs)
            self._fit_heights()

    def rename_shown(self, name):
        """The shown submission saved under another name: its rows say so (the numbers
        are the same data's)."""
        if self.cmp is None or not self.cmp.submissions:
            return
        old = getattr(self, "_shown_name", None) or self.cmp.submissions[0].name
        new = self._shown_name = f"{name} (shown)"
        for t in (self.leaderboard, self.pairs):
            for r in range(t.rowCount()):
                for c in range(t.columnCount()):
                    item = t.item(r, c)
                    if item is not None and old in item.text():
                        item.setText(item.text().replace(old, new))
        fit_pairs(self.pairs)
        a, b = (new if w.name == old else w.name for w in (self.who.a, self.who.b))
        for label, name in ((self.who.a, a), (self.who.b, b)):
            label.set_name(label.lead, name, label.path, shared_start([a, b]))

    def mark_updating(self):
        """The comparison shown is of the numbers before: said until the new one arrives."""
        if self.cmp is not None:
            self.title.setText("<span style='color:#b06000'>Updating for the new score; the "
                               f"comparison below ({escape(_metric_words(self.cmp.metric))}) is of the "
                               "numbers before</span>")

    def clear(self, message="Compare: add two or more submissions"):
        self.cmp = self.pair = None
        self.title.setText(message)
        for t in (self.leaderboard, self.pairs):
            t.setRowCount(0)
        self._set_differ(None, "")
        self.who.clear()
        self.blend_plot.clear()
        self.blend_note.setText("")

    def _pair_selected(self):
        rows = self.pairs.selectionModel().selectedRows()
        if rows and self.cmp is not None:
            self.select_pair(rows[0].row())

    def select_pair(self, k):
        if self.cmp is None or not 0 <= k < len(self.cmp.pairs):
            return
        self.pair = self.cmp.pairs[k]
        self._show_differ(self.pair)
        self._show_blend(self.pair)
        self.pair_changed.emit(k)

    # -- where they differ --------------------------------------------------------
    def _set_differ(self, widget, note):
        self.stack.setCurrentWidget(widget if widget is not None else self.empty)
        self.differ_note.setText(note)

    def _show_differ(self, pair):
        a, b = (self.cmp.submissions[i].name for i in (pair.a, pair.b))
        self.who.show_pair(self.cmp.submissions[pair.a], self.cmp.submissions[pair.b])
        d = pair.differ
        show = {KappaDiffer: self._kappa, LwlrapDiffer: self._lwlrap, FbetaDiffer: self._fbeta,
                UnitDiffer: self._units}
        if d is None or type(d) not in show:
            self._set_differ(None, "The two are compared by score only: this metric gives no "
                                   "per-unit detail.")
            return
        show[type(d)](d, a, b)

    def _kappa(self, d, a, b):
        hm = self.heatmap
        hm.row_axis, hm.col_axis, hm.differ = "A", "B", d     # named in the line above
        hm.set_matrix(d.agreement, [str(x) for x in d.labels], integer=True)
        agree = float(np.trace(d.agreement)) / max(float(d.agreement.sum()), 1.0)
        self._set_differ(hm, f"Rows where A and B give these ratings: the same on {100 * agree:.1f}% "
                             "(diagonal). Click a cell for its rows; its tooltip says who is right.")

    def _kappa_cell(self, i, j):
        d = self.pair.differ
        n = int(d.agreement[i, j])
        self.differ_note.setText(
            f"A = {d.labels[i]}, B = {d.labels[j]}: {n} rows; truth is A's rating on "
            f"{int(d.a_right[i, j])}, B's on {int(d.b_right[i, j])}; these rows move kappa(B) by "
            f"{num(d.cell_delta[i, j], sign=True)} against A's ratings.")
        self.rows_selected.emit(self._live_cell(self.pair, i, j))

    def _live_cell(self, pair, i, j):
        """The cell's rows as a mask on the data shown, redone after each edit (as the
        kappa O drill-down): the shown submission (0) from its current ratings, the
        other from its file (its rows do not move)."""
        cmp, d = self.cmp, pair.differ
        label_a, label_b = d.labels[i], d.labels[j]
        code = {pair.a: i, pair.b: j}
        fixed = [cmp.unit_rows(np.flatnonzero(cmp.engine.preds[s] == code[s]))
                 for s in (pair.a, pair.b) if s != 0]
        rep0 = cmp.submissions[0].report
        live = 0 in (pair.a, pair.b)
        label0 = label_a if pair.a == 0 else label_b
        static = cmp.cell_rows(pair, i, j)

        def mask(prep, rows):
            keep = np.ones(len(rows), dtype=bool)
            for f in fixed:
                keep &= np.isin(rows, f)
            if live:
                try:
                    ratings = np.asarray(rep0.definition.plan(prep, rep0.options).pred)
                except InputError:      # ratings not made (cut points): the rows compared
                    return keep & np.isin(rows, static)
                keep &= ratings[rows] == label0
            return keep
        mask.label = f"A = {label_a}, B = {label_b}"
        return mask

    def _lwlrap(self, d, a, b):
        names = [str(c) for c in self.cmp.submissions[0].report.prepared.classes]
        plot = self.bar_plot
        plot.clear()
        x = np.arange(d.per_class_delta.size)
        h = np.nan_to_num(d.per_class_delta)
        brushes = [pg.mkBrush(GAIN if v >= 0 else LOSS) for v in h]
        self.bars = pg.BarGraphItem(x=x, height=h, width=0.7, brushes=brushes)
        plot.addItem(self.bars)
        plot.addLine(y=0, pen=pg.mkPen((90, 90, 90)))
        step = max(1, len(names) // 16)
        plot.getAxis("bottom").setTicks([[(i, names[i]) for i in range(0, len(names), step)]])
        plot.autoRange()
        top = np.argsort(-np.abs(np.nan_to_num(d.contribution)))[:3]
        lead = ", ".join(f"{names[c]} {num(d.contribution[c], sign=True)}" for c in top)
        self._set_differ(plot, f"Green: B ranks the class better than A. Largest shares "
                               f"of the overall Δ (per-class Δ × class weight): {lead}.")

    def _fbeta(self, d, a, b):
        diff = np.flatnonzero((d.counts_a != d.counts_b).any(axis=1))
        order = diff[np.argsort(-np.abs(d.doc_delta[diff]), kind="stable")]
        ids = self.cmp.ids
        t = self.docs
        t.blockSignals(True)
        _fill(t, [[ids[k], num(d.doc_delta[k], sign=True),
                   "B" if d.doc_delta[k] > 0 else "A" if d.doc_delta[k] < 0 else "tie",
                   "/".join(map(str, d.counts_a[k])), "/".join(map(str, d.counts_b[k]))]
                  for k in order])
        t.clearSelection()
        t.blockSignals(False)
        self.doc_rows = order
        wins = int((d.doc_delta > 0).sum()), int((d.doc_delta < 0).sum())
        self._set_differ(t, f"{len(order)} documents differ: B wins {wins[0]}, A wins "
                            f"{wins[1]}. Δ: F-beta of B minus F-beta of B with A's predictions "
                            "for that document.")

    def _units(self, d, a, b):
        note = self.unit_panel.show_differ(d, self.cmp.ids, a, b)
        self._set_differ(self.unit_panel, note)

    def _doc_selected(self):
        rows = self.docs.selectionModel().selectedRows()
        if rows:
            self.rows_selected.emit(self.cmp.unit_rows(self.doc_rows[[rows[0].row()]]))

    # -- blend --------------------------------------------------------------------
    def _show_blend(self, pair):
        self.blend_plot.clear()
        self.blend_curve = self.best_line = None
        c = pair.blend
        self.blend_plot.setVisible(c is not None)     # no curve, no empty axes
        if c is None:
            self.blend_note.setText("No blend: " + escape(pair.blend_note or "these predictions "
                                                          "do not blend") + ".")
            return
        a, b = (self.cmp.submissions[i].name for i in (pair.a, pair.b))
        ok = np.isfinite(c.scores)
        self.blend_curve = self.blend_plot.plot(c.alphas[ok], c.scores[ok], pen=pg.mkPen(CURVE, width=2))
        if math.isfinite(c.best_alpha):
            self.best_line = pg.InfiniteLine(c.best_alpha, angle=90, pen=pg.mkPen(BEST, width=1.5))
            self.blend_plot.addItem(self.best_line)
            self.blend_plot.plot([c.best_alpha], [c.best_score], pen=None, symbol="o",
                                 symbolBrush=BEST, symbolSize=8)
        held = "".join(f"<br>Held out: {escape(h.words())}." for h in c.held_out)
        held = held and ":" + held
        self.blend_note.setText(
            f"Best α = {c.best_alpha:.2f}: {num(c.best_score)} ({escape(a)} alone "
            f"{num(c.scores[-1])}, {escape(b)} alone {num(c.scores[0])}"
            f"{'' if c.higher_is_better else '; lower is better'}). A blend chosen on this "
            "truth is optimistic" + (held or ": check it on data it was not fitted on."))


def _pair_tip(a, b, st):
    flips = "" if st.p_order_flips is None else (
        f"\nPublic and Private order them differently in {100 * st.p_order_flips:.0f}% of random splits.")
    return (f"{b} − {a} = {num(st.delta, sign=True)}; {b} is better in {100 * st.p_b_better:.0f}% "
            f"of paired bootstrap replicates.\np-value {prob(st.p_value)}: how often randomly "
            f"swapping their predictions gives a difference at least this large.{flips}")
