"""Regression tests for the defects of the state-owner redesign (issue 11).

Paths that used to crash the process (a segfault in a Qt-called override)
run in a subprocess, so a crash fails the test instead of killing pytest.
"""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from conftest import column, prep, set_cell, wait_rows, wait_scored
from kmetric_gui.gui.main_window import demo_paths
from kmetric_gui.analysis.scoring import score_files

ROOT = Path(__file__).resolve().parents[2]

PRELUDE = """
import sys
from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from kmetric_gui.gui.main_window import MainWindow, demo_paths
app = QApplication([])
win = MainWindow()
win.ask_unsaved = lambda: QMessageBox.Discard
win.show()

def wait(signal, action, ms=20000):
    loop = QEventLoop()
    got = []
    signal.connect(lambda *a: (got.append(a), loop.quit()))
    QTimer.singleShot(ms, loop.quit)
    action()
    if not got:
        loop.exec()
    return got[0] if got else None

def pump(ms=300):
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()

def col(name):
    return next(i for i, c in enumerate(win.table_panel.model.columns)
                if c.spec is not None and c.spec.name == name and c.spec.part is None)

def cell(row, c, text):
    m = win.table_panel.model
    return m.setData(m.index(row, c), text)
"""


def run_gui(body, tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "KMETRIC_SETTINGS": str(tmp_path / "s.ini")}
    code = PRELUDE + textwrap.dedent(body) + "\nwin.discard_and_close()\nprint('OK')\n"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 0 and r.stdout.strip().endswith("OK"), (r.returncode, r.stderr[-2000:])
    return r


def test_editing_a_kappa_truth_cell_or_a_huge_prediction_does_not_crash(tmp_path):
    r = run_gui("""
        rep = wait(win.scored, lambda: win.open_files(*demo_paths("qwk")))
        rep = wait(win.scored, lambda: cell(1, col("truth"), "3"))[0]
        p = win.session.data.prepared()
        from sklearn.metrics import cohen_kappa_score
        m = p.usage != 2
        assert int(p.truth[int(win.table_panel.model.rows[1])]) == 3
        assert abs(rep.score - cohen_kappa_score(p.truth[m], p.pred[m], weights="quadratic",
                                                 labels=range(5))) < 1e-12
        for text in ("1e308", "123456789012345678901234567890"):
            assert not cell(0, col("pred"), text)
        print("refused:", win.statusBar().currentMessage())
    """, tmp_path)
    assert "too large" in r.stdout


def test_undo_after_a_failed_reload_does_not_crash(tmp_path):
    run_gui("""
        wait(win.scored, lambda: win.open_files(*demo_paths("qwk")))
        p0 = int(win.session.data.value(win.table_panel.model.columns[col("pred")].spec, 0))
        wait(win.scored, lambda: cell(0, col("pred"), str((p0 + 1) % 5)))
        assert win.session.dirty
        win.options_panel.id_column.setText("no_such_column")
        wait(win.failed, lambda: win.options_panel.id_column.editingFinished.emit())
        assert win.session.data is None and not win.session.can_undo
        win.actions_["undo"].trigger()          # Ctrl+Z: nothing to undo, nothing breaks
        win.session.undo()
        pump()
    """, tmp_path)


def test_sort_while_a_new_file_loads_never_lands_on_the_new_table(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))       # 600 rows
    model = window.table_panel.model
    model.sort(column(window, "pred"), Qt.DescendingOrder)          # a rows job in flight ...
    window.table_panel.filter.setText("a")
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("lwlrap")))   # ... 240 rows
    qtbot.wait(300)
    assert model.rowCount() == len(prep(window)) == 240
    assert model.rows.max() < 240
    for r in range(0, model.rowCount(), 37):                       # every cell readable
        for c in range(model.columnCount()):
            model.data(model.index(r, c))


