"""The variants of the built-in metrics (issue 35) against the plain metric, in one run.

    PYTHONPATH=. nice -n 10 .venv/bin/python bench/variants.py [--rows N] [--repeat R]
        [--only WORD ...] [--files]

Each case scores the same prepared 1,000,000 rows twice through the scoring entry
(``score_prepared``: the metric's plan and score, what every command and the app call
after reading): once plain, once with the variant on. The ratio is variant / plain
(target: <= ~1.5x). --files: `kmetric score` of a 1M-row CSV pair plain and with each
column variant (weights, mask, groups), each a fresh process: what a user waits for.
Medians of R runs; CPU is process time (children's for --files).
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import pyarrow as pa

from kmetric_gui.analysis.scoring import Options, score_prepared
from kmetric_gui.io.prepare import Prepared

sys.path.insert(0, os.path.dirname(__file__))
from _table import child_run, timed  # noqa: E402


def prepared(metric, truth, pred, row_values=None, columns=None, classes=None):
    n = len(truth)
    ids = pa.array(np.char.mod("%08x", np.arange(n)))
    return Prepared(metric, "bench", "id", ["y"], ids, truth, pred, None,
                    classes=classes or [], row_values=row_values or {},
                    variant_columns=columns or {})


def cases(n, rng):
    """(name, plain (prep, options), variant (prep, options))."""
    w = rng.uniform(0.1, 3.0, n)
    g = rng.integers(0, 8, n)
    names = tuple(f"g{k}" for k in range(8))
    t = rng.normal(size=n) * 10
    p = t + rng.normal(size=n)
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0.001, 0.999)
    ct = rng.integers(0, 5, n)
    cp = np.where(rng.random(n) < 0.6, ct, rng.integers(0, 5, n))
    wv, wc = {"weights": w}, {"weights_column": "w"}

    def grouped(metric, truth, pred):
        prep = prepared(metric, truth, pred, {"groups": g}, {"group_by": "g"})
        prep.group_names = names
        return prep
    out = []
    for metric, truth, pred, extra in (("rmse", t, p, {}), ("mae", t, p, {}),
                                       ("logloss", y, s, {}), ("auc", y, s, {}),
                                       ("accuracy", ct, cp, {}), ("f1", ct, cp,
                                                                  {"average": "macro"})):
        plain = (prepared(metric, truth, pred), Options(metric=metric, **extra))
        out.append((f"{metric}: weights", plain,
                    (prepared(metric, truth, pred, wv, wc),
                     Options(metric=metric, weights_column="w", **extra))))
        if metric not in ("auc",):
            out.append((f"{metric}: per-group mean (8 groups)", plain,
                        (grouped(metric, truth, pred),
                         Options(metric=metric, group_by="g", **extra))))
    out.append(("mae: per-group mean, log (CHAMPS)", (prepared("mae", t, p), Options(metric="mae")),
                (grouped("mae", t, p), Options(metric="mae", group_by="g",
                                                group_transform="log"))))
    for metric, truth, pred in (("rmse", t, p), ("logloss", y, s)):
        out.append((f"{metric}: round 2", (prepared(metric, truth, pred), Options(metric=metric)),
                    (prepared(metric, truth, pred), Options(metric=metric, round=2))))
    out.append(("logloss: balanced", (prepared("logloss", y, s), Options(metric="logloss")),
                (prepared("logloss", y, s), Options(metric="logloss", balanced=True))))
    return out


def write_pair(folder, n, rng):
    sol, sub = os.path.join(folder, f"v_sol_{n}.csv"), os.path.join(folder, f"v_sub_{n}.csv")
    if os.path.exists(sol) and os.path.exists(sub):
        return sol, sub
    ids = np.char.mod("%012x", rng.choice(2 ** 48, n, replace=False))
    t = np.round(rng.normal(size=n) * 10, 4)
    p = np.round(t + rng.normal(size=n), 4)
    w = np.round(rng.uniform(0.1, 3, n), 3)
    m = (rng.random(n) < 0.8).astype(int)
    g = np.char.add("type", rng.integers(0, 8, n).astype(str))
    with open(sol, "w") as f:
        f.write("id,y,w,m,g\n")
        f.write("\n".join(f"{a},{b},{c},{d},{e}" for a, b, c, d, e in zip(ids, t, w, m, g)))
        f.write("\n")
    with open(sub, "w") as f:
        f.write("id,y\n")
        f.write("\n".join(f"{a},{b}" for a, b in zip(ids, p)))
        f.write("\n")
    return sol, sub


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--only", nargs="+", default=None)
    ap.add_argument("--files", action="store_true")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    rows = []
    for name, plain, variant in cases(args.rows, rng):
        if args.only and not any(w.lower() in name.lower() for w in args.only):
            continue
        pw, pc, a = timed(lambda: score_prepared(*plain).score, args.repeat)
        vw, vc, b = timed(lambda: score_prepared(*variant).score, args.repeat)
        assert np.isfinite(a) and np.isfinite(b), name
        rows.append((f"{name}, {args.rows:,} rows", vw, vc, "plain", pw, pc, f"{vc / pc:.2f}x",
                     "<= ~1.5x"))
    if args.files:
        folder = os.path.join(tempfile.gettempdir(), "kmetric_bench_variants")
        os.makedirs(folder, exist_ok=True)
        sol, sub = write_pair(folder, args.rows, rng)
        kmetric = os.path.join(os.path.dirname(sys.executable), "kmetric")
        base = [kmetric, "score", sol, sub, "--metric", "rmse"]
        pw, pc = child_run(base, args.repeat)
        for name, extra in (("weights", ["--weights-column", "w"]),
                            ("mask", ["--mask-column", "m"]),
                            ("groups", ["--group-by", "g"])):
            subprocess.run(base + extra, check=True, stdout=subprocess.DEVNULL)
            vw, vc = child_run(base + extra, args.repeat)
            rows.append((f"`kmetric score --metric rmse` + {name}, {args.rows:,}-row CSV pair",
                         vw, vc, "plain `kmetric score`", pw, pc, f"{vc / pc:.2f}x", "<= ~1.5x"))
    print("| case | variant wall (s) | variant CPU (s) | reference | ref wall (s) | ref CPU (s) "
          "| ratio (CPU) | target |")
    print("|---|---:|---:|---|---:|---:|---:|---|")
    for case, w, c, ref, rw, rc, ratio, target in rows:
        print(f"| {case} | {w:.4f} | {c:.4f} | {ref} | {rw:.4f} | {rc:.4f} | {ratio} | {target} |")


if __name__ == "__main__":
    main()
