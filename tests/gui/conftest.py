import pytest


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
    win.undo.setClean()
    win.work.shutdown()


def wait_scored(qtbot, win, action, timeout=20000):
    with qtbot.waitSignal(win.scored, timeout=timeout) as blocker:
        action()
    return blocker.args[0]
