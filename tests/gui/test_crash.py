"""The crash hook when there is no console (windowed builds on Windows and macOS:
sys.stderr is None): the details go to a log file and a dialog still appears."""
import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import sys
    sys.stderr = None                      # as in a windowed PyInstaller build
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox
    from kmetric_gui.gui.app import install_excepthook

    app = QApplication([])
    install_excepthook(lambda: None)

    def boom():
        raise ValueError("boom from a slot")

    def report():
        boxes = [w for w in app.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]
        print("dialogs", len(boxes))
        for box in boxes:
            print("text", box.text())
            print("info", box.informativeText())
        app.quit()

    QTimer.singleShot(0, boom)
    QTimer.singleShot(300, report)
    app.exec()
""")


# An error before the event loop runs (while the window is built): Python calls the hook as
# the process ends, so the dialog must block; a timer stands in for the user's click.
AT_START = textwrap.dedent("""
    import sys
    sys.stderr = None
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox
    from kmetric_gui.gui.app import install_excepthook

    app = QApplication([])
    install_excepthook(lambda: None)

    def click_ok():
        for w in app.topLevelWidgets():
            if isinstance(w, QMessageBox) and w.isVisible():
                print("shown", w.text(), flush=True)
                w.accept()

    QTimer.singleShot(500, click_ok)
    raise RuntimeError("broken before the window")
""")


def run_without_stderr(tmp_path, script=SCRIPT):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "KMETRIC_LOG_DIR": str(tmp_path / "logs")}
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, env=env)


def test_crash_dialog_and_log_without_stderr(tmp_path):
    r = run_without_stderr(tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "dialogs 1" in r.stdout
    assert "text ValueError: boom from a slot" in r.stdout
    log = tmp_path / "logs" / "crash.log"
    assert f"saved to {log}" in r.stdout
    text = log.read_text(encoding="utf-8")
    assert "Traceback" in text and "ValueError: boom from a slot" in text and "def boom" not in text


def test_crash_before_the_event_loop_waits_for_the_dialog(tmp_path):
    r = run_without_stderr(tmp_path, AT_START)
    assert r.returncode == 1, r.stdout + r.stderr          # the error still ends the process
    assert "shown RuntimeError: broken before the window" in r.stdout
    assert "broken before the window" in (tmp_path / "logs" / "crash.log").read_text(encoding="utf-8")


def test_log_folder_is_per_user(monkeypatch, tmp_path):
    from kmetric_gui.gui import crash
    monkeypatch.delenv("KMETRIC_LOG_DIR", raising=False)
    monkeypatch.setattr(crash.Path, "home", classmethod(lambda cls: tmp_path))
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    monkeypatch.delenv("LOCALAPPDATA", raising=False)
    folder = crash.log_dir()
    assert tmp_path in folder.parents and "kmetric_gui" in folder.parts


def test_unwritable_log_folder_gives_none(monkeypatch, tmp_path):
    from kmetric_gui.gui import crash
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("KMETRIC_LOG_DIR", str(blocker / "logs"))
    assert crash.write_log("details") is None
