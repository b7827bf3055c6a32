"""Regenerate the demo file pairs of the common families (fixed seed, stdlib + numpy).

    python resources/demo/make_families_demo.py

One solution (with a Usage column) and two submissions per metric, named
<metric>_solution.csv, <metric>_submission.csv, <metric>_submission_b.csv:
auc (binary scores), logloss (multi-class probabilities), accuracy (text
labels), f1 (0/1 labels), mapk (space-separated items), rmse / rmsle / mae
(one real column, the same data), mcrmse (three real columns).
"""
import csv
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
N = 400


def write(name, header, rows, also=()):
    rows = list(rows)
    for target in (name,) + tuple(name.replace(name.split("_")[0], a, 1) for a in also):
        with open(os.path.join(HERE, target), "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)


def ids_usage(rng, prefix):
    ids = [f"{prefix}{i:05d}" for i in rng.permutation(N)]
    usage = np.where(rng.random(N) < 0.3, "Public", "Private")
    return ids, usage


def binary(rng):
    ids, usage = ids_usage(rng, "b")
    y = (rng.random(N) < 0.3).astype(int)
    write("auc_solution.csv", ["id", "target", "Usage"], zip(ids, y, usage))
    for name, sep in (("auc_submission.csv", 1.4), ("auc_submission_b.csv", 1.0)):
        logit = rng.normal(0, 1, N) + sep * (2 * y - 1)
        p = 1 / (1 + np.exp(-logit))
        order = rng.permutation(N)
        write(name, ["id", "target"], ((ids[i], f"{p[i]:.5f}") for i in order))


CLASSES = ["cat", "dog", "fox", "owl"]


def multiclass(rng):
    ids, usage = ids_usage(rng, "m")
    y = rng.choice(len(CLASSES), N, p=[0.4, 0.3, 0.2, 0.1])
    write("logloss_solution.csv", ["id", "label", "Usage"],
          ((i, CLASSES[c], u) for i, c, u in zip(ids, y, usage)))
    for name, sharp in (("logloss_submission.csv", 1.6), ("logloss_submission_b.csv", 1.1)):
        logits = rng.normal(0, 1, (N, len(CLASSES))) + sharp * np.eye(len(CLASSES))[y]
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        write(name, ["id"] + CLASSES, ([ids[i]] + [f"{v:.5f}" for v in p[i]]
                                       for i in rng.permutation(N)))
    return ids, y, usage


def labels(rng, ids, y, usage):
    write("accuracy_solution.csv", ["id", "label", "Usage"],
          ((i, CLASSES[c], u) for i, c, u in zip(ids, y, usage)))
    for name, right in (("accuracy_submission.csv", 0.75), ("accuracy_submission_b.csv", 0.65)):
        pred = np.where(rng.random(N) < right, y, rng.integers(0, len(CLASSES), N))
        write(name, ["id", "label"], ((ids[i], CLASSES[pred[i]]) for i in rng.permutation(N)))


def binary_labels(rng):
    ids, usage = ids_usage(rng, "f")
    y = (rng.random(N) < 0.25).astype(int)
    write("f1_solution.csv", ["id", "is_fraud", "Usage"], zip(ids, y, usage))
    for name, recall, false_alarm in (("f1_submission.csv", 0.8, 0.08),
                                      ("f1_submission_b.csv", 0.65, 0.05)):
        pred = np.where(y == 1, rng.random(N) < recall, rng.random(N) < false_alarm).astype(int)
        write(name, ["id", "is_fraud"], ((ids[i], pred[i]) for i in rng.permutation(N)))


def items(rng):
    ids, usage = ids_usage(rng, "q")
    catalog = [f"item{j}" for j in range(40)]
    actual = [list(rng.choice(catalog, rng.integers(1, 4), replace=False)) for _ in range(N)]
    write("mapk_solution.csv", ["id", "items", "Usage"],
          ((i, " ".join(a), u) for i, a, u in zip(ids, actual, usage)))
    for name, right in (("mapk_submission.csv", 0.6), ("mapk_submission_b.csv", 0.4)):
        preds = []
        for a in actual:
            guess = list(rng.choice(catalog, 5, replace=False))
            if rng.random() < right:
                guess.insert(int(rng.integers(0, 3)), a[0])
            preds.append(" ".join(dict.fromkeys(guess[:5])))
        write(name, ["id", "items"], ((ids[i], preds[i]) for i in rng.permutation(N)))


def regression(rng):
    ids, usage = ids_usage(rng, "r")
    y = np.round(np.exp(rng.normal(3, 0.8, N)), 2)        # prices: positive, skewed
    write("rmse_solution.csv", ["id", "price", "Usage"], zip(ids, y, usage), ("rmsle", "mae"))
    for name, spread in (("rmse_submission.csv", 0.25), ("rmse_submission_b.csv", 0.35)):
        p = np.round(y * np.exp(rng.normal(0, spread, N)), 2)
        write(name, ["id", "price"], ((ids[i], p[i]) for i in rng.permutation(N)), ("rmsle", "mae"))
    cols = ["cohesion", "syntax", "vocabulary"]
    t = np.round(rng.uniform(1, 5, (N, 3)) * 2) / 2           # essay scores in half points
    write("mcrmse_solution.csv", ["id"] + cols + ["Usage"],
          ([i] + list(r) + [u] for i, r, u in zip(ids, t.tolist(), usage)))
    for name, spread in (("mcrmse_submission.csv", 0.4), ("mcrmse_submission_b.csv", 0.55)):
        p = np.round(t + rng.normal(0, spread, t.shape), 3)
        write(name, ["id"] + cols, ([ids[i]] + list(p[i]) for i in rng.permutation(N)))


if __name__ == "__main__":
    rng = np.random.default_rng(2026)
    binary(rng)
    ids, y, usage = multiclass(rng)
    labels(rng, ids, y, usage)
    items(rng)
    regression(rng)
    binary_labels(rng)
