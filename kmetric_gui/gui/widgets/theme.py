"""Colours that follow the system's light or dark palette (plots, heatmaps, exports)."""
import pyqtgraph as pg
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

# Light: white (little) to dark blue (much). Dark: near the dark background (little) to pale blue.
SEQUENTIAL = {False: pg.ColorMap([0.0, 0.5, 1.0], [(247, 251, 255), (107, 174, 214), (8, 48, 107)]),
              True: pg.ColorMap([0.0, 0.5, 1.0], [(28, 36, 48), (40, 110, 170), (190, 220, 250)])}
DIVERGING = {False: pg.ColorMap([0.0, 0.5, 1.0], [(178, 24, 43), (247, 247, 247), (33, 102, 172)]),
             True: pg.ColorMap([0.0, 0.5, 1.0], [(230, 100, 90), (45, 45, 48), (90, 160, 230)])}
OUTLINE = QColor(230, 40, 40)


def palette(widget=None):
    return widget.palette() if widget is not None else QApplication.palette()


def is_dark(pal=None):
    pal = pal or palette()
    return pal.color(QPalette.Window).lightness() < 128


def colors(pal=None):
    """Background, text, muted text and grid colours from the palette."""
    pal = pal or palette()
    bg, fg = pal.color(QPalette.Base), pal.color(QPalette.Text)
    muted = QColor(fg)
    muted.setAlphaF(0.7)
    grid = QColor(fg)
    grid.setAlphaF(0.25)
    return {"background": bg, "text": fg, "muted": muted, "grid": grid,
            "highlight": pal.color(QPalette.Highlight)}


def colormap(diverging, pal=None):
    return (DIVERGING if diverging else SEQUENTIAL)[is_dark(pal)]


def contrast(rgb):
    """Black or white text, whichever reads better on this cell colour."""
    r, g, b = (int(x) for x in rgb[:3])
    return QColor(0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else QColor(255, 255, 255)


def style_plot(plot, pal=None):
    """Give a pyqtgraph PlotWidget the palette's background, axis and title colours."""
    c = colors(pal or plot.palette())
    plot.setBackground(c["background"])
    item = plot.getPlotItem()
    for name in ("left", "bottom", "right", "top"):
        axis = item.getAxis(name)
        axis.setPen(c["muted"])
        axis.setTextPen(c["text"])
    title = item.titleLabel
    if title.text:
        title.setText(title.text, color=c["text"].name())
