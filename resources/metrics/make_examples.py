"""Make the demo pairs of the example metric files (fixed seed; rerun to refresh).

    python resources/metrics/make_examples.py
"""
import csv
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent


def _write(name, header, rows):
    with open(HERE / name, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def _usage(rng, n):
    return rng.choice(["Public", "Private"], size=n, p=[0.3, 0.7])


def kl(rng, n=300, k=4):
    votes = rng.dirichlet(np.full(k, 0.6), size=n).round(3)
    votes[:, -1] = 1 - votes[:, :-1].sum(axis=1)
    votes = votes.clip(0, 1)
    votes = votes / votes.sum(axis=1, keepdims=True)
    pred = 0.6 * votes + 0.4 * rng.dirichlet(np.ones(k), size=n)
    usage = _usage(rng, n)
    cols = [f"class_{c}" for c in range(k)]
    _write("kl_solution.csv", ["id", *cols, "Usage"],
           [[i, *map("{:.6f}".format, v), u] for i, v, u in zip(range(n), votes, usage)])
    _write("kl_submission.csv", ["id", *cols], [[i, *map("{:.6f}".format, p)] for i, p in enumerate(pred)])


def column_auc(rng, n=400, labels=("cat", "dog", "bird")):
    y = (rng.random((n, len(labels))) < [0.3, 0.15, 0.05]).astype(int)
    s = (0.9 * y + rng.normal(0, 0.5, size=y.shape)).round(4)
    usage = _usage(rng, n)
    _write("auc_solution.csv", ["id", *labels, "Usage"],
           [[f"r{i:04d}", *row, u] for i, row, u in zip(range(n), y, usage)])
    _write("auc_submission.csv", ["id", *labels], [[f"r{i:04d}", *row] for i, row in enumerate(s)])


def balanced(rng, n=500):
    y = (rng.random(n) < 0.2).astype(int)
    p1 = np.clip(0.2 + 0.5 * y + rng.normal(0, 0.2, n), 0.01, 0.99).round(4)
    usage = _usage(rng, n)
    _write("bll_solution.csv", ["id", "class_0", "class_1", "Usage"],
           [[i, 1 - t, t, u] for i, t, u in zip(range(n), y, usage)])
    _write("bll_submission.csv", ["id", "class_0", "class_1"],
           [[i, f"{1 - p:.4f}", f"{p:.4f}"] for i, p in enumerate(p1)])


def kl_second(seed=2027):
    """A second submission for the KL pair (compare, blends): nearer the votes on some rows,
    further on others; its own generator, so the files above stay as they are."""
    rng = np.random.default_rng(seed)
    with open(HERE / "kl_solution.csv", newline="") as f:
        rows = list(csv.reader(f))
    cols = rows[0][1:-1]
    votes = np.array([[float(x) for x in r[1:-1]] for r in rows[1:]])
    w = rng.uniform(0.3, 0.9, size=(len(votes), 1))
    pred = w * votes + (1 - w) * rng.dirichlet(np.ones(len(cols)), size=len(votes))
    _write("kl_submission_b.csv", ["id", *cols],
           [[r[0], *map("{:.6f}".format, p)] for r, p in zip(rows[1:], pred)])


if __name__ == "__main__":
    rng = np.random.default_rng(2026)
    kl(rng)
    column_auc(rng)
    balanced(rng)
    kl_second()
