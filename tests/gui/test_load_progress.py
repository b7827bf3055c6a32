"""While files load, the score panel and the status bar say what is going on: the
panel names the step instead of "No files yet"; a new job's bar does not keep the
last job's "done"."""
from conftest import wait_scored
from kmetric_gui.gui.main_window import demo_paths


def test_the_score_panel_names_the_step_while_loading(qtbot, window):
    seen = []
    window.jobs.progress.connect(
        lambda kind, f, m: kind == "load" and seen.append(window.score_panel.metric_label.text()))
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    assert seen and "No files yet" not in seen
    assert any(t.startswith("Reading") and t.endswith("…") for t in seen)
    assert "rows" in window.score_panel.metric_label.text()        # then the score's own


def test_a_new_job_does_not_show_the_last_ones_message(qtbot, window):
    sp = window.status_progress
    sp.progress("load", 1.0, "done")
    sp.busy(False)
    sp.busy(True)
    assert sp.bar.value() == 0 and sp.label.text() == ""


def test_a_cancelled_load_does_not_keep_saying_it_reads(qtbot, window, monkeypatch):
    import threading
    import time

    from kmetric_gui.errors import Cancelled
    from kmetric_gui.gui import controller as ctl
    started = threading.Event()

    def slow_load(truth, sub, opts, progress, cancel):      # on the worker thread
        started.set()
        progress(0.1, "reading the files")
        deadline = time.monotonic() + 10
        while not cancel() and time.monotonic() < deadline:   # until the user presses Esc
            time.sleep(0.01)
        raise Cancelled("reading the files")
    monkeypatch.setattr(ctl, "load", slow_load)
    window.open_files(*demo_paths("qwk"))
    qtbot.waitUntil(started.is_set, timeout=10000)
    qtbot.waitUntil(lambda: window.score_panel.metric_label.text().startswith("Reading"),
                    timeout=10000)
    window.controller.cancel()
    qtbot.waitUntil(lambda: not window.jobs.busy, timeout=10000)
    qtbot.waitUntil(lambda: window.score_panel.metric_label.text().startswith("Stopped"),
                    timeout=10000)
    assert window.score_panel.score_label.text() == "—"


def test_the_app_collects_garbage_on_its_own_thread_only(qtbot, monkeypatch):
    import gc

    from kmetric_gui.gui import app as app_module
    made = []
    monkeypatch.setattr(app_module, "create_window", lambda args: made.append(1) or None)
    monkeypatch.setattr(app_module, "install_excepthook", lambda *a: None)
    was = gc.isenabled()
    gc.enable()
    try:
        try:
            app_module.main(["--timeout", "1"])
        except Exception:
            pass                                   # no window made: only the set-up matters
        from PySide6.QtWidgets import QApplication
        collector = getattr(QApplication.instance(), "garbage_collector", None)
        assert collector is not None and collector.timer.isActive()
        assert not gc.isenabled()                  # no collection on a worker thread
    finally:
        from PySide6.QtWidgets import QApplication
        c = getattr(QApplication.instance(), "garbage_collector", None)
        if c is not None:
            c.timer.stop()
            del QApplication.instance().garbage_collector
        gc.enable() if was else gc.disable()
