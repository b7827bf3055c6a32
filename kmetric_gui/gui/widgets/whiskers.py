"""Interval whiskers on a bar plot (e.g. per-class score bars with their CIs)."""
import numpy as np
import pyqtgraph as pg


def add_whiskers(plot, x, low, high, *, beam=None, pen=None):
    """Add a pg.ErrorBarItem spanning ``low``..``high`` at each ``x``.

    plot: a PlotWidget or PlotItem. Bars whose interval is undefined (nan)
    get no whisker. The whisker spans the interval itself (a percentile
    interval need not be centred on the bar's value). ``beam``: width of the
    caps in x units (default: a third of the smallest gap between bars).
    Returns the item, or None when no bar has a defined interval.
    """
    x, low, high = (np.asarray(a, dtype=np.float64).ravel() for a in (x, low, high))
    ok = np.isfinite(x) & np.isfinite(low) & np.isfinite(high)
    if not ok.any():
        return None
    x, low, high = x[ok], low[ok], high[ok]
    if beam is None:
        gaps = np.diff(np.sort(x))
        gaps = gaps[gaps > 0]
        beam = float(gaps.min()) / 3 if gaps.size else 0.3
    item = pg.ErrorBarItem(x=x, y=(low + high) / 2, height=np.abs(high - low), beam=beam,
                           pen=pen if pen is not None else pg.mkPen((40, 40, 40), width=1.5))
    plot.addItem(item)
    return item
