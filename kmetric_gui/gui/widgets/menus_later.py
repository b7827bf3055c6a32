"""Plots get their right-click menu a turn after they are made.

pyqtgraph builds a view box's menu (a dozen widgets) when the box is made: 10-25 ms of
the UI thread each, and a view that shows after a file is scored makes several at once,
in the same turn as its first drawing. Made with ``enableMenu=False`` and handed to
``later``, the plot is drawn first and the menus follow, one per turn of the event loop,
before a user can reach for one.
"""
from collections import deque

from PySide6.QtCore import QTimer

_due = deque()


def later(item):
    """``item``: a PlotWidget or a ViewBox made with ``enableMenu=False``."""
    _due.append(item)
    if len(_due) == 1:
        QTimer.singleShot(0, _next)


def _next():
    if not _due:
        return
    item = _due.popleft()
    try:
        target = item.getPlotItem() if hasattr(item, "getPlotItem") else item
        target.setMenuEnabled(True)
    except RuntimeError:              # the plot was deleted before its turn
        pass
    if _due:
        QTimer.singleShot(0, _next)


def pending():
    """How many plots still wait for their menu (tests)."""
    return len(_due)
