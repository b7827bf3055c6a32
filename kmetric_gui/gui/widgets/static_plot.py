"""A plain plot for pictures (the report): no mouse, no buttons, scores as scores."""
import pyqtgraph as pg

SIZE = (640, 480)         # logical pixels of a plot; PNG at 2x
BLUE, ORANGE, RED, GREEN = (31, 119, 180), (255, 127, 14), (200, 30, 30), (26, 152, 80)


def static_plot(title, left="", bottom=""):
    p = pg.PlotWidget(background="w", title=title, enableMenu=False)   # a picture: no menu
    p.setMouseEnabled(False, False)
    p.hideButtons()
    for side in ("left", "bottom"):
        p.getAxis(side).enableAutoSIPrefix(False)     # scores read as scores, not "x0.001"
    if left:
        p.setLabel("left", left)
    if bottom:
        p.setLabel("bottom", bottom)
    return p
