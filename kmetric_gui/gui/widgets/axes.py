"""A bottom axis whose category names never run together: each is cut (…) to the
room between its tick and its neighbours; the whole names go in a tooltip."""
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
            lo, hi = sorted(self.range)
            px = self.geometry().width() / ((hi - lo) or 1.0)       # px per unit
            fm = QFontMetricsF(self.style["tickFont"] or p.font())
            # Cut before pyqtgraph places them: it drops a name that sticks out at an end.
            self._tickLevels = [self._cut(level, lo, hi, px, fm) for level in self._full]
        return super().generateDrawSpecs(p)

    @staticmethod
    def _cut(level, lo, hi, px, fm):
        values = sorted(v for v, _ in level)
        n, out = len(values), []
        for v, text in level:
            k = values.index(v)
            left = values[k] - values[k - 1] if k > 0 else 2 * (v - lo)
            right = values[k + 1] - values[k] if k < n - 1 else 2 * (hi - v)
            room = max(min(left, right) * px - GAP, 8.0)
            out.append((v, fm.elidedText(str(text), Qt.ElideRight, room)))
        return out


def relabel(plot, side, text):
    """A new label for a plot already laid out, centred on its axis: pyqtgraph places the
    label only when the axis resizes, so a longer text kept the old one's place and ran
    off the plot ('Laplace log likelihoo' at 1280x720)."""
    plot.setLabel(side, text)
    plot.getAxis(side).resizeEvent()
