"""Wide files (issue 39): detection, reading and validation in linear time.

    nice .venv/bin/python bench/wide.py [--quick]

1. Detection alone, in-process, on 20-row multi-label pairs (a 0/1 solution column
   and a score column per class) of 1,000, 10,000 and 100,000 columns: CPU time
   (median of repeats) and per column. Linear means the time per column stays about
   the same. Beside it, in the same run, the look-up pattern detection used before
   (each name searched for in ``Table.column_names``, once per column), up to 10,000
   columns: at 100,000 it would take hours.
2. End to end through the installed ``kmetric score`` (a fresh process each), 1,000 to
   20,000 columns (the widest header read, io/width.py) and 100,000 (refused in one
   line), against a plain ``pyarrow.csv.read_csv`` of the same two files: the floor
   for any reader of them.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

ROOT = Path(__file__).resolve().parents[1]
ROWS = 20


def tables(c, rows=ROWS):
    rng = np.random.default_rng(c)
    names = [f"class_{j}" for j in range(c)]
    truth = np.zeros((rows, c), np.int64)
    truth[np.arange(rows)[:, None], rng.integers(0, c, (rows, 3))] = 1
    ids = pa.array([f"r{i}" for i in range(rows)])
    sol = pa.table([ids] + [pa.array(truth[:, j]) for j in range(c)], names=["id"] + names)
    scores = rng.random((rows, c))
    sub = pa.table([ids] + [pa.array(scores[:, j]) for j in range(c)], names=["id"] + names)
    return sol, sub


def cpu_median(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return statistics.median(times)


def detection(sizes):
    from kmetric_gui.metrics import Sample, choose_metric
    print(f"Detection alone ({ROWS} rows, multi-label), CPU seconds, median")
    print(f"{'columns':>9} {'ours (s)':>9} {'us/column':>10} {'old look-ups (s)':>17} "
          f"{'us/column':>10}  chosen")
    for c in sizes:
        sol, sub = tables(c)
        targets = [x for x in sub.column_names if x != "id"]
        chosen = []

        def ours():
            chosen[:] = [choose_metric(targets, None, Sample(sol, sub, "id"))[0].name]
        t = cpu_median(ours, 5 if c < 100_000 else 3)

        old = float("nan")
        if c <= 10_000:     # the pattern before: a name searched for in the list, per column
            def look_ups():
                for name in targets:
                    if name in sub.column_names:
                        sub.column(name)
            old = cpu_median(look_ups, 1 if c > 1000 else 3)
        print(f"{c:>9,} {t:>9.3f} {t / c * 1e6:>10.1f} {old:>17.3f} {old / c * 1e6:>10.1f}  "
              f"{chosen[0]}")


def write_pair(folder, c, rows=ROWS):
    sol_t, sub_t = tables(c, rows)
    import pyarrow.csv as pacsv
    sol, sub = folder / f"sol{c}.csv", folder / f"sub{c}.csv"
    pacsv.write_csv(sol_t, sol)
    pacsv.write_csv(sub_t, sub)
    return sol, sub


READ = "import sys, pyarrow.csv as c\nfor p in sys.argv[1:]: c.read_csv(p)\n"


def child_cpu(cmd):
    """(exit code, wall seconds, CPU seconds of the child, first stderr line)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out.returncode, wall, cpu, (out.stderr.splitlines() or [""])[0]


def end_to_end(sizes):
    kmetric = str(Path(sys.executable).with_name("kmetric"))
    print(f"\n`kmetric score` end to end ({ROWS} rows), a fresh process each, median of 3")
    print(f"{'columns':>9} {'exit':>4} {'wall (s)':>9} {'CPU (s)':>8} {'us/column':>10} "
          f"{'read_csv CPU (s)':>17} {'ratio':>6}  first line")
    with tempfile.TemporaryDirectory() as d:
        for c in sizes:
            sol, sub = write_pair(Path(d), c)
            runs = [child_cpu([kmetric, "score", str(sol), str(sub)]) for _ in range(3)]
            refs = [child_cpu([sys.executable, "-c", READ, str(sol), str(sub)])
                    for _ in range(3)] if c <= 20_000 else []
            rc, line = runs[0][0], runs[0][3]
            wall = statistics.median(r[1] for r in runs)
            cpu = statistics.median(r[2] for r in runs)
            ref = statistics.median(r[2] for r in refs) if refs else float("nan")
            print(f"{c + 1:>9,} {rc:>4} {wall:>9.2f} {cpu:>8.2f} {cpu / c * 1e6:>10.1f} "
                  f"{ref:>17.2f} {cpu / ref:>5.1f}x  {line[:60]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="detection only")
    a = ap.parse_args()
    detection([1_000, 10_000, 100_000])
    if not a.quick:
        end_to_end([1_000, 10_000, 19_999, 100_000])
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
