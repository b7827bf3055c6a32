"""The kappa view's Cut points tab: continuous predictions per true class, the
cut points in use, Optimise (on the worker) and Apply as ratings (undoable).

An optimised result belongs to the data it was fitted on: a newer file or an
edit makes it stale and Apply is switched off.
"""
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ...metrics.kernels import apply_cuts, optimize_cuts


class CutsTab(QWidget):
    transform_requested = Signal(str, object)   # label, fn(prepared) -> (field, new array)

    def __init__(self, jobs=None, session=None, parent=None):
        super().__init__(parent)
        self.jobs, self.session = jobs, session
        self.report = self.prep = None
        self.cut_result = self.cut_generation = None
        self._set_aside = []            # the cut-points notes while the ratings are integers
        self._aside_for = None          # of these files
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        self.label = QLabel("")
        self.label.setWordWrap(True)
        self.optimise_button = QPushButton("Optimise cut points")
        self.apply_button = QPushButton("Apply as ratings")
        self.apply_button.setEnabled(False)
        self.apply_button.setToolTip("Turn the predictions into ratings (undo with Ctrl+Z)")
        row.addWidget(self.label, 1)
        row.addWidget(self.optimise_button)
        row.addWidget(self.apply_button)
        lay.addLayout(row)
        self._dist = None               # the chart, made when the tab is first shown
        self.drawn = None               # (bins, histograms, cut points) it shows
        self.optimise_button.clicked.connect(self.optimise)
        self.apply_button.clicked.connect(self._apply)

    @property
    def dist(self):
        if self._dist is None:
            from ..widgets.theme import style_plot
            p = self._dist = pg.PlotWidget(background="w",
                                           title="Predictions per true class, with cut points")
            # One row of names above the curves (headroom below): a column of five
            # covered the histograms.
            p.addLegend(offset=(10, 5), colCount=8)
            p.setLabel("bottom", "prediction")
            p.setLabel("left", "rows")
            style_plot(p)
            self._paint()           # before the layout sizes it, as when it was made eagerly
            self.layout().addWidget(p, 1)
            p.show()                # now, not queued: the tab is painted with it
        return self._dist

    def set_report(self, report, new_data=False):
        self.report, self.prep = report, report.prepared
        if new_data:
            self.cut_result = self.cut_generation = None
        fresh = self.cut_result is not None and self._current()
        self.apply_button.setEnabled(fresh)
        self.follow_notes(report)
        self._show(report.cuts, self.cut_result if fresh else None)

    def follow_notes(self, report):
        """The note "N non-integer ratings … scored through cut points" is about the data
        shown: once the ratings are integers (Apply as ratings) it goes, and comes back
        with an undo."""
        s = self.session
        if s is None or not getattr(s, "problems_are_notes", False) and not self._set_aside:
            return
        continuous = report.cuts is not None
        files = (getattr(s, "truth_path", None), getattr(s, "sub_path", None))
        if self._set_aside and self._aside_for != files:
            self._set_aside = []            # notes of other files

        def is_ours(p):
            return "non-integer rating" in getattr(p, "message", "") and \
                "cut points" in getattr(p, "message", "")
        if not continuous and any(is_ours(p) for p in s.problems):
            self._set_aside, self._aside_for = [p for p in s.problems if is_ours(p)], files
            s.set_problems([p for p in s.problems if not is_ours(p)], notes=True)
        elif continuous and self._set_aside and (s.problems_are_notes or not s.problems):
            back, self._set_aside = self._set_aside, []
            s.set_problems(back + [p for p in s.problems if not is_ours(p)], notes=True)

    def _generation(self):
        return self.session.generation if self.session is not None else None

    def _current(self):
        return self.session is None or self.session.is_current(self.cut_generation)

    def _show(self, cuts, after):
        r = self.report.result
        text = (f"The predictions are continuous; kappa uses cut points "
                f"{', '.join(f'{c:.3f}' for c in cuts)} (rounding by default): "
                f"<b>{r.score:.6f}</b>.")
        if after is not None:
            text += (f"<br>Optimised: <b>{after.kappa:.6f}</b> with cut points "
                     f"{', '.join(f'{c:.3f}' for c in after.cuts)} "
                     f"(from {after.start_kappa:.6f}, {after.sweeps} sweeps).")
        self.label.setText(text)
        self._draw_distribution(cuts if after is None else after.cuts)

    def _draw_distribution(self, cuts):
        if self.prep is None or self.jobs is None:
            return
        truth, pred = self.prep.truth, self.prep.pred

        def job(progress, cancel):
            bins = np.histogram_bin_edges(pred, bins=60)
            classes = np.unique(truth)
            return bins, [(c, np.histogram(pred[truth == c], bins=bins)[0]) for c in classes]

        def draw(result):
            self.drawn = result + (cuts,)
            if self._dist is not None:
                self._paint()
        self.jobs.submit("kappa-dist", job, draw, generation=self._generation())

    def _paint(self):
        if self.drawn is None:
            return
        bins, hists, cuts = self.drawn
        p = self._dist
        p.clear()
        centers = (bins[1:] + bins[:-1]) / 2
        for n, (c, h) in enumerate(hists):
            p.plot(centers, h, pen=pg.mkPen(pg.intColor(n, len(hists)), width=2),
                   name=f"true {c}")
        for c in cuts:
            p.addItem(pg.InfiniteLine(pos=float(c), angle=90,
                                      pen=pg.mkPen((0, 0, 0), width=2, style=Qt.DashLine)))
        top = max((float(h.max(initial=0)) for _, h in hists), default=0.0) or 1.0
        rows = -(-len(hists) // 8)                      # legend rows (8 names a row)
        # Headroom for the legend in pixels (its height is fixed, the plot's is not): the
        # curves stay below it however short the plot is.
        room = 1.25 + 0.2 * rows
        item = p.getPlotItem() if hasattr(p, "getPlotItem") else p
        plot_h = item.getViewBox().sceneBoundingRect().height()
        legend = item.legend
        if legend is not None and plot_h > 0:
            legend.updateSize()
            share = min(0.7, (legend.boundingRect().height() + 12) / plot_h)
            room = max(room, 1.05 / (1 - share))
        p.setYRange(0, top * room, padding=0)

    def optimise(self):
        rep = self.report
        if self.prep is None or rep is None or rep.cuts is None:
            return
        truth, pred = self.prep.truth, self.prep.pred
        weights, start = rep.result.weighting, rep.cuts
        lo, hi = int(rep.result.labels[0]), int(rep.result.labels[-1])
        generation = self._generation()

        def job(progress, cancel):
            progress(0.1, "searching cut points")
            return optimize_cuts(truth, pred, weights=weights, min_rating=lo, max_rating=hi,
                                 start=start, cancel=cancel)

        def done(result):
            self.cut_result, self.cut_generation = result, generation
            self.apply_button.setEnabled(True)
            self._show(rep.cuts, result)
        self.jobs.submit("kappa-cuts", job, done, generation=generation,
                         disables=[self.optimise_button, self.apply_button])

    def _apply(self):
        if self.cut_result is None or not self._current() or self.report is None:
            self.apply_button.setEnabled(False)
            return
        cuts, lo = self.cut_result.cuts, int(self.report.result.labels[0])

        def fn(prep):
            return "pred", apply_cuts(prep.pred, cuts, lo).astype(prep.pred.dtype)
        # The button goes grey once applied: Qt would pass the focus on to the What-if
        # K box, whose own undo then took Ctrl+Z. The tab keeps it: Ctrl+Z undoes the apply.
        tabs = self.parentWidget().parentWidget() if self.parentWidget() is not None else None
        bar = tabs.tabBar() if hasattr(tabs, "tabBar") else None
        if bar is not None:         # this tab goes too (integer ratings): its tab bar stays
            bar.setFocus(Qt.OtherFocusReason)
        self.transform_requested.emit("Apply cut points", fn)