def _edit_pred(qtbot, window, view_row=0):
    c = column(window, "pred")
    src = int(window.table_panel.model.rows[view_row])
    new = (int(prep(window).pred[src]) + 1) % 5
    wait_scored(qtbot, window, lambda: set_cell(window, view_row, c, str(new)))
    return src, new


def test_an_edit_made_while_saving_stays_unsaved(qtbot, window, tmp_path):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    _edit_pred(qtbot, window, 0)
    with qtbot.waitSignal(window.controller.saved, timeout=10000):
        window.save_to(str(tmp_path / "out.csv"))
        set_cell(window, 1, column(window, "pred"), "0" if prep(window).pred[
            window.table_panel.model.rows[1]] else "1")       # before the save is done
    assert window.session.dirty and window.windowTitle().endswith("*")


def test_rescore_keeps_edits_and_reload_asks(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    src, new = _edit_pred(qtbot, window)
    rep = wait_scored(qtbot, window, window.actions_["rescore"].trigger)     # F5
    assert int(prep(window).pred[src]) == new and window.session.dirty
    assert rep.score != pytest.approx(score_files(*demo_paths("qwk")).score)   # the edited data
    asked = []
    window.ask_unsaved = lambda: asked.append(1) or QMessageBox.Cancel
    window.actions_["reload"].trigger()                                      # Ctrl+R
    assert asked and int(prep(window).pred[src]) == new


def test_choosing_save_in_the_prompt_saves_then_goes_on(qtbot, window, tmp_path):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    src, new = _edit_pred(qtbot, window)
    out = tmp_path / "kept.csv"
    window.ask_unsaved = lambda: QMessageBox.Save
    window.ask_save_path = lambda: str(out)
    rep = wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("lwlrap")))
    assert rep.metric == "lwlrap" and out.exists()
    saved = score_files(demo_paths("qwk")[0], out)
    assert int(saved.prepared.pred[src]) == new


def test_escape_during_a_save_still_writes_and_marks_it(qtbot, window, tmp_path):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    _edit_pred(qtbot, window)
    out = tmp_path / "esc.csv"
    with qtbot.waitSignal(window.controller.saved, timeout=10000):
        window.save_to(str(out))
        window.actions_["cancel"].trigger()                  # Esc
    assert out.exists() and not window.session.dirty


def _kappa_files(tmp_path, name, k, n=90, continuous=False):
    rng = np.random.default_rng(k)
    t = rng.integers(0, k, n)
    p = np.clip(t + rng.integers(-1, 2, n), 0, k - 1).astype(float)
    if continuous:
        p = np.round(p + rng.normal(0, 0.4, n), 3)
    sol, sub = tmp_path / f"{name}_sol.csv", tmp_path / f"{name}_sub.csv"
    sol.write_text("id,y\n" + "".join(f"i{i},{v}\n" for i, v in enumerate(t)))
    sub.write_text("id,y\n" + "".join(f"i{i},{v if continuous else int(v)}\n"
                                      for i, v in enumerate(p)))
    return str(sol), str(sub)


def test_new_files_reset_the_kappa_view(qtbot, window, tmp_path):
    wait_scored(qtbot, window, lambda: window.open_files(*_kappa_files(tmp_path, "k3", 3)))
    view = window.tabs.view("qwk")
    view.source.setCurrentIndex(view.source.findData("preset-0"))       # a K=4 what-if
    rep = wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))   # K=5
    assert view.mode() == "data"
    assert np.array_equal(view.maps["observed"].values, rep.result.observed)
    assert view.editor.rowCount() == 5 and view.balance is not None


def test_optimise_is_bound_to_its_data(qtbot, window, tmp_path):
    wait_scored(qtbot, window, lambda: window.open_files(*_kappa_files(tmp_path, "c", 4,
                                                                        continuous=True)))
    view = window.tabs.view("qwk")
    view.optimise_button.click()
    window.actions_["cancel"].trigger()                       # Esc re-enables Optimise
    assert view.optimise_button.isEnabled()
    errors = []
    window.jobs.error.connect(lambda kind, e: errors.append(e))
    view.optimise_button.click()                              # in flight while ...
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))   # ... integers load
    qtbot.wait(300)
    assert not errors and view.cut_result is None and not view.apply_button.isEnabled()
    assert view.optimise_button.isEnabled()


