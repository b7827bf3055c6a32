"""Every view fits common screens: nothing of the main view outside the window."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QWidget

from conftest import wait_scored
from kmetric_gui.gui.main_window import demo_paths

ROOT = Path(__file__).resolve().parents[2]


def outside(window):
    """Visible widgets whose rectangle leaves the window (scroll-area content excepted)."""
    frame = QRect(QPoint(0, 0), window.size())
    # A dock behind another dock's tab is parked off-screen by Qt: not shown.
    behind = [d for d in window.docks if window.tabifiedDockWidgets(d) and d.visibleRegion().isEmpty()]
    bad = []
    for w in window.findChildren(QWidget):
        if any(w is d or d.isAncestorOf(w) for d in behind):
            continue
        if not w.isVisible() or w.width() == 0 or w.window() is not window:
            continue
        if any(type(p).__name__ in ("QScrollArea", "QAbstractScrollArea") or
               p.objectName() == "qt_scrollarea_viewport" for p in _parents(w, window)):
            continue
        r = QRect(w.mapTo(window, QPoint(0, 0)), w.size())
        if not frame.contains(r):
            bad.append((type(w).__name__, w.objectName(), r))
    return bad


def _parents(w, top):
    p = w.parentWidget()
    while p is not None and p is not top:
        yield p
        p = p.parentWidget()


@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta"])
@pytest.mark.parametrize("size", [(1280, 720), (1366, 768), (1920, 1080)])
def test_views_fit_the_window(qtbot, window, metric, size):
    window.reset_layout()
    window.resize(*size)
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths(metric)))
    qtbot.wait(200)
    assert (window.width(), window.height()) == size
    assert outside(window) == []


@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta"])
def test_minimum_size_with_and_without_docks(qtbot, window, metric):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths(metric)))
    hint = window.minimumSizeHint()
    assert hint.width() <= 1280 and hint.height() <= 720
    for dock in window.docks:
        dock.hide()
    qtbot.wait(50)
    hint = window.minimumSizeHint()
    assert hint.width() <= 1024 and hint.height() <= 640


@pytest.mark.parametrize("size", ["1280x720", "1024x640"])
def test_screenshot_has_exactly_the_size_asked(tmp_path, size):
    png = tmp_path / "shot.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "KMETRIC_SETTINGS": str(tmp_path / "s.ini")}
    r = subprocess.run([sys.executable, "-m", "kmetric_gui", "--demo", "fbeta", "--screenshot",
                        str(png), "--size", size], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    from PySide6.QtGui import QImage
    img = QImage(str(png))
    assert f"{img.width()}x{img.height()}" == size


def test_fits_at_double_scale(tmp_path):
    """QT_SCALE_FACTOR=2 (a 2560 x 1440 screen at 2x is 1280 x 720 logical)."""
    code = f"""
import sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication
from kmetric_gui.gui.main_window import MainWindow, demo_paths
from test_layout import outside
app = QApplication([])
for metric in ("qwk", "lwlrap", "fbeta"):
    win = MainWindow(size=(1280, 720))
    win.show()
    loop = QEventLoop()
    win.scored.connect(lambda *a: QTimer.singleShot(400, loop.quit))
    win.open_files(*demo_paths(metric))
    loop.exec()
    assert app.devicePixelRatio() == 2.0, app.devicePixelRatio()
    assert (win.width(), win.height()) == (1280, 720), (metric, win.width(), win.height())
    bad = outside(win)
    assert not bad, (metric, bad[:3])
    win.discard_and_close()
print("OK")
"""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "QT_SCALE_FACTOR": "2",
           "KMETRIC_SETTINGS": str(tmp_path / "s.ini")}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=180)
    assert r.returncode == 0 and "OK" in r.stdout, r.stderr[-1500:]
