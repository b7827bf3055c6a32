"""End-to-end file scoring: `kmetric score` vs what a user writes by hand.

    .venv/bin/python bench/files.py [--rows N] [--repeat R]

Both sides run as fresh subprocesses (imports included), on the same files:
a kappa pair with hex ids, rows shuffled between the files, and a
100,000 x 80 LwLRAP pair. Prints medians and ratios (reference / ours).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _table import print_table  # noqa: E402

HAND_KAPPA = """
import sys, pandas as pd
from sklearn.metrics import cohen_kappa_score
sol = pd.read_csv(sys.argv[1]); sub = pd.read_csv(sys.argv[2])
m = sol.merge(sub, on="id_code", suffixes=("_t", "_p"))
print(cohen_kappa_score(m.diagnosis_t, m.diagnosis_p, weights="quadratic"))
"""

HAND_LWLRAP = """
import sys, numpy as np, pandas as pd
from sklearn.metrics import label_ranking_average_precision_score as lrap
sol = pd.read_csv(sys.argv[1]); sub = pd.read_csv(sys.argv[2])
m = sol.merge(sub, on="fname", suffixes=("_t", "_p"))
cls = [c for c in sub.columns if c != "fname"]
t = m[[c + "_t" for c in cls]].to_numpy(); s = m[[c + "_p" for c in cls]].to_numpy()
nz = t.sum(1) > 0
print(lrap(t[nz], s[nz], sample_weight=t[nz].sum(1)))
"""


def make_kappa(folder, n, rng):
    sol, sub = os.path.join(folder, f"k_sol_{n}.csv"), os.path.join(folder, f"k_sub_{n}.csv")
    if not os.path.exists(sub):
        keys = np.unique(rng.integers(0, 2 ** 48, int(n * 1.02)))[:n]
        rng.shuffle(keys)
        ids = np.char.mod("%012x", keys)
        t = rng.integers(0, 5, n)
        p = np.clip(t + rng.integers(-1, 2, n), 0, 4)
        _write(sol, "id_code,diagnosis", ids, t)
        o = rng.permutation(n)
        _write(sub, "id_code,diagnosis", ids[o], p[o])
    return sol, sub


def _write(path, header, ids, vals):
    lines = np.char.add(np.char.add(ids.astype(str), ","), vals.astype(str))
    with open(path, "w") as f:
        f.write(header + "\n")
        f.write("\n".join(lines.tolist()))
        f.write("\n")


def make_lwlrap(folder, n, c, rng):
    sol, sub = os.path.join(folder, f"l_sol_{n}.csv"), os.path.join(folder, f"l_sub_{n}.csv")
    if not os.path.exists(sub):
        names = [f"{x:08x}.wav" for x in np.unique(rng.integers(0, 2 ** 32, int(n * 1.02)))[:n]]
        cls = [f"class_{j:02d}" for j in range(c)]
        truth = (rng.random((n, c)) < 1.3 / c).astype(int)
        scores = np.round(rng.random((n, c)), 4)
        with open(sol, "w") as f:
            f.write("fname," + ",".join(cls) + "\n")
            for i in range(n):
                f.write(names[i] + "," + ",".join(map(str, truth[i])) + "\n")
        with open(sub, "w") as f:
            f.write("fname," + ",".join(cls) + "\n")
            for i in rng.permutation(n):
                f.write(names[i] + "," + ",".join(map(str, scores[i])) + "\n")
    return sol, sub


def timed(cmd, repeat):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        if r.returncode != 0:
            raise SystemExit(f"failed: {' '.join(cmd)}\n{r.stderr}")
        out = r.stdout
    return float(np.median(times)), out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=5_000_000)
    ap.add_argument("--lw-rows", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "kmetric_bench"))
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    rng = np.random.default_rng(0)
    py = sys.executable
    kmetric = [py, "-m", "kmetric_gui.cli", "score"]
    rows = []
    sol, sub = make_kappa(args.dir, args.rows, rng)
    ours, out = timed(kmetric + [sol, sub, "--json"], args.repeat)
    ref, ref_out = timed([py, "-c", HAND_KAPPA, sol, sub], args.repeat)
    import json
    assert abs(json.loads(out)["score"] - float(ref_out)) < 1e-9
    rows.append((f"kappa files {args.rows:,} rows", ours, "read_csv+merge+sklearn", ref))
    sol, sub = make_lwlrap(args.dir, args.lw_rows, 80, rng)
    ours, out = timed(kmetric + [sol, sub, "--json"], args.repeat)
    ref, ref_out = timed([py, "-c", HAND_LWLRAP, sol, sub], args.repeat)
    assert abs(json.loads(out)["score"] - float(ref_out)) < 1e-9
    rows.append((f"lwlrap files {args.lw_rows:,} x 80", ours, "read_csv+merge+sklearn", ref))
    print_table(rows)


if __name__ == "__main__":
    main()
