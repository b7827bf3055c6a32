"""Size and time of `kmetric report` on the demos and on large generated files.

A report holds aggregates only (matrices, per-class tables, histograms,
fixed-size plots), so its size must not grow with the rows: a 10M-row file
stays under 5 MB. Run:

    PYTHONPATH=$PWD .venv/bin/python bench/report_size.py [--rows 10000000]

Prints, per case: rows, input size, report folder size (and its biggest
files), wall time of the whole command (read + score + bootstrap + shake-up
+ top fixes + plots + PDF) and the child's peak memory.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
FLAGS = ["--ci", "0.95", "--shakeup", "--top-fixes", "20"]


def qwk_files(folder, n, seed=0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 5, n)
    pred = np.clip(truth + rng.integers(-1, 2, n) * (rng.random(n) < 0.4), 0, 4)
    usage = np.where(rng.random(n) < 0.3, "Public", "Private")
    ids = np.char.add("id", np.arange(n).astype(str))
    sol, sub = folder / f"qwk_{n}_solution.csv", folder / f"qwk_{n}_submission.csv"
    for path, cols, head in ((sol, (ids, truth, usage), "id,diagnosis,Usage"),
                             (sub, (ids, pred), "id,diagnosis")):
        with open(path, "w") as f:
            f.write(head + "\n")
            step = 1_000_000
            for a in range(0, n, step):
                parts = [np.asarray(c[a:a + step]).astype(str) for c in cols]
                rows = parts[0]
                for p in parts[1:]:
                    rows = np.char.add(np.char.add(rows, ","), p)
                f.write("\n".join(rows.tolist()) + "\n")
    return sol, sub


def folder_size(path):
    files = [(p.stat().st_size, p.relative_to(path)) for p in Path(path).rglob("*") if p.is_file()]
    return sum(s for s, _ in files), sorted(files, reverse=True)[:3]


# The child reports its own peak (VmHWM of its address space, which exec starts afresh).
CHILD = ("import sys; from kmetric_gui.cli import main; rc = main(sys.argv[1:]); "
         "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')]; "
         "sys.stderr.write('PEAK ' + hwm[0].split()[1] + '\\n'); sys.exit(rc)")


def run_report(truth, sub, out):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", CHILD, "report", str(truth), str(sub),
                        "--out", str(out), *FLAGS], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if r.returncode:
        raise SystemExit(r.stderr)
    peak = [line for line in r.stderr.splitlines() if line.startswith("PEAK ")]
    return wall, int(peak[0].split()[1]) / 1024 if peak else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, nargs="*", default=[1_000_000, 10_000_000])
    ap.add_argument("--make", nargs=2, metavar=("N", "FOLDER"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.make:
        qwk_files(Path(args.make[1]), int(args.make[0]))
        return
    demo = ROOT / "resources" / "demo"
    cases = [(f"demo {m}", demo / f"{m}_solution.csv", demo / f"{m}_submission.csv")
             for m in ("qwk", "lwlrap", "fbeta")]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for n in args.rows:     # made by a child: this process stays small
            subprocess.run([sys.executable, __file__, "--make", str(n), str(tmp)], check=True)
            cases.append((f"qwk {n:,} rows", tmp / f"qwk_{n}_solution.csv",
                          tmp / f"qwk_{n}_submission.csv"))
        head = (f"{'case':<22} {'input MB':>9} {'report KB':>10} {'wall s':>8} {'peak MB':>8}  "
                "biggest files (KB)")
        print(head)
        print("-" * len(head))
        for name, truth, sub in cases:
            out = tmp / f"report_{len(name)}_{abs(hash(name))}"
            wall, peak = run_report(truth, sub, out)
            size, big = folder_size(out)
            inp = (truth.stat().st_size + sub.stat().st_size) / 2 ** 20
            biggest = ", ".join(f"{p} {s / 1024:.0f}" for s, p in big)
            print(f"{name:<22} {inp:>9.1f} {size / 1024:>10.0f} {wall:>8.1f} {peak:>8.0f}  {biggest}",
                  flush=True)
    print("peak MB: the report command's own peak resident memory (VmHWM); "
          "2 shared cores, other agents running: times are noisy.")


if __name__ == "__main__":
    main()
