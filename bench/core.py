"""Benchmark the metric core against reference implementations, same run.

    .venv/bin/python bench/core.py [--quick]

Prints medians and ratios (reference time / ours; higher is better).
"""
import argparse
import os
import sys

import numpy as np
from sklearn.metrics import cohen_kappa_score
from sklearn.metrics import label_ranking_average_precision_score

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from _table import median_time, print_table  # noqa: E402
from reference import fbeta_ref  # noqa: E402

from kmetric_gui.metrics.kernels import jaccard_fbeta, lwlrap, weighted_kappa  # noqa: E402


def lwlrap_loop(truth, scores):
    """The official per-sample loop (argsort each row, precision at hits)."""
    n, c = scores.shape
    prec = np.zeros((n, c))
    for i in range(n):
        pos = np.flatnonzero(truth[i] > 0)
        if not len(pos):
            continue
        order = np.argsort(scores[i])[::-1]
        rank = np.zeros(c, dtype=int)
        rank[order] = range(c)
        hit = np.zeros(c, dtype=bool)
        hit[rank[pos]] = True
        cum = np.cumsum(hit)
        prec[i, pos] = cum[rank[pos]] / (1 + rank[pos].astype(float))
    labels = (truth > 0).sum(axis=0)
    return float((prec.sum(axis=0) / np.maximum(1, labels) * labels / labels.sum()).sum())


def fbeta_numpy_loop(truths, preds, beta=0.5, threshold=0.5):
    """Many-to-one, the way seed 002 writes it: a numpy matrix per document."""
    def jac(a, b):
        a, b = set(a.lower().split()), set(b.lower().split())
        u = len(a | b)
        return len(a & b) / u if u else 0.0

    def best(row):
        flags = np.zeros(len(row))
        if row.max() >= threshold:
            flags[np.flatnonzero(row == row.max())[0]] = 1
        return flags

    tp = fp = fn = 0
    for gts, pds in zip(truths, preds):
        pds = sorted(pds)
        if not pds:
            fn += len(gts)
            continue
        if not gts:
            fp += len(pds)
            continue
        m = np.array([[jac(p, g) for p in pds] for g in gts])
        match = np.apply_along_axis(best, 1, m).astype(bool)
        tp += int(match.sum())
        fp += int((~match.any(axis=0)).sum())
        fn += int((~match.any(axis=1)).sum())
    return tp, fp, fn


def fbeta_docs(n, rng):
    names = [f"{a} {b} {c}" for a in ("national", "early", "survey of", "census")
             for b in ("education", "health", "agricultural", "household", "income")
             for c in ("study", "survey", "database", "panel", "program", "longitudinal study")]
    truths, preds = [], []
    for _ in range(n):
        t = [str(x) for x in rng.choice(names, rng.integers(1, 5), replace=False)]
        p = [x if rng.random() < 0.6 else " ".join(x.split()[1:] + ["data"]) for x in t]
        p += [str(x) for x in rng.choice(names, rng.integers(0, 3))]
        truths.append(t)
        preds.append(p)
    return truths, preds


def fbeta_docs_varied(n, rng, pool_size=5000):
    """Documents drawn from a pool of random phrases: about 10,000 distinct
    strings, where the small-vocabulary table does not apply."""
    words = [f"w{i}" for i in range(3000)]
    pool = [" ".join(rng.choice(words, rng.integers(2, 7))) for _ in range(pool_size)]
    truths, preds = [], []
    for _ in range(n):
        t = [pool[i] for i in rng.integers(0, pool_size, rng.integers(1, 5))]
        p = [x if rng.random() < 0.5 else x + " data" for x in t]
        p += [pool[i] for i in rng.integers(0, pool_size, rng.integers(0, 3))]
        truths.append(t)
        preds.append(p)
    return truths, preds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller sizes, for a smoke run")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    scale = 10 if args.quick else 1
    rows = []

    n = 10_000_000 // scale
    t = rng.integers(0, 5, n)
    p = np.clip(t + rng.integers(-1, 2, n), 0, 4)
    ours = median_time(lambda: weighted_kappa(t, p), repeat=5)
    ref = median_time(lambda: cohen_kappa_score(t, p, weights="quadratic",
                                                labels=list(range(5))), repeat=3)
    assert abs(weighted_kappa(t, p).score - cohen_kappa_score(t, p, weights="quadratic")) < 1e-9
    rows.append((f"kappa {n:,} rows", ours, "sklearn cohen_kappa_score", ref))

    n, c = 100_000 // scale, 80
    truth = (rng.random((n, c)) < 1.3 / c).astype(np.int8)
    scores = rng.random((n, c)).astype(np.float64)
    scores[truth > 0] += rng.random(int(truth.sum())) * 0.5
    nz = truth.sum(axis=1) > 0
    ours = median_time(lambda: lwlrap(truth, scores), repeat=5)
    loop = median_time(lambda: lwlrap_loop(truth, scores), repeat=3)
    sk = median_time(lambda: label_ranking_average_precision_score(
        truth[nz], scores[nz], sample_weight=truth[nz].sum(axis=1)), repeat=3, warmup=0)
    assert abs(lwlrap(truth, scores).score - lwlrap_loop(truth, scores)) < 1e-9
    rows.append((f"lwlrap {n:,} x {c}", ours, "per-sample loop (official)", loop))
    rows.append((f"lwlrap {n:,} x {c}", ours, "sklearn LRAP (weighted)", sk))

    d = 20_000 // scale
    truths, preds = fbeta_docs(d, rng)
    # Steady state: on this machine the first few calls after the LwLRAP case
    # frees its large arrays run up to 2x slower (memory handed back and
    # faulted in again), so both sides warm up three times first.
    for matching in ("one-to-one", "many-to-one"):
        ours = median_time(lambda: jaccard_fbeta(truths, preds, matching=matching),
                           repeat=7, warmup=3)
        ref = median_time(lambda: fbeta_ref(truths, preds, matching=matching),
                          repeat=3, warmup=3)
        r = jaccard_fbeta(truths, preds, matching=matching)
        assert (r.tp, r.fp, r.fn) == fbeta_ref(truths, preds, matching=matching)[1]
        rows.append((f"fbeta {d:,} docs {matching}", ours, "plain per-pair loop", ref))
    truths_v, preds_v = fbeta_docs_varied(d, rng)
    ours = median_time(lambda: jaccard_fbeta(truths_v, preds_v), repeat=5, warmup=2)
    ref = median_time(lambda: fbeta_ref(truths_v, preds_v), repeat=3, warmup=1)
    r = jaccard_fbeta(truths_v, preds_v)
    assert (r.tp, r.fp, r.fn) == fbeta_ref(truths_v, preds_v)[1]
    rows.append((f"fbeta {d:,} docs, 10k strings", ours, "plain per-pair loop", ref))
    ours = median_time(lambda: jaccard_fbeta(truths, preds, matching="many-to-one"), repeat=5)
    ref = median_time(lambda: fbeta_numpy_loop(truths, preds), repeat=3)
    r = jaccard_fbeta(truths, preds, matching="many-to-one")
    assert (r.tp, r.fp, r.fn) == fbeta_numpy_loop(truths, preds)
    rows.append((f"fbeta {d:,} docs many-to-one", ours, "per-doc numpy loop (seed)", ref))
    print_table(rows)


if __name__ == "__main__":
    main()
