"""Paired comparison (kmetric compare) vs plain loops, side by side in one run.

    PYTHONPATH=. .venv/bin/python bench/compare.py [--quick]

Ours: medians of a few runs. References: plain loops that redraw the units
each iteration and call the scorer (scikit-learn's cohen_kappa_score /
label_ranking_average_precision_score, or the project's own lwlrap for the
blend); they are timed for a few iterations and extrapolated linearly to the
full count (marked "extrapolated"). The machine is shared: compare ratios
within one run, not across runs.
"""
import argparse
import os
import sys
import time

import numpy as np
from sklearn.metrics import cohen_kappa_score, label_ranking_average_precision_score

sys.path.insert(0, os.path.dirname(__file__))

from kmetric_gui.metrics.kernels import lwlrap  # noqa: E402
from kmetric_gui.metrics.kernels.lwlrap_blend import lwlrap_blend  # noqa: E402
from kmetric_gui.core.compare import UnitPairs  # noqa: E402
from kmetric_gui.metrics.kernels.kappa_pairs import KappaPairs
from kmetric_gui.metrics.kernels.units import lwlrap_units  # noqa: E402


def timed(fn, repeat):
    """(median wall seconds, median CPU seconds of this process) over ``repeat`` runs after one warm-up.

    CPU time is what the work costs on an idle machine; wall time includes waiting
    for a core when the machine is shared."""
    fn()
    wall, cpu = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return float(np.median(wall)), float(np.median(cpu))


def per_iteration(fn, iterations):
    t0 = time.perf_counter()
    for _ in range(iterations):
        fn()
    return (time.perf_counter() - t0) / iterations


def kappa_cases(n, reps, perms, loops):
    rng = np.random.default_rng(0)
    t = rng.choice(5, n, p=[.45, .15, .2, .1, .1]).astype(np.int8)
    a = np.clip(t + rng.choice([-1, 0, 0, 0, 1], n), 0, 4).astype(np.int8)
    b = np.clip(t + rng.choice([-2, -1, 0, 0, 0, 1], n), 0, 4).astype(np.int8)
    eng = KappaPairs(t, [a, b], 5)
    count = timed(lambda: KappaPairs(t, [a, b], 5).joint(0, 1), repeat=3)
    eng.joint(0, 1)
    boot = timed(lambda: eng.pair_bootstrap(0, 1, reps, 0), repeat=5)
    perm = timed(lambda: eng.permutation(0, 1, perms, 0), repeat=5)
    g = np.random.default_rng(1)
    kw = dict(weights="quadratic", labels=list(range(5)))

    def row_boot():
        i = g.integers(0, n, n)
        cohen_kappa_score(t[i], b[i], **kw) - cohen_kappa_score(t[i], a[i], **kw)

    def row_perm():
        s = g.random(n) < 0.5
        cohen_kappa_score(t, np.where(s, a, b), **kw) - cohen_kappa_score(t, np.where(s, b, a), **kw)
    ref_boot = per_iteration(row_boot, loops) * reps
    ref_perm = per_iteration(row_perm, loops) * perms
    label = f"kappa {n:,} rows"
    return [(f"{label}: joint (t, A, B) counts", count, "(one pass, part of both)", None, ""),
            (f"{label}: {reps:,} paired replicates", boot, "row resample + sklearn x2", ref_boot,
             f"extrapolated from {loops}"),
            (f"{label}: {perms:,} permutations", perm, "row swaps + sklearn x2", ref_perm,
             f"extrapolated from {loops}")]


def lwlrap_data(n, c, correlated):
    rng = np.random.default_rng(2)
    t = rng.random((n, c)) < 1.5 / c
    t[np.arange(n), rng.integers(0, c, n)] = True
    a = rng.random((n, c)) + 0.6 * t * rng.random((n, c))
    if correlated:   # two models of one task: B is A plus noise
        b = a + rng.normal(0, 0.15, (n, c)) + 0.1 * t
    else:
        b = rng.random((n, c)) + 0.6 * t * rng.random((n, c))
    return t, a, b


