"""Measured coverage of the 95 % intervals on populations with a known true score.

    PYTHONPATH=. nice .venv/bin/python bench/coverage.py [--datasets 500] [--jobs 2]
        [--n 50 200 1000] [--only NAME ...] [--methods auto percentile ...]
    PYTHONPATH=. .venv/bin/python bench/coverage.py --table [--write-docs]

For each population (bench/coverage_populations.py: every metric family, the
cases an audit found short, and a competition's metric file) and each n,
``--datasets`` data sets of n units are drawn (seeds fixed), each method's 95 %
interval is computed as `kmetric score --ci 0.95` computes it (2,000 replicates),
and the share of intervals that contain the true score is counted. With D data
sets a share is within about sqrt(0.95 x 0.05 / D): +-1.0 point at D = 500.

An interval that cannot be made (undefined score) counts as a miss and as warned.
"Warned" is the share of data sets whose interval says "too narrow likely"
(core/cautions.py) or has none; "unwarned" is the coverage of the others: the
promise an interval without such a warning keeps. A cell passes when its coverage
is within 2 points of 95 %, or the unwarned coverage is, or at least 95 % of its
data sets are warned (where no method can hold).

Resumable and parallel: work is done in chunks of data sets, each chunk's results
appended as one line to ``--results`` (default bench/results/coverage.jsonl) as it
finishes; a new run skips the chunks already there. ``--jobs J`` runs J worker
processes. ``--table`` prints the table from the results; ``--write-docs`` puts it
in docs/statistics.md between its coverage-table markers.
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

LEVEL = 0.95
REPLICATES = 2000
FILE_REPLICATES = 2000         # a metric file re-scores every replicate: as many as its
                               # command draws by default (500 covered 0.924 at n = 1,000)
CHUNK = 25
TARGET = 500                   # data sets a cell (issue 36); a cell with fewer says so
VERSION = 3                    # bump when the data sets or intervals change meaning
RESULTS = os.path.join(HERE, "results", "coverage.jsonl")
DOCS = os.path.join(HERE, "..", "docs", "statistics.md")
MARK = ("<!-- coverage-table: bench/coverage.py --write-docs -->", "<!-- /coverage-table -->")


def _interval(units, method, seed):
    """(Interval, method used) as the command computes it."""
    from kmetric_gui.analysis.stats import file_interval, interval_of
    if hasattr(units, "fn"):                       # a metric file: re-scored replicates
        iv = file_interval(units.replicates(FILE_REPLICATES, seed), LEVEL, units.n)
        return iv, iv.method
    iv = interval_of(units, LEVEL, REPLICATES, seed, method)
    return iv, iv.method


def _resolved(units, method):
    """The method ``auto`` picks for these units (its interval is that method's, same seed:
    computed once, e.g. mAP's auto is the percentile)."""
    if hasattr(units, "fn"):
        return "percentile"                        # the only method a metric file has
    if method != "auto" or not units.n:
        return method
    from kmetric_gui.core.calibrated import auto_method
    return auto_method(units)[0]


def run_chunk(task):
    """Results of data sets [d0, d0 + CHUNK) of one population and n."""
    from coverage_populations import populations
    from kmetric_gui.core.cautions import too_narrow
    name, n, d0, methods, value = task
    pop = next(p for p in populations() if p.name == name)
    out = {m: {"covered": [], "warned": [], "zero": [], "used": []} for m in methods}
    t0 = time.perf_counter()
    for d in range(d0, d0 + CHUNK):
        rng = np.random.default_rng([VERSION, zlib.crc32(name.encode()), n, d])
        units = pop.units(rng, n)
        done = {}
        for m in methods:
            key = _resolved(units, m)
            iv, used = done.get(key) or _interval(units, m, d)
            done[key] = (iv, used)
            ok = bool(np.isfinite(iv.low) and np.isfinite(iv.high))
            r = out[m]
            r["covered"].append(bool(ok and iv.low <= value <= iv.high))
            r["warned"].append(bool(not ok or too_narrow(iv.warnings)))
            r["zero"].append(bool(ok and iv.low == iv.high))
            r["used"].append(used)
    return {"population": name, "n": n, "first": d0, "count": CHUNK, "version": VERSION,
            "replicates": replicates_of(name), "value": value, "seconds": time.perf_counter() - t0,
            "methods": out}


def replicates_of(name):
    """Bootstrap replicates an interval of population ``name`` is read from."""
    return FILE_REPLICATES if name == "metric-file" else REPLICATES


def _current(r):
    return r.get("version") == VERSION and r.get("replicates") == replicates_of(r["population"])


def _done(path):
    found = set()
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if _current(r):
                    for m in r["methods"]:
                        found.add((r["population"], r["n"], r["first"], m))
    return found


def _values(pops, path):
    """True values: cached beside the results (some take a large simulated data set)."""
    cache = path.replace(".jsonl", "_values.json")
    known = json.load(open(cache)) if os.path.exists(cache) else {}
    for p in pops:
        if known.get(p.name) is None:
            print(f"true value of {p.name}: computing ...", flush=True)
            known[p.name] = float(p.compute_value())
            os.makedirs(os.path.dirname(cache), exist_ok=True)
            with open(cache, "w") as f:
                json.dump(known, f, indent=1)
    return known


def run(a):
    from coverage_populations import populations
    pops = [p for p in populations() if not a.only or p.name in a.only]
    values = _values(pops, a.results)
    done = _done(a.results)
    tasks = []
    for p in pops:
        for n in a.n:
            for d0 in range(0, a.datasets, CHUNK):
                todo = tuple(m for m in a.methods if (p.name, n, d0, m) not in done)
                if todo:
                    tasks.append((p.name, n, d0, todo, values[p.name]))
    print(f"{len(tasks)} chunks of {CHUNK} data sets to run ({len(done)} done)", flush=True)
    os.makedirs(os.path.dirname(a.results), exist_ok=True)
    if a.jobs > 1:
        from multiprocessing import get_context
        pool = get_context("spawn").Pool(a.jobs)
        results = pool.imap_unordered(run_chunk, tasks)
    else:
        pool, results = None, map(run_chunk, tasks)
    for k, r in enumerate(results, 1):
        with open(a.results, "a") as f:
            f.write(json.dumps(r) + "\n")
        print(f"[{k}/{len(tasks)}] {r['population']} n={r['n']} data sets {r['first']}.."
              f"{r['first'] + r['count'] - 1}: {r['seconds']:.0f} s", flush=True)
    if pool is not None:
        pool.close()
        pool.join()


def collect(path, methods=None):
    """{(population, n, method): {"covered": [...], "warned": [...], "zero": [...], "used": [...]}}"""
    cells = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if not _current(r):
                continue
            for m, v in r["methods"].items():
                if methods and m not in methods:
                    continue
                c = cells.setdefault((r["population"], r["n"], m), {k: [] for k in v})
                for k in v:
                    c[k] += v[k]
    return cells


def summary(c):
    cov, warned = np.array(c["covered"]), np.array(c["warned"])
    unwarned = cov[~warned].mean() if (~warned).any() else float("nan")
    coverage = cov.mean()
    passes = (abs(coverage - LEVEL) <= 0.02 or warned.mean() >= 0.95
              or (np.isfinite(unwarned) and abs(unwarned - LEVEL) <= 0.02))
    used = sorted(set(c["used"]), key=c["used"].count, reverse=True)
    return dict(d=cov.size, coverage=coverage, warned=warned.mean(), unwarned=unwarned,
                zero=np.mean(c["zero"]), passes=passes, used="/".join(used))


def table(path, method="auto", compare="percentile"):
    """Markdown lines: one row per population, coverage (unwarned) per n, and the warned shares."""
    from coverage_populations import populations
    cells = collect(path)
    ns = sorted({n for (_, n, m) in cells if m == method})
    names = [p.name for p in populations()]
    words = {p.name: p.words for p in populations()}
    values = json.load(open(path.replace(".jsonl", "_values.json")))
    head = (["population", "true score"] + [f"n = {n:,}" for n in ns] + ["warned (50 / 200 / 1,000)"]
            + [f"{compare}, n = {n:,}" for n in ns] + ["method (auto)"])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    sizes = [summary(c)["d"] for (_, _, m), c in cells.items() if m == method]
    for name in names:
        got = [summary(cells[(name, n, method)]) if (name, n, method) in cells else None for n in ns]
        if not any(got):
            continue
        ref = [summary(cells[(name, n, compare)]) if (name, n, compare) in cells else None for n in ns]

        def cell(s):
            if s is None:
                return "-"
            text = f"{s['coverage']:.3f}"
            if abs(s["coverage"] - LEVEL) > 0.02 and np.isfinite(s["unwarned"]):
                text += f" ({s['unwarned']:.3f} unwarned)"
            text += "" if s["passes"] else " **short**"
            return text + (f" [{s['d']}]" if s["d"] < TARGET else "")   # fewer data sets
        warn = " / ".join("-" if s is None else f"{100 * s['warned']:.0f} %" for s in got)
        used = ", ".join(sorted({s["used"] for s in got if s}))
        row = ([words[name], f"{values[name]:.4f}"] + [cell(s) for s in got] + [warn]
               + ["-" if s is None else f"{s['coverage']:.3f}" for s in ref] + [used])
        lines.append("| " + " | ".join(row) + " |")
    d = min(sizes, default=0)
    lines.append("")

    def within(k):
        return f"±{100 * np.sqrt(LEVEL * (1 - LEVEL) / max(k, 1)):.1f} points"
    fewer = "" if d >= TARGET else (f"; [D]: a cell of only D data sets (at least {d}: "
                                    f"within about {within(d)})")
    lines.append(f"At least {TARGET} data sets a cell (each share within about "
                 f"{within(TARGET)}){fewer}; "
                 "**short**: outside 2 points of 95 % with fewer than 95 % of its data sets warned.")
    return lines


def write_docs(lines):
    """The table in docs/statistics.md. Rows of the populations in ``lines`` replace
    theirs and the other rows stay, with the old footnote (a re-run of a few populations,
    whose results are all ``lines`` holds, updates those rows only)."""
    text = open(DOCS).read()
    a, b = text.index(MARK[0]) + len(MARK[0]), text.index(MARK[1])

    def key(row):
        return row.split(" | ")[0]
    new = [x for x in lines if x.startswith("|")]
    fresh = {key(x): x for x in new[2:]}
    old = text[a:b].strip().splitlines()
    rows = [fresh.pop(key(x), x) for x in old[2:] if x.startswith("|")]
    kept = len(rows) - len(set(map(key, rows)) & {key(x) for x in new[2:]})
    rows += list(fresh.values())
    foot = [x for x in (old if kept else lines) if not x.startswith("|")]
    with open(DOCS, "w") as f:
        f.write(text[:a] + "\n" + "\n".join(new[:2] + rows + foot).rstrip("\n") + "\n" + text[b:])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", type=int, default=500)
    ap.add_argument("--n", type=int, nargs="+", default=[50, 200, 1000])
    ap.add_argument("--only", nargs="+", help="population names to run")
    ap.add_argument("--methods", nargs="+", default=["auto", "percentile"])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--results", default=RESULTS)
    ap.add_argument("--table", action="store_true", help="print the table from the results")
    ap.add_argument("--write-docs", action="store_true", help="... and put it in docs/statistics.md")
    a = ap.parse_args(argv)
    if a.datasets % CHUNK:
        ap.error(f"--datasets must be a multiple of {CHUNK}")
    if a.table or a.write_docs:
        lines = table(a.results)
        print("\n".join(lines))
        if a.write_docs:
            write_docs(lines)
        return
    run(a)


if __name__ == "__main__":
    main()
