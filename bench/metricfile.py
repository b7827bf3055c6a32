"""Metric files: `kmetric score --metric-file` against a plain script, and the
bootstrap by re-scoring against B x (one score() call) / cores.

    .venv/bin/python bench/metricfile.py [--rows 1000000] [--boot-rows 100000] [--replicates 1000]
        [--score-only]

Each command a fresh process, median wall time, interleaved (the machine is
shared: the ratio within one run is what counts); modules byte-compiled first.
The plain script does what an analyst would: pd.read_csv twice, a merge on the
id, the same score() call for all rows, Public and Private.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METRIC = os.path.join(ROOT, "resources", "metrics", "balanced_log_loss.py")

PLAIN = r"""
import importlib.util, sys
import pandas as pd
sys.path.insert(0, {root!r})
from kmetric_gui.metricfile import kaggle_metric_utilities
sys.modules['kaggle_metric_utilities'] = kaggle_metric_utilities
spec = importlib.util.spec_from_file_location('m', {metric!r})
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
sol = pd.read_csv({sol!r}, dtype={{'id': str}})
sub = pd.read_csv({sub!r}, dtype={{'id': str}})
sub = sol[['id']].merge(sub, on='id', how='left')
for mask in (sol['Usage'] != 'Ignored', sol['Usage'] == 'Public', sol['Usage'] == 'Private'):
    s = sol[mask].drop(columns=['Usage']).reset_index(drop=True)
    m.score(s, sub[mask.to_numpy()].reset_index(drop=True), 'id')
