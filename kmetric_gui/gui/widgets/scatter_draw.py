"""Truth against prediction, drawn the same way by the residual and correlation views:
every row as a point when few, else a density image; a dashed reference line; and the
histogram of the differences with a dashed line at zero."""
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt

from .theme import SEQUENTIAL, is_dark

DASHED = dict(width=1.5, style=Qt.DashLine)
BLUE, RED = (31, 119, 180), (214, 39, 40)


def points_or_density(p, density, spans, x=None, y=None):
    """``density`` (bins x bins, or None: the points ``x``, ``y``) over ``spans``
    ((x0, x1), (y0, y1)). The plot is cleared first."""
    p.clear()
    (x0, x1), (y0, y1) = spans
    if density is not None:
        d = np.log1p(density.T)
        # Every occupied cell visible (the map's pale end skipped), empty cells clear.
        rgba = SEQUENTIAL[is_dark()].map(0.25 + 0.75 * d / max(float(d.max()), 1e-12),
                                         mode="byte").reshape(d.shape + (4,))
        rgba[..., 3] = np.where(d > 0, 255, 0)
        img = pg.ImageItem(rgba, axisOrder="row-major")
        img.setRect(QRectF(x0, y0, x1 - x0, y1 - y0))
        p.addItem(img)
    else:
        p.addItem(pg.ScatterPlotItem(x, y, size=4, pen=None, brush=pg.mkBrush(*BLUE, 110)))


def line(p, x, y, spans):
    """The dashed reference line through ``x``, ``y``, and the view on ``spans``."""
    (x0, x1), (y0, y1) = spans
    p.plot(x, y, pen=pg.mkPen(RED, **DASHED))
    p.setXRange(x0, x1, padding=0.03)
    p.setYRange(y0, y1, padding=0.03)


def histogram(p, hist):
    """``hist``: (counts, edges) of the differences."""
    p.clear()
    counts, edges = hist
    if counts.size:
        p.addItem(pg.BarGraphItem(x0=edges[:-1], x1=edges[1:], height=counts,
                                  brush=BLUE, pen=pg.mkPen((255, 255, 255, 80))))
        p.addItem(pg.InfiniteLine(pos=0, angle=90, pen=pg.mkPen(RED, **DASHED)))
        p.setYRange(0, float(counts.max()) * 1.08, padding=0)
