"""Copy rows and paste a block in the main table: a pasted block is one edit (one
undo step) and every number follows; a refused value refuses the whole block."""
import numpy as np
import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QGuiApplication
from sklearn.metrics import cohen_kappa_score

from conftest import column, prep, wait_scored
from kmetric_gui.gui import table_clipboard
from kmetric_gui.gui.main_window import demo_paths


def _kappa(p):
    m = p.usage != 2
    return cohen_kappa_score(p.truth[m], p.pred[m], weights="quadratic", labels=range(5))


def _at(window, row, col):
    t = window.table_panel.table
    t.setCurrentIndex(t.model().index(row, col))


def test_a_pasted_block_is_one_edit_and_undo_restores_it(qtbot, window):
    rep = wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    tp, col = window.table_panel, column(window, "pred")
    src = [int(tp.model.rows[r]) for r in (2, 3, 4)]
    old = [int(prep(window).pred[s]) for s in src]
    new = [(v + 2) % 5 for v in old]
    _at(window, 2, col)
    undo_steps = window.session.history_index
    rep2 = wait_scored(qtbot, window, lambda: table_clipboard.paste(
        tp, "\r\n".join(map(str, new)) + "\r\n"))          # a spreadsheet's CRLF block
    assert [int(prep(window).pred[s]) for s in src] == new
    assert window.session.history_index == undo_steps + 1  # one step for three cells
    assert rep2.score == pytest.approx(_kappa(prep(window)))
    rep3 = wait_scored(qtbot, window, window.session.undo)
    assert [int(prep(window).pred[s]) for s in src] == old
    assert rep3.score == pytest.approx(rep.score)


def test_one_value_fills_every_selected_row(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    tp, col = window.table_panel, column(window, "pred")
    sm = tp.table.selectionModel()
    for r in (1, 5, 7):
        sm.select(tp.model.index(r, col), QItemSelectionModel.Select | QItemSelectionModel.Rows)
    sm.setCurrentIndex(tp.model.index(7, col), QItemSelectionModel.NoUpdate)
    rep = wait_scored(qtbot, window, lambda: table_clipboard.paste(tp, "4\n"))
    assert [int(prep(window).pred[int(tp.model.rows[r])]) for r in (1, 5, 7)] == [4, 4, 4]
    assert rep.score == pytest.approx(_kappa(prep(window)))


def test_a_refused_value_refuses_the_block(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    tp, col = window.table_panel, column(window, "pred")
    before = prep(window).pred.copy()
    steps = window.session.history_index
    _at(window, 0, col)
    why = table_clipboard.paste(tp, "1\nseven\n2\n")
    name = tp.model.columns[col].name                        # the column as shown
    assert why and "seven" in why and why.startswith(f"{name}, row ")
    assert np.array_equal(prep(window).pred, before) and window.session.history_index == steps
    _at(window, tp.model.rowCount() - 1, col)
    assert "past the table" in table_clipboard.paste(tp, "1\n2\n")
    _at(window, 0, 0)                                       # the id column
    assert "not editable" in table_clipboard.paste(tp, "x\n")
    assert np.array_equal(prep(window).pred, before)


def test_copy_rows_as_shown(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    tp = window.table_panel
    sm = tp.table.selectionModel()
    for r in (0, 2):
        sm.select(tp.model.index(r, 0), QItemSelectionModel.Select | QItemSelectionModel.Rows)
    text = table_clipboard.copy_rows(tp)
    assert QGuiApplication.clipboard().text() == text
    lines = text.splitlines()
    assert len(lines) == 3 and lines[0].split("\t")[0] == tp.model.headerData(0, Qt.Horizontal)
    ids = prep(window).ids
    assert [line.split("\t")[0] for line in lines[1:]] == [str(ids[int(tp.model.rows[r])])
                                                           for r in (0, 2)]


def test_ctrl_v_in_the_table_pastes_the_clipboard(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    tp, col = window.table_panel, column(window, "pred")
    src = int(tp.model.rows[1])
    new = (int(prep(window).pred[src]) + 1) % 5
    QGuiApplication.clipboard().setText(f"{new}\n")
    window.show()
    _at(window, 1, col)
    tp.table.setFocus()
    qtbot.waitUntil(tp.table.hasFocus)
    wait_scored(qtbot, window, lambda: qtbot.keyClick(tp.table, Qt.Key_V, Qt.ControlModifier))
    assert int(prep(window).pred[src]) == new


def test_big_selections_are_refused_not_frozen_on(qtbot, window, monkeypatch):
    """Cells are read one by one on the UI thread: past MAX_ROWS rows the status bar
    points to Export instead of freezing the window (found in review: 12 s at 200k)."""
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    monkeypatch.setattr(table_clipboard, "MAX_ROWS", 2)
    tp, col = window.table_panel, column(window, "pred")
    sm = tp.table.selectionModel()
    for r in (0, 1, 2):
        sm.select(tp.model.index(r, col), QItemSelectionModel.Select | QItemSelectionModel.Rows)
    sm.setCurrentIndex(tp.model.index(2, col), QItemSelectionModel.NoUpdate)
    said = []
    window.controller.message.connect(lambda text, _: said.append(text))
    before = prep(window).pred.copy()
    assert table_clipboard.copy_rows(tp) is None and "Export" in said[-1]
    assert "at most 2 rows" in table_clipboard.paste(tp, "3\n")
    assert "at most 2 rows" in table_clipboard.paste(tp, "1\n2\n3\n")
    assert np.array_equal(prep(window).pred, before)
