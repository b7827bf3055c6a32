"""Benchmark the bootstrap and the shake-up against resampling the rows, same run.

    PYTHONPATH=. .venv/bin/python bench/stats.py [--quick]
    PYTHONPATH=. .venv/bin/python bench/stats.py --fb-docs 1000000

--fb-docs N: F-beta statistics on the bench files of N documents (bench/files.py),
merged identical documents (core.resample.Units.collapsed, the default) against
the per-document draws (the same code with merging off), in one run.

Ours: the per-unit-sums forms of kmetric_gui.core (resample, shakeup).
References resample the units themselves and score each replicate:
scikit-learn's cohen_kappa_score for kappa; our own vectorised core scorer
for LwLRAP and F-beta (faster than any plain loop, so the ratio is a floor).
A reference is far too slow to run B times: a few replicates are timed
(median) and multiplied by B; the table says "extrapolated".
The machine is shared: compare the two sides of a row, not runs.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np
from sklearn.metrics import cohen_kappa_score

sys.path.insert(0, os.path.dirname(__file__))
from _table import median_time, print_table  # noqa: E402

from kmetric_gui.metrics.kernels import jaccard_fbeta, lwlrap, weighted_kappa  # noqa: E402
from kmetric_gui.core import resample  # noqa: E402
from kmetric_gui.core.resample import bootstrap  # noqa: E402
from kmetric_gui.core.shakeup import shakeup  # noqa: E402
from kmetric_gui.metrics.kernels.units import (fbeta_units, kappa_units, lwlrap_class_replicates,  # noqa: E402
                                    lwlrap_units)


CPU = {}   # case -> median CPU seconds of ours (what an idle core would take, roughly)


def ours_time(key, fn, repeat=5):
    """Median wall seconds of fn; its median CPU seconds go to CPU[key]."""
    fn()
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    CPU[key] = statistics.median(cpu)
    return statistics.median(wall)


def per_call(fn, n):
    """Median seconds of n calls (after one warm-up)."""
    fn()
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def kappa_case(n, b, ref_calls, rng):
    t = rng.integers(0, 6, n)
    p = np.clip(t + rng.integers(-1, 2, n), 0, 5)
    units = kappa_units(weighted_kappa(t, p))
    ours = ours_time("kappa", lambda: bootstrap(units, b, seed=0))

    def one_sklearn():
        idx = rng.integers(0, n, n)
        cohen_kappa_score(t[idx], p[idx], weights="quadratic")

    def one_numpy():
        idx = rng.integers(0, n, n)
        np.bincount(t[idx] * 6 + p[idx], minlength=36)

    sk = per_call(one_sklearn, ref_calls) * b
    npy = per_call(one_numpy, ref_calls) * b
    return units, ours, sk, npy


def shake_case(units, n, calls, rng):
    """Ours: 10,000 hypergeometric splits of O; reference: a random 30 % of the rows,
    both sides scored with sklearn."""
    ours = ours_time("shake-up", lambda: shakeup(units, 0.3, 10_000, seed=0))
    t = rng.integers(0, 6, n)
    p = np.clip(t + rng.integers(-1, 2, n), 0, 5)
    k = int(0.3 * n)

    def one_split():
        perm = rng.permutation(n)
        pub, priv = perm[:k], perm[k:]
        cohen_kappa_score(t[pub], p[pub], weights="quadratic")
        cohen_kappa_score(t[priv], p[priv], weights="quadratic")

    return ours, per_call(one_split, calls) * 10_000


def lwlrap_case(n, c, b, ref_calls, rng):
    truth = rng.random((n, c)) < 0.02
    truth[np.arange(n), rng.integers(0, c, n)] = True
    scores = rng.random((n, c)) + 0.5 * truth
    res = lwlrap(truth, scores)
    units = lwlrap_units(res)
    ours = ours_time("lwlrap", lambda: bootstrap(units, b, seed=0))

    def one():
        idx = rng.integers(0, n, n)
        lwlrap(truth[idx], scores[idx])

    ref = per_call(one, ref_calls) * b
    per_class = median_time(lambda: lwlrap_class_replicates(res, b, seed=0), repeat=1, warmup=0)
    return ours, ref, per_class


def fbeta_case(n, b, ref_calls, rng):
    vocab = [f"survey of topic {i}" for i in range(300)] + [f"study {i} data" for i in range(300)]
    truths = [list(rng.choice(vocab, rng.integers(1, 4))) for _ in range(n)]
    preds = [[s if rng.random() < 0.7 else s + " extra" for s in tr] +
             list(rng.choice(vocab, rng.integers(0, 2))) for tr in truths]
    units = fbeta_units(jaccard_fbeta(truths, preds))
    ours = ours_time("fbeta", lambda: bootstrap(units, b, seed=0))

    def one():
        idx = rng.integers(0, n, n)
        jaccard_fbeta([truths[i] for i in idx], [preds[i] for i in idx])

    ref = per_call(one, ref_calls) * b
    return ours, ref


def second_submission(sub, path):
    """A second F-beta submission: every third document loses its last prediction."""
    if not os.path.exists(path):
        with open(sub) as f, open(path, "w") as g:
            g.write(f.readline())
            for i, line in enumerate(f):
                doc, _, preds = line.rstrip("\n").partition(",")
                if i % 3 == 0:
                    preds = "|".join(preds.split("|")[:-1])
                g.write(f"{doc},{preds}\n")
    return path


def fbeta_files_case(n, calls):
    """(rows, distinct rows): 2,000 replicates / splits at n documents, merged vs per document."""
    from files import make_fbeta
    from kmetric_gui.analysis import scoring
    from kmetric_gui.core.compare import compare_pair
    from kmetric_gui.core.intervals import acceleration
    from kmetric_gui.metrics.base import Metric
    folder = "/tmp/kmetric_bench"
    os.makedirs(folder, exist_ok=True)
    sol, sub = make_fbeta(folder, n)
    sub_b = second_submission(sub, os.path.join(folder, f"f_subB_{n}.csv"))
    reports = [scoring.score_files(sol, s) for s in (sub, sub_b)]
    metric = reports[0].definition

    def units():
        return metric.units(reports[0].result)

    def paired(b):
        return Metric.paired(metric, reports)

    def timed(fn, b, full):
        """Seconds of fn(b); a slow side runs b replicates and is scaled to ``full``."""
        return median_time(lambda: fn(b), repeat=calls if b == full else 1) * full / b

    cases = [
        ("bootstrap 2k reps", lambda b: bootstrap(units(), b, seed=0), 100),
        ("BCa jackknife", lambda b: acceleration(*units().jackknife()), None),
        ("shake-up 2k splits", lambda b: shakeup(units(), 0.3, b, seed=0), 100),
        ("paired 2k reps", lambda b: paired(b).bootstrap(b, 0), 100),
        ("paired 2k permutations", lambda b: paired(b).permutation(0, 1, b, 0), 100),
        ("paired 2k splits", lambda b: paired(b).splits(0, 1, 300_000 * n // 1_000_000, b, 0), 50),
        ("compare_pair 2k/2k/2k", lambda b: compare_pair(
            paired(b), 0, 1, replicates=b, permutations=b, n_public=int(0.3 * n), splits=b,
            method="bca"), 50),
    ]
    rows = []
    for name, fn, few in cases:
        ours = timed(fn, 2000, 2000)
        saved = resample.COLLAPSE
        resample.COLLAPSE = float("inf")          # merging off: the per-document draws
        try:
            ref = timed(fn, few or 2000, 2000)
        finally:
            resample.COLLAPSE = saved
        ref_name = "per document" + (f" (extrap. {few})" if few else "")
        rows.append((f"fbeta {name}", ours, ref_name, ref))
    merged = units().collapsed
    return rows, merged.cells.size, paired(1).cells.size


def calibrated_cases(n_kappa, n_lw, calls, rng):
    """The calibrated (double bootstrap) interval beside the percentile one, 2,000 replicates
    each (the CLI's default), on 10M kappa rows and 100k x 80 LwLRAP."""
    from kmetric_gui.analysis.stats import interval_of
    t = rng.integers(0, 6, n_kappa)
    p = np.clip(t + rng.integers(-1, 2, n_kappa), 0, 5)
    kappa = kappa_units(weighted_kappa(t, p))
    truth = rng.random((n_lw, 80)) < 0.02
    truth[np.arange(n_lw), rng.integers(0, 80, n_lw)] = True
    lw = lwlrap_units(lwlrap(truth, rng.random((n_lw, 80)) + 0.5 * truth))
    rows = []
    for name, units, limit, repeat in ((f"kappa {n_kappa / 1e6:g}M rows", kappa, 2.0, calls),
                                       (f"lwlrap {n_lw // 1000}k x 80", lw, 30.0, 1)):
        pct = median_time(lambda: interval_of(units, 0.95, 2000, 0, "percentile"), repeat, 0)
        key = f"calibrated {name}"
        cal = ours_time(key, lambda: interval_of(units, 0.95, 2000, 0, "calibrated"), repeat)
        rows.append((f"calibrated CI, {name}", cal, "percentile CI, same draws", pct, limit, CPU[key]))
    # The coverage self-check (200 simulated datasets) of kappa at 10,000 rows, auto's method
    # (percentile here: five classes, none rare), beside one interval.
    t = rng.integers(0, 5, 10_000)
    p = np.clip(t + rng.integers(-1, 2, 10_000), 0, 4)
    small = kappa_units(weighted_kappa(t, p))
    one = median_time(lambda: interval_of(small, 0.95, 2000, 0, "auto"), calls, 0)
    chk = ours_time("check", lambda: interval_of(small, 0.95, 2000, 0, "auto", coverage=200), 1)
    rows.append(("coverage check, kappa 10k rows", chk, "one interval (auto)", one, 10.0,
                 CPU["check"]))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    ap.add_argument("--calibrated", action="store_true",
                    help="only the calibrated interval beside the percentile one")
    ap.add_argument("--fb-docs", type=int, default=0,
                    help="only the F-beta statistics on the bench files of this many documents")
    a = ap.parse_args()
    if a.fb_docs:
        rows, d, d2 = fbeta_files_case(a.fb_docs, 3)
        print(f"F-beta, {a.fb_docs:,} documents; merged: {d} distinct (TP, FP, FN) rows; "
              f"paired: {d2} distinct 6-tuples; ratio = per document / merged; "
              f"load average {os.getloadavg()[0]:.1f}\n")
        print_table(rows)
        return
    rng = np.random.default_rng(0)
    q = a.quick
    if a.calibrated:
        found = calibrated_cases(1_000_000 if q else 10_000_000, 10_000 if q else 100_000,
                                 2 if q else 3, rng)
        print(f"2,000 replicates, 95%; load average {os.getloadavg()[0]:.1f}\n")
        print_table([r[:4] for r in found])
        print("\n(cpu = median CPU seconds of ours: about what an idle core takes)")
        for case, t_ours, _, _, limit, cpu in found:
            print(f"  {case:<34} wall {t_ours:7.2f} s  cpu {cpu:7.2f} s  target < {limit:g} s  "
                  f"{'met' if t_ours < limit else ('met (cpu)' if cpu < limit else 'MISSED')}")
        return
    n_kappa = 1_000_000 if q else 10_000_000
    calls = 2 if q else 3
    rows, targets = [], []

    units, ours, sk, npy = kappa_case(n_kappa, 10_000, calls, rng)
    case = f"kappa 10k reps, {n_kappa / 1e6:g}M rows"
    rows += [(case, ours, "sklearn rows (extrap.)", sk),
             (case, ours, "numpy bincount rows (extrap.)", npy)]
    targets.append((case, "kappa", ours, 0.2, sk / ours, 10_000))

    sh, ref = shake_case(units, n_kappa, calls, rng)
    case = f"shake-up 10k splits, {n_kappa / 1e6:g}M rows"
    rows.append((case, sh, "sklearn row splits (extrap.)", ref))
    targets.append((case, "shake-up", sh, 0.5, ref / sh, None))
    units = None

    n_lw = 10_000 if q else 100_000
    ours, ref, per_class = lwlrap_case(n_lw, 80, 1000, calls, rng)
    case = f"lwlrap 1k reps, {n_lw // 1000}k x 80"
    rows.append((case, ours, "core lwlrap/replicate (extrap.)", ref))
    targets.append((case, "lwlrap", ours, 1.0, ref / ours, None))
    case = f"lwlrap per-class 1k reps, {n_lw // 1000}k"
    rows.append((case, per_class, "core lwlrap/replicate (extrap.)", ref))

    n_fb = 2_000 if q else 20_000
    ours, ref = fbeta_case(n_fb, 1000, calls, rng)
    case = f"fbeta 1k reps, {n_fb // 1000}k documents"
    rows.append((case, ours, "core fbeta/replicate (extrap.)", ref))
    targets.append((case, "fbeta", ours, 0.5, ref / ours, None))

    print("(extrap.) = median of a few reference replicates x B; ratio = reference / ours\n")
    print_table(rows)
    print(f"\ntargets (wall = median elapsed; cpu = median CPU time of ours, about what an idle "
          f"core takes; load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    for case, key, t_ours, limit, ratio, min_ratio in targets:
        ok = t_ours < limit and (min_ratio is None or ratio >= min_ratio)
        need = f"< {limit} s" + (f" and >= {min_ratio:,}x" if min_ratio else "")
        print(f"  {case:<34} wall {t_ours:7.4f} s  cpu {CPU[key]:7.4f} s  {ratio:>12,.0f}x  "
              f"target {need:<22} {'met' if ok else 'MISSED (wall)'}")


if __name__ == "__main__":
    main()
