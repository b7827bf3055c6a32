"""Benchmark the common metric families against scikit-learn, in one run.

    PYTHONPATH=. nice -n 10 .venv/bin/python bench/families.py [--quick] [--repeat R]
        [--only WORD ...] [--files]

Issue 35's families (bench/_new_families.py): Pearson, Spearman, Kendall, MCC, SMAPE,
MAPE, NDCG@5, Levenshtein, word Jaccard, KL divergence, Laplace log likelihood and the
angular distance on 1,000,000 rows against scipy / scikit-learn / the competitions'
formulas (target >= 5x).

Scores: binary AUC, log loss, RMSE, accuracy and macro F1 on 10,000,000 rows
(target: each >= 10x scikit-learn); multi-class AUC and log loss on
1,000,000 x 10 (>= 5x). Statistics: 1,000 bootstrap replicates of AUC on
1M rows (< 5 s wall; it draws and counts on 2 threads, so its CPU time, summed
over threads, exceeds its wall time on an idle machine) and 10,000
replicates of accuracy and macro F1 on 10M rows (< 0.5 s). The bootstrap
references resample rows and call scikit-learn; they are far too slow to
run B times, so a few replicates are timed and multiplied by B
("extrapolated").

Times are medians of R runs, wall clock and CPU (process time); the ratio
is on CPU seconds, which a shared machine disturbs least. Prints a markdown
table. --quick: 10x fewer rows (a smoke run, not the targets). --only: the
cases whose name holds one of the words.

"floor" rows time what any exact method of the same kind must do at least,
with the same reference: np.sort of the smaller class's scores (the AUC sorts
that class and finds each row of the other through a table), one pass reading
both arrays (RMSE). Their ratio is the best ratio such a method could reach
on this machine. RMSE's 10x is out of reach: scikit-learn itself is within
about 5x of one pass reading both arrays (its ratio in the floor row), and any
exact RMSE must read every value once.

--only variants: the variants of issue 35 (weights, per-group means, rounding, balanced
log loss) against the plain metric on 1M rows (bench/variants.py also times them end to
end through `kmetric score`).

--files: `kmetric score` on a 5M-row binary-probability pair (CSV, 12-hex
ids, rows shuffled between the files) against pyarrow reading both files
alone, each a fresh process; CPU is the children's user + system time.
"""
import argparse
import os
import sys
import tempfile

import numpy as np
from sklearn import metrics as skm

from kmetric_gui.metrics.kernels.classification import accuracy, f1
from kmetric_gui.metrics.kernels.probabilistic import log_loss
from kmetric_gui.metrics.kernels.ranking import roc_auc
from kmetric_gui.metrics.kernels.ranking_boot import auc_bootstrap, replicate_blocks
from kmetric_gui.metrics.kernels.regression import rmse
from kmetric_gui.core.resample import bootstrap, resample_indices

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _table import child_run, timed  # noqa: E402

READ_ALONE = """
import sys, pyarrow as pa, pyarrow.csv as c
for p in sys.argv[1:3]:
    t = c.read_csv(p, convert_options=c.ConvertOptions(column_types={"id": pa.string()}))
print(t.num_rows)
"""


def compare_row(rows, case, ours, ref, repeat, ref_repeat, target, floor=None):
    """floor: (name, fn) timed beside, against the same reference run."""
    w, c, a = timed(ours, repeat)
    rw, rc, b = timed(ref, ref_repeat)
    assert np.isclose(float(a), float(b), rtol=1e-12), (case, a, b)
    rows.append((case, w, c, "scikit-learn", rw, rc, f"{rc / c:.1f}x", target))
    if floor is not None:
        fw, fc, _ = timed(floor[1], repeat)
        rows.append((f"floor: {floor[0]}", fw, fc, "scikit-learn", rw, rc, f"{rc / fc:.1f}x",
                     "(best possible)"))


def stat_row(rows, case, ours, ref_one, b, repeat, target):
    w, c, _ = timed(ours, repeat)
    one_w, one_c, _ = timed(ref_one, 2)
    rows.append((case, w, c, "sklearn row resample, extrapolated", one_w * b, one_c * b,
                 f"{one_c * b / c:.0f}x", target))


