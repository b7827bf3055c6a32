"""Saving keeps the submission's own row order (issue 24): a diff against the file
opened shows only the edits. Checked against a plain csv read of the original."""
import csv
import os
import stat

import pytest

from conftest import column, prep, set_cell, wait_scored


def _rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def _pair(tmp_path, sub_ids=("e", "b", "f", "a", "d", "c")):
    sol = tmp_path / "sol.csv"
    sol.write_text("id,rating\n" + "".join(f"{i},{k % 3}\n" for k, i in enumerate("abcdef")))
    sub = tmp_path / "sub.csv"        # the file's own order, and a column the metric ignores
    sub.write_text("id,rating,notes\n" + "".join(f'{i},{k % 3},"n {i}, ok"\n'
                                                  for k, i in enumerate(sub_ids)))
    return sol, sub


def _open_and_edit(qtbot, window, sol, sub, edit_id="f", value="0"):
    from dataclasses import replace
    window.session.set_options(replace(window.session.options, target_column="rating"))
    wait_scored(qtbot, window, lambda: window.open_files(str(sol), str(sub)))
    p = prep(window)
    src = list(p.ids).index(edit_id)
    row = list(window.table_panel.model.rows).index(src)
    wait_scored(qtbot, window, lambda: set_cell(window, row, column(window, "pred"), value))
    assert int(prep(window).pred[src]) == int(value)


def _expected(sub, edits):
    rows = _rows(sub)
    return [rows[0]] + [[r[0], edits.get(r[0], r[1]), r[2]] for r in rows[1:]]


def _save(qtbot, window, path):
    with qtbot.waitSignal(window.controller.saved, timeout=10000):
        assert window.save_to(path)


def test_save_as_keeps_the_files_row_order_by_default(qtbot, window, tmp_path):
    from kmetric_gui.gui.dialogs import ChosenPath
    sol, sub = _pair(tmp_path)
    _open_and_edit(qtbot, window, sol, sub)
    out = ChosenPath(tmp_path / "out.csv")        # as the dialog returns it, choice kept
    out.file_order = True
    _save(qtbot, window, out)
    assert _rows(out) == _expected(sub, {"f": "0"})
    assert not window.session.dirty


def test_plain_save_over_the_file_keeps_its_order_and_mode(qtbot, window, tmp_path):
    sol, sub = _pair(tmp_path)
    os.chmod(sub, 0o640)
    mode = stat.S_IMODE(sub.stat().st_mode)      # 0o640; Windows keeps only read-only (0o666)
    before = _expected(sub, {"f": "0"})
    _open_and_edit(qtbot, window, sol, sub)
    _save(qtbot, window, str(sub))                # Ctrl+S: no dialog, the default
    assert _rows(sub) == before
    assert stat.S_IMODE(sub.stat().st_mode) == mode


def test_save_in_the_solutions_order_when_chosen(qtbot, window, tmp_path):
    from kmetric_gui.gui.dialogs import ChosenPath
    sol, sub = _pair(tmp_path)
    _open_and_edit(qtbot, window, sol, sub)
    out = ChosenPath(tmp_path / "sol_order.csv")
    out.file_order = False
    _save(qtbot, window, out)
    by_id = {r[0]: r for r in _expected(sub, {"f": "0"})[1:]}
    assert _rows(out) == [["id", "rating", "notes"]] + [by_id[i] for i in "abcdef"]


def test_a_file_now_repeating_ids_saves_in_the_solutions_order_and_says_so(
        qtbot, window, tmp_path):
    sol, sub = _pair(tmp_path)
    _open_and_edit(qtbot, window, sol, sub)
    # rewritten on disk after it was read: 'b' twice, 'a' gone, an unknown id
    sub.write_text("id,rating,notes\ne,0,x\nb,1,y\nzz,0,w\nb,1,y2\nf,0,z\nd,1,q\nc,2,r\n")
    said = []
    window.controller.message.connect(lambda text, ms: said.append(text))
    out = tmp_path / "out.csv"
    _save(qtbot, window, str(out))
    assert [r[0] for r in _rows(out)[1:]] == list("abcdef")     # every row, none twice
    assert _rows(out)[6][:2] == ["f", "0"]
    assert any("kept the solution's row order: sub.csv now repeats 1 id(s): 'b' (rows 2, 4)"
               in t for t in said), said


def test_ids_missing_from_the_file_go_at_the_end_and_unknown_ones_are_left_out(
        qtbot, window, tmp_path):
    sol, sub = _pair(tmp_path)
    _open_and_edit(qtbot, window, sol, sub)
    sub.write_text("id,rating,notes\nzz,0,w\nd,1,q\nb,1,y\n")
    said = []
    window.controller.message.connect(lambda text, ms: said.append(text))
    out = tmp_path / "out.csv"
    _save(qtbot, window, str(out))
    assert [r[0] for r in _rows(out)[1:]] == ["d", "b", "a", "c", "e", "f"]
    assert _rows(out)[1] == ["d", "1", "q"] and _rows(out)[6] == ["f", "0", ""]
    text = next(t for t in said if t.startswith("Saved"))
    assert "4 row(s) whose id is not in sub.csv now put at the end" in text
    assert "1 row(s) of sub.csv whose id is not in the data left out" in text


def test_the_dialog_offers_the_order_on_for_an_opened_file(qtbot, tmp_path):
    from kmetric_gui.gui.dialogs import SaveSubmissionDialog
    sub = tmp_path / "sub.csv"
    sub.write_text("id,y\n1,0\n")
    dlg = SaveSubmissionDialog(None, str(tmp_path / "x.csv"), None, str(sub))
    qtbot.addWidget(dlg)
    assert dlg.file_order.isChecked() and dlg.file_order.isEnabled()
    assert "sub.csv" in dlg.file_order.text()
    assert dlg.isAncestorOf(dlg.file_order)             # shown in the dialog itself
    none = SaveSubmissionDialog(None, str(tmp_path / "x.csv"), None, None)
    qtbot.addWidget(none)
    assert not none.file_order.isChecked() and not none.file_order.isEnabled()


@pytest.mark.parametrize("keep", [True, False])
def test_the_dialogs_choice_reaches_the_saved_file(qtbot, window, tmp_path, monkeypatch, keep):
    from PySide6.QtWidgets import QDialog

    from kmetric_gui.gui import dialogs
    sol, sub = _pair(tmp_path)
    _open_and_edit(qtbot, window, sol, sub)
    out = tmp_path / "chosen.csv"

    def exec_(dlg):
        assert dlg.file_order.isChecked()              # on by default: opened from a file
        dlg.file_order.setChecked(keep)
        dlg.selectFile(str(out))
        return QDialog.Accepted
    monkeypatch.setattr(dialogs.SaveSubmissionDialog, "exec", exec_)
    with qtbot.waitSignal(window.controller.saved, timeout=10000):
        window.save_as()
    ids = [r[0] for r in _rows(out)[1:]]
    assert ids == (["e", "b", "f", "a", "d", "c"] if keep else list("abcdef"))
