"""The held-out check's words are all shown at 1280x720 (they stopped after the third
line, under the Fix first list, seen under Xvfb, issue 24)."""
import csv
import random

from conftest import wait_scored


def _continuous(tmp_path):
    from kmetric_gui.gui.main_window import demo_paths
    sol, sub = demo_paths("qwk")
    rng = random.Random(1)
    with open(sub, newline="") as f:
        rows = list(csv.reader(f))
    out = tmp_path / "cont.csv"
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(rows[0])
        for r in rows[1:]:
            w.writerow([r[0], round(min(4.4, max(-0.4, int(r[1]) + rng.gauss(0, 0.45))), 3)])
    return sol, str(out)


def test_the_held_out_check_text_is_not_cut_at_1280x720(qtbot, window, tmp_path):
    window.fit_to((1280, 720))
    wait_scored(qtbot, window, lambda: window.open_files(*_continuous(tmp_path)))
    qtbot.waitUntil(lambda: getattr(window.tabs, "fixes", None) is not None, timeout=30000)
    page = window.tabs.fixes
    window.tabs.setCurrentWidget(page)
    qtbot.waitUntil(lambda: page.honest_button.isVisible(), timeout=30000)
    page.honest_button.click()
    qtbot.waitUntil(lambda: "held-out" in page.honest_text.text(), timeout=60000)
    qtbot.wait(50)
    label = page.honest_text
    assert label.text().count("<br>") >= 4                     # several lines to show
    assert label.height() >= label.heightForWidth(label.width())   # laid out whole
    scroll = page.honest_scroll
    bar = scroll.verticalScrollBar()
    # every line shown, or reachable by the scroll bar
    assert scroll.viewport().height() + bar.maximum() >= label.height()
    assert bar.maximum() == 0 or bar.isVisible()
    assert scroll.viewport().height() >= 3 * label.fontMetrics().lineSpacing()


def test_held_out_curves_legends_leave_the_curves_clear(qtbot, window):
    """At 1920x1080 'all (95% band)', 'half 1', 'half 2' sat on the threshold curves."""
    from PySide6.QtCore import QPointF

    from conftest import open_view
    window.fit_to((1920, 1080))
    open_view(qtbot, window, "fbeta")
    qtbot.waitUntil(lambda: getattr(window.tabs, "fixes", None) is not None, timeout=30000)
    page = window.tabs.fixes
    window.tabs.setCurrentWidget(page)
    qtbot.waitUntil(lambda: page.honest_button.isVisible(), timeout=30000)
    page.honest_button.click()
    qtbot.waitUntil(lambda: page.curves.isVisible() and page.curves.threshold is not None,
                    timeout=120000)
    qtbot.wait(300)
    for plot in (page.curves.threshold.getPlotItem(), page.curves.beta.getPlotItem()):
        legend = plot.legend.sceneBoundingRect()
        covered = 0
        for item in plot.listDataItems():
            xs, ys = item.getData()
            for a, b in zip(xs, ys):
                if legend.contains(plot.vb.mapViewToScene(QPointF(float(a), float(b)))):
                    covered += 1
        assert covered == 0, plot.titleLabel.text


def test_the_held_out_text_leaves_the_list_its_half(qtbot, window, tmp_path):
    """Given all the room its words asked at 1280x720, the list's curve lost its axis
    title; the words scroll instead."""
    window.fit_to((1024, 700))       # the summary above the list wraps to 3 lines
    wait_scored(qtbot, window, lambda: window.open_files(*_continuous(tmp_path)))
    qtbot.waitUntil(lambda: getattr(window.tabs, "fixes", None) is not None, timeout=30000)
    page = window.tabs.fixes
    window.tabs.setCurrentWidget(page)
    qtbot.wait(50)

    class Long:                 # a check with many lines of words
        curve = None

        @staticmethod
        def lines():
            return ["honest cut points"] + [f"line {k} of what the check found" for k in range(30)]
    page.show_honest(Long())
    qtbot.wait(50)
    upper, lower = page.split.sizes()
    assert upper >= lower > 0
    plot = page.panel.plot
    assert plot.height() >= plot.minimumHeight()    # not squeezed under the list's header
    assert page.honest_scroll.verticalScrollBar().maximum() > 0     # the rest scrolls
