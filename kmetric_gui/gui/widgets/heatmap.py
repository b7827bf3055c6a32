"""An annotated K x K heatmap (pyqtgraph): numbers, totals, hover, click, export.

One ImageItem for the colours and one item that paints every label in a
single paint() call (a TextItem per cell gets slow past a few hundred).
Numbers are drawn only when a cell is large enough on screen; the tooltip
always gives the exact value.
"""
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPen, QTransform
from PySide6.QtWidgets import QApplication, QToolTip, QVBoxLayout, QWidget

SEQUENTIAL = pg.ColorMap([0.0, 0.5, 1.0], [(247, 251, 255), (107, 174, 214), (8, 48, 107)])
DIVERGING = pg.ColorMap([0.0, 0.5, 1.0], [(178, 24, 43), (247, 247, 247), (33, 102, 172)])
MIN_CELL_PX = (30, 16)   # smallest cell (w, h) that gets a printed number


def _fmt(v, integer):
    if integer:
        return f"{int(round(v)):,}"
    a = abs(v)
    if a < 1e-9:            # floating-point dust (e.g. a difference of equal sums)
        return "0"
    if a >= 1000:
        return f"{v:,.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 0.01:
        return f"{v:.3f}"
    return f"{v:.1e}"


class _Labels(pg.GraphicsObject):
    """Cell numbers, row/column totals and outlines, painted in one go."""

    def __init__(self, owner):
        super().__init__()
        self.owner = owner

    def boundingRect(self):
        o = self.owner
        return QRectF(-0.5, -0.5, o.nc + 1.5, o.nr + 1.5)

    def paint(self, p, *args):
        o = self.owner
        if o.nr == 0 or o.nc == 0:
            return
        tr = p.transform()           # item -> device (the painter's current transform)
        cell = tr.map(QPointF(1, 1)) - tr.map(QPointF(0, 0))
        cw, ch = abs(cell.x()), abs(cell.y())
        if o.outline is not None and cw >= 10:     # outlines would swamp tiny cells
            pen = QPen(QColor(220, 30, 30))
            pen.setCosmetic(True)
            pen.setWidthF(2.0)
            p.setPen(pen)
            p.setBrush(Qt.NoBrush)
            for i, j in zip(*np.nonzero(o.outline)):
                p.drawRect(QRectF(j - 0.5, i - 0.5, 1, 1))
        show = cw >= MIN_CELL_PX[0] and ch >= MIN_CELL_PX[1]
        p.save()
        p.setTransform(QTransform())      # draw text in device pixels, not data units
        font = QFont(p.font())
        font.setPixelSize(int(max(9, min(14, ch * 0.45))))
        p.setFont(font)
        values, colors, integer = o.display, o.cell_colors, o.integer
        if show:
            for i in range(o.nr):
                for j in range(o.nc):
                    c = tr.map(QPointF(j, i))
                    r = QRectF(c.x() - cw / 2, c.y() - ch / 2, cw, ch)
                    p.setPen(_contrast(colors[i, j]))
                    p.drawText(r, Qt.AlignCenter, _fmt(values[i, j], integer))
        if o.totals and cw >= 12:
            p.setPen(QColor(60, 60, 60))
            bold = QFont(font)
            bold.setBold(True)
            p.setFont(bold)
            rows, cols = values.sum(axis=1), values.sum(axis=0)
            for i in range(o.nr):
                c = tr.map(QPointF(o.nc - 0.5 + 0.6, i))
                p.drawText(QRectF(c.x(), c.y() - ch / 2, 200, ch), Qt.AlignVCenter | Qt.AlignLeft,
                           _fmt(rows[i], integer))
            for j in range(o.nc):
                c = tr.map(QPointF(j, o.nr - 0.5 + 0.35))
                p.drawText(QRectF(c.x() - cw / 2, c.y(), cw, 18), Qt.AlignHCenter | Qt.AlignTop,
                           _fmt(cols[j], integer))
        p.restore()


