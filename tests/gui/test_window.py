import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QFontDatabase
from PySide6.QtWidgets import QApplication, QMessageBox

from conftest import column, prep, set_cell, wait_rows, wait_scored
from kmetric_gui.errors import Cancelled
from kmetric_gui.gui.main_window import demo_paths
from kmetric_gui.analysis.scoring import Options, score_files

ROOT = Path(__file__).resolve().parents[2]


def test_fonts_available(qapp):
    assert QFontDatabase.families(), "no fonts: text would render as empty boxes"


@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta"])
def test_open_demo_score_equals_scoring(qtbot, window, metric):
    rep = wait_scored(qtbot, window, lambda: window.open_files(*demo_paths(metric)))
    want = score_files(*demo_paths(metric))
    assert rep.metric == metric
    assert rep.score == pytest.approx(want.score)
    assert window.score_panel.score_label.text() == f"{want.score:.6f}"
    assert window.table_panel.model.rowCount() == want.n_rows


def test_drop_two_files_on_window(qtbot, window):
    truth, sub = demo_paths("qwk")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(sub), QUrl.fromLocalFile(truth)])  # order by name
    ev = QDropEvent(QPointF(10, 10), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    rep = wait_scored(qtbot, window, lambda: window.dropEvent(ev))
    assert window.session.truth_path == truth and window.session.sub_path == sub
    assert rep.score == pytest.approx(score_files(truth, sub).score)


def test_drop_one_file_per_zone(qtbot, window):
    truth, sub = demo_paths("qwk")
    for zone, path in ((window.truth_zone, truth), (window.sub_zone, sub)):
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(path)])
        ev = QDropEvent(QPointF(5, 5), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
        if zone is window.sub_zone:
            wait_scored(qtbot, window, lambda: zone.dropEvent(ev))
        else:
            zone.dropEvent(ev)
    assert window.score_panel.score_label.text() == f"{score_files(truth, sub).score:.6f}"


def test_edit_rescores_and_undo_restores(qtbot, window):
    rep = wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    before = rep.score
    col = column(window, "pred")
    src = int(window.table_panel.model.rows[0])
    old = int(prep(window).pred[src])
    new = (old + 3) % 5
    rep2 = wait_scored(qtbot, window, lambda: set_cell(window, 0, col, str(new)))
    assert prep(window).pred[src] == new
    assert rep2.score != pytest.approx(before)
    # independent check: sklearn on the edited arrays
    from sklearn.metrics import cohen_kappa_score
    p = prep(window)
    m = p.usage != 2
    assert rep2.score == pytest.approx(cohen_kappa_score(
        p.truth[m], p.pred[m], weights="quadratic", labels=range(5)))
    assert window.windowTitle().endswith("*")
    rep3 = wait_scored(qtbot, window, window.session.undo)
    assert rep3.score == pytest.approx(before) and prep(window).pred[src] == old
    rep4 = wait_scored(qtbot, window, window.session.redo)
    assert rep4.score == pytest.approx(rep2.score)


def test_rejected_edit_says_why(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    col = column(window, "pred")
    model = window.table_panel.model
    with qtbot.waitSignal(model.edit_rejected) as b:
        assert not set_cell(window, 0, col, "2.5")
    assert "not a whole number" in b.args[0]
    assert not window.session.can_undo
    assert "not a whole number" in model.data(model.index(0, col), Qt.ToolTipRole)
    assert "not a whole number" in window.statusBar().currentMessage()


def test_bad_file_shows_reason_and_app_stays_usable(qtbot, window, tmp_path):
    truth, _ = demo_paths("qwk")
    bad = tmp_path / "empty.csv"
    bad.write_text("")
    with qtbot.waitSignal(window.failed, timeout=10000) as b:
        window.open_files(truth, str(bad))
    assert "submission empty.csv: file is empty" in b.args[0]
    assert window.problems.list.count() == 1
    assert "Invalid input" in window.score_panel.metric_label.text()
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    assert window.problems.list.count() == 0


def test_clicking_a_problem_selects_the_row(qtbot, window, tmp_path):
    truth, sub = demo_paths("qwk")
    lines = Path(sub).read_text().splitlines()
    lines[5] = lines[5].split(",")[0] + ",seven"
    bad = tmp_path / "sub_bad.csv"
    bad.write_text("\n".join(lines) + "\n")
    with qtbot.waitSignal(window.failed, timeout=10000):
        window.open_files(truth, str(bad))
    assert window.table_panel.kind == "raw:submission"
    item = next(window.problems.list.item(i) for i in range(window.problems.list.count())
                if "'seven'" in window.problems.list.item(i).text())
    window.problems.list.itemClicked.emit(item)
    tp = window.table_panel
    sel = tp.table.selectionModel().selectedRows()
    assert [tp.model.rows[s.row()] for s in sel] == [4]     # line 6 = data row 5


def wait_saved(qtbot, window, action):
    with qtbot.waitSignal(window.controller.saved, timeout=10000):
        action()


def test_save_as_is_valid_and_input_untouched(qtbot, window, tmp_path):
    truth, sub = demo_paths("qwk")
    original = Path(sub).read_bytes()
    wait_scored(qtbot, window, lambda: window.open_files(truth, sub))
    col = column(window, "pred")
    src = int(window.table_panel.model.rows[3])
    rep = wait_scored(qtbot, window, lambda: set_cell(window, 3, col, str((prep(window).pred[src] + 2) % 5)))
    out = tmp_path / "edited.csv"
    wait_saved(qtbot, window, lambda: window.save_to(str(out)))
    assert not window.session.dirty
    assert Path(sub).read_bytes() == original
    assert score_files(truth, out).score == pytest.approx(rep.score)
    assert not list(tmp_path.glob(".kmetric-*"))           # no temp file left behind
    assert window.save_to(truth) is False                  # never over the solution
    # The demo submission ends its lines with CRLF: so does its saved copy, every line.
    saved = out.read_bytes()
    assert original.count(b"\r\n") == original.count(b"\n") > 0
    assert saved.count(b"\r\n") == saved.count(b"\n") == original.count(b"\n")


def test_close_with_unsaved_edits_asks(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    col = column(window, "pred")
    wait_scored(qtbot, window, lambda: set_cell(window, 0, col, str((prep(window).pred[
        window.table_panel.model.rows[0]] + 1) % 5)))
    asked = []
    window.ask_unsaved = lambda: asked.append(1) or QMessageBox.Cancel
    assert not window.close()
    assert asked and window.isVisible()
    window.ask_unsaved = lambda: QMessageBox.Discard
    assert window.close()


def test_sort_and_filter_through_index_map(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    col = column(window, "pred")
    model = window.table_panel.model
    wait_rows(qtbot, window, lambda: model.sort(col, Qt.DescendingOrder))
    shown = [prep(window).pred[r] for r in model.rows]
    assert shown == sorted(shown, reverse=True)
    target = prep(window).ids[7]
    wait_rows(qtbot, window, lambda: window.table_panel.filter.setText(target[:12]))
    assert [prep(window).ids[r] for r in model.rows] == [target]


def test_options_change_rescores(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    rep = wait_scored(qtbot, window, lambda: window.options_panel.weights.setCurrentText("linear"))
    assert rep.score == pytest.approx(score_files(*demo_paths("qwk"), Options(weights="linear")).score)


def test_worker_cancel_and_supersede(qtbot, window):
    import time
    ctl = window.jobs
    seen = []

    def slow(progress, cancel):
        for _ in range(500):
            if cancel():
                raise Cancelled("test")
            time.sleep(0.01)
        return "slow"
    ctl.submit("test", slow, seen.append)
    qtbot.wait(50)
    ctl.cancel("test")
    qtbot.waitUntil(lambda: not ctl.busy, timeout=5000)
    qtbot.wait(200)
    assert "slow" not in seen
    ctl.submit("test", slow, seen.append)
    ctl.submit("test", lambda p, c: "fast", seen.append)
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)
    qtbot.wait(100)
    assert seen == ["fast"]


def test_settings_remember_options_and_recent(qtbot, window, tmp_path):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    window.options_panel.ties.setCurrentIndex(1)
    window.close()
    from kmetric_gui.gui.main_window import MainWindow
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.options_panel.options().ties == "original"
    assert again._recent()[0] == list(demo_paths("qwk"))
    again.jobs.shutdown()


def test_demo_screenshot_command(tmp_path):
    png = tmp_path / "shot.png"
    env = {**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen",
           "KMETRIC_SETTINGS": str(tmp_path / "s.ini")}
    r = subprocess.run([sys.executable, "-m", "kmetric_gui", "--demo", "--screenshot", str(png)],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    from PySide6.QtGui import QImage
    img = QImage(str(png))
    assert img.width() > 600 and img.height() > 400


def test_no_display_message(tmp_path):
    env = {k: v for k, v in __import__("os").environ.items()
           if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    r = subprocess.run([sys.executable, "-m", "kmetric_gui", "--demo"], capture_output=True,
                       text=True, env=env, cwd=ROOT, timeout=60)
    assert r.returncode == 2 and "no display" in r.stderr and "Traceback" not in r.stderr


def test_unexpected_error_shows_dialog_and_app_keeps_running(qtbot, window):
    def boom(progress, cancel):
        raise RuntimeError("simulated bug")
    with qtbot.waitSignal(window.failed, timeout=5000) as b:
        window.jobs.submit("score", boom, lambda r: None)
    assert "simulated bug" in b.args[0]
    boxes = [w for w in QApplication.topLevelWidgets()
             if isinstance(w, QMessageBox) and w.isVisible()]
    assert boxes and "simulated bug" in boxes[-1].text()
    assert "RuntimeError" in boxes[-1].detailedText()
    # the window says what happened, not "No problems", behind the dialog
    assert "simulated bug" in window.problems.list.item(0).text()
    assert "No problems" not in window.problems.header.text()
    for box in boxes:
        box.close()
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))


def test_options_kept_from_an_earlier_session_are_marked(qtbot, window):
    panel = window.options_panel
    assert not panel.threshold.font().bold()
    panel.threshold.setValue(0.7)
    assert panel.threshold.font().bold() and "default (0.5)" in panel.threshold.toolTip()
    panel.threshold.setValue(0.5)
    assert not panel.threshold.font().bold()


def test_every_shortcut_is_unique(qtbot, window):
    from kmetric_gui.gui.dialogs import shortcut_rows
    keys = [k for _, k in shortcut_rows(window)]
    dup = {k for k in keys if keys.count(k) > 1}
    assert not dup, dup


def test_opening_another_truth_drops_the_compared_files(qtbot, window):
    from kmetric_gui.paths import resources_dir
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("lwlrap")))
    window.controller.compare_jobs.add([str(resources_dir() / "demo" / "lwlrap_submission_b.csv")])
    assert window.session.compare_paths
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    assert window.session.compare_paths == ()


def test_a_rating_outside_the_range_is_said(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    assert not set_cell(window, 0, column(window, "pred"), "2.5")          # refused first
    rep = wait_scored(qtbot, window, lambda: set_cell(window, 0, column(window, "pred"), "7"))
    assert rep.result.labels[-1] == 7
    msg = window.statusBar().currentMessage()
    assert "outside 0..4" in msg and "refused" not in msg


def test_class_names_are_kept_for_the_next_run(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    names = window.tabs.view("qwk").names
    names.setText("none, mild, moderate, severe, proliferative")
    names.editingFinished.emit()
    window.close()
    from kmetric_gui.gui.main_window import MainWindow
    again = MainWindow()
    qtbot.addWidget(again)
    try:        # kept for this dataset (issue 24: per solution file, not for every file)
        wait_scored(qtbot, again, lambda: again.open_files(*demo_paths("qwk")))
        assert again.tabs.view("qwk").names.text() == "none, mild, moderate, severe, proliferative"
    finally:
        again._discarding = True
        again.jobs.shutdown()


def test_solution_edits_are_never_lost_without_a_word(qtbot, window, tmp_path, monkeypatch):
    """Saving the submission does not write the solution's edits: they keep the window
    unsaved, and closing says so (no Save button when only the solution was edited)."""
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    col = column(window, "truth")
    row = window.table_panel.model.rows[0]
    wait_scored(qtbot, window, lambda: set_cell(window, 0, col, str((prep(window).truth[row] + 1) % 5)))
    s = window.session
    assert s.truth_edited and s.dirty and s.submission_dirty
    out = tmp_path / "out.csv"
    with qtbot.waitSignal(s.history_changed, timeout=20000):
        window.save_to(str(out))
    assert out.exists() and not s.submission_dirty
    assert s.dirty and window.windowTitle().endswith(" *")
    asked = []

    def question(parent, title, text, buttons, default):
        asked.append((text, buttons))
        return QMessageBox.Cancel
    from kmetric_gui.gui import dialogs
    monkeypatch.setattr(dialogs, "ask", question)
    del window.ask_unsaved                       # the real question (the fixture's answer is Discard)
    assert not window.close() and window.isVisible()
    text, buttons = asked[-1]
    assert "solution has edits" in text and "project" in text
    assert not (buttons & QMessageBox.Save)
    wait_scored(qtbot, window, s.undo)           # back to the file's solution: nothing to lose
    assert not s.truth_edited
    window.ask_unsaved = lambda: QMessageBox.Discard
