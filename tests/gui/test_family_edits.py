"""The table of every layout kind takes edits in the app: a typed cell, a pasted block
(one undo step), a refused value (one line, nothing changed), undo, Ctrl+S (order,
columns, line endings kept); the score, Public/Private, the interval's mark, the
anatomy view and the comparison follow. One metric per layout kind."""
import csv
import io
import shutil
import threading

import numpy as np
import pytest

from conftest import prep, set_cell, wait_scored
from kmetric_gui.gui import table_clipboard
from kmetric_gui.gui.widgets.score_panel import fmt
from kmetric_gui.metrics import get_metric
from kmetric_gui.metrics.base import split_rows
from kmetric_gui.metrics.references import same
from kmetric_gui.paths import resources_dir

# layout kind -> metric whose demo shows it, and the first editable column of each side
KINDS = {"class probabilities": "logloss", "binary scores": "auc", "labels": "accuracy",
         "item lists": "mapk", "regression targets": "mcrmse"}
DEMO = resources_dir() / "demo"


def _open(qtbot, window, name, sol=None, sub=None, target=None):
    """Open a pair scored as ``name`` (as the Demo menu does)."""
    from dataclasses import replace
    combo = window.options_panel.metric_combo
    combo.setCurrentIndex(combo.findData(name))
    window.session.set_options(replace(window.options_panel.options(), target_column=target))
    sol = sol or DEMO / f"{name}_solution.csv"
    sub = sub or DEMO / f"{name}_submission.csv"
    return wait_scored(qtbot, window, lambda: window.open_files(str(sol), str(sub)))


def _pred_column(window):
    return next(i for i, c in enumerate(window.table_panel.model.columns)
                if c.spec is not None and c.spec.name == "pred")


def _other_text(model, row, col):
    """Another row's text of the column, different from this row's."""
    here = model.data(model.index(row, col))
    return next(t for t in (model.data(model.index(r, col)) for r in range(model.rowCount()))
                if t != here)


def _reference(window):
    p, s = prep(window), window.session
    return {name: s.metric.reference(p, s.options, split_rows(p.usage, name))
            for name in ("all", "public", "private")}


@pytest.mark.parametrize("kind", KINDS)
def test_a_typed_edit_and_undo_every_number_follows(qtbot, window, kind):
    name = KINDS[kind]
    first = _open(qtbot, window, name)
    m, col = window.table_panel.model, _pred_column(window)
    text = _other_text(m, 0, col)
    panel = window.score_panel
    rep = wait_scored(qtbot, window, lambda: set_cell(window, 0, col, text))
    assert m.data(m.index(0, col)) == text
    want = _reference(window)
    assert same(rep.score, want["all"])
    for split in ("public", "private"):
        assert same(rep.splits[split].score, want[split])
    assert panel.score_label.text() == fmt(want["all"])
    assert fmt(want["public"]) in panel.public.text()
    assert panel.computing or window.session.stats is not None     # the interval is redone
    view = window.tabs.views[name]
    qtbot.waitUntil(lambda: view.report is rep, timeout=10000)       # the anatomy follows
    back = wait_scored(qtbot, window, window.session.undo)
    assert same(back.score, first.score, 1e-12)
    assert m.data(m.index(0, col)) != text


@pytest.mark.parametrize("kind", KINDS)
def test_a_pasted_block_is_one_undo_step(qtbot, window, kind):
    name = KINDS[kind]
    _open(qtbot, window, name)
    tp = window.table_panel
    cols = [c for c, col in enumerate(tp.model.columns) if col.editable][-2:]
    block = [[_other_text(tp.model, r, c) for c in cols] for r in (1, 2)]
    tp.table.setCurrentIndex(tp.model.index(1, cols[0]))
    steps = window.session.history_index
    text = "\r\n".join("\t".join(row) for row in block) + "\r\n"
    rep = wait_scored(qtbot, window, lambda: table_clipboard.paste(tp, text))
    assert [[tp.model.data(tp.model.index(r, c)) for c in cols] for r in (1, 2)] == block
    assert window.session.history_index == steps + 1
    assert same(rep.score, _reference(window)["all"])


BAD = {"logloss": "1.3", "auc": "abc", "accuracy": "wolf", "mapk": "a,b", "mcrmse": "1,5"}


