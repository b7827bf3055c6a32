"""The longest event-loop stall while the app opens a large mask pair and the user scrolls
the Images view (as bench/ui_stalls.py: a 5 ms QTimer probe on the UI thread).

    .venv/bin/python bench/images_ui.py [--images 10000] [--size 512]

Writes a solution and a submission of N images of SIZE x SIZE run-length masks, opens
them in the window (offscreen), waits for every job, then scrolls the image table to
the end in 40 steps and selects 20 images (each drawn on a worker). Prints the longest
stall of each phase.
"""
import argparse
import os
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(__file__))


def write_pair(folder, n, size):
    import numpy as np
    from masks import rle_texts
    rng = np.random.default_rng(0)
    t, p = rle_texts(rng, n, size), rle_texts(rng, n, size, shift=6)
    sol, sub = os.path.join(folder, "sol.csv"), os.path.join(folder, "sub.csv")
    with open(sol, "w") as f:
        f.write("ImageId,EncodedPixels,height,width,Usage\n")
        for k, text in enumerate(t):
            f.write(f"i{k},{text},{size},{size},{'Public' if k % 3 else 'Private'}\n")
    with open(sub, "w") as f:
        f.write("ImageId,EncodedPixels\n")
        for k, text in enumerate(p):
            f.write(f"i{k},{text}\n")
    return sol, sub


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--images", type=int, default=10_000)
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--dump", action="store_true", help="the UI thread's stacks while late")
    ap.add_argument("--faults", action="store_true", help="every thread's stack 300 ms into a "
                    "stall (faulthandler, no GIL needed), to <temp>/stalls.txt")
    a = ap.parse_args()
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    folder = tempfile.mkdtemp()
    os.environ["KMETRIC_SETTINGS"] = os.path.join(folder, "settings.ini")
    sol, sub = write_pair(folder, a.images, a.size)
    from kmetric_gui.gui.main_window import MainWindow
    win = MainWindow(size=(1280, 720))
    win.show()
    from kmetric_gui.gui.gc_guard import freeze_long_lived
    freeze_long_lived()                       # as kmetric-gui does once its window shows
    t_show = time.perf_counter()              # the window idle a moment, as before a user
    while time.perf_counter() - t_show < 0.5:  # drops files: its first turns done
        app.processEvents()
        time.sleep(0.005)
    last, worst = [time.perf_counter()], [0.0]

    dump = open(os.path.join(folder, "stalls.txt"), "w") if "--faults" in sys.argv else None

    def tick():
        if dump is not None:
            import faulthandler
            faulthandler.dump_traceback_later(0.3, file=dump)
        now = time.perf_counter()
        worst[0] = max(worst[0], now - last[0])
        last[0] = now
    import collections
    import threading
    from ui_stalls import stack_of
    main_id, seen, stop = threading.get_ident(), collections.Counter(), [False]

    def sampler():                 # the UI thread's stack while the probe is late (--dump)
        while not stop[0]:
            time.sleep(0.005)
            if time.perf_counter() - last[0] > 0.05:
                frame = sys._current_frames().get(main_id)
                if frame is not None:
                    seen[stack_of(frame, 6)] += 1
    if "--dump" in sys.argv:
        threading.Thread(target=sampler, daemon=True).start()
    probe = QTimer()
    probe.timeout.connect(tick)
    probe.start(5)

    def pump(until, limit=120):
        t0 = time.perf_counter()
        while not until() and time.perf_counter() - t0 < limit:
            app.processEvents()
            time.sleep(0.002)

    done = []
    win.scored.connect(lambda r: done.append(r))
    combo = win.options_panel.metric_combo            # as `kmetric-gui --metric dice`
    combo.blockSignals(True)
    combo.setCurrentIndex(combo.findData("dice"))
    combo.blockSignals(False)
    win.session.set_options(win.options_panel.options())
    t0 = time.perf_counter()
    win.open_files(sol, sub)
    pump(lambda: bool(done))
    opened = time.perf_counter() - t0
    pump(lambda: not win.jobs.busy, 60)
    open_stall, worst[0] = worst[0], 0.0
    print("jobs still running after the open:", sorted(win.jobs._running))
    view = win.tabs.views["dice"]
    bar = view.table.verticalScrollBar()
    for k in range(41):
        bar.setValue(bar.maximum() * k // 40)
        t1 = time.perf_counter()
        pump(lambda: time.perf_counter() - t1 > 0.05)
    scroll_stall, worst[0] = worst[0], 0.0
    for k in range(20):
        view.table.selectRow(k * (a.images // 20))
        t1 = time.perf_counter()
        pump(lambda: time.perf_counter() - t1 > 0.1)
    select_stall = worst[0]
    if dump is not None:
        print("stacks:", dump.name)
    print(f"{a.images:,} images of {a.size}x{a.size}: scored in {opened:.1f} s")
    print(f"longest stall: open {1000 * open_stall:.0f} ms, scroll {1000 * scroll_stall:.0f} ms, "
          f"select and draw {1000 * select_stall:.0f} ms")
    stop[0] = True
    for stack, count in seen.most_common(8):
        print(f"{count:4d} x {stack}")
    win._discarding = True
    win.jobs.shutdown()


if __name__ == "__main__":
    main()
