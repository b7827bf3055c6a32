"""The final-two advisor (kmetric select) and the rank simulation (kmetric rank), timed
beside plain references in the same run.

    PYTHONPATH=. .venv/bin/python bench/select_rank.py [--quick] [--files]

(Not bench/select.py: a script of that name would shadow the standard library's
`select` module, which scikit-learn imports.)

Ours: medians of a few runs of the core work after the files are read (engine
from the aligned predictions, joint replicates, P(best), pair search,
agreement). References: the exact row bootstrap (every replicate redraws the
rows and counts each candidate's cells) and scikit-learn's cohen_kappa_score
on each drawn replicate; both timed for a few replicates and extrapolated
linearly (marked "extrapolated"). Rank: a plain per-simulation loop,
extrapolated. The machine is shared: compare ratios within one run.
"""
import argparse
import os
import sys
import time

import numpy as np
from sklearn.metrics import cohen_kappa_score

sys.path.insert(0, os.path.dirname(__file__))

from _table import print_table  # noqa: E402

from kmetric_gui.metrics.kernels.kappa_pairs import KappaPairs  # noqa: E402
from kmetric_gui.core.joint import joint_replicates  # noqa: E402
from kmetric_gui.metrics.kernels.kappa_joint import kappa_exact
from kmetric_gui.core.rank import simulate_ranks  # noqa: E402
from kmetric_gui.core.resample import resample_indices  # noqa: E402
from kmetric_gui.core.select import select  # noqa: E402


def median_time(fn, repeat=3, warmup=1):
    """Median wall seconds; the median CPU seconds of this process are kept in CPU[-1]
    (on a shared machine wall time includes waiting for a core)."""
    for _ in range(warmup):
        fn()
    wall, cpu = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    CPU.append(float(np.median(cpu)))
    return float(np.median(wall))


CPU = []


def candidates(n, c, k=5, seed=0):
    """A truth and c near-copies of one model (each changes 10-20 % of the rows)."""
    rng = np.random.default_rng(seed)
    t = rng.integers(0, k, n)
    base = np.where(rng.random(n) < 0.7, t, rng.integers(0, k, n))
    preds = [np.where(rng.random(n) < 0.1 + 0.1 * j / c, rng.integers(0, k, n), base)
             for j in range(c)]
    return t, preds, k


def select_case(n, c, reps, repeat):
    t, preds, k = candidates(n, c)

    def ours():
        joint = joint_replicates(KappaPairs(t, preds, k), reps, seed=0)
        select(joint.points, joint.reps, 2)
        return joint.draws

    draws = ours()
    sec = median_time(ours, repeat=repeat, warmup=0)
    e = KappaPairs(t, preds, k)
    stacked = np.stack(e.preds, axis=1)
    few = 4
    t0 = time.perf_counter()
    kappa_exact(e.truth.astype(np.int64), stacked, k, e.w, few, 0)
    exact = (time.perf_counter() - t0) / few * reps
    idx = resample_indices(n, 1, 0)[0]
    t0 = time.perf_counter()
    for p in preds[:2]:
        cohen_kappa_score(t[idx], p[idx], weights="quadratic")
    sk = (time.perf_counter() - t0) / 2 * c * reps
    return draws, sec, exact, sk


def rank_case(teams, sims, repeat):
    rng = np.random.default_rng(0)
    others = np.sort(rng.normal(0.80, 0.01, teams - 1))[::-1]
    gaps = rng.normal(0.0, 0.008, 2000)

    from kmetric_gui.analysis.ranking_odds import BATCHES, batched_odds, simulate

    def ours():        # as ranking.land runs them: batches, each with its share of the gaps
        parts = iter(np.array_split(gaps, BATCHES))
        batched_odds(simulate(0.805, others, True, None), lambda seed: next(parts),
                     (0.5, 0.0, 1.0), sims, 0, budget=0)   # the simulations asked, no more

    def one_by_one():
        for rho in (0.5, 0.0, 1.0):          # the chosen correlation and the sensitivity lines
            simulate_ranks(0.805, others, gaps, rho, sims, seed=0)

    alone = median_time(one_by_one, repeat=repeat)
    print(f"rank, the three correlations one after another: {alone:.3f} s wall, {CPU[-1]:.3f} s CPU")
    sec = median_time(ours, repeat=repeat)
    few = 200
    t0 = time.perf_counter()
    for _ in range(few):                      # plain loop: one simulation at a time
        g0 = rng.choice(gaps)
        h = rng.choice(gaps, size=others.size)
        theirs = others + 0.5 * g0 + np.sqrt(0.75) * h
        1 + np.count_nonzero(theirs > 0.805 + g0)
    plain = (time.perf_counter() - t0) / few * sims * 3
    return sec, plain


