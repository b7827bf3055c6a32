"""Painting of the heatmap overlay: one scene item draws every text, outline and the colour bar."""
import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsObject

from ..crash import guarded
from . import theme


class Overlay(QGraphicsObject):
    """Every text, the outlines, the current cell and the colour bar, in scene (= widget) pixels."""

    def __init__(self, owner):
        super().__init__()
        self.owner = owner
        self.setZValue(1000)
        self.setAcceptedMouseButtons(Qt.NoButton)

    @guarded
    def boundingRect(self):
        return QRectF(0, 0, self.owner.width(), self.owner.height())

    @guarded
    def paint(self, p, *args):
        paint(self.owner, p)


def paint(hm, p):
    """Outlines, the current cell, the matrix edge, the colour bar and every planned text."""
    lay = hm.text_layout()
    c = theme.colors(hm.palette())
    focused = hm.hasFocus() and not hm.property("kmetric_exporting")
    if hm.nr:
        m = lay.m
        p.save()
        p.setClipRect(m)
        if hm.outline is not None and min(lay.cw, lay.ch) >= 8:   # outlines would swamp tiny cells
            pen = QPen(theme.OUTLINE)
            pen.setWidthF(2.0)
            p.setPen(pen)
            p.setBrush(Qt.NoBrush)
            for i, j in zip(*np.nonzero(hm.outline)):
                p.drawRect(hm.cell_rect(i, j).adjusted(1, 1, -1, -1))
        if hm.current is not None and focused:
            r = hm.cell_rect(*hm.current)
            for color, width, inset in ((c["highlight"], 3.0, 1.5), (c["background"], 1.0, 3.5)):
                pen = QPen(color)
                pen.setWidthF(width)
                p.setPen(pen)
                p.drawRect(r.adjusted(inset, inset, -inset, -inset))
        p.restore()
        p.setPen(c["grid"])
        p.setBrush(Qt.NoBrush)
        p.drawRect(m)                  # the matrix edge, also where low cells meet the background
        if lay.scale_ticks:
            bar = lay.bar_rect()
            p.fillRect(bar, theme.colormap(hm.diverging, hm.palette()).getGradient(
                QPointF(0, bar.bottom()), QPointF(0, bar.top())))
            p.setPen(c["muted"])
            p.drawRect(bar)
    for t in lay.texts:
        p.setFont(t.font)
        if t.kind == "cell":
            p.setPen(theme.contrast(hm.cell_colors[t.cell]))
        else:
            p.setPen(c["muted"] if t.kind in ("axis", "scale") else c["text"])
        if t.rotated:
            path = QPainterPath()        # reads upwards, the same in PNG and SVG exports
            path.addText(0, QFontMetricsF(t.font).ascent(), t.font, t.text)
            p.save()
            p.translate(t.rect.left(), t.rect.bottom())
            p.rotate(-90)
            p.setRenderHint(QPainter.Antialiasing)
            p.fillPath(path, p.pen().color())
            p.restore()
        else:
            p.drawText(t.rect, Qt.AlignCenter | Qt.TextDontClip, t.text)
    if focused:
        pen = QPen(c["highlight"])
        pen.setWidthF(2.0)
        p.setPen(pen)
        p.setBrush(Qt.NoBrush)
        p.drawRect(QRectF(1, 1, hm.width() - 2, hm.height() - 2))
