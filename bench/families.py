"""Benchmark the common metric families against scikit-learn, in one run.

    PYTHONPATH=. nice -n 10 .venv/bin/python bench/families.py [--quick] [--repeat R]

Scores: binary AUC, log loss, RMSE, accuracy and macro F1 on 10,000,000 rows
(target: each >= 10x scikit-learn); multi-class AUC and log loss on
1,000,000 x 10 (>= 5x). Statistics: 1,000 bootstrap replicates of AUC on
1M rows (< 5 s) and 10,000 replicates of accuracy and macro F1 on 10M rows
(< 0.5 s). The bootstrap references resample rows and call scikit-learn;
they are far too slow to run B times, so a few replicates are timed and
multiplied by B ("extrapolated").

Times are medians of R runs, wall clock and CPU (process time); the ratio
is on CPU seconds, which a shared machine disturbs least. Prints a markdown
table. --quick: 10x fewer rows (a smoke run, not the targets).
"""
import argparse
import statistics
import time

import numpy as np
from sklearn import metrics as skm

from kmetric_gui.core.classification import accuracy, f1
from kmetric_gui.core.probabilistic import log_loss
from kmetric_gui.core.ranking import auc_bootstrap, roc_auc
from kmetric_gui.core.regression import rmse
from kmetric_gui.core.resample import bootstrap, resample_indices


def timed(fn, repeat):
    """(median wall s, median CPU s, last result) of repeat calls after a warm-up."""
    out = fn()
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu), out


def compare_row(rows, case, ours, ref, repeat, ref_repeat, target):
    w, c, a = timed(ours, repeat)
    rw, rc, b = timed(ref, ref_repeat)
    assert np.isclose(float(a), float(b), rtol=1e-9), (case, a, b)
    rows.append((case, w, c, "scikit-learn", rw, rc, f"{rc / c:.1f}x", target))


def stat_row(rows, case, ours, ref_one, b, repeat, target):
    w, c, _ = timed(ours, repeat)
    one_w, one_c, _ = timed(ref_one, 2)
    rows.append((case, w, c, "sklearn row resample, extrapolated", one_w * b, one_c * b,
                 f"{one_c * b / c:.0f}x", target))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    big = 1_000_000 if args.quick else 10_000_000
    mid = 100_000 if args.quick else 1_000_000
    r = args.repeat
    rng = np.random.default_rng(0)
    rows = []

    y = rng.random(big) < 0.3
    s = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0.001, 0.999)   # away from the clip bounds
    compare_row(rows, f"binary AUC, {big:,} rows", lambda: roc_auc(y, s).score,
                lambda: skm.roc_auc_score(y, s), r, r, ">= 10x")
    yi = y.astype(np.int8)
    compare_row(rows, f"binary log loss, {big:,} rows", lambda: log_loss(yi, s).score,
                lambda: skm.log_loss(yi, s), r, r, ">= 10x")
    t = rng.normal(size=big)
    p = t + rng.normal(size=big)
    compare_row(rows, f"RMSE, {big:,} rows", lambda: rmse(t, p).score,
                lambda: skm.root_mean_squared_error(t, p), r, r, ">= 10x")
    ct = rng.integers(0, 5, big).astype(np.int64)
    cp = np.where(rng.random(big) < 0.6, ct, rng.integers(0, 5, big))
    compare_row(rows, f"accuracy, {big:,} rows", lambda: accuracy(ct, cp).score,
                lambda: skm.accuracy_score(ct, cp), r, r, ">= 10x")
    compare_row(rows, f"macro F1, {big:,} rows, 5 classes",
                lambda: f1(ct, cp, average="macro").score,
                lambda: skm.f1_score(ct, cp, average="macro"), r, r, ">= 10x")

    k = 10
    my = rng.integers(0, k, mid)
    logits = rng.normal(size=(mid, k)) + 1.5 * np.eye(k)[my]
    mp = np.exp(logits)
    mp /= mp.sum(axis=1, keepdims=True)
    compare_row(rows, f"multi-class AUC, {mid:,} x {k}", lambda: roc_auc(my, mp).score,
                lambda: skm.roc_auc_score(my, mp, multi_class="ovr"), r, r, ">= 5x")
    compare_row(rows, f"multi-class log loss, {mid:,} x {k}", lambda: log_loss(my, mp).score,
                lambda: skm.log_loss(my, mp), r, r, ">= 5x")

    b = 1000
    by, bs = y[:mid], s[:mid]
    idx1 = resample_indices(mid, 1, seed=1)[0]
    stat_row(rows, f"AUC bootstrap, {b:,} replicates, {mid:,} rows",
             lambda: auc_bootstrap(by, [bs], b, seed=0), lambda: skm.roc_auc_score(by[idx1], bs[idx1]),
             b, r, "< 5 s")
    bb = 10_000
    acc_units = accuracy(ct, cp).units()
    f1_units = f1(ct, cp, average="macro").units()
    idx_big = np.random.default_rng(2).integers(0, big, big)
    stat_row(rows, f"accuracy bootstrap, {bb:,} replicates, {big:,} rows",
             lambda: bootstrap(acc_units, bb, seed=0),
             lambda: skm.accuracy_score(ct[idx_big], cp[idx_big]), bb, r, "< 0.5 s")
    stat_row(rows, f"macro F1 bootstrap, {bb:,} replicates, {big:,} rows",
             lambda: bootstrap(f1_units, bb, seed=0),
             lambda: skm.f1_score(ct[idx_big], cp[idx_big], average="macro"), bb, r, "< 0.5 s")

    print("| case | ours wall (s) | ours CPU (s) | reference | ref wall (s) | ref CPU (s) "
          "| ratio (CPU) | target |")
    print("|---|---:|---:|---|---:|---:|---:|---|")
    for case, w, c, ref, rw, rc, ratio, target in rows:
        print(f"| {case} | {w:.3f} | {c:.3f} | {ref} | {rw:.3f} | {rc:.3f} | {ratio} | {target} |")


if __name__ == "__main__":
    main()