def write_candidates(d, n, c):
    """The truth and c candidate CSVs of n rows (ids r0, r1, ...: widths differ, so not the
    lean kappa reader's fixed-width ids) in folder d."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    t, preds, _ = candidates(n, c)
    ids = pa.array(np.char.add("r", np.arange(n).astype(str)))

    def put(name, values):
        path = os.path.join(d, name)
        pacsv.write_csv(pa.table({"id": ids, "rating": values}), path)
        return path
    return put("solution.csv", t), [put(f"cand{j}.csv", p) for j, p in enumerate(preds)]


def files_case(n, c, ref_files=5):
    """End to end from files: select_files once (reading included), beside the plain
    pair reader (scoring.load per candidate: the truth read each time, ids hashed)
    timed on ``ref_files`` candidates and extrapolated to c."""
    import tempfile
    from kmetric_gui.analysis.comparison import load_all
    from kmetric_gui.analysis.select import SelectOptions, select_files
    with tempfile.TemporaryDirectory() as d:
        sol, paths = write_candidates(d, n, c)
        w, cpu = time.perf_counter(), time.process_time()
        adv = select_files(sol, paths, sel=SelectOptions())
        wall, cpu = time.perf_counter() - w, time.process_time() - cpu
        t0 = time.perf_counter()
        load_all(sol, paths[:ref_files])
        ref = (time.perf_counter() - t0) / ref_files * c
        return wall, cpu, adv.joint.draws, ref


def rank_cli(teams, sims, bytecode):
    """`kmetric rank` in a new process (start, imports, scoring the demo, reading the
    leaderboard, three correlations): wall, the child's CPU, and its involuntary context
    switches (the times it waited for a core: the machine is shared)."""
    import resource
    import subprocess
    import tempfile
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    demo = os.path.join(root, "resources", "demo")
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as d:
        lb = os.path.join(d, "lb.csv")
        with open(lb, "w") as f:
            f.write("TeamName,Score\n" + "".join(
                f"t{i},{s:.5f}\n" for i, s in enumerate(np.sort(rng.normal(0.7, 0.05, teams))[::-1])))
        env = dict(os.environ, PYTHONPATH=root)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if bytecode:              # compiled once, as an installed package is
            env["PYTHONPYCACHEPREFIX"] = os.path.join(d, "pyc")
        else:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        cmd = [sys.executable, "-m", "kmetric_gui.cli", "rank", os.path.join(demo, "qwk_solution.csv"),
               os.path.join(demo, "qwk_submission.csv"), "--leaderboard", lb,
               "--simulations", str(sims), "--json"]
        subprocess.run(cmd, env=env, capture_output=True, check=True)        # warm-up (and compile)
        walls = []
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        for _ in range(3):
            w = time.perf_counter()
            subprocess.run(cmd, env=env, capture_output=True, check=True)
            walls.append(time.perf_counter() - w)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / 3
        waits = (after.ru_nivcsw - before.ru_nivcsw) / 3
        return float(np.median(walls)), cpu, waits


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    ap.add_argument("--files", action="store_true",
                    help="also time `select` end to end from CSV files (50 x 1,000,000 rows and "
                         "200 x 100,000; --quick: a tenth of the rows)")
    a = ap.parse_args()
    scale = 10 if a.quick else 1
    rows = []
    if a.files:
        for n, c, goal in ((1_000_000 // scale, 50, 10), (100_000 // scale, 200, 30)):
            wall, cpu, draws, ref = files_case(n, c)
            case = f"select files {c} x {n:,}"
            print(f"{case} (reading included): {wall:.2f} s wall, {cpu:.2f} s CPU ({draws} draws; "
                  f"goal < {goal} s); pair reader per candidate: {ref:.1f} s (extrapolated)")
            rows.append((case, wall, "load per pair (extrapolated)", ref))
    for n, c, goal in ((1_000_000 // scale, 50, 10), (100_000 // scale, 200, 30)):
        draws, sec, exact, sk = select_case(n, c, 2000, 1 if a.quick else 3)
        case = f"select {c} x {n:,} kappa rows, 2000 reps"
        print(f"{case}: {sec:.2f} s wall, {CPU[-1]:.2f} s CPU ({draws} draws; goal < {goal} s)")
        rows.append((case, sec, "exact rows (extrapolated)", exact))
        rows.append((case, sec, "sklearn loop (extrapolated)", sk))
    sec, plain = rank_case(5000, 10_000, 1 if a.quick else 3)
    print(f"rank 5,000 teams x 10,000 simulations x 3 correlations: {sec:.3f} s wall, "
          f"{CPU[-1]:.3f} s CPU (goal < 1 s)")
    rows.append(("rank 5,000 teams, 10,000 sims x 3", sec, "plain loop (extrapolated)", plain))
    for bytecode in (True, False):
        wall, cpu, waits = rank_cli(5000, 10_000, bytecode)
        how = "compiled modules cached" if bytecode else "PYTHONDONTWRITEBYTECODE=1: every module compiled"
        print(f"kmetric rank CLI, 5,000 teams x 10,000 sims ({how}): {wall:.2f} s wall, {cpu:.2f} s "
              f"CPU, {waits:.0f} waits for a core (load {os.getloadavg()[0]:.1f} on "
              f"{os.cpu_count()} cores)")
    print()
    print_table(rows)


if __name__ == "__main__":
    main()