def sort_smaller_class(y, s):
    """The smaller class's scores sorted (in place: boolean indexing copies already)."""
    a = s[y] if 2 * np.count_nonzero(y) <= y.size else s[~y]
    a.sort()
    return a


def file_rows(rows, n, repeat):
    """`kmetric score` on an n-row binary-probability pair vs pyarrow reading both files."""
    folder = os.path.join(tempfile.gettempdir(), "kmetric_bench_families")
    os.makedirs(folder, exist_ok=True)
    sol, sub = os.path.join(folder, f"auc_sol_{n}.csv"), os.path.join(folder, f"auc_sub_{n}.csv")
    if not (os.path.exists(sol) and os.path.exists(sub)):
        g = np.random.default_rng(5)
        ids = np.char.mod("%012x", g.choice(2 ** 48, n, replace=False))
        y = g.random(n) < 0.3
        prob = np.clip(g.normal(0.35 + 0.3 * y, 0.2), 0.001, 0.999)
        with open(sol, "w") as f:
            f.write("id,target\n")
            f.write("\n".join(np.char.add(np.char.add(ids, ","), y.astype(np.int8).astype(str))))
            f.write("\n")
        order = g.permutation(n)
        with open(sub, "w") as f:
            f.write("id,target\n")
            f.write("\n".join(np.char.add(np.char.add(ids[order], ","),
                                           np.char.mod("%.6f", prob[order]))))
            f.write("\n")
    py = sys.executable
    kmetric = os.path.join(os.path.dirname(py), "kmetric")
    rw, rc = child_run([py, "-c", READ_ALONE, sol, sub], repeat)
    w, c = child_run([kmetric, "score", "--metric", "auc", sol, sub], repeat)
    rows.append((f"`kmetric score --metric auc`, {n:,}-row pair", w, c, "pyarrow read of both",
                 rw, rc, f"{c / rc:.2f}x of the read", "<= 2x of the read"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", nargs="+", default=None)
    ap.add_argument("--files", action="store_true")
    args = ap.parse_args()
    big = 1_000_000 if args.quick else 10_000_000
    mid = 100_000 if args.quick else 1_000_000
    r = args.repeat
    rng = np.random.default_rng(0)
    rows = []

    def want(case):
        return args.only is None or any(w.lower() in case.lower() for w in args.only)

    y = rng.random(big) < 0.3
    s = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0.001, 0.999)   # away from the clip bounds
    if want("binary AUC"):
        compare_row(rows, f"binary AUC, {big:,} rows", lambda: roc_auc(y, s).score,
                    lambda: skm.roc_auc_score(y, s), r, r, ">= 10x",
                    ("np.sort of the smaller class's scores", lambda: sort_smaller_class(y, s)))
    if want("binary AUC, 6 decimals"):
        s6 = np.round(s, 6)
        compare_row(rows, f"binary AUC, {big:,} rows, 6 decimals as in a CSV",
                    lambda: roc_auc(y, s6).score, lambda: skm.roc_auc_score(y, s6), r, r, "")
    if want("binary log loss"):
        yi = y.astype(np.int8)
        compare_row(rows, f"binary log loss, {big:,} rows", lambda: log_loss(yi, s).score,
                    lambda: skm.log_loss(yi, s), r, r, ">= 10x")
    t = rng.normal(size=big)
    p = t + rng.normal(size=big)
    if want("RMSE"):
        compare_row(rows, f"RMSE, {big:,} rows", lambda: rmse(t, p).score,
                    lambda: skm.root_mean_squared_error(t, p), r, r, ">= 10x",
                    ("one pass reading both arrays (np.add.reduce of each)",
                     lambda: (np.add.reduce(t), np.add.reduce(p))))
    ct = rng.integers(0, 5, big).astype(np.int64)
    cp = np.where(rng.random(big) < 0.6, ct, rng.integers(0, 5, big))
    if want("accuracy,"):
        compare_row(rows, f"accuracy, {big:,} rows", lambda: accuracy(ct, cp).score,
                    lambda: skm.accuracy_score(ct, cp), r, r, ">= 10x")
    if want("macro F1,"):
        compare_row(rows, f"macro F1, {big:,} rows, 5 classes",
                    lambda: f1(ct, cp, average="macro").score,
                    lambda: skm.f1_score(ct, cp, average="macro"), r, r, ">= 10x")

    k = 10
    my = rng.integers(0, k, mid)
    logits = rng.normal(size=(mid, k)) + 1.5 * np.eye(k)[my]
    mp = np.exp(logits)
    mp /= mp.sum(axis=1, keepdims=True)
    if want("multi-class AUC"):
        cols = [mp[:, j] for j in range(k)]
        compare_row(rows, f"multi-class AUC, {mid:,} x {k}", lambda: roc_auc(my, mp).score,
                    lambda: skm.roc_auc_score(my, mp, multi_class="ovr"), r, r, ">= 5x",
                    ("np.sort of each column's smaller class",
                     lambda: [sort_smaller_class(my == j, c) for j, c in enumerate(cols)]))
    if want("multi-class log loss"):
        compare_row(rows, f"multi-class log loss, {mid:,} x {k}", lambda: log_loss(my, mp).score,
                    lambda: skm.log_loss(my, mp), r, r, ">= 5x")

    b = 1000
    by, bs = y[:mid], s[:mid]
    idx1 = resample_indices(mid, 1, seed=1)[0]
    if want("AUC bootstrap"):
        stat_row(rows, f"AUC bootstrap, {b:,} replicates, {mid:,} rows",
                 lambda: auc_bootstrap(by, [bs], b, seed=0),
                 lambda: skm.roc_auc_score(by[idx1], bs[idx1]), b, r, "< 5 s")
        draws = lambda: [len(replicate_blocks(mid, 0, i)) for i in range(b)]   # noqa: E731
        w, c, _ = timed(draws, 1)
        rows.append((f"floor: the {b:,} x {mid:,} row draws alone", w, c, "", 0, 0, "",
                     "(the AUC bootstrap's draws, one thread)"))
    bb = 10_000
    idx_big = np.random.default_rng(2).integers(0, big, big)
    if want("accuracy bootstrap"):
        acc_units = accuracy(ct, cp).units()
        stat_row(rows, f"accuracy bootstrap, {bb:,} replicates, {big:,} rows",
                 lambda: bootstrap(acc_units, bb, seed=0),
                 lambda: skm.accuracy_score(ct[idx_big], cp[idx_big]), bb, r, "< 0.5 s")
    if want("macro F1 bootstrap"):
        f1_units = f1(ct, cp, average="macro").units()
        stat_row(rows, f"macro F1 bootstrap, {bb:,} replicates, {big:,} rows",
                 lambda: bootstrap(f1_units, bb, seed=0),
                 lambda: skm.f1_score(ct[idx_big], cp[idx_big], average="macro"), bb, r, "< 0.5 s")
    from _new_families import add_rows       # issue 35's families, at 1M rows
    add_rows(rows, mid, r, want, timed)
    if args.files:
        file_rows(rows, 500_000 if args.quick else 5_000_000, r)
    if args.only and any("variant" in w.lower() for w in args.only):
        # Each variant of issue 35 against the plain metric on the same 1M prepared rows
        # (bench/variants.py has them and the end-to-end file cases).
        from variants import cases
        from kmetric_gui.analysis.scoring import score_prepared
        for name, plain, variant in cases(mid, np.random.default_rng(0)):
            pw, pc, _ = timed(lambda: score_prepared(*plain).score, r)
            vw, vc, _ = timed(lambda: score_prepared(*variant).score, r)
            rows.append((f"variant {name}, {mid:,} rows", vw, vc, "plain metric", pw, pc,
                         f"{vc / pc:.2f}x", "<= ~1.5x"))

    print("| case | ours wall (s) | ours CPU (s) | reference | ref wall (s) | ref CPU (s) "
          "| ratio (CPU) | target |")
    print("|---|---:|---:|---|---:|---:|---:|---|")
    for case, w, c, ref, rw, rc, ratio, target in rows:
        print(f"| {case} | {w:.3f} | {c:.3f} | {ref} | {rw:.3f} | {rc:.3f} | {ratio} | {target} |")


if __name__ == "__main__":
    main()
