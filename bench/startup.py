"""Start-up: `kmetric score` on tiny pairs against `python -c "import numpy, pyarrow.csv"`.

    .venv/bin/python bench/startup.py [--repeat 9]

Each command a fresh process, median wall time of --repeat runs, interleaved (the
machine is shared: the ratio within one run is what counts). The package is
byte-compiled first, as an install is.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from files import make_fbeta, make_kappa, make_lwlrap  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = "import numpy, pyarrow.csv"


def kappa_usage(folder):
    sol, sub = os.path.join(folder, "u_sol.csv"), os.path.join(folder, "u_sub.csv")
    with open(sol, "w") as f, open(sub, "w") as g:
        f.write("id_code,diagnosis,Usage\n")
        g.write("id_code,diagnosis\n")
        for i in range(10):
            f.write(f"{i:012x},{i % 5},{'Public' if i % 2 else 'Private'}\n")
            g.write(f"{i:012x},{(i + 1) % 5}\n")
    return sol, sub


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=9)
    args = ap.parse_args()
    py = sys.executable
    subprocess.run([py, "-m", "compileall", "-q", os.path.join(ROOT, "kmetric_gui")], check=True)
    env = dict(os.environ, PYTHONPATH=ROOT)
    folder = tempfile.mkdtemp(prefix="kmetric_startup_")
    cases = {"baseline: " + BASELINE: [py, "-c", BASELINE]}
    for label, pair in (("kappa", make_kappa(folder, 10)), ("kappa with Usage", kappa_usage(folder)),
                        ("F-beta", make_fbeta(folder, 10)), ("LwLRAP", make_lwlrap(folder, 10, 80))):
        cases[label] = [py, "-m", "kmetric_gui.cli", "score", *pair]
    times = {label: [] for label in cases}
    for _ in range(args.repeat):
        for label, cmd in cases.items():
            t = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True, env=env, cwd=folder)
            times[label].append(time.perf_counter() - t)
    base = statistics.median(next(iter(times.values())))
    print(f"{'command':<44} {'median':>8} {'/ baseline':>10}")
    for label, ts in times.items():
        m = statistics.median(ts)
        print(f"{label:<44} {m:>7.3f}s {m / base:>9.2f}x")


if __name__ == "__main__":
    main()
