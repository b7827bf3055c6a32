"""Opening a `.kmetric` project of many edits in the app, against opening its two files.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/project_open.py [--rows 100000]
        [--edits 10000 100000] [--repeat 3]

Each run is a fresh process (a real window, offscreen): the time from the request to
the window showing the score of the edited data, and the process's peak RSS. Medians
of --repeat runs, interleaved; the ratio to 'files only' (same run) is what counts on
a shared machine. The goal (issue 25): 100,000 edits on a 100k-row pair in < 5 s and
< 1 GB.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def make_project(folder, sol, sub, n_rows, n_edits):
    from kmetric_gui.gui.project_file import file_ref, project_json, write_project
    from kmetric_gui.analysis.scoring import Options
    path = os.path.join(folder, f"p_{n_edits}.kmetric")
    if os.path.exists(path):
        return path
    refs = [file_ref(sol, "truth", folder), file_ref(sub, "submission", folder)]
    d = project_json(refs, Options(allow_continuous=True), [], {})
    d["edits"] = [{"label": f"Edit pred of row {k % n_rows + 1}",
                   "cells": [{"field": "pred", "unit": k % n_rows, "part": None, "value": k * 7 % 5}]}
                  for k in range(n_edits)]
    write_project(path, d)
    return path


def child(mode, target, sol, sub):
    import resource

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from kmetric_gui.gui.main_window import MainWindow
    win = MainWindow()
    win.show()
    app.processEvents()
    out = {}
    s = win.session
    win._discarding = True           # quit() closes the window: no unsaved-edits question

    def shown_score():
        r = s.results
        return r is not None and s.data is not None and s.is_current(r.generation)

    def poll():
        if mode == "project" and "opened" not in out:
            QTimer.singleShot(20, poll)
            return
        if shown_score() and (mode == "files" or s.changes()):
            out["seconds"] = time.perf_counter() - t0
            app.quit()
        else:
            QTimer.singleShot(20, poll)
    win.projects.opened.connect(lambda *_: out.setdefault("opened", time.perf_counter() - t0))
    win.projects.show_problem = lambda text: (out.setdefault("problem", text), app.quit())
    t0 = time.perf_counter()
    if mode == "files":
        win.open_files(sol, sub)
    else:
        win.projects.open(target)
    QTimer.singleShot(20, poll)
    QTimer.singleShot(300_000, app.quit)
    app.exec()
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["edits"] = len(s.changes()[0].cells) if s.changes() else 0
    win._discarding = True
    win.jobs.shutdown()
    print(json.dumps(out))
    sys.stdout.flush()
    os._exit(0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--edits", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    from files import make_kappa
    folder = os.path.join(tempfile.gettempdir(), "kmetric_bench_project")
    os.makedirs(folder, exist_ok=True)
    sol, sub = make_kappa(folder, args.rows)
    cases = {"files only": ("files", "-")}
    for n in args.edits:
        p = make_project(folder, sol, sub, args.rows, n)
        cases[f"project, {n:,} edits ({os.path.getsize(p) / 2 ** 20:.0f} MB)"] = ("project", p)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=ROOT)
    runs = {label: [] for label in cases}
    for _ in range(args.repeat):
        for label, (mode, target) in cases.items():
            env["KMETRIC_SETTINGS"] = os.path.join(folder, f"settings_{time.time_ns()}.ini")  # fresh
            r = subprocess.run([sys.executable, __file__, "--child", mode, target, sol, sub],
                               capture_output=True, text=True, env=env, timeout=900)
            lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
            if not lines:
                sys.exit(f"{label}: no result (exit {r.returncode})\n{r.stderr[-2000:]}")
            d = json.loads(lines[-1])
            if "problem" in d or "seconds" not in d:
                sys.exit(f"{label}: {d}")
            runs[label].append(d)
    base = statistics.median(d["seconds"] for d in runs["files only"])
    print(f"{args.rows:,}-row kappa pair; median of {args.repeat} runs, each a fresh process")
    print(f"{'case':<40} {'to score':>9} {'/ files':>8} {'opened':>8} {'peak RSS':>9}")
    for label, ds in runs.items():
        sec = statistics.median(d["seconds"] for d in ds)
        opened = statistics.median(d.get("opened", 0) for d in ds)
        peak = max(d["peak_mb"] for d in ds)
        print(f"{label:<40} {sec:>8.2f}s {sec / base:>7.2f}x {opened:>7.2f}s {peak:>7.0f} MB")


if __name__ == "__main__":
    main()
