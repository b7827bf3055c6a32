"""Messages and names that were true once do not stay after what made them true
went: "Not compared…" after the comparison works again, the compared leaderboard's
name of the shown file after Save as, "Done…" and the last files' problems while
new files load."""
import threading

from conftest import column, set_cell, wait_scored
from kmetric_gui.errors import Cancelled, InputError
from kmetric_gui.gui.main_window import demo_paths


def compared(qtbot, win, action):
    with qtbot.waitSignal(win.session.compare_changed, timeout=30000,
                          check_params_cb=lambda r: r is not None):
        action()
    return win.session.comparison


def test_not_compared_goes_once_the_comparison_works(qtbot, window, monkeypatch):
    import kmetric_gui.analysis.comparison as comparison
    truth, sub = demo_paths("qwk")
    wait_scored(qtbot, window, lambda: window.open_files(truth, sub))
    real, calls = comparison.compare_reports, []

    def once_broken(*a, **k):
        calls.append(1)
        if len(calls) == 1:
            raise InputError("the solution's edited rating 9 is outside the ratings")
        return real(*a, **k)
    monkeypatch.setattr(comparison, "compare_reports", once_broken)
    bar = window.statusBar()
    with qtbot.waitSignal(window.jobs.ended, timeout=30000,
                          check_params_cb=lambda k, o: k == "compare"):
        window.controller.compare_jobs.add([sub.replace("qwk_submission", "qwk_submission_b")])
    assert bar.currentMessage().startswith("Not compared")
    # compared again (here: new interval settings; in use: the edit undone) and it works
    compared(qtbot, window, lambda: window.options_panel.ci_level.setValue(0.9))
    assert not bar.currentMessage().startswith("Not compared")


def test_the_leaderboard_names_the_file_saved(qtbot, window, tmp_path):
    truth, sub = demo_paths("qwk")
    wait_scored(qtbot, window, lambda: window.open_files(truth, sub))
    cmp = compared(qtbot, window, lambda: window.controller.compare_jobs.add(
        [sub.replace("qwk_submission", "qwk_submission_b")]))
    assert cmp.comparison.submissions[0].name.startswith("qwk_submission.csv")
    c = column(window, "pred")
    m = window.table_panel.model
    compared(qtbot, window, lambda: set_cell(window, 0, c, str((int(m.data(m.index(0, c))) + 1)
                                                                 % 5)))
    out = tmp_path / "mine.csv"
    cmp = compared(qtbot, window, lambda: window.save_to(str(out)))
    assert cmp.comparison.submissions[0].name.startswith("mine.csv")


def test_loading_never_says_done_nor_keeps_the_last_files_problems(qtbot, window, tmp_path,
                                                                   monkeypatch):
    truth, sub = demo_paths("qwk")
    bad = tmp_path / "empty.csv"
    bad.write_text("")
    with qtbot.waitSignal(window.failed, timeout=10000):
        window.open_files(truth, str(bad))
    assert window.problems.list.count() == 1
    seen = []
    window.jobs.progress.connect(
        lambda kind, f, msg: seen.append(window.score_panel.metric_label.text()))
    wait_scored(qtbot, window, lambda: window.open_files(truth, sub))
    assert seen and not any(t.lower().startswith("done") for t in seen)
    # while the next files are read, the last files' problems are not listed as theirs
    import kmetric_gui.gui.controller as ctl
    with qtbot.waitSignal(window.failed, timeout=10000):
        window.open_files(truth, str(bad))
    started = threading.Event()

    def slow(*args):
        started.set()
        while not args[-1]():
            started.wait(0.005)
        raise Cancelled("reading")
    monkeypatch.setattr(ctl, "load", slow)
    window.open_files(truth, sub)
    qtbot.waitUntil(started.is_set, timeout=10000)
    assert window.problems.list.count() == 0
    assert "Reading" in window.problems.header.text()
    window.controller.cancel()
    qtbot.waitUntil(lambda: not window.jobs.busy, timeout=10000)
    qtbot.wait(20)
    assert window.problems.list.count() == 1        # Esc: the files shown, their problems
