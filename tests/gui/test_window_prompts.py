"""The window's notes, prompts and save dialog: what it says and where it starts."""
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from conftest import wait_scored
from kmetric_gui.gui.main_window import demo_paths


def wait_saved(qtbot, window, action):
    with qtbot.waitSignal(window.controller.saved, timeout=10000):
        action()


def test_a_submission_with_lf_endings_is_saved_with_lf(qtbot, window, tmp_path):
    truth, sub = demo_paths("qwk")
    lf = tmp_path / "sub_lf.csv"
    lf.write_bytes(Path(sub).read_bytes().replace(b"\r\n", b"\n"))
    wait_scored(qtbot, window, lambda: window.open_files(truth, str(lf)))
    out = tmp_path / "saved.csv"
    wait_saved(qtbot, window, lambda: window.save_to(str(out)))
    saved = out.read_bytes()
    assert b"\r" not in saved and saved.count(b"\n") == lf.read_bytes().count(b"\n")

def test_a_non_integer_rating_is_scored_through_cut_points_and_said(qtbot, window, tmp_path):
    """The app accepts continuous kappa predictions (it offers cut points), but a file
    Kaggle refuses is never shown as 'No problems': a note names row, id and value."""
    import numpy as np
    from sklearn.metrics import cohen_kappa_score
    truth, sub = demo_paths("qwk")
    lines = Path(sub).read_text().splitlines()
    rid = lines[11].split(",")[0]
    lines[11] = f"{rid},2.5"
    odd = tmp_path / "sub_odd.csv"
    odd.write_text("\n".join(lines) + "\n")
    wait_scored(qtbot, window, lambda: window.open_files(truth, str(odd)))
    assert window.problems.list.count() == 1
    note = window.problems.list.item(0).text()
    assert f"row 11 (id '{rid}'): 2.5" in note and "cut points" in note and "refuse" in note
    assert "note" in window.problems.header.text() and "nothing was scored" not in \
        window.problems.header.text()
    # Scored with rounding half up: 2.5 counts as 3 (a plain reference: sklearn).
    sol = dict(r.split(",")[:2] for r in Path(truth).read_text().splitlines()[1:])
    pred = dict(r.split(",") for r in lines[1:])
    ids = list(sol)
    t = np.array([int(sol[i]) for i in ids])
    p = np.array([int(np.floor(float(pred[i]) + 0.5)) for i in ids])
    want = cohen_kappa_score(t, p, weights="quadratic", labels=list(range(t.min(), t.max() + 1)))
    assert window.session.results.report.result.score == pytest.approx(want)
    window.problems.list.itemClicked.emit(window.problems.list.item(0))     # selects its row
    tp = window.table_panel
    sel = tp.table.selectionModel().selectedRows()
    assert [window.session.data.base.ids[tp.model.rows[s.row()]] for s in sel] == [rid]
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    assert window.problems.list.count() == 0 and window.problems.header.text() == "No problems"

def test_save_dialog_never_starts_in_the_apps_own_folder(qtbot, window, tmp_path):
    """The demos live in the app's files (read-only once installed): the Save dialog
    starts beside a user's submission, else in the last folder used, else home."""
    import os
    from kmetric_gui.gui.file_actions import save_start
    truth, sub = demo_paths("qwk")
    mine = tmp_path / "mine"
    mine.mkdir()
    assert save_start(str(mine / "s.csv"), "") == str(mine / "s_edited.csv")
    assert save_start(sub, str(mine)) == str(mine / "qwk_submission_edited.csv")
    assert save_start(sub, str(Path(sub).parent)) == str(Path.home() / "qwk_submission_edited.csv")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if not os.access(locked, os.W_OK):             # root may write anywhere
            assert save_start(str(locked / "s.csv"), str(mine)) == str(mine / "s_edited.csv")
    finally:
        locked.chmod(0o700)
    window.settings.setValue("last_folder", str(mine))
    wait_scored(qtbot, window, lambda: window.open_files(truth, sub))
    assert window.settings.value("last_folder") == str(mine)   # the demo's folder is not kept

def test_the_unsaved_edits_question_has_mnemonics(qtbot, window):
    """Alt+S / Alt+D answer the close prompt (Qt's own Discard button has no mnemonic)."""
    from kmetric_gui.gui import dialogs
    box = dialogs.question_box(window, "Unsaved edits", "Save them?",
                               QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel,
                               QMessageBox.Save)
    texts = {b: box.button(b).text() for b in (QMessageBox.Save, QMessageBox.Discard)}
    assert texts[QMessageBox.Save].startswith("&S") and texts[QMessageBox.Discard] == "&Discard"
    assert box.defaultButton() is box.button(QMessageBox.Save)
    box.deleteLater()

def test_ask_returns_the_button_clicked(qtbot, window, monkeypatch):
    from PySide6.QtCore import QTimer
    from kmetric_gui.gui import dialogs
    made = dialogs.question_box

    def clicking(*a):
        box = made(*a)
        QTimer.singleShot(0, box.button(QMessageBox.Discard).click)
        return box
    monkeypatch.setattr(dialogs, "question_box", clicking)
    assert dialogs.ask(window, "t", "x", QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel,
                       QMessageBox.Save) == QMessageBox.Discard


def test_help_without_docs_lists_every_registered_metric(monkeypatch, tmp_path):
    from kmetric_gui.gui import dialogs
    from kmetric_gui.metrics import REGISTRY
    monkeypatch.setattr(dialogs, "resources_dir", lambda: tmp_path / "resources")   # no docs
    text = dialogs.help_markdown()
    assert text.startswith("# The metrics\n")
    for m in REGISTRY.values():
        assert f"**{m.label}** (`--metric {m.name}`)" in text
    assert len(text.strip().splitlines()) == 1 + len(REGISTRY)
