"""How close `--coverage-check` comes to the true coverage, on a heavy tail and a light one.

    PYTHONPATH=. nice .venv/bin/python bench/coverage_check.py [--only rmse-t3 rmse-normal]
        [--n 50 200 1000] [--datasets 100] [--simulations 100] [--jobs 2]

For each population and n (bench/coverage_populations.py), data sets are drawn with
bench/coverage.py's seeds; on each, the coverage check runs as `kmetric score
--coverage-check` runs it (the method `auto` chose, its tail widened where the
heavy-tail warning applies), and beside it the same check drawing from the sample
alone. The mean of each over the data sets is compared with the true coverage of
that method (bench/coverage.py's results for the same cell: 500 data sets); the
command measures their mid-point where the tail is widened, the plain check elsewhere. Fewer
replicates per interval than the command's 2,000 (--replicates, default 1,000) keep
it within hours; they change a coverage by well under a point. Resumable like
bench/coverage.py (results in bench/results/coverage_check.jsonl).
"""
import argparse
import json
import os
import sys
import time
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))

from coverage import RESULTS, VERSION, collect, summary  # noqa: E402

CHECKS = os.path.join(HERE, "results", "coverage_check.jsonl")
CHUNK = 10


def run_chunk(task):
    from coverage_populations import populations
    from kmetric_gui.analysis.stats import _interval, interval_of
    from kmetric_gui.core.coverage import coverage_check
    name, n, d0, sims, reps = task
    pop = next(p for p in populations() if p.name == name)
    out = {"widened": [], "plain": [], "tail": []}
    t0 = time.perf_counter()
    for d in range(d0, d0 + CHUNK):
        rng = np.random.default_rng([VERSION, zlib.crc32(name.encode()), n, d])
        units = pop.units(rng, n)
        method = interval_of(units, 0.95, reps, d, "auto").method

        def fn(u, k):
            return _interval(u, 0.95, reps, k, method, None)
        wide, _, tail = coverage_check(units, fn, sims, d)
        plain, _, _ = coverage_check(units, fn, sims, d, widen=False)
        out["widened"].append(wide)
        out["plain"].append(plain)
        out["tail"].append(None if tail is None else float(tail.fitted))
    return {"population": name, "n": n, "first": d0, "count": CHUNK, "version": VERSION,
            "simulations": sims, "replicates": reps, "seconds": time.perf_counter() - t0, **out}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", nargs="+", default=["rmse-t3", "rmse-normal"])
    ap.add_argument("--n", type=int, nargs="+", default=[50, 200, 1000])
    ap.add_argument("--datasets", type=int, default=100)
    ap.add_argument("--simulations", type=int, default=100)
    ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--table", action="store_true")
    a = ap.parse_args(argv)
    done = set()
    if os.path.exists(CHECKS):
        for line in open(CHECKS):
            r = json.loads(line)
            if r["version"] == VERSION:
                done.add((r["population"], r["n"], r["first"]))
    tasks = [(p, n, d0, a.simulations, a.replicates) for p in a.only for n in a.n
             for d0 in range(0, a.datasets, CHUNK) if (p, n, d0) not in done]
    if not a.table and tasks:
        from multiprocessing import get_context
        pool = get_context("spawn").Pool(a.jobs) if a.jobs > 1 else None
        results = pool.imap_unordered(run_chunk, tasks) if pool else map(run_chunk, tasks)
        for k, r in enumerate(results, 1):
            with open(CHECKS, "a") as f:
                f.write(json.dumps(r) + "\n")
            print(f"[{k}/{len(tasks)}] {r['population']} n={r['n']}: {r['seconds']:.0f} s", flush=True)
    truth = collect(RESULTS, ["auto"])
    rows = {}
    for line in open(CHECKS):
        r = json.loads(line)
        if r["version"] != VERSION:
            continue
        c = rows.setdefault((r["population"], r["n"]), {"widened": [], "plain": [], "tail": []})
        for k in c:
            c[k] += r[k]
    print("| population | n | true coverage (auto) | check (mid-point) | widened | sample only | "
          "data sets |")
    print("|---|---|---|---|---|---|---|")
    for (name, n), c in sorted(rows.items()):
        t = truth.get((name, n, "auto"))
        true = f"{summary(t)['coverage']:.3f}" if t else "-"
        w, p = np.array(c["widened"]), np.array(c["plain"])
        light = np.array([t is None for t in c["tail"]])       # not widened: the plain check
        mid = np.where(light, p, (w + p) / 2)
        print(f"| {name} | {n:,} | {true} | {mid.mean():.3f} | {w.mean():.3f} | {p.mean():.3f} "
              f"| {p.size} |")


if __name__ == "__main__":
    main()
