"""A bottom axis whose category names never run together: each is cut (…) to the
room between neighbouring ticks (one unit apart); the whole names go in a tooltip."""
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF

GAP = 6          # px between neighbouring names


class ElidingAxis(pg.AxisItem):
    _full = None

    def setTicks(self, ticks):
        self._full = ticks
        super().setTicks(ticks)

    def generateDrawSpecs(self, p):
        if self._full and self.orientation in ("bottom", "top"):
            span = abs(self.range[1] - self.range[0]) or 1.0
            room = self.geometry().width() / span - GAP      # px per unit, less the gap
            fm = QFontMetricsF(self.style["tickFont"] or p.font())
            # Cut before pyqtgraph places them: it drops a name that sticks out at an end.
            self._tickLevels = [[(v, fm.elidedText(str(t), Qt.ElideRight, max(room, 8.0)))
                                 for v, t in level] for level in self._full]
        return super().generateDrawSpecs(p)
