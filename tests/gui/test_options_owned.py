"""Options belong to the session and the panel shows them: a metric change waits for the
answer about unsaved edits (and Cancel leaves everything as it was); a demo's metric is
for the demo's files only; a refusal under a metric chosen in Options says so."""
from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from conftest import column, set_cell, wait_scored

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"


def test_metric_change_waits_for_the_unsaved_answer_and_cancel_keeps_it(qtbot, window):
    win = window
    wait_scored(qtbot, win, lambda: win.open_files(DEMO / "qwk_solution.csv",
                                                   DEMO / "qwk_submission.csv"))
    col = column(win, "pred")
    old = win.session.data.prepared().pred[0]
    set_cell(win, 0, col, str(int(old) % 4 + 1))
    assert win.session.dirty
    combo = win.options_panel.metric_combo
    seen = []

    def cancel():                  # what the window shows while it asks
        seen.append((combo.currentData(), win.session.options.metric))
        return QMessageBox.Cancel
    win.ask_unsaved = cancel
    combo.setCurrentIndex(combo.findData("rmse"))         # the user picks another metric
    assert seen == [(None, None)]                          # nothing changed before the answer
    assert combo.currentData() is None and win.session.options.metric is None
    assert win.session.dirty and win.session.data.metric == "qwk"


def test_a_demo_does_not_choose_the_metric_for_later_files(qtbot, window, tmp_path):
    """Log loss's demo is chosen with its metric (detection asks there); files opened
    afterwards are read with auto again: a kappa pair scores as kappa, not refused as
    log loss."""
    win = window
    rep = wait_scored(qtbot, win, lambda: win.open_demo("logloss"))
    assert rep.metric == "logloss" and win.session.options.metric == "logloss"
    rep = wait_scored(qtbot, win, lambda: win.open_files(DEMO / "qwk_solution.csv",
                                                         DEMO / "qwk_submission.csv"))
    assert rep.metric == "qwk"
    assert win.session.options.metric is None
    assert win.options_panel.metric_combo.currentData() is None


def test_a_metric_the_user_chose_stays_and_a_refusal_says_where_it_was_set(qtbot, window):
    win = window
    combo = win.options_panel.metric_combo
    combo.setCurrentIndex(combo.findData("logloss"))      # the user's own choice
    with qtbot.waitSignal(win.controller.failed, timeout=20000):
        win.open_files(DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv")
    assert win.session.options.metric == "logloss"
    said = [str(p) for p in win.session.problems]
    assert any(p.startswith("metric set in Options: Log loss (logloss)") for p in said), said
