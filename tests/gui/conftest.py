import gc

import pytest


@pytest.fixture(autouse=True)
def collect_on_the_main_thread():
    """As the app does (gui/app.py): no garbage collection on a worker thread while a
    test's jobs run. A cycle holding a Qt object of an earlier test, collected on a
    worker, was deleted on the main thread while that worker emitted a signal: a Qt
    mutex against the GIL hung the run (the main thread in ~QObject of a QMenu)."""
    gc.collect()
    gc.disable()
    yield
    gc.collect()                # the test's windows, closed by qtbot before this
    gc.enable()


@pytest.fixture(autouse=True)
def no_metric_question(monkeypatch):
    """Files several metrics fit make the app ask which one: in tests never a modal
    dialog (it would wait for ever); the question is recorded and none is chosen."""
    from kmetric_gui.gui.main_window import MainWindow
    asked = []
    monkeypatch.setattr(MainWindow, "ask_metric", lambda self, names: asked.append(names))
    return asked


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("KMETRIC_SETTINGS", str(tmp_path / "settings.ini"))
    from kmetric_gui.gui.main_window import MainWindow
    win = MainWindow()
    from PySide6.QtWidgets import QMessageBox
    win.ask_unsaved = lambda: QMessageBox.Discard     # never a modal dialog in tests
    qtbot.addWidget(win)
    win.show()
    yield win
    win._discarding = True
    win.jobs.shutdown()


def wait_scored(qtbot, win, action, timeout=20000):
    with qtbot.waitSignal(win.scored, timeout=timeout) as blocker:
        action()
    return blocker.args[0]


DEMO_JOBS = {"lwlrap": "lwlrap-samples", "fbeta": "fbeta-docs"}   # the view's table job


def wait_scored_and(qtbot, win, kind, action, timeout=20000):
    """The report of ``action``, once the job ``kind`` (a view's table) delivered too."""
    with qtbot.waitSignal(win.jobs.delivered, timeout=timeout,
                          check_params_cb=lambda k: k == kind):
        rep = wait_scored(qtbot, win, action, timeout)
    return rep


def open_view(qtbot, win, metric, action=None):
    """Open ``metric``'s demo (or run ``action``) and wait for its view's table."""
    from kmetric_gui.gui.main_window import demo_paths
    return wait_scored_and(qtbot, win, DEMO_JOBS[metric],
                           action or (lambda: win.open_files(*demo_paths(metric))))


def prep(win):
    """The data shown now, edits applied."""
    return win.session.data.prepared()


def column(win, name, part=None):
    """Index of the table column reading a data field ('truth' / 'pred')."""
    cols = win.table_panel.model.columns
    return next(i for i, c in enumerate(cols)
                if c.spec is not None and c.spec.name == name and c.spec.part == part)


def set_cell(win, view_row, col, text):
    m = win.table_panel.model
    return m.setData(m.index(view_row, col), text)


def wait_rows(qtbot, win, action, timeout=10000):
    with qtbot.waitSignal(win.table_panel.rows_shown, timeout=timeout):
        action()
