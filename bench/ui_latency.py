"""Event-loop stalls while the running app scores a big kappa pair.

    .venv/bin/python bench/ui_latency.py [--rows 2000000]

A 5 ms QTimer probe records the gap between its ticks while the app opens,
validates and scores the files (on its worker), then while it rescores after
an edit and while it sorts the table. The longest gap is the worst freeze a
user would feel. Target: under 100 ms.
"""
import argparse
import os
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(__file__))

import numpy as np  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=2_000_000)
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "kmetric_bench"))
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    from files import make_kappa
    sol, sub = make_kappa(args.dir, args.rows, np.random.default_rng(1))
    os.environ["KMETRIC_SETTINGS"] = os.path.join(args.dir, "ui_latency.ini")

    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtWidgets import QApplication
    from kmetric_gui.gui.main_window import MainWindow
    app = QApplication.instance() or QApplication([])
    win = MainWindow()
    win.show()
    app.processEvents()

    gaps = []
    last = [time.perf_counter()]

    def tick():
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now
    probe = QTimer(interval=5)
    probe.timeout.connect(tick)

    def idle():
        # Each action is timed alone: wait until the work of the previous one is done.
        deadline = time.perf_counter() + 120
        while win.jobs.busy and time.perf_counter() < deadline:
            app.processEvents(QEventLoop.AllEvents, 50)
            time.sleep(0.01)

    def measure(name, start, signal):
        idle()
        loop = QEventLoop()
        signal.connect(loop.quit)
        QTimer.singleShot(120_000, loop.quit)
        gaps.clear()
        last[0] = time.perf_counter()
        probe.start()
        t0 = time.perf_counter()
        start()
        loop.exec()
        probe.stop()
        total = time.perf_counter() - t0
        signal.disconnect(loop.quit)
        g = np.array(gaps[1:] or [0.0]) * 1000
        rows.append((name, total, g.max(), np.percentile(g, 99)))

    rows = []
    measure(f"open + validate + score {args.rows:,} rows", lambda: win.open_files(sol, sub),
            win.scored)
    model = win.table_panel.model
    col = next(i for i, c in enumerate(model.columns) if c.spec is not None and c.spec.name == "pred")
    spec = model.columns[col].spec
    idx = model.index(0, col)
    new = str((int(win.session.data.value(spec, int(model.rows[0]))) + 1) % 5)
    # The score panel shows the new score when the controller says "scored"; the
    # anatomy follows on the next turn of the event loop (win.scored).
    measure("edit one prediction -> new score", lambda: model.setData(idx, new),
            win.controller.scored)
    measure("  ... and the anatomy redrawn", lambda: model.setData(idx, str((int(new) + 1) % 5)),
            win.scored)
    rows_shown = win.table_panel.rows_shown
    measure("sort by prediction", lambda: model.sort(col, Qt.DescendingOrder), rows_shown)
    measure("sort by id (text)", lambda: model.sort(0, Qt.AscendingOrder), rows_shown)
    measure("filter ids containing 'ab'", lambda: win.table_panel.filter.setText("ab"), rows_shown)
    measure("undo -> new score", win.session.undo, win.controller.scored)
    print(f"{'action':<44} {'total (s)':>10} {'longest stall (ms)':>20} {'p99 gap (ms)':>14}")
    print("-" * 92)
    for name, total, worst, p99 in rows:
        print(f"{name:<44} {total:>10.2f} {worst:>20.1f} {p99:>14.1f}")
    print(f"\nscore shown: {win.score_panel.score_label.text()}  (target: longest stall < 100 ms)")
    win.discard_and_close()


if __name__ == "__main__":
    main()