"""


def make_pair(folder, n, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.2).astype(np.int8)
    p = np.clip(0.2 + 0.5 * y + rng.normal(0, 0.2, n), 0.01, 0.99)
    ids = np.char.add("r", np.arange(n).astype(str))
    usage = np.where(rng.random(n) < 0.3, "Public", "Private")
    sol, sub = os.path.join(folder, f"sol{n}.csv"), os.path.join(folder, f"sub{n}.csv")
    with open(sol, "w") as f:
        f.write("id,class_0,class_1,Usage\n")
        f.writelines(f"{i},{1 - t},{t},{u}\n" for i, t, u in zip(ids, y, usage))
    order = rng.permutation(n)
    with open(sub, "w") as f:
        f.write("id,class_0,class_1\n")
        f.writelines(f"{ids[i]},{1 - p[i]:.4f},{p[i]:.4f}\n" for i in order)
    return sol, sub


# Modules byte-compiled once, as an installed package's are (pip compiles them): with
# PYTHONDONTWRITEBYTECODE set, every run would compile the package again (0.3 s).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
# the bootstrap's runs spawn their workers: reaped by the command, they count as our
# children in CPU time (forked from multiprocessing's server, they would not); the
# start-up this changes cancels out of the differences of runs measured there
SPAWN = dict(ENV, KMETRIC_METRIC_START="spawn")


def wall(cmd, cpu=None, env=ENV):
    """Wall seconds of a command; ``cpu`` (a list) gets its CPU seconds, its worker
    processes' included when they are spawned (``env=SPAWN``)."""
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT, env=env)
    took = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return took


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--boot-rows", type=int, default=100_000)
    ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--score-only", action="store_true", help="leave out the bootstrap rows")
    a = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as d:
        for env in (ENV, SPAWN):
            env["PYTHONPYCACHEPREFIX"] = os.path.join(d, "pyc")
        sol, sub = make_pair(d, a.rows)
        ours_cmd = [py, "-m", "kmetric_gui.cli", "score", sol, sub, "--metric-file", METRIC]
        plain_cmd = [py, "-c", PLAIN.format(root=ROOT, metric=METRIC, sol=sol, sub=sub)]
        # the installed console script, as users run it (next to this interpreter)
        script = os.path.join(os.path.dirname(py), "kmetric")
        script_cmd = [script] + ours_cmd[3:]
        # compiles the modules (not timed)
        wsol, wsub = make_pair(d, 2000, seed=2)
        wall([py, "-m", "kmetric_gui.cli", "score", wsol, wsub, "--metric-file", METRIC, "--bootstrap", "40"])
        wall([py, "-c", PLAIN.format(root=ROOT, metric=METRIC, sol=wsol, sub=wsub)])
        ours, plain, scripted = [], [], []
        for _ in range(a.repeat):
            plain.append(wall(plain_cmd))
            ours.append(wall(ours_cmd))
            scripted.append(wall(script_cmd))
        o, p, k = statistics.median(ours), statistics.median(plain), statistics.median(scripted)
        print("| case | ours (s) | reference (s) | ratio |\n|---|---|---|---|")
        print(f"| score, {a.rows:,} rows (all, Public, Private) | {o:.2f} | {p:.2f} plain pandas script "
              f"| {o / p:.2f}x |")
        print(f"| the same through the installed `kmetric` script | {k:.2f} | {p:.2f} plain pandas "
              f"script | {k / p:.2f}x |")
        print(f"| the same through the installed `kmetric` script | {k:.2f} | {o:.2f} `python -m "
              f"kmetric_gui.cli` | {k / o:.2f}x |")
        if a.score_only:
            return
        bsol, bsub = make_pair(d, a.boot_rows, seed=1)
        one_cmd = [py, "-m", "kmetric_gui.cli", "score", bsol, bsub, "--metric-file", METRIC]
        boot_cmd = one_cmd + ["--bootstrap", str(a.replicates)]
        small = max(40, a.replicates // 10)     # a 95% interval needs 40 replicates
        base = statistics.median(wall(one_cmd, env=SPAWN) for _ in range(a.repeat))
        cpu = []
        boot = wall(boot_cmd, cpu, SPAWN)
        # the pool's start-up (spawned workers importing pandas, reading the pair) is paid
        # once a run: the difference of two runs is the replicates' own cost
        few = wall(one_cmd + ["--bootstrap", str(small)], cpu, SPAWN)
        # one score() call's time, measured in this process on the same frames
        sys.path.insert(0, ROOT)
        from kmetric_gui.metricfile import kaggle_metric_utilities
        import importlib.util
        import pandas as pd
        sys.modules["kaggle_metric_utilities"] = kaggle_metric_utilities
        spec = importlib.util.spec_from_file_location("m", METRIC)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        s = pd.read_csv(bsol, dtype={"id": str}).drop(columns=["Usage"])
        u = s[["id"]].merge(pd.read_csv(bsub, dtype={"id": str}), on="id")
        rng = np.random.default_rng(0)
        calls, ready, ready_cpu = [], [], []
        for _ in range(20):
            r = rng.integers(0, len(s), len(s))
            t0 = time.perf_counter()
            m.score(s.iloc[r].reset_index(drop=True), u.iloc[r].reset_index(drop=True), "id")
            calls.append(time.perf_counter() - t0)
            s2, u2 = s.iloc[r].reset_index(drop=True), u.iloc[r].reset_index(drop=True)
            t0, c0 = time.perf_counter(), time.process_time()
            m.score(s2, u2, "id")
            ready.append(time.perf_counter() - t0)
            ready_cpu.append(time.process_time() - c0)
        call, bare = statistics.median(calls), statistics.median(ready)
        cores = os.cpu_count() or 1
        rows = ((f"bootstrap {a.replicates:,} replicates, {a.boot_rows:,} rows (minus one plain score "
                 "run)", boot - base, a.replicates),
                (f"the same, {a.replicates - small:,} replicates: run of {a.replicates:,} minus run of "
                 f"{small:,}", boot - few, a.replicates - small))
        for label, took, b in rows:
            for what, c in (("score() with its iloc", call), ("score() alone, frames ready", bare)):
                budget = 1.25 * b * c / cores
                print(f"| {label} | {took:.2f} | {budget:.2f} = 1.25 x {b} x {c * 1000:.1f} ms ({what}) / "
                      f"{cores} cores | {took / budget:.2f}x of budget |")
        # CPU seconds: on a shared machine the pool may not get every core; CPU time does not
        # depend on that (the budget's "/ cores" becomes all cores' CPU time together)
        c = statistics.median(ready_cpu)
        spent = cpu[0] - cpu[1]
        budget = 1.25 * (a.replicates - small) * c
        print(f"| the same in CPU seconds, all processes | {spent:.2f} | {budget:.2f} = 1.25 x "
              f"{a.replicates - small} x {c * 1000:.1f} ms CPU (score() alone, frames ready) "
              f"| {spent / budget:.2f}x of budget |")


if __name__ == "__main__":
    main()
