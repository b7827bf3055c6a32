"""The final-submissions dialog in a project: its inputs saved, shown again and run
again on open (same numbers: the draws are seeded); a file changed since is said."""
import json
import shutil

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from conftest import wait_scored
from filemaker import csv, write
from kmetric_gui.gui.main_window import MainWindow
from kmetric_gui.paths import resources_dir


@pytest.fixture
def data(tmp_path):
    d = tmp_path / "data"
    d.mkdir()
    demo = resources_dir() / "demo"
    sol = shutil.copy(demo / "qwk_solution.csv", d / "truth.csv")
    a = shutil.copy(demo / "qwk_submission.csv", d / "a.csv")
    b = shutil.copy(demo / "qwk_submission_b.csv", d / "b.csv")
    lines = (d / "a.csv").read_text().splitlines()
    rng = np.random.default_rng(1)
    rows = [lines[0]]
    for line in lines[1:]:                   # a near-copy of a: one rating in ten moved
        i, r = line.rsplit(",", 1)
        rows.append(f"{i},{(int(r) + 1) % 5 if rng.random() < 0.1 else r}")
    c = write(d / "c.csv", "\n".join(rows) + "\n")
    scores = sorted(np.random.default_rng(0).normal(0.7, 0.05, 300), reverse=True)
    lb = write(d / "lb.csv", csv([["TeamName", "Score"]] + [[f"t{i}", f"{s:.5f}"]
                                                             for i, s in enumerate(scores)]))
    return [str(p) for p in (sol, a, b, c, lb)]


def quiet(win, problems):
    win.projects.show_problem = problems.append


def second_window(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    return win


def ran(qtbot, dlg):
    qtbot.waitUntil(lambda: dlg.result is not None and dlg.run_button.isEnabled(), timeout=60000)
    return dlg.result


def saved_with_results(qtbot, window, data, tmp_path):
    from kmetric_gui.gui.views.select_view import open_final_dialog
    sol, a, b, c, lb = data
    wait_scored(qtbot, window, lambda: window.open_files(sol, a))
    dlg = window.final_dialog = open_final_dialog(window)
    dlg.files.addItems([b, c])
    dlg.board.setText(lb)
    dlg.pick.setValue(2)
    dlg.correlation.setValue(0.3)
    dlg.run()
    first = ran(qtbot, dlg).advice.to_json()
    proj = tmp_path / "final.kmetric"
    with qtbot.waitSignal(window.projects.saved, timeout=30000):
        window.projects.save(str(proj))
    return proj, first


def test_inputs_saved_shown_again_and_run_again(qtbot, window, data, tmp_path):
    problems = []
    quiet(window, problems)
    proj, first = saved_with_results(qtbot, window, data, tmp_path)
    final = json.loads(proj.read_text())["final"]
    assert [c["path"] for c in final["candidates"]] == ["data/a.csv", "data/b.csv", "data/c.csv"]
    assert final["truth"]["path"] == "data/truth.csv" and final["leaderboard"]["path"] == "data/lb.csv"
    assert (final["pick"], final["correlation"], final["ran"]) == (2, pytest.approx(0.3), True)
    win = second_window(qtbot)
    try:
        quiet(win, problems)
        with qtbot.waitSignal(win.projects.opened, timeout=60000):
            win.projects.open(str(proj))
        dlg = win.final_dialog
        assert dlg.isVisible() and dlg.paths() == data[1:4]
        assert dlg.truth.text() == data[0] and dlg.board.text() == data[4]
        assert dlg.pick.value() == 2 and dlg.correlation.value() == pytest.approx(0.3)
        again = ran(qtbot, dlg)
        assert again.advice.to_json() == first          # seeded: the same numbers
        assert again.landing is not None and again.landing.to_json()["correlation"] == pytest.approx(0.3)
        assert "changed" not in dlg.status.text() and win.projects.notes == []
    finally:
        win._discarding = True
        win.jobs.shutdown()
    assert problems == []


def test_a_candidate_changed_since_the_save_is_said_and_scored_as_it_is_now(
        qtbot, window, data, tmp_path):
    problems = []
    quiet(window, problems)
    proj, first = saved_with_results(qtbot, window, data, tmp_path)
    sol, b = data[0], data[2]
    lines = open(b).read().splitlines()
    i, r = lines[1].rsplit(",", 1)
    lines[1] = f"{i},{(int(r) + 2) % 5}"
    open(b, "w").write("\n".join(lines) + "\n")
    win = second_window(qtbot)
    try:
        quiet(win, problems)
        with qtbot.waitSignal(win.projects.opened, timeout=60000):
            win.projects.open(str(proj))
        said = " ".join(win.projects.notes)
        assert "changed on disk" in said and "candidate b.csv" in said and "a.csv" not in said
        assert "candidate b.csv" in win.statusBar().currentMessage()
        dlg = win.final_dialog
        res = ran(qtbot, dlg)
        assert "candidate b.csv" in dlg.status.text()
        t = {x.split(",")[0]: int(x.split(",")[1]) for x in open(sol).read().splitlines()[1:]}
        p = {k: int(v) for k, v in (x.rsplit(",", 1) for x in lines[1:])}
        keys = sorted(t)
        got = res.advice.to_json()["candidates"][1]
        assert got["name"] == "b.csv"
        assert got["score"] == pytest.approx(cohen_kappa_score([t[k] for k in keys],
                                                               [p[k] for k in keys],
                                                               weights="quadratic"))
        assert got["score"] != first["candidates"][1]["score"]
    finally:
        win._discarding = True
        win.jobs.shutdown()


def test_not_run_inputs_come_back_unrun_and_a_lost_file_is_said(qtbot, window, data, tmp_path):
    problems = []
    quiet(window, problems)
    proj, _ = saved_with_results(qtbot, window, data, tmp_path)
    d = json.loads(proj.read_text())
    d["final"]["ran"] = False
    proj.write_text(json.dumps(d))
    import os
    os.remove(data[3])                                   # c.csv gone
    win = second_window(qtbot)
    try:
        quiet(win, problems)
        with qtbot.waitSignal(win.projects.opened, timeout=60000):
            win.projects.open(str(proj))
        dlg = win.final_dialog
        assert "not found any more: candidate c.csv" in " ".join(win.projects.notes)
        assert dlg.paths() == data[1:3] and "restored" in dlg.status.text()
        qtbot.wait(300)
        assert dlg.result is None and "restored" in dlg.status.text()
    finally:
        win._discarding = True
        win.jobs.shutdown()
