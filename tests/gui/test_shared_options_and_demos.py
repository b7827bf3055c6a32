"""A metric whose options another metric declares first still shows them (NDCG's k, the
KL divergence's eps): before, the one widget stayed in the first metric's hidden group
and the chosen metric's group was empty. The welcome page's demo buttons stay within the
window at 1280 px however many demos there are."""
from kmetric_gui import metrics
from kmetric_gui.gui.widgets.options_panel import OptionsPanel
from kmetric_gui.gui.widgets.welcome import columns_that_fit


def test_a_shared_option_shows_in_the_group_in_use(qtbot):
    p = OptionsPanel()
    qtbot.addWidget(p)
    p.show()
    for metric, first, option in (("ndcg", "mapk", "k"), ("kl_divergence", "logloss", "eps")):
        assert option in [o.name for o in metrics.get_metric(metric).options]
        p.show_metric(metric)
        w = p.option_widgets[option]
        assert w.isVisible() and p.metric_boxes[metric].isAncestorOf(w)
        p.show_metric(first)                  # and back to the metric that declared it first
        assert w.isVisible() and p.metric_boxes[first].isAncestorOf(w)
        assert not p.metric_boxes[metric].isVisible()
    p.show_metric(None)                       # auto: every group, each widget once
    assert all(b.isVisible() for b in p.metric_boxes.values())


def test_demo_buttons_a_row_fit_the_width():
    assert columns_that_fit([100] * 25) == 4
    assert columns_that_fit([200] * 25) == 2                 # 4 x 200 and 3 x 200 exceed 560
    assert columns_that_fit([150, 150, 250] * 8) == 3         # 150 + 150 + 250 fits
    assert columns_that_fit([150, 150, 150, 300] * 6) == 2    # with 3 a row, 300 in every column
    assert columns_that_fit([900]) == 1
