"""The app's intervals and shake-up equal the CLI's, and follow every edit."""
import json
import subprocess
import sys

import pytest

from conftest import column, prep, set_cell
from kmetric_gui.gui.main_window import demo_paths


def cli_json(metric, *extra):
    r = subprocess.run([sys.executable, "-m", "kmetric_gui.cli", "score", *demo_paths(metric),
                        "--json", "--ci", "0.95", "--bootstrap", "2000", "--seed", "0",
                        "--shakeup", "--splits", "2000", *extra],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def wait_stats(qtbot, window, action):
    with qtbot.waitSignal(window.session.stats_changed, timeout=30000,
                          check_params_cb=lambda st: st is not None):
        action()
    return window.session.stats


@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta"])
def test_app_intervals_equal_the_cli(qtbot, window, metric):
    st = wait_stats(qtbot, window, lambda: window.open_files(*demo_paths(metric)))
    want = cli_json(metric)
    got = st.stats.to_json()
    for key in ("ci", "public_ci", "private_ci"):
        if key in want:
            assert got[key]["low"] == pytest.approx(want[key]["low"])
            assert got[key]["high"] == pytest.approx(want[key]["high"])
    assert got["shakeup"]["gap_p50"] == pytest.approx(want["shakeup"]["gap_p50"])
    low = f"{want['ci']['low']:.3f}"
    assert low in window.score_panel.interval.text()
    assert window.shakeup.shakeup is not None


def test_intervals_follow_edits_and_settings(qtbot, window):
    st0 = wait_stats(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    c = column(window, "pred")
    src = int(window.table_panel.model.rows[0])
    new = str((int(prep(window).pred[src]) + 2) % 5)
    st1 = wait_stats(qtbot, window, lambda: set_cell(window, 0, c, new))
    assert st1.generation == window.session.generation != st0.generation
    assert st1.stats.intervals["ci"].low != st0.stats.intervals["ci"].low
    st2 = wait_stats(qtbot, window, lambda: window.options_panel.ci_level.setValue(0.8))
    iv = st2.stats.intervals["ci"]
    assert iv.level == pytest.approx(0.8) and iv.high - iv.low < (
        st1.stats.intervals["ci"].high - st1.stats.intervals["ci"].low)


def test_class_whiskers_on_lwlrap_bars(qtbot, window):
    st = wait_stats(qtbot, window, lambda: window.open_files(*demo_paths("lwlrap")))
    view = window.tabs.view("lwlrap")
    qtbot.waitUntil(lambda: getattr(view, "_whiskers", None) is not None, timeout=5000)
    assert set(view.class_intervals) == set(prep(window).classes) == set(st.stats.class_intervals)