def _contrast(rgb):
    r, g, b = rgb
    return QColor(0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else QColor(255, 255, 255)


class Heatmap(QWidget):
    """K x K matrix view. ``cell_clicked(i, j)`` in matrix indices."""
    cell_clicked = Signal(int, int)

    def __init__(self, title="", parent=None, *, diverging=False, totals=True,
                 row_axis="truth", col_axis="prediction"):
        super().__init__(parent)
        self.title, self.diverging, self.totals = title, diverging, totals
        self.nr = self.nc = 0
        self.values, self.display = np.zeros((0, 0)), np.zeros((0, 0))
        self.col_labels = []
        self.levels = None
        self.outline, self.integer, self.labels = None, False, []
        self.cell_colors = np.zeros((0, 0, 3))
        self.plot = pg.PlotWidget(background="w")
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(False, False)
        self.plot.hideButtons()
        pi = self.plot.getPlotItem()
        pi.setTitle(title, color="#222", size="10pt")
        pi.invertY(True)
        pi.setLabel("left", row_axis)
        pi.setLabel("bottom", col_axis)
        for side in ("left", "bottom"):
            pi.getAxis(side).setStyle(tickLength=0)     # ticks would cross the cell numbers
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setRect(QRectF(-0.5, -0.5, 1, 1))
        self.text = _Labels(self)
        pi.addItem(self.image)
        pi.addItem(self.text)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.plot)
        self.plot.scene().sigMouseMoved.connect(self._hover)
        self.plot.scene().sigMouseClicked.connect(self._click)
        self.setMinimumSize(150, 140)

    def set_matrix(self, values, labels=None, *, outline=None, integer=False, scale=1.0,
                   col_labels=None, levels=None):
        """Show values (divided by ``scale`` for the normalised view)."""
        self.values = np.asarray(values, dtype=np.float64)
        self.display = self.values / scale
        self.nr, self.nc = self.values.shape
        if self.values.size == 0:
            self.image.clear()
            self.labels, self.col_labels = [], []
            self.text.update()
            return
        self.integer = integer and scale == 1.0
        self.outline = outline
        self.labels = [str(x) for x in (labels if labels is not None else range(self.nr))]
        self.col_labels = [str(x) for x in col_labels] if col_labels is not None else (
            self.labels if self.nr == self.nc else [str(x) for x in range(self.nc)])
        lut_map = DIVERGING if self.diverging else SEQUENTIAL
        d = self.display
        if self.diverging:
            m = float(np.abs(d).max()) or 1.0
            lo, hi = -m, m
        else:
            lo, hi = float(d.min()) if d.size else 0.0, float(d.max()) if d.size else 1.0
            if levels is not None:
                lo, hi = levels
            hi = hi if hi > lo else lo + 1.0
        norm = np.clip((d - lo) / (hi - lo), 0, 1) if d.size else d
        self.cell_colors = lut_map.map(norm.ravel(), mode="byte")[:, :3].reshape(self.nr, self.nc, 3) \
            if d.size else np.zeros((0, 0, 3))
        self.image.setLookupTable(lut_map.getLookupTable(nPts=256))
        self.image.setImage(d.astype(np.float32), levels=(lo, hi))
        self.image.setRect(QRectF(-0.5, -0.5, self.nc, self.nr))
        pi = self.plot.getPlotItem()
        for axis, labs in (("left", self.labels), ("bottom", self.col_labels)):
            step = max(1, int(np.ceil(len(labs) / 12)))   # thin the ticks for many classes
            pi.getAxis(axis).setTicks([list(enumerate(labs))[::step]])
        extra = 1.6 if self.totals else 0.03    # room for the outline of the last cell
        pi.setRange(xRange=(-0.53, self.nc - 0.5 + extra), yRange=(-0.53, self.nr - 0.5 + extra * 0.6),
                    padding=0)
        self.text.prepareGeometryChange()
        self.text.update()

    @property
    def k(self):
        return self.nr

    def cell_at(self, scene_pos):
        vb = self.plot.getPlotItem().vb
        if not self.plot.sceneBoundingRect().contains(scene_pos) or self.nr == 0:
            return None
        pt = vb.mapSceneToView(scene_pos)
        j, i = int(np.floor(pt.x() + 0.5)), int(np.floor(pt.y() + 0.5))
        return (i, j) if 0 <= i < self.nr and 0 <= j < self.nc else None

    def _hover(self, pos):
        cell = self.cell_at(pos)
        if cell is None:
            QToolTip.hideText()
            return
        i, j = cell
        v = self.values[i, j]
        text = (f"{self.title}\n{self.plot.getPlotItem().getAxis('left').labelText} "
                f"{self.labels[i]}, {self.plot.getPlotItem().getAxis('bottom').labelText} "
                f"{self.col_labels[j]}\nvalue: {v!r}")
        if not np.array_equal(self.display, self.values):
            text += f"\nnormalised: {self.display[i, j]!r}"
        view_pos = self.plot.mapFromScene(pos)
        QToolTip.showText(self.plot.mapToGlobal(view_pos), text, self.plot)

    def _click(self, event):
        cell = self.cell_at(event.scenePos())
        if cell is not None and event.button() == Qt.LeftButton:
            self.cell_clicked.emit(*cell)

    # -- export --------------------------------------------------------------------
    def to_csv(self, sep=","):
        head = sep.join([""] + self.col_labels)
        rows = [sep.join([self.labels[i]] + [repr(float(v)) for v in self.display[i]])
                for i in range(self.nr)]
        return "\n".join([head] + rows) + "\n"

    def copy_to_clipboard(self):
        QApplication.clipboard().setText(self.to_csv(sep="\t"))

    def save_png(self, path):
        return self.grab().save(path)
