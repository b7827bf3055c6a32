"""Run in a fresh interpreter: open file pairs one after the other in the window
(offscreen), wait until every job ended, print the process's RSS in MB as JSON.

    python tests/gui/memory_child.py METRIC TRUTH SUB [TRUTH SUB ...]

Used by test_memory_returned.py and bench/memory.py.
"""
import gc
import json
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def rss_mb():
    import psutil
    return psutil.Process().memory_info().rss / 2 ** 20


def main(argv):
    metric, paths = argv[0], argv[1:]
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance() or QApplication([])
    from kmetric_gui.gui.main_window import MainWindow
    win = MainWindow(size=(1280, 720))
    win.ask_metric = lambda names: None
    win.show()
    o = win.options_panel
    combo = o.metric_combo
    combo.blockSignals(True)
    combo.setCurrentIndex(combo.findData(metric))
    combo.blockSignals(False)
    win.session.set_options(o.options())
    o.replicates.setValue(o.replicates.minimum())      # the statistics' size is not the point
    o.splits.setValue(o.splits.minimum())

    def idle():
        deadline = time.monotonic() + 300
        while win.jobs.busy or win.controller._rescore_timer.isActive():
            app.processEvents()
            time.sleep(0.005)
            if time.monotonic() > deadline:
                raise SystemExit(f"jobs never ended: {win.jobs.in_flight()}")
        for _ in range(20):
            app.processEvents()
        gc.collect()
        app.processEvents()

    idle()
    out = {"start": rss_mb(), "after": []}
    for truth, sub in zip(paths[::2], paths[1::2]):
        win.controller.open_files(truth, sub)
        idle()
        out["after"].append(rss_mb())
    out["score"] = win.score_panel.score_label.text()
    print(json.dumps(out), flush=True)
    win._discarding = True
    win.jobs.shutdown()


if __name__ == "__main__":
    main(sys.argv[1:])
