"""Where the UI thread is while the event loop stalls during an open.

    .venv/bin/python bench/ui_stalls.py [--metrics qwk,lwlrap,fbeta] [--rows 2000000]
        [--lw-rows 100000] [--fb-rows 1000000] [--min-ms 60] [--dump]

Opens each pair in the running app (offscreen) and waits until every job is
done (score, views, statistics, fixes). A 5 ms QTimer probe ticks on the UI
thread; a sampler thread records the UI thread's stack every ~5 ms while the
probe is late. Each stall over --min-ms is printed with its most frequent
stacks (innermost frames last). A stall with few samples and a large sampler
oversleep means another thread held the GIL: --dump also arms faulthandler
(all threads, no GIL needed) 80 ms after each probe tick, written to
<dir>/stalls_<metric>.txt.
"""
import argparse
import collections
import faulthandler
import os
import sys
import tempfile
import threading
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(__file__))


def stack_of(frame, depth=7):
    out = []
    while frame is not None:
        code = frame.f_code
        out.append(f"{os.path.basename(code.co_filename)}:{code.co_name}:{frame.f_lineno}")
        frame = frame.f_back
    return " < ".join(out[:depth])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=2_000_000)
    ap.add_argument("--lw-rows", type=int, default=100_000)
    ap.add_argument("--fb-rows", type=int, default=1_000_000)
    ap.add_argument("--metrics", default="qwk,lwlrap,fbeta")
    ap.add_argument("--min-ms", type=float, default=60)
    ap.add_argument("--dump", action="store_true")
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "kmetric_bench"))
    args = ap.parse_args()
    from files import make_fbeta, make_kappa, make_lwlrap
    os.environ["KMETRIC_SETTINGS"] = os.path.join(args.dir, "ui_stalls.ini")
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication
    from kmetric_gui.gui.main_window import MainWindow
    app = QApplication.instance() or QApplication([])
    win = MainWindow()
    win.show()
    app.processEvents()
    main_id = threading.get_ident()
    last = [time.perf_counter()]
    ticks = []
    samples = collections.defaultdict(list)       # stall start -> [(t, stack)]
    oversleep = collections.defaultdict(float)
    running = [True]
    dump_file = [None]

    def tick():
        now = time.perf_counter()
        ticks.append((last[0], now))
        last[0] = now
        if dump_file[0] is not None:
            faulthandler.dump_traceback_later(0.08, file=dump_file[0])

    def sampler():
        while running[0]:
            t0 = time.perf_counter()
            time.sleep(0.005)
            now = time.perf_counter()
            start = last[0]
            if now - start > 0.02:
                frame = sys._current_frames().get(main_id)
                samples[start].append((now, stack_of(frame)))
                oversleep[start] = max(oversleep[start], now - t0 - 0.005)
    probe = QTimer(interval=5)
    probe.timeout.connect(tick)
    threading.Thread(target=sampler, daemon=True).start()

    def run(name, start):
        loop = QEventLoop()
        win.scored.connect(loop.quit)
        ticks.clear()
        samples.clear()
        oversleep.clear()
        if args.dump:
            dump_file[0] = open(os.path.join(args.dir, f"stalls_{name}.txt"), "w")
        last[0] = t0 = time.perf_counter()
        probe.start()
        start()
        loop.exec()
        deadline = time.perf_counter() + 300
        while (win.jobs.busy or time.perf_counter() - t0 < 1) and time.perf_counter() < deadline:
            app.processEvents(QEventLoop.AllEvents, 20)
            time.sleep(0.002)
        for _ in range(20):
            app.processEvents(QEventLoop.AllEvents, 20)
            time.sleep(0.01)
        probe.stop()
        if dump_file[0] is not None:
            faulthandler.cancel_dump_traceback_later()
            dump_file[0].close()
            dump_file[0] = None
        win.scored.disconnect(loop.quit)
        total = time.perf_counter() - t0
        stalls = [(a, b) for a, b in ticks if (b - a) * 1000 > args.min_ms]
        print(f"\n=== {name}: {total:.2f} s until idle; {len(stalls)} stall(s) > {args.min_ms:g} ms;"
              f" longest {max((b - a for a, b in ticks), default=0) * 1000:.0f} ms")
        for a, b in stalls:
            got = samples.get(a, [])
            print(f"-- {1000 * (b - a):.0f} ms at +{a - t0:.2f} s ({len(got)} samples, "
                  f"sampler oversleep {1000 * oversleep.get(a, 0):.0f} ms)")
            for stack, n in collections.Counter(s for _, s in got).most_common(4):
                print(f"   {n:3d}x {stack}")

    pairs = {"qwk": lambda: make_kappa(args.dir, args.rows),
             "lwlrap": lambda: make_lwlrap(args.dir, args.lw_rows, 80),
             "fbeta": lambda: make_fbeta(args.dir, args.fb_rows)}
    for name in args.metrics.split(","):
        sol, sub = pairs[name]()
        run(name, lambda: win.controller.open_files(sol, sub))
    running[0] = False
    win.discard_and_close()


if __name__ == "__main__":
    main()
