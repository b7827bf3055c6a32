"""Shake-up panel and interval whiskers: what they draw equals the numbers given."""
import os

import numpy as np
import pyqtgraph as pg
import pytest

from kmetric_gui.metrics.kernels import weighted_kappa
from kmetric_gui.core.shakeup import Shakeup, shakeup
from kmetric_gui.metrics.kernels.units import kappa_units
from kmetric_gui.gui.widgets.shakeup_panel import ShakeupPanel, histogram
from kmetric_gui.gui.widgets.whiskers import add_whiskers


def _shakeup(actual=0.02):
    rng = np.random.default_rng(0)
    t = rng.integers(0, 5, 600)
    p = np.clip(t + rng.integers(-1, 2, 600), 0, 4)
    return shakeup(kappa_units(weighted_kappa(t, p)), 178 / 600, 2000, seed=0, actual_gap=actual)


def test_histogram_counts_every_defined_gap():
    gaps = np.array([0.1, -0.2, np.nan, 0.3, 0.3, np.inf])
    edges, counts = histogram(gaps, bins=5)
    assert counts.sum() == 4 and edges[0] == -0.2 and edges[-1] == 0.3
    edges, counts = histogram([0.5, 0.5])          # no spread: one narrow bin range, no crash
    assert counts.sum() == 2
    assert histogram([np.nan])[1].size == 0


def test_panel_draws_the_shakeup(qtbot):
    panel = ShakeupPanel()
    qtbot.addWidget(panel)
    sh = _shakeup()
    panel.show_shakeup(sh)
    heights = panel.bars.opts["height"]
    assert heights.sum() == sh.splits - sh.undefined
    assert panel.actual_line.value() == pytest.approx(sh.actual_gap)
    s = sh.summary()
    text = panel.summary.text()
    assert f"{s['mean']:+.4f}" in text and f"{s['p05']:+.4f}" in text and f"{s['p95']:+.4f}" in text
    assert f"{sh.actual_percentile:.1f}" in text
    assert "178 of 600 rows" in panel.title.text() and "2,000 random splits" in panel.title.text()
    panel.clear()
    assert panel.bars is None and panel.summary.text() == ""


def test_panel_without_actual_gap_and_with_undefined_splits(qtbot):
    panel = ShakeupPanel()
    qtbot.addWidget(panel)
    sh = Shakeup(np.array([0.5, np.nan, 0.4, 0.6]), np.array([0.55, 0.5, np.nan, 0.5]), 0.5, 2, 4, 3)
    panel.show_shakeup(sh)
    assert panel.actual_line is None
    assert "actual gap is unknown" in panel.summary.text()
    assert "2 split(s) had an undefined score" in panel.summary.text()
    assert panel.bars.opts["height"].sum() == 2
    every = Shakeup(np.full(3, np.nan), np.zeros(3), 0.5, 1, 2, 0)
    panel.show_shakeup(every)
    assert panel.bars is None and "undefined" in panel.summary.text()


def test_whiskers_span_the_intervals_and_skip_undefined(qtbot):
    w = pg.PlotWidget()
    qtbot.addWidget(w)
    x = np.arange(4.0)
    w.addItem(pg.BarGraphItem(x=x, height=[0.5, 0.7, 0.2, 0.9], width=0.8))
    low = np.array([0.4, 0.6, np.nan, 0.85])
    high = np.array([0.62, 0.75, 0.3, 0.95])
    item = add_whiskers(w, x, low, high)
    assert item in w.getPlotItem().items
    np.testing.assert_allclose(item.opts["x"], [0, 1, 3])
    np.testing.assert_allclose(item.opts["y"] - item.opts["height"] / 2, [0.4, 0.6, 0.85])
    np.testing.assert_allclose(item.opts["y"] + item.opts["height"] / 2, [0.62, 0.75, 0.95])
    assert item.opts["beam"] == pytest.approx(1 / 3)
    assert add_whiskers(w, [0.0], [np.nan], [np.nan]) is None


def test_screenshot_at_1280x720(qtbot, tmp_path):
    """Renders in a 1280x720 parent (set KMETRIC_SHOTS=DIR to keep the PNG)."""
    from PySide6.QtWidgets import QHBoxLayout, QWidget
    parent = QWidget()
    qtbot.addWidget(parent)
    parent.resize(1280, 720)
    lay = QHBoxLayout(parent)
    panel = ShakeupPanel()
    panel.show_shakeup(_shakeup(actual=-0.0084))
    bars = pg.PlotWidget(background="w", title="per class with 95% CI")
    x = np.arange(8.0)
    h = np.linspace(0.55, 0.85, 8)
    bars.addItem(pg.BarGraphItem(x=x, height=h, width=0.8, brush=(120, 170, 120)))
    add_whiskers(bars, x, h - 0.08, h + 0.07)
    lay.addWidget(panel, 3)
    lay.addWidget(bars, 2)
    parent.show()
    qtbot.waitExposed(parent)
    img = parent.grab().toImage()
    assert (img.width(), img.height()) == (1280, 720)
    out = os.environ.get("KMETRIC_SHOTS", str(tmp_path))
    assert img.save(os.path.join(out, "shakeup_panel.png"))


def test_a_short_shakeup_dock_scrolls_and_never_overprints(qtbot, window):
    """At 1280x720 with the Metric file dock open the Shake-up dock got ~186 px: its summary
    was drawn over the chart (the dock's content was laid out below its minimum)."""
    from PySide6.QtCore import Qt
    from kmetric_gui.gui.main_window import demo_paths
    window.fit_to((1280, 720))
    with qtbot.waitSignal(window.scored, timeout=30000):
        window.open_files(*demo_paths("qwk"))
    panel = window.shakeup
    qtbot.waitUntil(lambda: panel.summary.text() != "", timeout=30000)
    dock = window.docks[2]
    dock.show()
    dock.raise_()
    window.resizeDocks([window.docks[0], dock], [720, 186], Qt.Vertical)
    qtbot.waitUntil(lambda: dock.height() < 260, timeout=5000)
    qtbot.wait(100)
    parts = [panel.title.geometry(), panel.plot.geometry(), panel.summary.geometry()]
    for upper, lower in zip(parts, parts[1:]):
        assert upper.bottom() < lower.top()
