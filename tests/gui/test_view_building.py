"""What opening files builds on the UI thread (counted, not timed): a heatmap is a
bare ViewBox, charts of tabs nobody has looked at are made when first shown, and a
view is made once and reused for the next files."""
import pyqtgraph as pg

from kmetric_gui.gui.widgets.heatmap import Heatmap


def test_a_heatmap_builds_no_plot_item(qtbot):
    # A PlotItem (axes, buttons, context menu) cost ~8 ms a heatmap; the heatmap draws its own.
    hm = Heatmap("O")
    qtbot.addWidget(hm)
    hm.set_matrix([[1, 2], [3, 4]], integer=True)
    items = hm.plot.scene().items()
    assert not [i for i in items if isinstance(i, (pg.PlotItem, pg.AxisItem))]
    assert not hm.findChildren(pg.PlotWidget)
    assert hm.vb.menu is None          # no right-click menu to build

