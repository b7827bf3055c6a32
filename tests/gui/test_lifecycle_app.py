"""Esc, edits and answers while jobs run leave nothing stale, stuck or lost.

Each test stops or holds a job on its worker (a stand-in that polls its cancel
callback, or waits for an event) — counters and events, no timing.
"""
import threading
import time
from pathlib import Path

import pytest

from conftest import column, set_cell, wait_scored
from kmetric_gui.errors import Cancelled
from kmetric_gui.gui.main_window import demo_paths
from kmetric_gui.analysis.scoring import score_files


def until_cancelled(started):
    def fn(*args, **kwargs):
        cancel = args[-1] if callable(args[-1]) else kwargs.get("cancel")
        started.set()
        deadline = time.monotonic() + 20
        while not cancel() and time.monotonic() < deadline:
            time.sleep(0.005)
        raise Cancelled("test")
    return fn


def idle(qtbot, win):
    qtbot.waitUntil(lambda: not win.jobs.busy, timeout=20000)
    qtbot.wait(20)                              # the ended signals' slots ran


def test_esc_during_statistics_does_not_leave_computing(qtbot, window, monkeypatch):
    import kmetric_gui.analysis.stats as stats
    started = threading.Event()
    monkeypatch.setattr(stats, "analyze", lambda report, ci, shake, cancel=None, strict=False:
                        until_cancelled(started)(cancel))
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    qtbot.waitUntil(started.is_set, timeout=10000)
    assert "computing" in window.score_panel.interval.text()
    window.controller.cancel()
    idle(qtbot, window)
    assert "computing" not in window.score_panel.interval.text()
    assert "not computed" in window.score_panel.interval.text()
    assert window.shakeup.shakeup is None             # no shake-up of older numbers either


def test_esc_during_a_rescore_marks_the_numbers_out_of_date(qtbot, window, monkeypatch):
    import kmetric_gui.gui.controller as ctl
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    idle(qtbot, window)
    shown = window.score_panel.score_label.text()
    started = threading.Event()
    real = ctl.score_prepared
    monkeypatch.setattr(ctl, "changed_cells", lambda old, new: None)     # a full rescore
    monkeypatch.setattr(ctl, "score_prepared", until_cancelled(started))
    c = column(window, "pred")
    m = window.table_panel.model
    set_cell(window, 0, c, str((int(m.data(m.index(0, c))) + 2) % 5))
    qtbot.waitUntil(started.is_set, timeout=10000)
    window.controller.cancel()
    idle(qtbot, window)
    p = window.score_panel
    assert p.score_label.text() == shown              # the old number stays, marked
    assert p.stale and p.stale_note.isVisible() and "Out of date" in p.stale_note.text()
    assert "line-through" in p.score_label.styleSheet()
    assert window.table_panel.model.unscored and not window.tabs.isVisible()
    assert "out of date" in window.shakeup.title.text() and window.shakeup.shakeup is None
    # "Score again" scores the data shown (the CLI's score of the edited file)
    monkeypatch.setattr(ctl, "score_prepared", real)
    rep = wait_scored(qtbot, window, lambda: p.stale_note.linkActivated.emit("rescore"))
    assert p.stale is None and not p.stale_note.isVisible()
    from kmetric_gui.analysis.scoring import score_prepared
    assert rep.score == pytest.approx(score_prepared(window.session.data.prepared(),
                                                     window.session.options).score)


@pytest.fixture
def slow_load(monkeypatch):
    import kmetric_gui.gui.controller as ctl
    started = threading.Event()
    real = ctl.load

    def install():
        monkeypatch.setattr(ctl, "load", until_cancelled(started))
        return started

    def restore():
        monkeypatch.setattr(ctl, "load", real)
    install.restore = restore
    return install


def test_esc_during_a_load_keeps_the_old_files_names_and_data(qtbot, window, slow_load,
                                                            tmp_path):
    qwk = demo_paths("qwk")
    wait_scored(qtbot, window, lambda: window.open_files(*qwk))
    idle(qtbot, window)
    data = window.session.data
    started = slow_load()
    window.open_files(*demo_paths("lwlrap"))
    qtbot.waitUntil(started.is_set, timeout=10000)
    s = window.session
    # a project saved while the new files are read records the data shown
    assert window.projects.save(str(tmp_path / "p.kmetric"))
    window.controller.cancel()
    idle(qtbot, window)
    assert (s.truth_path, s.sub_path) == qwk and s.data is data
    assert (window.truth_zone.path, window.sub_zone.path) == qwk
    assert Path(qwk[1]).name in window.windowTitle()
    text = (tmp_path / "p.kmetric").read_text()
    assert "qwk_submission.csv" in text and "lwlrap" not in text
    assert window.score_panel.score_label.text() == f"{score_files(*qwk).score:.6f}"


