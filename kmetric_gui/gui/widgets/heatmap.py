"""An annotated matrix view (pyqtgraph): numbers, totals, colour bar, hover, keyboard, zoom, export.

One ImageItem for the colours and one scene item that paints every text in a
single paint() call (a TextItem per cell gets slow past a few hundred). Where
each text goes is decided in heatmap_layout (no overlaps, nothing outside the
widget); what does not fit is hidden and shown by the tooltip.
"""
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, Signal
from PySide6.QtWidgets import QApplication, QToolButton, QToolTip, QVBoxLayout, QWidget

from ..crash import guarded
from . import numfmt, theme
from .heatmap_layout import PAD, Layout
from .heatmap_paint import Overlay

ZOOM_FROM = 13     # more rows or columns than this: wheel zoom and drag pan


class Heatmap(QWidget):
    """K x K (or R x C) matrix. ``cell_clicked(i, j)`` on a click or Enter, in matrix indices;
    ``cell_activated(i, j)`` on Enter/Return only; ``current_changed(i, j)`` as the keyboard moves."""
    cell_clicked = Signal(int, int)
    cell_activated = Signal(int, int)
    current_changed = Signal(int, int)

    def __init__(self, title="", parent=None, *, diverging=False, totals=True,
                 row_axis="truth", col_axis="prediction"):
        super().__init__(parent)
        self.title, self.diverging, self.totals = title, diverging, totals
        self.row_axis, self.col_axis = row_axis, col_axis
        self.nr = self.nc = 0
        self.values, self.display = np.zeros((0, 0)), np.zeros((0, 0))
        self.labels, self.col_labels = [], []
        self.levels, self.outline, self.integer = None, None, False
        self.lo, self.hi = 0.0, 1.0
        self.cell_colors = np.zeros((0, 0, 3), np.uint8)
        self.current = None
        self._layout, self._margins, self._tip = None, None, None
        # A bare ViewBox in a layout, not a PlotWidget: the texts, axes and menu are ours, and a
        # PlotItem (its axes, buttons and context menu) costs ~8 ms a heatmap to build, the
        # confusion-matrix view has seven of them.
        self.plot = pg.GraphicsLayoutWidget()
        self.plot.setFocusPolicy(Qt.NoFocus)          # the heatmap itself takes focus and keys
        self.grid = self.plot.ci.layout
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(0)
        self.vb = pg.ViewBox(enableMenu=False, invertY=True, defaultPadding=0)
        self.plot.ci.addItem(self.vb)
        self.vb.setMouseEnabled(False, False)
        self.vb.disableAutoRange()
        self.image = pg.ImageItem(axisOrder="row-major")
        self.vb.addItem(self.image)
        self.text = Overlay(self)
        self.plot.scene().addItem(self.text)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.plot)
        self.reset_button = QToolButton(self)
        self.reset_button.setText("⟲")
        self.reset_button.setToolTip("Reset zoom (0 or double-click)")
        self.reset_button.setAutoRaise(True)
        self.reset_button.clicked.connect(self.reset_zoom)
        self.reset_button.hide()
        self.plot.scene().sigMouseMoved.connect(self._hover)
        self.plot.scene().sigMouseClicked.connect(self._click)
        self.vb.sigRangeChanged.connect(self._relayout)
        self.setFocusPolicy(Qt.StrongFocus)
        self.setAccessibleName(title or "heatmap")
        self.setMinimumSize(120, 90)        # cramped layouts shrink it; what does not fit is hidden
        self._restyle()

    # -- data ------------------------------------------------------------------
    def set_matrix(self, values, labels=None, *, outline=None, integer=False, scale=1.0,
                   col_labels=None, levels=None, low_label=None):
        """Show values (divided by ``scale`` for the normalised view). ``low_label``
        names the colour bar's bottom when it is a colour, not a value (e.g. 'none')."""
        self.low_label = low_label
        self.values = np.asarray(values, dtype=np.float64)
        self.display = self.values / scale
        self.nr, self.nc = self.values.shape if self.values.ndim == 2 else (0, 0)
        self.integer = bool(integer) and scale == 1.0
        self.outline, self.levels = outline, levels
        if self.values.size == 0:
            self.nr = self.nc = 0
            self.image.clear()
            self.labels, self.col_labels, self.current = [], [], None
            self._relayout()
            return
        self.labels = [str(x) for x in (labels if labels is not None else range(self.nr))]
        self.col_labels = [str(x) for x in col_labels] if col_labels is not None else (
            self.labels if self.nr == self.nc else [str(x) for x in range(self.nc)])
        if self.current is not None and not (self.current[0] < self.nr and self.current[1] < self.nc):
            self.current = None
        d = self.display
        finite = d[np.isfinite(d)]
        if self.diverging:
            m = float(np.abs(finite).max()) if finite.size else 1.0
            lo, hi = -(m or 1.0), (m or 1.0)
        else:
            lo, hi = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
            if levels is not None:
                lo, hi = levels
            hi = hi if hi > lo else lo + 1.0
        self.lo, self.hi = float(lo), float(hi)
        self.vb.setMouseEnabled(self.zoomable(), self.zoomable())
        self.vb.setLimits(xMin=-0.5, xMax=self.nc - 0.5, yMin=-0.5, yMax=self.nr - 0.5,
                          minXRange=min(self.nc, 3), minYRange=min(self.nr, 3))
        self._recolor()
        self.reset_zoom()

    def _recolor(self):
        if not self.nr:
            return
        cmap = theme.colormap(self.diverging, self.palette())
        norm = np.clip((np.nan_to_num(self.display, nan=self.lo) - self.lo) / (self.hi - self.lo), 0, 1)
        self.cell_colors = cmap.map(norm.ravel(), mode="byte")[:, :3].reshape(self.nr, self.nc, 3)
        self.image.setLookupTable(cmap.getLookupTable(nPts=256))
        self.image.setImage(self.display.astype(np.float32), levels=(self.lo, self.hi))
        self.image.setRect(QRectF(-0.5, -0.5, self.nc, self.nr))     # after setImage: it scales by shape

    def scale_ticks(self):
        """Colour-bar ticks [(fraction from the bottom, text)]: low, middle, high."""
        if not self.nr:
            return []
        mid = (self.lo + self.hi) / 2
        integer = self.integer and float(mid).is_integer()
        top = (1.0, numfmt.short(self.hi, self.integer))
        if getattr(self, "low_label", None) and self.lo < 0 < self.hi:
            # The bottom is a colour for 'no value'; the values start at 0.
            return [(0.0, self.low_label), (-self.lo / (self.hi - self.lo), "0"), top]
        texts = numfmt.distinct([self.lo, mid, self.hi], integer)
        return list(zip((0.0, 0.5, 1.0), texts))

    def zoomable(self):
        return max(self.nr, self.nc) >= ZOOM_FROM

    def corner_size(self):
        """(w, h) the top-left corner keeps free for the reset-zoom button (zoomable matrices only)."""
        if not self.zoomable():
            return 0, 0
        size = self.reset_button.sizeHint()
        return size.width(), size.height()

    @property
    def k(self):
        return self.nr

    # -- layout ----------------------------------------------------------------
    def view_range(self):
        if not self.nr:
            return (-0.5, 0.5), (-0.5, 0.5)
        (x0, x1), (y0, y1) = self.vb.viewRange()
        return (max(-0.5, x0), min(self.nc - 0.5, x1)), (max(-0.5, y0), min(self.nr - 0.5, y1))

    def zoomed(self):
        (x0, x1), (y0, y1) = self.view_range()
        return bool(self.nr) and (x1 - x0 < self.nc - 0.01 or y1 - y0 < self.nr - 0.01)

    def reset_zoom(self):
        if self.nr:
            self.vb.setRange(xRange=(-0.5, self.nc - 0.5), yRange=(-0.5, self.nr - 0.5), padding=0)
        self._relayout()

    def text_layout(self):
        """The current Layout (texts, matrix rect), computed for this size and view range."""
        if self._layout is None:
            xr, yr = self.view_range()
            self._layout = Layout(self, self.width(), self.height(), xr, yr, self.font())
            m = tuple(round(x, 2) for x in self._layout.margins)
            if m != self._margins:          # reserve the bands around the image
                self._margins = m
                self.grid.setContentsMargins(*m)
                self.grid.activate()             # now, so that hit tests agree with what is painted
            self._place_reset(self._layout)
        return self._layout

    def label_rects(self):
        """[(kind, QRectF in widget pixels, text)] of every text painted now (kind: title, axis, row,
        col, cell, total, head, scale; 'button' for the reset-zoom button when shown)."""
        out = [(t.kind, QRectF(t.rect), t.text) for t in self.text_layout().texts]
        if self.reset_button.isVisibleTo(self):
            out.append(("button", QRectF(self.reset_button.geometry()), ""))
        return out

    def _relayout(self, *args):
        self._layout = None
        self.text.prepareGeometryChange()
        self.text.update()
        if self.isVisible():
            self.text_layout()

    def _place_reset(self, lay):
        x0, y0 = PAD, lay.title_h + lay.lh
        size = self.reset_button.sizeHint()
        fits = lay.m.left() - lay.gap - x0 >= size.width() and lay.m.top() - lay.gap - y0 >= size.height()
        self.reset_button.setGeometry(int(x0), int(y0), size.width(), size.height())
        self.reset_button.setVisible(fits and self.zoomed())

    @guarded
    def resizeEvent(self, event):
        super().resizeEvent(event)
        self._relayout()

    @guarded
    def changeEvent(self, event):
        if event.type() in (QEvent.PaletteChange, QEvent.ApplicationPaletteChange, QEvent.StyleChange):
            self._restyle()
        elif event.type() == QEvent.FontChange:
            self._relayout()
        super().changeEvent(event)

    def _restyle(self):
        self.plot.setBackground(theme.colors(self.palette())["background"])
        self._recolor()
        self._relayout()

    def _cell_rect(self, lay, i, j):
        return QRectF(lay.x_of(j), lay.y_of(i), lay.cw, lay.ch)

    def cell_rect(self, i, j):
        """Widget-pixel rectangle of cell (i, j) as shown now."""
        return self._cell_rect(self.text_layout(), i, j)

    # -- pointer ---------------------------------------------------------------
    def cell_at(self, scene_pos):
        if not self.plot.ci.sceneBoundingRect().contains(scene_pos) or self.nr == 0:
            return None
        if not self.vb.sceneBoundingRect().contains(scene_pos):
            return None
        pt = self.vb.mapSceneToView(scene_pos)
        j, i = int(np.floor(pt.x() + 0.5)), int(np.floor(pt.y() + 0.5))
        return (i, j) if 0 <= i < self.nr and 0 <= j < self.nc else None

    def cell_tip(self, i, j):
        text = (f"{self.title}\n{self.row_axis}: {self.labels[i]}\n{self.col_axis}: {self.col_labels[j]}\n"
                f"value: {numfmt.exact(self.values[i, j], self.integer)}")
        if not np.array_equal(self.display, self.values):
            text += f"\nnormalised: {numfmt.exact(self.display[i, j])}"
        return text

    def tip_at(self, pos):
        """(tooltip text, widget rect it belongs to) at a widget position, or (None, None)."""
        for t in self.text_layout().texts:
            if t.kind != "cell" and t.rect.contains(pos):
                if t.kind == "total":
                    what = self.labels[t.cell] if t.rect.left() > self.text_layout().m.right() \
                        else self.col_labels[t.cell]
                    return f"total of {what}: {t.tip}", t.rect
                return (t.tip or None), t.rect
        cell = self.cell_at(self.plot.mapToScene(pos.toPoint()))
        if cell is None:
            return None, None
        return self.cell_tip(*cell), self.cell_rect(*cell)

    def _hover(self, scene_pos):
        pos = self.plot.mapFromScene(scene_pos)
        text, rect = self.tip_at(QPointF(pos))
        if text is None:
            if self._tip is not None:
                QToolTip.hideText()
            self._tip = None
            return
        if text != self._tip:        # same cell: leave the tooltip where it is, do not flicker
            self._tip = text
            QToolTip.showText(self.plot.mapToGlobal(pos), text, self.plot, rect.toAlignedRect(), 60000)

    @guarded
    def leaveEvent(self, event):
        self._tip = None
        super().leaveEvent(event)

    def _click(self, event):
        if event.button() != Qt.LeftButton:
            return
        if event.double() and self.zoomed():
            self.reset_zoom()
            return
        cell = self.cell_at(event.scenePos())
        if cell is not None:
            self.setFocus(Qt.MouseFocusReason)
            self.set_current(*cell)
            self.cell_clicked.emit(*cell)

    # -- keyboard --------------------------------------------------------------
    def set_current(self, i, j):
        if not self.nr:
            return
        i, j = min(max(i, 0), self.nr - 1), min(max(j, 0), self.nc - 1)
        self.current = (i, j)
        self._ensure_visible(i, j)
        self.text.update()
        self.current_changed.emit(i, j)

    def _ensure_visible(self, i, j):
        (x0, x1), (y0, y1) = self.view_range()
        if not (x0 <= j - 0.5 and j + 0.5 <= x1):
            w = x1 - x0
            x0 = min(max(j - w / 2, -0.5), self.nc - 0.5 - w)
            self.vb.setXRange(x0, x0 + w, padding=0)
        if not (y0 <= i - 0.5 and i + 0.5 <= y1):
            h = y1 - y0
            y0 = min(max(i - h / 2, -0.5), self.nr - 0.5 - h)
            self.vb.setYRange(y0, y0 + h, padding=0)

    @guarded
    def focusInEvent(self, event):
        if self.current is None and self.nr:
            self.current = (0, 0)
        self.text.update()
        super().focusInEvent(event)

    @guarded
    def focusOutEvent(self, event):
        self.text.update()
        super().focusOutEvent(event)

    @guarded
    def keyPressEvent(self, event):
        key = event.key()
        moves = {Qt.Key_Left: (0, -1), Qt.Key_Right: (0, 1), Qt.Key_Up: (-1, 0), Qt.Key_Down: (1, 0)}
        if not self.nr:
            return super().keyPressEvent(event)
        i, j = self.current or (0, 0)
        if key in moves:
            di, dj = moves[key]
            self.set_current(i + di, j + dj)
        elif key == Qt.Key_Home:
            self.set_current(0 if event.modifiers() & Qt.ControlModifier else i, 0)
        elif key == Qt.Key_End:
            self.set_current(self.nr - 1 if event.modifiers() & Qt.ControlModifier else i, self.nc - 1)
        elif key in (Qt.Key_Return, Qt.Key_Enter):
            self.current = (i, j)
            self.cell_activated.emit(i, j)
            self.cell_clicked.emit(i, j)
            return
        elif key in (Qt.Key_Plus, Qt.Key_Equal, Qt.Key_Minus) and self.vb.state["mouseEnabled"][0]:
            f = 0.8 if key != Qt.Key_Minus else 1.25
            self.vb.scaleBy((f, f), center=QPointF(j, i))
            return
        elif key == Qt.Key_0:
            self.reset_zoom()
            return
        else:
            return super().keyPressEvent(event)
        if self.current and self.isVisible():       # the value, also when the number is hidden
            r = self.cell_rect(*self.current)
            QToolTip.showText(self.mapToGlobal(r.center().toPoint()), self.cell_tip(*self.current),
                              self, r.toAlignedRect(), 60000)

    # -- export ----------------------------------------------------------------
    def to_rows(self, totals=False):
        """Header and rows as text: integers as integers, other values with every digit."""
        cell = (lambda v: str(int(round(v)))) if self.integer else (lambda v: repr(float(v)))
        head = [""] + self.col_labels + (["total"] if totals else [])
        rows = [[self.labels[i]] + [cell(v) for v in self.display[i]] +
                ([cell(self.display[i].sum())] if totals else []) for i in range(self.nr)]
        if totals and self.nr:
            rows.append(["total"] + [cell(v) for v in self.display.sum(axis=0)] + [cell(self.display.sum())])
        return [head] + rows

    def to_csv(self, sep=",", totals=False):
        from ...io.saving import csv_text     # quotes a bare \r too
        return csv_text(self.to_rows(totals), spreadsheet=False, delimiter=sep)

    def copy_to_clipboard(self):
        from ...io.saving import tsv
        QApplication.clipboard().setText(tsv(self.to_rows(totals=True)))

    def save_png(self, path, scale=2.0, context=None):
        from .render import save_png
        return save_png(self, path, scale=scale, context=context)
