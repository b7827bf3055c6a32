"""Benchmark the attribution core against brute-force rescoring, same run.

    PYTHONPATH=. .venv/bin/python bench/attribution.py [--quick]

Ours: medians of 5 runs. Brute force (apply one fix, rescore everything)
takes hours at these sizes, so it is timed for a few rescorings and
extrapolated to the number the job needs; the reference column says so.
Ratios are reference time / ours (higher is better). The machine is shared:
compare rows of one run, not runs.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _table import median_time  # noqa: E402

from kmetric_gui.metrics.kernels import kappa_from_confusion, lwlrap, weighted_kappa  # noqa: E402
from kmetric_gui.metrics.kernels.kappa_fixes import (kappa_fix_first, kappa_gain_map,
                                                     kappa_greedy_cells)
from kmetric_gui.metrics.kernels.lwlrap_gains import (lwlrap_class_gains, lwlrap_fix_first,  # noqa: E402
                                           sample_gains)


def print_table(rows):
    """Like _table.print_table, with microseconds visible (some cases take ~0.1 ms)."""
    head = f"{'case':<36} {'ours (s)':>10} {'brute force (reference)':<30} {'ref (s)':>11} {'ratio':>10}"
    print(head)
    print("-" * len(head))
    for case, ours, ref_name, ref in rows:
        print(f"{case:<36} {ours:>10.6f} {ref_name:<30} {ref:>11.2f} {ref / ours:>9.0f}x")


def per_call(fn, calls=3):
    """Median seconds of one call over a few calls (for extrapolation)."""
    return median_time(fn, repeat=calls, warmup=0)


def kappa_rows(n, k, seed=0):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, k, n)
    p = np.clip(t + rng.integers(-1, 2, n), 0, k - 1)
    wild = rng.random(n) < 0.1
    p[wild] = rng.integers(0, k, int(wild.sum()))
    return t, p


def kappa_cases(n, k, top, rows):
    t, p = kappa_rows(n, k)
    r = weighted_kappa(t, p)
    lo, hi = 0, k - 1
    cells = [(i, j) for i in range(k) for j in range(k) if i != j and r.observed[i, j] > 0]
    i0, j0 = cells[0]
    row = int(np.flatnonzero((t == i0) & (p == j0))[0])

    def rescore_rows():   # one brute-force step: fix one row, rescore every row
        q = p.copy()
        q[row] = t[row]
        return weighted_kappa(t, q, min_rating=lo, max_rating=hi).score

    def rescore_counts():   # the same on the counts only (a smarter brute force)
        o = r.observed.copy()
        o[i0, j0] -= 1
        o[i0, i0] += 1
        return kappa_from_confusion(o).score

    one_rows = per_call(rescore_rows)
    one_counts = median_time(rescore_counts, repeat=200, warmup=5)
    ncell = len(cells)
    tag = f"{n / 1e6:g}M rows K={k}"
    rows.append((f"gain map, {tag}", median_time(lambda: kappa_gain_map(r)),
                 f"rescore rows x{ncell} (est.)", one_rows * ncell))
    rows.append((f"gain map + scoring, {tag}",
                 median_time(lambda: kappa_gain_map(weighted_kappa(t, p)), repeat=3),
                 f"rescore rows x{ncell} (est.)", one_rows * ncell))
    ours = median_time(lambda: kappa_fix_first(t, p, top=top, result=r), repeat=3)
    # Brute-force greedy: every step tries every non-empty cell.
    steps = top * ncell
    rows.append((f"top-{top} list, {tag}", ours, f"rescore rows x{steps} (est.)", one_rows * steps))
    rows.append((f"top-{top} list, {tag}", ours, f"counts greedy x{steps} (est.)",
                 one_counts * steps))
    rows.append((f"top-{top} + scoring, {tag}",
                 median_time(lambda: kappa_fix_first(t, p, top=top), repeat=3),
                 f"rescore rows x{steps} (est.)", one_rows * steps))
    rows.append((f"top-{top} cells only, {tag}",
                 median_time(lambda: kappa_greedy_cells(r, top), repeat=3),
                 f"counts greedy x{steps} (est.)", one_counts * steps))
    return one_rows, one_counts


def lwlrap_cases(n, c, rows):
    rng = np.random.default_rng(1)
    truth = (rng.random((n, c)) < 0.03).astype(np.int8)
    truth[np.arange(n), rng.integers(0, c, n)] = 1
    scores = rng.random((n, c)) + truth * rng.random((n, c)) * 0.5
    r = lwlrap(truth, scores)

    def rescore_sample(i=0):
        s2 = scores.copy()
        s2[i] = truth[i]
        return lwlrap(truth, s2).score

    def rescore_class(j=0):
        s2 = scores.copy()
        s2[:, j] = np.where(truth[:, j] == 1, 2.0, -1.0)
        return lwlrap(truth, s2).score

    one = per_call(rescore_sample)
    tag = f"{n // 1000}k x {c}"
    rows.append((f"per-sample gains, {tag}", median_time(lambda: sample_gains(r)),
                 f"rescore x{n} (est.)", one * n))
    rows.append((f"fix-first top-1000, {tag}", median_time(lambda: lwlrap_fix_first(r, 1000)),
                 f"rescore x{n} (est.)", one * n))
    rows.append((f"sample gains + scoring, {tag}",
                 median_time(lambda: sample_gains(lwlrap(truth, scores)), repeat=3),
                 f"rescore x{n} (est.)", one * n))
    one_c = per_call(rescore_class)
    rows.append((f"per-class gains, {tag}",
                 median_time(lambda: lwlrap_class_gains(truth, scores, result=r), repeat=3),
                 f"rescore x{c} (est.)", one_c * c))
    return one


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller inputs (a smoke run)")
    args = ap.parse_args()
    n_kappa, n_lw = (1_000_000, 10_000) if args.quick else (10_000_000, 100_000)
    rows = []
    t0 = time.perf_counter()
    for k in (5, 10):
        one_rows, one_counts = kappa_cases(n_kappa, k, 1000, rows)
        print(f"kappa K={k}: one brute-force rescoring of {n_kappa:,} rows {one_rows:.3f} s "
              f"(median of 3); on the counts {one_counts * 1e6:.1f} us (median of 200)")
    one = lwlrap_cases(n_lw, 80, rows)
    print(f"lwlrap: one brute-force rescoring of {n_lw:,} x 80 {one:.3f} s (median of 3)")
    print()
    print_table(rows)
    print(f"\n(est.) = one rescoring timed as above, times the rescorings the job needs; "
          f"total run {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
