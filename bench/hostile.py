"""Hostile inputs of issue 25: how long each takes to read or be refused, and the
peak memory, each in a fresh process (`kmetric score`, as a user runs it).

    PYTHONPATH=$PWD nice .venv/bin/python bench/hostile.py [--quick]

Reference in the same run: `kmetric score` of a 10-row pair (start-up alone).
Limits from the issue: 10^5 columns < 2 s, 10^6 columns < 10 s and < 500 MB,
one F-beta document of 200,000 predictions < 2 s; 10^5 Parquet row groups
fast or refused.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN = """
import resource, sys, time
from kmetric_gui.cli import main
t = time.perf_counter()
try:
    rc = main(sys.argv[1:])
except SystemExit as e:
    rc = e.code
wall = time.perf_counter() - t
u = resource.getrusage(resource.RUSAGE_SELF)
# VmHWM, not ru_maxrss: the latter keeps the forking parent's peak across exec.
hwm = next(int(x.split()[1]) * 1024 for x in open("/proc/self/status") if x.startswith("VmHWM"))
sys.stderr.write("BENCH %d %.4f %d %.4f\\n" % (rc or 0, wall, hwm, u.ru_utime + u.ru_stime))
"""


def wide(folder, n):
    p = folder / f"wide{n}.csv"
    p.write_text(",".join(f"c{i}" for i in range(n)) + "\n" + ",".join(["1"] * n) + "\n")
    return p


def groups(folder, n):
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq
    p = folder / f"groups{n}.parquet"
    pq.write_table(pa.table({"id": pa.array(np.arange(n).astype(str)),
                             "target": pa.array(np.arange(n) % 5)}), p, row_group_size=1)
    return p


def fbeta(folder, truths, preds):
    sol, sub = folder / f"fb_sol_{truths}.csv", folder / f"fb_sub_{preds}.csv"
    sol.write_text("Id,PredictionString\nd1," + "|".join(f"survey data {i * 7}" for i in range(truths))
                   + "\nd2,a b\n")
    sub.write_text("Id,PredictionString\nd1," + "|".join(f"survey data {i}" for i in range(preds))
                   + "\nd2,a b\n")
    return sol, sub


def run(args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", RUN, *map(str, args)], capture_output=True,
                         text=True, env=env, timeout=900)
    wall = time.perf_counter() - t0
    line = [x for x in out.stderr.splitlines() if x.startswith("BENCH ")]
    rc, inner, peak, cpu = line[-1].split()[1:] if line else ("?", "nan", "0", "nan")
    said = [x for x in out.stderr.splitlines() if x.startswith("kmetric:")]
    return (int(rc) if rc != "?" else rc, wall, float(inner), int(peak), float(cpu),
            (said[0] if said else ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="skip the 10^6-column header")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        tiny = folder / "tiny.csv"
        tiny.write_text("id,target\n" + "".join(f"{i},{i % 5}\n" for i in range(10)))
        cases = [("10-row pair (start-up)", ["score", tiny, tiny])]
        for n in (20_000, 100_000) + (() if a.quick else (1_000_000,)):
            p = wide(folder, n)
            cases.append((f"header of {n:,} columns", ["score", p, p]))
        p = groups(folder, 100_000)
        cases.append(("Parquet, 100,000 row groups", ["score", p, p]))
        for t, n in ((5, 200_000), (200_000, 200_000)):
            sol, sub = fbeta(folder, t, n)
            cases.append((f"F-beta doc: {t:,} truths x {n:,} preds",
                          ["score", sol, sub, "--metric", "fbeta"]))
        print(f"{'case':<42} {'exit':>4} {'wall (s)':>9} {'in-process (s)':>15} "
              f"{'CPU (s)':>8} {'peak MB':>8}  message")
        for name, args in cases:
            rc, wall, inner, peak, cpu, said = run(args)
            print(f"{name:<42} {rc:>4} {wall:>9.2f} {inner:>15.2f} {cpu:>8.2f} {peak / 1e6:>8.0f}"
                  f"  {said[9:70]}")
        print(f"load average at the end: {os.getloadavg()[0]:.1f} (CPU time counts all threads)")


if __name__ == "__main__":
    main()
