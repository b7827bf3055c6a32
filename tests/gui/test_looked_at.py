"""What a new user met going through each family's demo at 1280x720 (issue 34): the page
a demo lands on, and texts on the Compare pages that were cut or ran together."""
import pytest

from conftest import wait_scored


def test_a_second_demo_lands_on_its_anatomy_not_on_fix_first(qtbot, window):
    """Reading qwk's anatomy, then opening the lwlrap demo: hiding qwk's page moved the tab
    widget to the next tab (Fix first) before the new anatomy was chosen."""
    with qtbot.waitSignal(window.controller.fixes_ready, timeout=30000):
        wait_scored(qtbot, window, lambda: window.open_demo("qwk"))
    tabs = window.tabs
    assert tabs.fixes is not None
    tabs.setCurrentWidget(tabs.view("qwk"))
    wait_scored(qtbot, window, lambda: window.open_demo("lwlrap"))
    assert tabs.currentWidget() is tabs.view("lwlrap")
    tabs.setCurrentWidget(tabs.fixes)        # Fix first open: the next files keep it
    wait_scored(qtbot, window, lambda: window.open_demo("auc"))
    assert tabs.currentWidget() is tabs.fixes


def _compared(qtbot, window, metric):
    from kmetric_gui.gui.file_actions import demo_paths
    window.fit_to((1280, 720))
    wait_scored(qtbot, window, lambda: window.open_demo(metric))
    other = demo_paths(metric)[1].replace("_submission.csv", "_submission_b.csv")
    with qtbot.waitSignal(window.session.compare_changed, timeout=60000,
                          check_params_cb=lambda res: res is not None and res.comparison is not None):
        window.controller.compare_jobs.add([other])
    window.tabs.setCurrentWidget(window.tabs.compare)
    return window.tabs.compare.view


def _axis_texts(axis):
    from PySide6.QtGui import QImage, QPainter
    img = QImage(10, 10, QImage.Format_ARGB32)
    painter = QPainter(img)
    try:
        return [(r, t) for r, _, t in axis.generateDrawSpecs(painter)[2]]
    finally:
        painter.end()


def _label_fits(plot):
    """The rotated left label is no longer than its axis is tall (pyqtgraph cuts it)."""
    axis = plot.getAxis("left")
    return axis.label.boundingRect().width() <= axis.geometry().height()


def test_compare_plots_say_their_labels_whole_at_1280x720(qtbot, window):
    """lwlrap's per-class Δ bars: the class names ran together ('MeowWalk_and_footsteps'),
    the left label read 'per-class lwlrap, B − ,'; the blend curve's 'score of the blen'."""
    v = _compared(qtbot, window, "lwlrap")
    v.tabs.setCurrentWidget(v.differ_page)
    qtbot.wait(300)
    n = len(v.cmp.submissions[0].report.prepared.classes)
    texts = _axis_texts(v.bar_plot.getAxis("bottom"))
    assert len(texts) == n, [t for _, t in texts]                   # every class named
    rects = sorted((r.left(), r.right()) for r, _ in texts)
    assert all(a[1] <= b[0] for a, b in zip(rects, rects[1:])), rects  # none overlap
    assert _label_fits(v.bar_plot)
    v.tabs.setCurrentWidget(v.blend_page)
    qtbot.wait(300)
    assert v.blend_plot.isVisible() and _label_fits(v.blend_plot)


def _open_fix_first(qtbot, window, metric):
    window.fit_to((1280, 720))
    with qtbot.waitSignal(window.controller.fixes_ready, timeout=30000):
        wait_scored(qtbot, window, lambda: window.open_demo(metric))
    window.tabs.setCurrentWidget(window.tabs.fixes)
    qtbot.wait(300)
    return window.tabs.fixes


def test_fix_first_without_an_optimiser_has_no_empty_pane(qtbot, window):
    """RMSE has nothing to check on held-out rows: an empty grey pane took a third of the
    page and left the curve so short that its scores ran into each other ('8 6 4 2 0')."""
    page = _open_fix_first(qtbot, window, "rmse")
    assert not page.honest_button.isVisible()
    lower = page.split.widget(1)
    assert not lower.isVisible()
    texts = _axis_texts(page.panel.plot.getAxis("left"))
    assert len(texts) >= 2
    rects = sorted((r.top(), r.bottom()) for r, _ in texts)
    assert all(a[1] <= b[0] for a, b in zip(rects, rects[1:])), rects   # none overlap
    page = _open_fix_first(qtbot, window, "qwk")        # qwk's cut points: the check is there
    assert page.honest_button.isVisible() and page.split.widget(1).isVisible()


def test_a_smape_cell_edit_rescored_not_stopped(qtbot, window):
    """Typing a prediction into the SMAPE demo: the score said 'Out of date ... stopped'
    and the anatomy went (the rescoring raised: SMAPE's result has no column scores)."""
    from conftest import column, prep, set_cell
    from kmetric_gui.metrics import get_metric
    from kmetric_gui.metrics.base import split_rows
    from kmetric_gui.metrics.references import same
    wait_scored(qtbot, window, lambda: window.open_demo("smape"))
    c = column(window, "pred")
    rep = wait_scored(qtbot, window, lambda: set_cell(window, 0, c, "58.55"))
    p = prep(window)
    assert p.pred[window.table_panel.model.rows[0]] == 58.55
    metric = get_metric("smape")
    assert same(rep.score, metric.reference(p, window.session.options))
    for name, res in rep.splits.items():
        assert same(res.score, metric.reference(p, window.session.options, split_rows(p.usage, name)))
    assert window.tabs.isVisible()


def _cut_texts(widget):
    """Titles and axis labels of the plots shown in ``widget`` that stick out of their
    plot (cut there: 'Average precision per que', 'prediction − truth (standard score')."""
    import pyqtgraph as pg
    cut = []
    for plot in widget.findChildren(pg.PlotWidget):
        if not plot.isVisible():
            continue
        shown = plot.mapToScene(plot.viewport().rect()).boundingRect().adjusted(-1, -1, 1, 1)
        item = plot.getPlotItem()
        texts = [("title", item.titleLabel.text, item.titleLabel.item)] if \
            item.titleLabel.isVisible() and item.titleLabel.text else []
        for side in ("left", "bottom"):
            axis = item.getAxis(side)
            if axis.isVisible() and axis.labelText and axis.label.isVisible():
                texts.append((side, axis.labelText, axis.label))
        for where, text, it in texts:     # along its reading direction
            r = it.sceneBoundingRect()
            if where == "left" and (r.top() < shown.top() or r.bottom() > shown.bottom()) or \
                    where != "left" and (r.left() < shown.left() or r.right() > shown.right()):
                cut.append((where, text))
    return cut


def _demos():
    from kmetric_gui.gui.views import demos
    return [name for name, _ in demos()]


@pytest.mark.parametrize("metric", _demos())
def test_each_anatomy_says_its_plot_titles_and_labels_whole_at_1280x720(qtbot, window, metric):
    window.fit_to((1280, 720))
    wait_scored(qtbot, window, lambda: window.open_demo(metric))
    view = window.tabs.currentWidget()
    assert view is window.tabs.view(metric)
    qtbot.wait(300)
    assert _cut_texts(view) == []
