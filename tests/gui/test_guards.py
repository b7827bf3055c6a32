"""No Python exception escapes a method Qt calls (an exception leaving closeEvent took
PySide down: exit 139, settings lost). Every override the app defines is guarded."""
import importlib
import inspect
import os
import pkgutil
import subprocess
import sys
import textwrap

import pytest

import kmetric_gui.gui as gui_pkg
from kmetric_gui.gui.crash import guarded


def _modules():
    return [importlib.import_module(m.name)
            for m in pkgutil.walk_packages(gui_pkg.__path__, gui_pkg.__name__ + ".")]


def _qt_overrides():
    """(class, method name, function) of every method of the app's classes that
    overrides a method of a Qt class (found in the MRO, wherever the class is defined)."""
    seen = set()
    for mod in _modules():
        for cls in vars(mod).values():
            if not inspect.isclass(cls) or not cls.__module__.startswith(gui_pkg.__name__) \
                    or cls in seen:
                continue
            seen.add(cls)
            qt = [b for b in cls.__mro__ if b.__module__.startswith(("PySide6.", "shiboken6"))]
            for name, fn in vars(cls).items():
                if callable(fn) and not name.startswith("__") and any(name in vars(b) for b in qt):
                    yield cls, name, fn


def test_every_qt_override_is_guarded():
    found = list(_qt_overrides())
    names = {(c.__name__, n) for c, n, _ in found}
    # the walker sees what it must (a check that it is not vacuous)
    assert {("MainWindow", "closeEvent"), ("ColumnsModel", "data"), ("ColumnsModel", "setData"),
            ("DropZone", "dropEvent"), ("Overlay", "paint")} <= names
    bare = [f"{c.__module__}.{c.__name__}.{n}" for c, n, fn in found
            if not getattr(fn, "guarded", False)]
    assert bare == []


def test_guard_reports_and_answers_neutrally(monkeypatch):
    from PySide6.QtCore import QAbstractTableModel, Qt
    seen = []
    monkeypatch.setattr(sys, "excepthook", lambda t, v, tb: seen.append((t, str(v))))

    class Model(QAbstractTableModel):
        @guarded
        def rowCount(self, parent=None):
            raise ValueError("bad row count")

        @guarded
        def columnCount(self, parent=None):
            return 2

        @guarded
        def flags(self, index):
            raise KeyError("x")

        @guarded
        def data(self, index, role=Qt.DisplayRole):
            raise IndexError("row 9")

    m = Model()
    assert m.rowCount() == 0 and m.columnCount() == 2
    cell = m.createIndex(0, 0)
    assert m.flags(cell) == Qt.NoItemFlags
    assert m.data(cell) is None
    assert [t for t, _ in seen] == [ValueError, KeyError, IndexError]
    assert seen[0][1] == "bad row count"


CLOSE_RAISES = textwrap.dedent("""
    import sys
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox
    from kmetric_gui.gui import app as appmod
    from kmetric_gui.gui.main_window import MainWindow

    def broken(self):
        raise RuntimeError("broken while closing")
    if sys.argv[1] == "raise":
        MainWindow._save_settings = broken
    qapp = QApplication([])

    def close():
        win = next(w for w in qapp.topLevelWidgets() if isinstance(w, MainWindow))
        if sys.argv[1] != "raise":
            win.options_panel.min_rating.setText(sys.argv[1])
            win.options_panel.min_rating.editingFinished.emit()
        win.close()
        QTimer.singleShot(1000, report)

    def report():
        boxes = [w for w in qapp.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]
        print("dialogs", len(boxes), [b.text() for b in boxes], flush=True)
        qapp.quit()
    QTimer.singleShot(800, close)
    print("exit", appmod.main([]), flush=True)
""")


def run_app(tmp_path, arg):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "KMETRIC_LOG_DIR": str(tmp_path / "logs"),
           "KMETRIC_SETTINGS": str(tmp_path / "settings.ini")}
    return subprocess.run([sys.executable, "-c", CLOSE_RAISES, arg], capture_output=True,
                          text=True, timeout=120, env=env)


def test_an_exception_in_close_event_is_reported_not_a_crash(tmp_path):
    r = run_app(tmp_path, "raise")
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr[-2000:])
    assert "exit 0" in r.stdout
    log = (tmp_path / "logs" / "crash.log").read_text(encoding="utf-8")
    assert "broken while closing" in log and "closeEvent" in log


@pytest.mark.parametrize("typed", ["+", "1,000", "-", "1e3", "٣"])
def test_odd_min_rating_then_close_keeps_the_app_and_settings(tmp_path, typed):
    r = run_app(tmp_path, typed)
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr[-2000:])
    assert "exit 0" in r.stdout and "Unexpected error" not in r.stdout
    assert not (tmp_path / "logs" / "crash.log").exists()
    assert (tmp_path / "settings.ini").exists()                     # settings were written