def test_drill_down_list_follows_an_edit(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    heat = window.tabs.view("qwk").maps["observed"]
    wait_rows(qtbot, window, lambda: heat.cell_clicked.emit(2, 1))
    model = window.table_panel.model
    before = model.rows.copy()
    edited = int(before[0])
    with qtbot.waitSignal(window.table_panel.rows_shown, timeout=10000):
        set_cell(window, 0, column(window, "pred"), "2")
    assert edited not in model.rows and len(model.rows) == len(before) - 1


def test_window_title_names_the_file_shown(qtbot, window, tmp_path):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    assert "qwk_submission.csv" in window.windowTitle()
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("lwlrap")))
    assert "lwlrap_submission.csv" in window.windowTitle()
    _ = window.session.edit_text(window.table_panel.model.columns[column(window, "pred", 0)].spec,
                                 0, "0.123")
    out = tmp_path / "renamed.csv"
    with qtbot.waitSignal(window.controller.saved, timeout=10000):
        window.save_to(str(out))
    assert window.windowTitle() == "kmetric — renamed.csv"
    bad = tmp_path / "broken.csv"
    bad.write_text("")
    with qtbot.waitSignal(window.failed, timeout=10000):
        window.open_files(demo_paths("qwk")[0], str(bad))
    assert "broken.csv" in window.windowTitle()


def test_long_fbeta_problem_selects_the_files_row(qtbot, window, tmp_path):
    sol = tmp_path / "train.csv"
    sol.write_text("Id,cleaned_label\nd1,a b\nd1,c d\nd2,e f\nd1,g h\nd3,x y\n")
    sub = tmp_path / "sub.csv"
    sub.write_text("Id,PredictionString\nd1,a b\nd2,e f\n")       # d3 is missing
    with qtbot.waitSignal(window.failed, timeout=10000):
        window.open_files(str(sol), str(sub))
    item = next(window.problems.list.item(i) for i in range(window.problems.list.count())
                if "missing" in window.problems.list.item(i).text())
    window.problems.list.itemClicked.emit(item)
    tp = window.table_panel
    assert tp.kind == "raw:solution"
    sel = tp.table.selectionModel().selectedRows()
    assert [int(tp.model.rows[s.row()]) for s in sel] == [4]        # the file's row of d3


@pytest.mark.parametrize("metric,text", [("lwlrap", "Bark,Meow"), ("fbeta", "survey of earned doctorates")])
def test_truth_cells_are_editable_for_every_metric(qtbot, window, metric, text):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths(metric)))
    c = column(window, "truth")
    model = window.table_panel.model
    assert model.flags(model.index(0, c)) & Qt.ItemIsEditable
    rep = wait_scored(qtbot, window, lambda: set_cell(window, 0, c, text))
    from reference import fbeta_ref, lwlrap_ref
    p = prep(window)
    want = lwlrap_ref(p.truth, p.pred) if metric == "lwlrap" else fbeta_ref(p.truth, p.pred)[0]
    assert rep.score == pytest.approx(want)
    assert window.session.can_undo


def test_refused_edit_keeps_the_layout_and_says_why_until_the_next_edit(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    header = window.problems.header.text()
    geometry = window.score_panel.geometry()
    model, c = window.table_panel.model, column(window, "pred")
    assert not set_cell(window, 0, c, "1_0")                      # the CLI refuses it too
    assert "underscores" in model.data(model.index(0, c), Qt.ToolTipRole)
    assert "underscores" in window.statusBar().currentMessage()
    assert window.problems.header.text() == header and window.score_panel.geometry() == geometry
    _edit_pred(qtbot, window, 1)
    assert "refused" not in (model.data(model.index(0, c), Qt.ToolTipRole) or "")
