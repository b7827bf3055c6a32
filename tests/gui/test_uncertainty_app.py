"""The app's intervals and shake-up equal the CLI's, and follow every edit."""
import json

import numpy as np
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


def wait_fixes(qtbot, window, action):
    with qtbot.waitSignal(window.controller.fixes_ready, timeout=30000) as b:
        action()
    return b.args[0]


@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta"])
def test_fix_first_tab_equals_the_cli(qtbot, window, metric):
    f = wait_fixes(qtbot, window, lambda: window.open_files(*demo_paths(metric)))
    want = cli_top_fixes(metric, 5)
    got = f.top.to_json()[:5]
    assert [x["id"] for x in got] == [x["id"] for x in want]
    assert [x["score_after"] for x in got] == pytest.approx([x["score_after"] for x in want])
    page = window.tabs.fixes
    assert page.panel.model.rowCount() > 0


def cli_top_fixes(metric, n):
    r = subprocess.run([sys.executable, "-m", "kmetric_gui.cli", "score", *demo_paths(metric),
                        "--json", "--top-fixes", str(n)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["top_fixes"]


def test_kappa_gain_map_is_exact(qtbot, window):
    f = wait_fixes(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    view = window.tabs.view("qwk")
    import numpy as np
    from sklearn.metrics import cohen_kappa_score
    p = prep(window)
    m = p.usage != 2
    t, q = p.truth[m].copy(), p.pred[m].copy()
    base = cohen_kappa_score(t, q, weights="quadratic", labels=range(5))
    i, j = np.argwhere((view.gains > 0))[0]          # a cell with a positive gain
    k = np.flatnonzero((t == i) & (q == j))[0]
    q[k] = i                                          # fix one of its rows
    after = cohen_kappa_score(t, q, weights="quadratic", labels=range(5))
    assert view.gains[i, j] == pytest.approx(after - base)
    assert np.allclose(np.nan_to_num(view.gain_map.values), np.nan_to_num(f.gains))


def test_honest_check_says_whether_the_tuned_gain_survives(qtbot, window, tmp_path):
    import numpy as np
    rng = np.random.default_rng(3)
    n = 300
    t = rng.integers(0, 4, n)
    x = np.round(t + rng.normal(0.3, 0.6, n), 3)
    usage = np.where(rng.random(n) < 0.4, "Public", "Private")
    (tmp_path / "sol.csv").write_text("id,y,Usage\n" + "".join(
        f"r{i},{a},{u}\n" for i, (a, u) in enumerate(zip(t, usage))))
    (tmp_path / "sub.csv").write_text("id,y\n" + "".join(f"r{i},{b}\n" for i, b in enumerate(x)))
    wait_fixes(qtbot, window, lambda: window.open_files(tmp_path / "sol.csv", tmp_path / "sub.csv"))
    page = window.tabs.fixes
    assert page.honest_button.isVisibleTo(page)
    with qtbot.waitSignal(window.controller.honest_ready, timeout=60000) as b:
        page.honest_button.click()
    assert b.args[0] is not None
    text = page.honest_text.text()
    assert "honest cut points" in text and "public" in text and "noise" in text


def test_fbeta_gains_and_threshold_curves(qtbot, window):
    f = wait_fixes(qtbot, window, lambda: window.open_files(*demo_paths("fbeta")))
    view = window.tabs.view("fbeta")
    qtbot.waitUntil(lambda: any(c.name == "gain: both" for c in view.docs_model.columns), timeout=10000)
    from reference import fbeta_ref
    p = prep(window)
    i = int(np.argmax(f.gains.both))
    fixed = list(p.pred)
    fixed[i] = list(p.truth[i])                       # its predictions equal its truths
    assert f.gains.both[i] == pytest.approx(fbeta_ref(p.truth, fixed)[0] - f.gains.score)
    page = window.tabs.fixes
    with qtbot.waitSignal(window.controller.honest_ready, timeout=60000):
        page.honest_button.click()
    assert page.curves.isVisibleTo(page)
    assert "threshold" in page.honest_text.text()


def test_shakeup_dock_shows_its_axis_and_summary_without_scrolling(qtbot, window):
    """In a scroll area the chart's 480 px size hint pushed its axis and the summary
    below the fold at 1280x720 and 1920x1080 (found by the tester)."""
    from kmetric_gui.gui.main_window import demo_paths
    window.fit_to((1280, 720))
    wait_stats(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    dock = window.docks[2]
    dock.raise_()
    qtbot.wait(50)
    panel = window.shakeup
    assert panel.shakeup is not None and panel.summary.text()
    assert panel.height() <= dock.height()                   # nothing to scroll to
    assert panel.summary.geometry().bottom() <= panel.height()
    assert panel.plot.height() >= 120
