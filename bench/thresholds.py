"""Cut-point optimizer vs a Nelder-Mead search over the same objective.

    .venv/bin/python bench/thresholds.py [--rows 100000]

The objective is weighted kappa of ratings = apply_cuts(x, cuts) against the
truth (the OptimizedRounder recipe of seed 004's era uses Nelder-Mead on it).
Prints time and kappa for both, from the same rounding start.
"""
import argparse
import os
import sys
import time

import numpy as np
from scipy.optimize import minimize

sys.path.insert(0, os.path.dirname(__file__))
from kmetric_gui.metrics.kernels import apply_cuts, optimize_cuts, rounding_cuts, weighted_kappa  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    args = ap.parse_args()
    print(f"{'case':<34} {'method':<22} {'time (s)':>9} {'kappa':>9} {'from':>9}")
    print("-" * 88)
    for seed, bias in ((0, 0.0), (1, 0.4), (2, -0.3)):
        rng = np.random.default_rng(seed)
        t = rng.choice(5, args.rows, p=[.45, .15, .2, .1, .1])
        x = t + rng.normal(bias, 0.8, args.rows) - 0.4 * (t == 4)
        start = rounding_cuts(0, 4)
        kappa = lambda c: weighted_kappa(t, apply_cuts(x, np.sort(c)), min_rating=0,
                                         max_rating=4).score
        t0 = time.perf_counter()
        ours = optimize_cuts(t, x, start=start)
        ours_t = time.perf_counter() - t0
        t0 = time.perf_counter()
        nm = minimize(lambda c: -kappa(c), start, method="nelder-mead")
        nm_t = time.perf_counter() - t0
        case = f"{args.rows:,} rows, bias {bias:+.1f}"
        print(f"{case:<34} {'coordinate (ours)':<22} {ours_t:>9.3f} {ours.kappa:>9.5f} "
              f"{ours.start_kappa:>9.5f}")
        print(f"{'':<34} {'scipy Nelder-Mead':<22} {nm_t:>9.3f} {kappa(nm.x):>9.5f} "
              f"{kappa(start):>9.5f}   ({nm.nfev} evaluations; ratio {nm_t / ours_t:.1f}x)")


if __name__ == "__main__":
    main()