@pytest.mark.parametrize("kind", KINDS)
def test_a_refused_value_says_why_and_changes_nothing(qtbot, window, kind):
    name = KINDS[kind]
    _open(qtbot, window, name)
    m, col = window.table_panel.model, _pred_column(window)
    said = []
    window.controller.message.connect(lambda text, ms: said.append(text))
    before, shown = window.session.data, m.data(m.index(0, col))
    assert set_cell(window, 0, col, BAD[name]) is False
    assert window.session.data is before and m.data(m.index(0, col)) == shown
    assert said and said[-1].startswith("Edit refused") and "\n" not in said[-1]
    assert m.data(m.index(0, col), 3).startswith("Edit refused")     # the cell's tooltip


@pytest.mark.parametrize("kind", KINDS)
def test_ctrl_s_keeps_order_columns_and_line_endings(qtbot, window, tmp_path, kind):
    name = KINDS[kind]
    sol = shutil.copy(DEMO / f"{name}_solution.csv", tmp_path / "sol.csv")
    lines = (DEMO / f"{name}_submission.csv").read_text().splitlines()
    target = lines[0].split(",")[1] if lines[0].count(",") == 1 else None
    extra = [",note", ",n{}"] if target else ["", ""]      # a column the metric does not read
    head = lines[0] + extra[0]
    body = [line + extra[1].format(k) for k, line in enumerate(lines[1:])][::-1]   # another order
    sub = tmp_path / "sub.csv"
    sub.write_bytes(("\r\n".join([head] + body) + "\r\n").encode())
    _open(qtbot, window, name, sol, sub, target)
    m, col = window.table_panel.model, _pred_column(window)
    text = _other_text(m, 0, col)
    wait_scored(qtbot, window, lambda: set_cell(window, 0, col, text))
    edited_id = m.data(m.index(0, 0))
    with qtbot.waitSignal(window.controller.saved, timeout=10000):
        assert window.save_to(str(sub))
    raw = sub.read_bytes()
    assert raw.count(b"\r\n") == len(body) + 1 and b"\n" not in raw.replace(b"\r\n", b"")
    rows = list(csv.reader(io.StringIO(raw.decode())))
    assert rows[0] == head.split(",")
    old = list(csv.reader(io.StringIO("\n".join([head] + body))))
    assert [r[0] for r in rows] == [r[0] for r in old]              # the file's order
    changed = [r[0] for r, o in zip(rows, old) if r != o]
    assert changed == [edited_id]                                  # only the edited row
    assert not window.session.dirty
    again = get_metric(name)
    from kmetric_gui.analysis.scoring import Options, score_files
    assert same(score_files(sol, sub, Options(metric=again.name, target_column=target)).score,
                window.session.results.report.score, 1e-12)


def test_an_edit_reruns_the_comparison(qtbot, window):
    from test_compare_app import wait_compared
    _open(qtbot, window, "rmse")
    cmp0 = wait_compared(qtbot, window, lambda: window.controller.compare_jobs.add(
        [str(DEMO / "rmse_submission_b.csv")]))
    col = _pred_column(window)
    cmp1 = wait_compared(qtbot, window, lambda: set_cell(window, 0, col, "1000"))
    assert cmp1.submissions[0].score == pytest.approx(window.session.results.report.score)
    assert cmp1.submissions[0].score > cmp0.submissions[0].score    # worse (lower is better)
    assert cmp1.submissions[1].score == pytest.approx(cmp0.submissions[1].score)


def test_an_edit_builds_nothing_per_row_on_the_ui_thread(qtbot, window, monkeypatch):
    """The edited data and the full result are made on workers (intervals, anatomy)."""
    from kmetric_gui.metrics._edits import EditedResult
    from kmetric_gui.state.data import DataVersion
    on_ui = []
    made, full = DataVersion._materialize, EditedResult.full_result
    main = threading.main_thread()
    monkeypatch.setattr(DataVersion, "_materialize", lambda self: on_ui.append(
        ("data", threading.current_thread() is main and bool(self.overlay))) or made(self))
    monkeypatch.setattr(EditedResult, "full_result", lambda self: on_ui.append(
        ("result", threading.current_thread() is main)) or full(self))
    _open(qtbot, window, "logloss")
    m, col = window.table_panel.model, _pred_column(window)
    wait_scored(qtbot, window, lambda: set_cell(window, 0, col, _other_text(m, 0, col)))
    qtbot.waitUntil(lambda: not window.jobs.busy, timeout=20000)
    assert on_ui and not any(ui for _, ui in on_ui)
    assert np.isfinite(window.session.results.report.score)
