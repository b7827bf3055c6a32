"""The app's event loop while a metric file runs: the longest gap between the ticks
of a 10 ms QTimer on an offscreen window (target: under 50 ms).

    .venv/bin/python bench/metricfile_app.py [--rows 100000] [--replicates 300] [--repeat 2]

The pair is opened first and every job of the built-in metric let finish; then,
for each repeat, the metric file (resources/metrics/balanced_log_loss.py) is
opened and the probe runs until its score and its interval (re-scoring resamples
in worker processes) are shown. The reference is the same probe on the idle window
for as long, in the same run.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

TARGET_MS = 50.0


class Probe:
    def __init__(self, app):
        from PySide6.QtCore import QTimer
        self.app, self.gaps, self.last = app, [], None
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)

    def _tick(self):
        now = time.perf_counter()
        if self.last is not None:
            self.gaps.append((now - self.last) * 1000)
        self.last = now

    def run_until(self, done, limit_s):
        self.gaps, self.last = [], None
        self.timer.start()
        t0 = time.perf_counter()
        while not done() and time.perf_counter() - t0 < limit_s:
            self.app.processEvents()
            time.sleep(0.001)
        self.timer.stop()
        return time.perf_counter() - t0, list(self.gaps)


def summary(gaps):
    s = sorted(gaps)
    if not s:
        return (0, 0, 0, 0)
    return (max(s), s[int(0.99 * (len(s) - 1))], statistics.median(s), sum(g > TARGET_MS for g in s))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--replicates", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="kmetric-bench-mfapp-")
    os.environ["KMETRIC_SETTINGS"] = os.path.join(folder, "s.ini")
    os.environ["KMETRIC_CONFIG_DIR"] = folder
    from metricfile import METRIC, make_pair
    from PySide6.QtWidgets import QApplication
    from kmetric_gui.gui.main_window import MainWindow
    sol, sub = make_pair(folder, args.rows)
    app = QApplication.instance() or QApplication([])
    win = MainWindow(size=(1280, 720))
    win.show()
    mf = win.metric_file
    mf.ask_run = lambda name, *state: True
    win.options_panel.replicates.setValue(max(100, args.replicates))
    probe = Probe(app)
    win.open_files(sol, sub)
    probe.run_until(lambda: win.session.results is not None and not win.jobs.busy, 300)
    rows = []
    for k in range(args.repeat):
        got = []
        mf.interval_ready.connect(got.append)
        mf.failed.connect(got.append)
        if k == 0:
            mf.open(METRIC)
        else:
            mf.run()
        secs, gaps = probe.run_until(lambda: bool(got), 600)
        mf.interval_ready.disconnect(got.append)
        mf.failed.disconnect(got.append)
        if not got or isinstance(got[0], str):
            print(f"metric file run did not finish: {got[:1]}")
            return 1
        _, idle = probe.run_until(lambda: False, min(secs, 10))
        rows.append((secs, summary(gaps), summary(idle)))
    print(f"{args.rows:,} rows, {win.options_panel.replicates.value()} replicates; "
          f"probe every 10 ms; gaps in ms (max / p99 / median / gaps over {TARGET_MS:g} ms)")
    print(f"{'run':>4} {'seconds':>8} {'metric file running':>32} {'idle window':>32}")
    for k, (secs, g, i) in enumerate(rows, 1):
        print(f"{k:>4} {secs:8.1f} {g[0]:8.1f} /{g[1]:6.1f} /{g[2]:6.1f} /{g[3]:4d}   "
              f"{i[0]:8.1f} /{i[1]:6.1f} /{i[2]:6.1f} /{i[3]:4d}")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    worst = max(g[0] for _, g, _ in rows)
    print(f"longest stall while the metric file ran: {worst:.1f} ms (target < {TARGET_MS:g} ms): "
          + ("met" if worst < TARGET_MS else "NOT met"))
    win.jobs.shutdown()
    win.discard_and_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