def lwlrap_cases(n, c, reps, loops):
    t, a, b = lwlrap_data(n, c, correlated=True)
    score = timed(lambda: (lwlrap(t, a), lwlrap(t, b)), repeat=3)
    ua, ub = lwlrap_units(lwlrap(t, a)), lwlrap_units(lwlrap(t, b))
    boot = timed(lambda: UnitPairs([ua.stats, ub.stats], ua.score).bootstrap(reps, 0), repeat=3)
    g = np.random.default_rng(1)
    pos = t.sum(axis=1)

    def row_boot(scorer):
        i = g.integers(0, n, n)
        scorer(t[i], b[i]) - scorer(t[i], a[i])

    def sk(tt, s):
        w = tt.sum(axis=1)
        keep = w > 0
        return label_ranking_average_precision_score(tt[keep], s[keep], sample_weight=w[keep])
    ref = per_iteration(lambda: row_boot(lambda tt, s: lwlrap(tt, s).score), loops) * reps
    m = min(n, 5000)    # sklearn's LRAP is too slow for 100,000 samples: timed on 5,000
    ta, aa, ba, pos = t[:m], a[:m], b[:m], pos[:m]
    ref_sk = per_iteration(lambda: sk(ta, ba) - sk(ta, aa), 1) * reps * n / m
    label = f"lwlrap {n:,} x {c}"
    return [(f"{label}: score A and B (units)", score, "(one pass, needed by both)", None, ""),
            (f"{label}: {reps:,} paired replicates", boot, "resample + our lwlrap x2", ref,
             f"extrapolated from {loops}"),
            ("", boot, "resample + sklearn LRAP x2", ref_sk,
             f"extrapolated from 1 on {m:,} samples")]


def blend_cases(n, c, alphas, loops):
    rows = []
    for correlated in (True, False):
        t, a, b = lwlrap_data(n, c, correlated)
        al = np.linspace(0, 1, alphas)
        ours = timed(lambda: lwlrap_blend(t, a, b, al), repeat=3)
        k = iter(np.random.default_rng(3).choice(al, loops))
        ref = per_iteration(lambda: lwlrap(t, (x := next(k)) * a + (1 - x) * b), loops) * alphas
        kind = "B = A + noise" if correlated else "independent A, B"
        rows.append((f"blend {alphas} alphas, {n:,} x {c} ({kind})", ours,
                     "blend + lwlrap per alpha", ref, f"extrapolated from {loops}"))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    args = ap.parse_args()
    if args.quick:
        rows = (kappa_cases(200_000, 1000, 1000, 2) + lwlrap_cases(5_000, 80, 200, 2)
                + blend_cases(5_000, 80, 101, 3))
    else:
        rows = (kappa_cases(10_000_000, 10_000, 10_000, 2) + lwlrap_cases(100_000, 80, 1000, 3)
                + blend_cases(100_000, 80, 101, 3))
    head = (f"{'case':<56} {'ours (s)':>9} {'CPU (s)':>8}  {'reference':<30} {'ref (s)':>10} "
            f"{'ratio':>8}  note")
    print(head)
    print("-" * len(head))
    for case, (ours, cpu), ref_name, ref, note in rows:
        if ref is None:
            print(f"{case:<56} {ours:>9.3f} {cpu:>8.3f}  {ref_name:<30}")
        else:
            print(f"{case:<56} {ours:>9.3f} {cpu:>8.3f}  {ref_name:<30} {ref:>10.1f} "
                  f"{ref / ours:>7.0f}x  {note}")
    print("ours: median wall time; CPU: median CPU time of this process (what the work costs on "
          "an idle core); reference: wall time, extrapolated as noted")


if __name__ == "__main__":
    main()
