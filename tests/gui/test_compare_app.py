"""The Compare tab equals `kmetric compare`, and follows edits of the shown submission."""
import json
import subprocess
import sys

import numpy as np
import pytest

from conftest import column, prep, set_cell, wait_scored
from kmetric_gui.gui.main_window import demo_paths
from kmetric_gui.paths import resources_dir


def other(metric):
    return str(resources_dir() / "demo" / f"{metric}_submission_b.csv")


def wait_compared(qtbot, window, action):
    with qtbot.waitSignal(window.session.compare_changed, timeout=60000,
                          check_params_cb=lambda r: r is not None and r.comparison is not None):
        action()
    return window.session.comparison.comparison


@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta"])
def test_compare_tab_equals_the_cli(qtbot, window, metric):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths(metric)))
    cmp = wait_compared(qtbot, window, lambda: window.controller.compare_jobs.add([other(metric)]))
    truth, sub = demo_paths(metric)
    r = subprocess.run([sys.executable, "-m", "kmetric_gui.cli", "compare", truth, sub, other(metric),
                        "--json", "--bootstrap", "2000", "--permutations", "2000", "--seed", "0"],
                       capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr
    want = json.loads(r.stdout)
    got = cmp.to_json()
    assert [s["score"] for s in got["submissions"]] == pytest.approx(
        [s["score"] for s in want["submissions"]])
    assert got["pairs"][0]["delta"] == pytest.approx(want["pairs"][0]["delta"])
    assert got["pairs"][0]["delta_ci"]["low"] == pytest.approx(want["pairs"][0]["delta_ci"]["low"])
    page = window.tabs.compare
    assert window.tabs.isTabVisible(window.tabs.indexOf(page))
    assert page.view.leaderboard.rowCount() == 2


def test_an_edit_of_the_shown_submission_rescores_the_comparison(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    cmp0 = wait_compared(qtbot, window, lambda: window.controller.compare_jobs.add([other("qwk")]))
    c = column(window, "pred")
    src = int(window.table_panel.model.rows[0])
    truth = int(prep(window).truth[src])
    wrong = (truth + 2) % 5
    cmp1 = wait_compared(qtbot, window, lambda: set_cell(window, 0, c, str(wrong)))
    assert cmp1.submissions[0].score == pytest.approx(window.session.results.report.score)
    assert cmp1.submissions[0].score != pytest.approx(cmp0.submissions[0].score)
    assert cmp1.submissions[1].score == pytest.approx(cmp0.submissions[1].score)
    assert window.session.comparison.generation == window.session.generation


def test_an_invalid_compared_file_is_listed_not_compared(qtbot, window, tmp_path):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    bad = tmp_path / "bad_sub.csv"
    bad.write_text("id_code,diagnosis\nnope,1\n")
    with qtbot.waitSignal(window.session.compare_changed, timeout=30000,
                          check_params_cb=lambda r: r is not None):
        window.controller.compare_jobs.add([str(bad)])
    res = window.session.comparison
    assert res.comparison is None and any("bad_sub.csv" in p for p in res.problems)
    assert "bad_sub.csv" in window.tabs.compare.problems.text()
    assert np.isfinite(window.session.results.report.score)


def test_the_compared_predictions_stand_beside_the_shown_ones(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    wait_compared(qtbot, window, lambda: window.controller.compare_jobs.add([other("qwk")]))
    model = window.table_panel.model
    extra = [i for i, c in enumerate(model.columns) if c.meta.get("extra")]
    assert len(extra) == 1 and "qwk_submission_b.csv" in model.columns[extra[0]].name
    from kmetric_gui.analysis.scoring import score_files
    b = score_files(demo_paths("qwk")[0], other("qwk")).prepared.pred
    shown = [model.data(model.index(r, extra[0])) for r in range(5)]
    assert shown == [str(b[int(model.rows[r])]) for r in range(5)]
    page = window.tabs.compare
    heat = page.view.findChild(type(window.tabs.view("qwk").maps["observed"]))
    if heat is not None:                        # a cell of the A x B matrix selects its rows
        with qtbot.waitSignal(window.table_panel.rows_shown, timeout=10000):
            heat.cell_clicked.emit(2, 1)
        rows = model.rows
        p = prep(window)
        assert np.all(p.pred[rows] == 2) and np.all(b[rows] == 1)