def test_the_table_takes_no_edits_while_files_load(qtbot, window, slow_load):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    idle(qtbot, window)
    started = slow_load()
    window.open_files(*demo_paths("lwlrap"))
    qtbot.waitUntil(started.is_set, timeout=10000)
    tp, c = window.table_panel, column(window, "pred")
    m = tp.model
    before = m.data(m.index(0, c))
    assert not set_cell(window, 0, c, str((int(before) + 1) % 5))
    assert m.data(m.index(0, c)) == before and not window.session.dirty
    assert not (m.flags(m.index(0, c)) & m.flags(m.index(0, c)).ItemIsEditable)
    assert tp.banner.isVisible() and "read" in tp.banner.text()
    assert "new files are being read" in window.statusBar().currentMessage()
    assert window.controller.paste([(m.columns[c].spec, 0, "1")]) is not None
    window.controller.cancel()
    idle(qtbot, window)
    assert not tp.banner.isVisible()
    new = str((int(before) + 1) % 5)
    wait_scored(qtbot, window, lambda: set_cell(window, 0, c, new))
    assert window.session.dirty


def test_save_then_open_takes_no_edit_in_between(qtbot, window, tmp_path, monkeypatch):
    """Edits, then another file is opened and the user answers Save: an edit typed
    while the save runs is refused (said), not saved-over-and-lost."""
    from PySide6.QtWidgets import QMessageBox
    import kmetric_gui.io.saving as saving
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    idle(qtbot, window)
    c = column(window, "pred")
    m = window.table_panel.model
    first = str((int(m.data(m.index(0, c))) + 1) % 5)
    ident = m.data(m.index(0, 0))
    wait_scored(qtbot, window, lambda: set_cell(window, 0, c, first))
    idle(qtbot, window)
    go, real = threading.Event(), saving.save_atomic
    monkeypatch.setattr(saving, "save_atomic", lambda *a: go.wait(20) and real(*a))
    out = tmp_path / "saved.csv"
    window.ask_unsaved = lambda: QMessageBox.Save
    monkeypatch.setattr(window, "ask_save_path", lambda: str(out))
    window.open_files(*demo_paths("fbeta"))
    assert window.session.held                       # the save runs
    second = str((int(m.data(m.index(1, c))) + 1) % 5)
    assert not set_cell(window, 1, c, second)
    assert window.session.history_index == 1
    go.set()
    qtbot.waitUntil(lambda: window.session.data.metric == "fbeta", timeout=30000)
    idle(qtbot, window)
    assert not window.session.held and window.session.sub_path == demo_paths("fbeta")[1]
    saved = dict(line.split(",") for line in out.read_text().splitlines()[1:])
    assert saved[ident] == first


