"""The final-submissions dialog: computed on the worker, drawn on the GUI thread."""
import numpy as np
import pytest

from filemaker import csv, write

DEMO = __import__("pathlib").Path(__file__).resolve().parents[2] / "resources" / "demo"


@pytest.fixture
def jobs(qtbot):
    from kmetric_gui.gui.jobs import JobController
    ctl = JobController()
    yield ctl
    ctl.shutdown()


def board(tmp_path, n=300):
    rng = np.random.default_rng(0)
    rows = [["TeamId", "TeamName", "SubmissionDate", "Score"]]
    rows += [[i, f"team {i}", "2024-01-01", f"{s:.5f}"]
             for i, s in enumerate(sorted(rng.normal(0.77, 0.03, n), reverse=True))]
    return write(tmp_path / "lb.csv", csv(rows))


def test_dialog_shows_the_advice_and_the_rank_histogram(qtbot, jobs, tmp_path):
    from kmetric_gui.gui.views.select_view import FinalDialog
    from kmetric_gui.analysis.select import SelectOptions, select_files
    paths = [str(DEMO / n) for n in ("qwk_submission.csv", "qwk_submission_b.csv",
                                     "qwk_submission.csv")]
    dlg = FinalDialog(jobs, str(DEMO / "qwk_solution.csv"), paths)
    qtbot.addWidget(dlg)
    dlg.board.setText(str(board(tmp_path)))
    with qtbot.waitSignal(jobs.delivered, timeout=60000):
        dlg.run()
    res = dlg.result
    ref = select_files(DEMO / "qwk_solution.csv", paths, sel=SelectOptions())
    assert res.advice.to_json()["verdict"] == ref.to_json()["verdict"]
    assert dlg.table.rowCount() == 3
    best = max(ref.to_json()["candidates"], key=lambda c: c["p_best"])
    assert dlg.table.item(0, 0).text() == best["name"]
    assert dlg.verdict.text().endswith(ref.verdict)
    assert res.landing is not None and res.rank_counts.sum() == res.landing.main.ranks.size
    assert "Gold" in dlg.landing.text() and "At correlation 0" in dlg.landing.text()
    assert dlg.run_button.isEnabled()


def test_dialog_says_why_nothing_was_computed(qtbot, jobs):
    from kmetric_gui.gui.views.select_view import FinalDialog
    dlg = FinalDialog(jobs, str(DEMO / "qwk_solution.csv"), [str(DEMO / "qwk_submission.csv")])
    qtbot.addWidget(dlg)
    with qtbot.waitSignal(jobs.busy_changed, timeout=30000, check_params_cb=lambda b: not b):
        dlg.run()
    assert "needs at least 3" in dlg.status.text()


def test_the_score_menu_opens_it_with_the_sessions_files(qtbot, window):
    from kmetric_gui.gui.main_window import demo_paths
    from conftest import wait_scored
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    action = next(a for m in window.menuBar().actions() for a in m.menu().actions()
                  if a.text().startswith("&Final submissions"))
    action.trigger()
    dlg = window.final_dialog
    assert dlg.isVisible() and dlg.truth.text() == window.session.truth_path
    assert dlg.paths() == [window.session.sub_path]
    dlg.close()


def test_the_dialog_fits_the_screen_and_picks_as_many_as_asked(qtbot, window):
    from kmetric_gui.gui.main_window import demo_paths
    from kmetric_gui.gui.views.select_view import open_final_dialog
    from conftest import wait_scored
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    dlg = window.final_dialog = open_final_dialog(window)
    room = window.screen().availableGeometry()
    assert dlg.width() <= room.width() and dlg.height() <= room.height()
    dlg.files.addItems([str(DEMO / "qwk_submission_b.csv")])
    dlg.pick.setValue(1)
    dlg.run()
    qtbot.waitUntil(lambda: dlg.result is not None and dlg.run_button.isEnabled(), timeout=60000)
    d = dlg.result.advice.to_json()
    assert d["pick"] == 1 and len(d["best_set"]["names"]) == 1
    bold = [dlg.table.item(r, 0).font().bold() for r in range(dlg.table.rowCount())]
    assert bold.count(True) == 1
    dlg.close()
