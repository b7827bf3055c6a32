"""Cyclic garbage is collected on the UI thread only, while worker threads live.

Python's collector runs in whichever thread happens to allocate when a threshold is
crossed. If that is a worker and the garbage holds a Qt object, its C++ destructor runs
there and can deadlock against the UI thread: a fresh-clone CI run hung for good with a
worker inside numpy (collecting) and the UI thread inside ``QSplitter.addWidget``
waiting for the GIL. So while a job controller lives, automatic collection is off and a
timer on the UI thread collects with the interpreter's own thresholds. (pyqtgraph's
``GarbageCollector`` does the same for the same reason.)
"""
import gc

from PySide6.QtCore import QCoreApplication, QTimer

_state = {"holders": 0, "timer": None, "was_enabled": True}


def hold():
    """Start collecting on the UI thread (call from it); pair with ``release``."""
    if _state["holders"] == 0:
        _state["was_enabled"] = gc.isenabled()
        gc.disable()
        if _state["timer"] is None:
            timer = QTimer(QCoreApplication.instance())
            timer.setInterval(200)
            timer.timeout.connect(collect_due)
            _state["timer"] = timer
        _state["timer"].start()
    _state["holders"] += 1


def release():
    """The last holder gone: automatic collection as it was."""
    if _state["holders"] == 0:
        return
    _state["holders"] -= 1
    if _state["holders"] == 0:
        _state["timer"].stop()
        collect_due()
        if _state["was_enabled"]:
            gc.enable()


def freeze_long_lived():
    """Call once the window is built: what is alive now (modules, the window's widgets
    and plots) lives as long as the app, so it is moved out of the collector's scans
    (gc.freeze). A full collection on this thread then walks only what was made since:
    after opening 10,000 mask images it took 96-125 ms here, and 21-72 ms frozen
    (bench/images_ui.py). Frozen objects are still freed when nothing refers to them."""
    gc.collect()          # no garbage frozen with them
    gc.freeze()


def collect_due():
    """Collect the generations whose threshold was crossed (what gc would have done)."""
    t0, t1, t2 = gc.get_threshold()
    c0, c1, c2 = gc.get_count()
    if c0 <= t0:
        return
    gen = 2 if c2 > t2 else 1 if c1 > t1 else 0
    gc.collect(gen)
