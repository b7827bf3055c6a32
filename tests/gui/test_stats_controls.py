"""Options > Uncertainty: the coverage check button and the row-groups picker.

The check's number is compared with the CLI's path (stats.score_intervals with
coverage_check) on the same data; the short-coverage warning is shown on a
small rare-class kappa where every interval method covers well under 95 %;
Esc, an edit and new settings during the check drop its result. Groups are
checked against grouping.read_groups + stats.analyze (the CLI's --group-column).
"""
import re
import threading
import time

import numpy as np
import pytest

from conftest import column, set_cell, wait_scored
from kmetric_gui.errors import Cancelled


def write_pairs(path, n=200, seed=1):
    """Kappa rows in pairs (one patient, two eyes) with a strongly shared error."""
    rng = np.random.default_rng(seed)
    truth = np.repeat(rng.integers(0, 5, n // 2), 2)
    pred = np.clip(truth + np.repeat(rng.integers(-1, 2, n // 2), 2), 0, 4)
    sol = path / "truth.csv"
    sol.write_text("id,patient,diagnosis\n" + "".join(
        f"r{i},p{i // 2},{t}\n" for i, t in enumerate(truth)))
    sub = path / "sub.csv"
    sub.write_text("id,diagnosis\n" + "".join(f"r{i},{p}\n" for i, p in enumerate(pred)))
    return str(sol), str(sub)


def write_rare_binary(path, n=50):
    """Binary kappa at n = 50 with 3 positives (a 5 % class): intervals cover far below 95 %."""
    truth = np.zeros(n, dtype=int)
    truth[:3] = 1
    pred = np.zeros(n, dtype=int)
    pred[:2] = 1
    pred[10] = 1
    sol, sub = path / "rare_truth.csv", path / "rare_sub.csv"
    sol.write_text("id,label\n" + "".join(f"r{i},{t}\n" for i, t in enumerate(truth)))
    sub.write_text("id,label\n" + "".join(f"r{i},{p}\n" for i, p in enumerate(pred)))
    return str(sol), str(sub)


def stats_ready(qtbot, win):
    qtbot.waitUntil(lambda: win.session.stats is not None, timeout=30000)
    return win.session.stats.stats


def pick_groups(qtbot, win, name):
    combo = win.options_panel.group_column
    qtbot.waitUntil(lambda: combo.findData(name) >= 0, timeout=10000)
    combo.setCurrentIndex(combo.findData(name))


def check_done(qtbot, win, timeout=60000):
    with qtbot.waitSignal(win.jobs.ended, timeout=timeout,
                          check_params_cb=lambda kind, outcome: kind == "coverage"):
        win.options_panel.coverage_button.click()


def measured(text):
    return float(re.search(r"([\d.]+)% of (\d+) datasets", text).group(1)) / 100


def test_the_check_shows_the_measured_coverage_as_the_cli_computes_it(qtbot, window, tmp_path):
    from kmetric_gui.analysis.stats import score_intervals
    sol, sub = write_pairs(tmp_path)
    rep = wait_scored(qtbot, window, lambda: window.open_files(sol, sub))
    stats_ready(qtbot, window)
    check_done(qtbot, window)
    text = window.score_panel.coverage.text()
    ci = window.session.stats_settings[0]
    from dataclasses import replace
    want = score_intervals(rep, replace(ci, coverage_check=200), keys=("ci",))["ci"]
    assert measured(text) == pytest.approx(want.coverage["measured"], abs=1e-9)
    assert "200 datasets" in text
    assert window.options_panel.coverage_button.isEnabled()


def test_rare_class_at_n_50_is_flagged_beside_the_interval(qtbot, window, tmp_path):
    """Where no method reaches the target (binary 5 % at n = 50), the check says so."""
    sol, sub = write_rare_binary(tmp_path)
    combo = window.options_panel.metric_combo       # 0/1 ratings: kappa named (else asked)
    combo.setCurrentIndex(combo.findData("qwk"))
    wait_scored(qtbot, window, lambda: window.open_files(sol, sub))
    stats_ready(qtbot, window)
    check_done(qtbot, window, timeout=120000)
    text = window.score_panel.coverage.text()
    assert "too narrow" in text and measured(text) < 0.93
    assert "b42318" in text                     # red


class SlowCheck:
    """coverage_check that polls cancel (bounded), then gives 0.5 of 200 (no tail widened)."""

    def __init__(self):
        self.started, self.ended, self.ends = threading.Event(), threading.Event(), []

    def __call__(self, units, fn, simulations=200, seed=0, cancel=None, progress=None,
                 widen=True):
        self.started.set()
        try:
            for _ in range(3000):
                if cancel():
                    self.ends.append("cancelled")
                    raise Cancelled("coverage")
                time.sleep(0.002)
            self.ends.append("finished")
            return 0.5, simulations, None
        finally:
            self.ended.set()


@pytest.fixture
def slow_check(monkeypatch):
    import kmetric_gui.analysis.stats as stats
    slow = SlowCheck()
    monkeypatch.setattr(stats, "coverage_check", slow)
    return slow


def started(qtbot, win, slow):
    from kmetric_gui.gui.main_window import demo_paths
    wait_scored(qtbot, win, lambda: win.open_files(*demo_paths("qwk")))
    stats_ready(qtbot, win)
    win.options_panel.coverage_button.click()
    qtbot.waitUntil(slow.started.is_set, timeout=20000)
    assert "running" in win.score_panel.coverage.text()
    assert not win.options_panel.coverage_button.isEnabled()


def test_esc_stops_the_check(qtbot, window, slow_check):
    started(qtbot, window, slow_check)
    window.controller.cancel()                  # Esc
    qtbot.waitUntil(slow_check.ended.is_set, timeout=20000)
    assert slow_check.ends == ["cancelled"]
    assert "not made (stopped)" in window.score_panel.coverage.text()
    assert window.options_panel.coverage_button.isEnabled()
    assert not window.jobs.running("coverage")


def test_an_edit_during_the_check_drops_its_result(qtbot, window, slow_check):
    started(qtbot, window, slow_check)
    c = column(window, "pred")
    new = str((int(window.table_panel.model.data(window.table_panel.model.index(0, c))) + 1) % 5)
    set_cell(window, 0, c, new)
    qtbot.waitUntil(slow_check.ended.is_set, timeout=20000)
    qtbot.waitUntil(lambda: not window.jobs.running("coverage"), timeout=20000)
    stats_ready(qtbot, window)
    assert slow_check.ends == ["cancelled"]
    assert "50.0%" not in window.score_panel.coverage.text()
    assert "running" not in window.score_panel.coverage.text()


def test_new_interval_settings_drop_the_check(qtbot, window, slow_check):
    started(qtbot, window, slow_check)
    window.options_panel.ci_level.setValue(0.9)
    qtbot.waitUntil(slow_check.ended.is_set, timeout=20000)
    assert "50.0%" not in window.score_panel.coverage.text()
    assert "settings changed" in window.score_panel.coverage.text()


def test_group_picker_resamples_whole_groups_as_the_cli(qtbot, window, tmp_path):
    from kmetric_gui.analysis.grouping import read_groups
    from kmetric_gui.analysis.stats import analyze
    sol, sub = write_pairs(tmp_path)
    rep = wait_scored(qtbot, window, lambda: window.open_files(sol, sub))
    rows_ci = stats_ready(qtbot, window).intervals["ci"]
    combo = window.options_panel.group_column
    assert combo.currentData() is None                       # none by default
    names = [combo.itemData(i) for i in range(combo.count())]
    assert names == [None, "patient", "diagnosis"]           # the solution's, not the id
    pick_groups(qtbot, window, "patient")
    qtbot.waitUntil(lambda: window.session.stats is not None
                    and window.session.stats.settings[0].group_column == "patient", timeout=30000)
    st = window.session.stats.stats
    ci, shake = window.session.stats_settings
    want = analyze(rep, ci, shake, groups=read_groups(rep.prepared, truth_path=sol,
                                                      column="patient"))
    assert st.intervals["ci"].groups == 100
    assert (st.intervals["ci"].low, st.intervals["ci"].high) == \
        (want.intervals["ci"].low, want.intervals["ci"].high)
    # pairs share their error: the group interval is wider than the row one
    assert st.intervals["ci"].high - st.intervals["ci"].low > rows_ci.high - rows_ci.low
    assert "100 groups" in window.score_panel.interval.text()
    assert st.shakeup.kind == "group" and st.shakeup.n_units == 100
    qtbot.waitUntil(lambda: "of 100 groups" in window.shakeup.title.text(), timeout=10000)


def test_a_missing_group_column_says_why(qtbot, window, tmp_path):
    sol, sub = write_pairs(tmp_path)
    wait_scored(qtbot, window, lambda: window.open_files(sol, sub))
    stats_ready(qtbot, window)
    window.options_panel.set_group_column("ward")
    combo = window.options_panel.group_column
    assert combo.currentText() == "ward (not in this solution)"
    qtbot.waitUntil(lambda: "no column 'ward'" in window.statusBar().currentMessage(),
                    timeout=30000)


def test_group_column_survives_the_settings(qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from kmetric_gui.gui.main_window import MainWindow
    monkeypatch.setenv("KMETRIC_SETTINGS", str(tmp_path / "s.ini"))
    sol, sub = write_pairs(tmp_path)
    wins = []
    for _ in range(2):
        win = MainWindow()
        win.ask_unsaved = lambda: QMessageBox.Discard
        qtbot.addWidget(win)
        wins.append(win)
        if len(wins) == 1:
            wait_scored(qtbot, win, lambda: win.open_files(sol, sub))
            pick_groups(qtbot, win, "patient")
            win.close()
    assert wins[1].options_panel.group_column.currentData() == "patient"
    assert wins[1].session.stats_settings[0].group_column == "patient"
    wins[1]._discarding = True
    wins[1].jobs.shutdown()


def test_held_out_check_keeps_groups_whole(qtbot, window, tmp_path):
    """Fix first's held-out check with row groups: the app's report is the optimiser's
    with the solution's groups (random halves of whole groups), and it says so."""
    from kmetric_gui.analysis.fixes import scored_rows
    from kmetric_gui.analysis.grouping import read_groups
    from kmetric_gui.metrics.kappa_honest import kappa_honest
    rng = np.random.default_rng(3)
    n = 240
    t = np.repeat(rng.integers(0, 4, n // 2), 2)
    x = np.round(t + np.repeat(rng.normal(0.3, 0.6, n // 2), 2), 3)
    sol, sub = tmp_path / "sol.csv", tmp_path / "sub.csv"
    sol.write_text("id,patient,y\n" + "".join(f"r{i},p{i // 2},{a}\n" for i, a in enumerate(t)))
    sub.write_text("id,y\n" + "".join(f"r{i},{b}\n" for i, b in enumerate(x)))
    rep = wait_scored(qtbot, window, lambda: window.open_files(sol, sub))
    pick_groups(qtbot, window, "patient")
    qtbot.waitUntil(lambda: getattr(window.tabs, "fixes", None) is not None
                    and window.tabs.fixes.honest_button.isVisibleTo(window.tabs.fixes),
                    timeout=30000)
    with qtbot.waitSignal(window.controller.honest_ready, timeout=120000) as b:
        window.tabs.fixes.honest_button.click()
    got = b.args[0]
    want = kappa_honest(rep, scored_rows(rep.prepared), groups=read_groups(
        rep.prepared, truth_path=str(sol), column="patient"))
    assert got.groups == 120 and "random halves of 120 groups" in got.split
    assert [v.se for v in got.verdicts] == [v.se for v in want.verdicts]
    assert np.array_equal(got.spread, want.spread)
    assert "rows in 120 groups" in window.tabs.fixes.honest_text.text()


def test_exported_report_uses_the_groups_in_force(qtbot, window, tmp_path):
    import json
    sol, sub = write_pairs(tmp_path)
    wait_scored(qtbot, window, lambda: window.open_files(sol, sub))
    pick_groups(qtbot, window, "patient")
    qtbot.waitUntil(lambda: window.session.stats is not None
                    and window.session.stats.settings[0].group_column == "patient", timeout=30000)
    shown = window.session.stats.stats.intervals["ci"]
    window.reports.open_folder = lambda folder: None
    window.reports.show_problem = lambda text: None
    out = tmp_path / "report"
    with qtbot.waitSignal(window.reports.written, timeout=120000):
        window.reports.export(str(out))
    d = json.loads((out / "report.json").read_text())
    assert d["groups"] == 100 and d["ci"]["groups"] == 100
    assert (d["ci"]["low"], d["ci"]["high"]) == (shown.low, shown.high)   # as the app shows


def test_a_binary_label_pair_makes_the_app_ask_which_metric(qtbot, window, tmp_path,
                                                           no_metric_question, monkeypatch):
    """0/1 truth and predictions fit kappa, accuracy and F1: the app asks, scores nothing
    until one is chosen, then scores with it."""
    from kmetric_gui.gui.main_window import MainWindow
    sol, sub = write_rare_binary(tmp_path)
    ended, ended_when_asked = [], []
    window.jobs.ended.connect(lambda kind, outcome: ended.append((kind, outcome)))
    monkeypatch.setattr(MainWindow, "ask_metric", lambda self, names: ended_when_asked.append(
        list(ended)) or no_metric_question.append(names))
    window.open_files(sol, sub)
    qtbot.waitUntil(lambda: len(no_metric_question) > 0, timeout=20000)
    assert {"qwk", "accuracy", "f1"} <= set(no_metric_question[-1])
    # the window heard the load end (its progress and Cancel go) before the question
    assert ("load", "failed") in ended_when_asked[0]
    assert window.session.results is None
    said = window.statusBar().currentMessage()
    assert "several metrics fit" in said and "--metric" not in said   # the window's words
    monkeypatch.setattr(MainWindow, "ask_metric", lambda self, names: "accuracy")
    wait_scored(qtbot, window, lambda: window.controller.metric_ambiguous.emit(["accuracy", "qwk"]))
    t = np.loadtxt(sol, delimiter=",", skiprows=1, usecols=1)
    p = np.loadtxt(sub, delimiter=",", skiprows=1, usecols=1)
    assert window.session.results.report.score == pytest.approx(float(np.mean(t == p)))
