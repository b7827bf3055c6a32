"""The interval methods `auto` may choose, against the percentile interval, same run.

    PYTHONPATH=. nice .venv/bin/python bench/interval_methods.py [--rows 1000000] [--repeat 3]
        [--only AUC]

On --rows rows (2,000 replicates, as `kmetric score --ci 0.95`): RMSE and log loss
(the mean of one per-unit value: studentised), AUC (the score interval, and the
calibrated interval whose levels come from its placement values), each beside the
percentile interval of the same statistics. Medians of --repeat runs, wall and CPU seconds, and the ratio
new / percentile (the issue's bound: at most 3x; the calibrated AUC at most 10 s
on 2 cores). The machine is shared: compare the two sides of a row, not runs.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from kmetric_gui.analysis.stats import interval_of  # noqa: E402
from kmetric_gui.metrics import get_metric  # noqa: E402


def timed(fn, repeat, warm=False):
    if warm:
        fn()                               # warm-up (imports, caches)
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu)


def cases(n, rng):
    t = 10 + rng.standard_normal(n)
    rmse = get_metric("rmse")
    yield "RMSE", rmse.units(rmse.kernel(t, t + rng.standard_t(3, n), None)), "studentised"
    p = 1 / (1 + np.exp(-rng.normal(-1, 1.5, n)))
    y = (rng.random(n) < p).astype(int)
    ll = get_metric("logloss")
    yield "log loss", ll.units(ll.kernel(y, p, None)), "studentised"
    auc = get_metric("auc")
    ya = (rng.random(n) < 0.3).astype(int)
    sa = np.round(rng.normal(size=n) + ya, 6)
    units = auc.units(auc.kernel(ya, sa, None))
    yield "AUC", units, "score"
    yield "AUC", units, "calibrated"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", nargs="+", metavar="CASE", help="cases to run (RMSE, 'log loss', AUC)")
    a = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    print(f"{a.rows:,} rows, 2,000 replicates, medians of {a.repeat} (wall s / CPU s)")
    head = f"{'case':<40} {'percentile':>16} {'new method':>28} {'ratio (wall)':>13}"
    print(head)
    print("-" * len(head))
    from kmetric_gui.core.additive import mean_units
    interval_of(mean_units(np.arange(100.0)), 0.95, 100, 0, "studentised")    # imports
    for name, units, method in cases(a.rows, rng):
        if a.only and name not in a.only:
            continue
        pw, pc = timed(lambda: interval_of(units, 0.95, 2000, 0, "percentile"), a.repeat)
        nw, nc = timed(lambda: interval_of(units, 0.95, 2000, 0, method), a.repeat)
        print(f"{name:<40} {pw:>7.3f} / {pc:>6.3f} {method:>12} {nw:>6.3f} / {nc:>6.3f} "
              f"{nw / pw:>12.2f}x", flush=True)


if __name__ == "__main__":
    main()