def test_a_screenshot_that_times_out_exits_cleanly(tmp_path):
    """Before: the worker threads were never shut down and Qt aborted (exit 134)."""
    import os
    import subprocess
    import sys
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "KMETRIC_SETTINGS": str(tmp_path / "s.ini")}
    r = subprocess.run([sys.executable, "-m", "kmetric_gui", "--demo", "lwlrap", "--screenshot",
                        str(tmp_path / "x.png"), "--timeout", "0.2"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 1, r.stderr
    assert "nothing to screenshot after 0.2 s" in r.stderr
    assert "QThread" not in r.stderr and not (tmp_path / "x.png").exists()


def test_esc_right_after_the_score_lands_does_not_leave_computing(qtbot, window):
    """Esc in the same turn of the event loop as the new data (before the coalesced
    rescore check ran): the interval stopped must still be said."""
    def esc(kind):
        if kind == "load":
            window.jobs.delivered.disconnect(esc)
            window.controller.cancel()
    window.jobs.delivered.connect(esc)
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    idle(qtbot, window)
    assert window.session.stats is None
    assert "computing" not in window.score_panel.interval.text()


def test_esc_during_a_reload_for_new_options_keeps_the_options_read_with(qtbot, window,
                                                                        slow_load):
    """Another id column asks for the files again; Esc keeps the data shown, so the
    options in force (and shown) are again those it was read with."""
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    idle(qtbot, window)
    read = window.session.options
    started = slow_load()
    o = window.options_panel
    o.id_column.setText("foo")
    o.id_column.editingFinished.emit()
    qtbot.waitUntil(started.is_set, timeout=10000)
    assert window.session.options.id_column == "foo"
    window.controller.cancel()
    idle(qtbot, window)
    assert window.session.options == read and o.options() == read
    assert window.score_panel.stale is None           # the score is of these options


def test_a_save_of_a_state_left_does_not_mark_another_saved(qtbot, window, tmp_path,
                                                           monkeypatch):
    """Save as runs; meanwhile the edit is undone and another made in its place (same
    history step, other data); then the save ends: the data shown is not what was
    written, so it stays marked unsaved."""
    import kmetric_gui.io.saving as saving
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    idle(qtbot, window)
    c = column(window, "pred")
    m = window.table_panel.model
    old = int(m.data(m.index(0, c)))
    wait_scored(qtbot, window, lambda: set_cell(window, 0, c, str((old + 1) % 5)))
    idle(qtbot, window)
    go, real = threading.Event(), saving.save_atomic
    monkeypatch.setattr(saving, "save_atomic", lambda *a: go.wait(20) and real(*a))
    out = tmp_path / "edited.csv"
    window.save_to(str(out))
    s = window.session
    s.undo()
    set_cell(window, 0, c, str((old + 2) % 5))
    assert s.history_index == 1
    go.set()
    qtbot.waitUntil(out.is_file, timeout=10000)
    idle(qtbot, window)
    assert s.dirty and window.windowTitle().endswith("*")


def test_a_save_failing_while_files_load_keeps_the_table_read_only(qtbot, window, tmp_path,
                                                                   monkeypatch, slow_load):
    """Holds of a save and of a load are apart: the save ending (here failing) does not
    open the table to edits the load in flight would drop (found by the soak)."""
    from PySide6.QtWidgets import QMessageBox
    import kmetric_gui.io.saving as saving
    from kmetric_gui.gui import dialogs
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    idle(qtbot, window)
    c = column(window, "pred")
    m = window.table_panel.model
    old = int(m.data(m.index(0, c)))
    wait_scored(qtbot, window, lambda: set_cell(window, 0, c, str((old + 1) % 5)))
    idle(qtbot, window)
    go = threading.Event()

    def failing(*a):
        go.wait(20)
        raise OSError("disk full")
    monkeypatch.setattr(saving, "save_atomic", failing)
    monkeypatch.setattr(dialogs, "show_error", lambda *a, **k: None)
    monkeypatch.setattr(window, "ask_save_path", lambda: str(tmp_path / "x.csv"))
    answers = [QMessageBox.Save, QMessageBox.Discard]
    window.ask_unsaved = lambda: answers.pop(0) if answers else QMessageBox.Discard
    started = slow_load()
    window.open_files(*demo_paths("lwlrap"))          # Save: saving first
    window.open_files(*demo_paths("fbeta"))           # Discard: reads after the save
    go.set()
    qtbot.waitUntil(started.is_set, timeout=10000)
    idle_save = lambda: not any(k.startswith("save") for k in window.jobs.in_flight())  # noqa: E731
    qtbot.waitUntil(idle_save, timeout=10000)
    assert window.jobs.running("load") and window.session.held
    assert not set_cell(window, 0, c, str((old + 2) % 5))
    window.controller.cancel()
    idle(qtbot, window)


def test_esc_during_the_analysis_leaves_no_list_or_comparison_of_older_numbers(
        qtbot, window, monkeypatch):
    import kmetric_gui.analysis.comparison as comparison
    import kmetric_gui.analysis.fixes as fixes
    truth, sub = demo_paths("qwk")
    wait_scored(qtbot, window, lambda: window.open_files(truth, sub))
    with qtbot.waitSignal(window.session.compare_changed, timeout=30000,
                          check_params_cb=lambda r: r is not None):
        window.controller.compare_jobs.add([sub.replace("qwk_submission", "qwk_submission_b")])
    idle(qtbot, window)
    tabs = window.tabs
    assert tabs.isTabVisible(tabs.indexOf(tabs.fixes))
    started = threading.Event()

    def stuck(*a, **k):
        started.set()
        cancel = k.get("cancel") or a[-1]
        until_cancelled(threading.Event())(cancel)
    monkeypatch.setattr(fixes, "top_fixes", lambda *a, **k: until_cancelled(started)(
        lambda: not window.jobs.running("fixes")))
    monkeypatch.setattr(comparison, "compare_reports", stuck)
    c = column(window, "pred")
    m = window.table_panel.model
    wait_scored(qtbot, window, lambda: set_cell(window, 0, c, str((int(m.data(m.index(0, c)))
                                                                    + 1) % 5)))
    qtbot.waitUntil(started.is_set, timeout=10000)
    window.controller.cancel()
    idle(qtbot, window)
    assert not tabs.isTabVisible(tabs.indexOf(tabs.fixes))
    assert "stopped" in tabs.compare.view.title.text()


def test_a_screenshot_of_a_failure_says_what_failed(tmp_path):
    """A failure with no problem of the data (an unexpected error, a metric file failing
    on a rescore) exited 2 and printed nothing."""
    import os
    import subprocess
    import sys
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "KMETRIC_SETTINGS": str(tmp_path / "s.ini")}
    code = ("import sys\n"
            "from PySide6.QtCore import QTimer\n"
            "from kmetric_gui.gui import app, main_window\n"
            "def failing_open(self, name):\n"
            "    QTimer.singleShot(0, lambda: self.failed.emit('the worker stopped: boom'))\n"
            "main_window.MainWindow.open_demo = failing_open\n"
            f"sys.exit(app.main(['--demo', 'qwk', '--screenshot', {str(tmp_path / 'x.png')!r}]))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 2, r.stderr
    assert "kmetric-gui: the worker stopped: boom" in r.stderr
