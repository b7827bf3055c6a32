"""One edit in the running app, watched: did it rescore from scratch, and on which
thread was the edited data built (tests of incremental rescoring)."""
import threading


def edit_in_app(qtbot, monkeypatch, tmp_path, pair, text):
    """Open ``pair`` in a window and type ``text`` into the first row's prediction.

    Returns (full rescores run after the files were scored, for each build of the
    edited data whether it ran on the UI thread, the new score, the edited data).
    """
    monkeypatch.setenv("KMETRIC_SETTINGS", str(tmp_path / "s.ini"))
    from kmetric_gui.gui.main_window import MainWindow
    import kmetric_gui.gui.controller as ctl
    from kmetric_gui.state.data import DataVersion
    calls, on_ui = [], []
    real = ctl.score_prepared
    monkeypatch.setattr(ctl, "score_prepared", lambda *a, **k: calls.append(1) or real(*a, **k))
    made = DataVersion._materialize            # the edited arrays, made where they are read
    monkeypatch.setattr(DataVersion, "_materialize", lambda self: on_ui.append(
        threading.current_thread() is threading.main_thread()) or made(self))
    win = MainWindow()
    qtbot.addWidget(win)
    with qtbot.waitSignal(win.scored, timeout=20000):
        win.open_files(*pair)
    try:
        calls.clear()
        m = win.table_panel.model
        c = next(i for i, col in enumerate(m.columns) if col.spec is not None and col.spec.name == "pred")
        with qtbot.waitSignal(win.scored, timeout=20000) as b:
            m.setData(m.index(0, c), text)
        qtbot.waitUntil(lambda: not win.jobs.busy, timeout=20000)
        built_on_ui = list(on_ui)              # before this test reads the data itself
        return list(calls), built_on_ui, b.args[0].score, win.session.data.prepared()
    finally:                # a failure must not leave workers behind
        win._discarding = True
        win.jobs.shutdown()
