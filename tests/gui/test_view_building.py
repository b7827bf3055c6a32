"""What opening files builds on the UI thread (counted, not timed): a heatmap is a
bare ViewBox, charts of tabs nobody has looked at are made when first shown, and a
view is made once and reused for the next files."""
import pyqtgraph as pg
from PySide6.QtGui import QImage

from conftest import wait_scored
from kmetric_gui.gui.file_actions import demo_paths
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


def _plots(view):
    return view.findChildren(pg.PlotWidget)


def test_kappa_charts_of_hidden_tabs_are_made_when_first_shown(qtbot, window, tmp_path):
    from test_defects import _kappa_files
    rep = wait_scored(qtbot, window, lambda: window.open_files(*_kappa_files(tmp_path, "c", 4,
                                                                              continuous=True)))
    view = window.tabs.view("qwk")
    qtbot.waitUntil(lambda: view.cuts.drawn is not None, timeout=10000)
    assert _plots(view) == []            # Matrices shown: no chart of Balance or Cut points yet
    view.tabs.setCurrentWidget(view.balance_page)
    assert len(_plots(view)) == 2 and view._balance.isVisible() and view._cost.isVisible()
    # drawn from the data at once: the truth bars are the truth's class counts
    bars = [i for i in view.balance.getPlotItem().items if isinstance(i, pg.BarGraphItem)]
    assert list(bars[0].opts["height"]) == list(rep.result.hist_true)
    view.tabs.setCurrentWidget(view.cuts)
    assert len(_plots(view)) == 3 and view.cuts.dist.isVisible()
    curves = [i for i in view.cuts.dist.getPlotItem().items if isinstance(i, pg.PlotDataItem)]
    assert sum(c.yData.sum() for c in curves) == rep.n_rows      # every row in one histogram bin


def test_kappa_chart_never_shown_still_exports(qtbot, window, tmp_path):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    view = window.tabs.view("qwk")
    assert "class balance" in view.export.available_titles()
    path = tmp_path / "balance.png"
    assert view.export.save_png(view.balance, "class balance", path=str(path))
    img = QImage(str(path))
    assert img.width() > 100 and img.height() > 100
    bars = [i for i in view.balance.getPlotItem().items if isinstance(i, pg.BarGraphItem)]
    assert len(bars) == 2


def test_views_are_made_once_and_reused_for_new_files(qtbot, window, tmp_path):
    from test_defects import _kappa_files
    wait_scored(qtbot, window, lambda: window.open_files(*_kappa_files(tmp_path, "k3", 3)))
    view = window.tabs.view("qwk")
    maps = dict(view.maps)
    n_heatmaps = len(view.findChildren(Heatmap))
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    assert window.tabs.view("qwk") is view and view.maps == maps
    assert len(view.findChildren(Heatmap)) == n_heatmaps


def test_status_progress_is_shown_once_per_open_not_once_per_job(qtbot, window):
    from PySide6.QtCore import QEvent, QObject
    bar = window.status_progress.bar

    class Count(QObject):
        shows = hides = 0

        def eventFilter(self, obj, event):
            if event.type() == QEvent.Show:
                self.shows += 1
            elif event.type() == QEvent.Hide:
                self.hides += 1
            return False
    count = Count()
    bar.installEventFilter(count)
    jobs = []
    window.jobs.delivered.connect(jobs.append)
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("lwlrap")))
    qtbot.waitUntil(lambda: not window.jobs.busy and not bar.isVisible(), timeout=20000)
    assert len(jobs) > 3                      # an open runs several jobs, one after another ...
    assert (count.shows, count.hides) == (1, 1)   # ... under one showing of the progress bar


def test_lwlrap_ranking_chart_is_made_when_the_samples_tab_is_first_shown(qtbot, window):
    import numpy as np
    view = window.tabs.view("lwlrap")
    with qtbot.waitSignal(window.jobs.delivered, timeout=20000,
                          check_params_cb=lambda kind: kind == "lwlrap-samples"):
        wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("lwlrap")))
    assert view.current_sample is not None          # the worst sample is picked ...
    assert _plots(view) == [view.class_plot]        # ... but its chart waits for its tab
    view.tabs.setCurrentWidget(view.samples_page)
    assert len(_plots(view)) == 2 and view.rank_plot.isVisible()
    i = view.current_sample
    scores = view.prep.pred[i]
    bars = [it for it in view.rank_plot.getPlotItem().items if isinstance(it, pg.BarGraphItem)]
    want = np.sort(scores)[::-1][:25]                # classes by score, highest first
    np.testing.assert_allclose(np.sort(bars[0].opts["height"])[::-1], want)


def test_fix_first_curve_charts_wait_for_a_curve(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("fbeta")))
    qtbot.waitUntil(lambda: getattr(window.tabs, "fixes", None) is not None, timeout=20000)
    page = window.tabs.fixes
    assert page.curves.findChildren(pg.PlotWidget) == []
