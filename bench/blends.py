"""Blend curves of 21 alphas on 1M rows for every built-in metric that blends (issue 34:
<= 1 s each), beside one score of the same data (the ratio is what to read: this machine
is shared). Run: .venv/bin/python bench/blends.py [rows]"""
import sys
import time

import numpy as np

from kmetric_gui.analysis.scoring import Options, score_prepared
from kmetric_gui.io.prepare import Prepared
from kmetric_gui.metrics import get_metric


def prepared(name, truth, pred, n):
    import pyarrow as pa
    ids = pa.array([f"r{i}" for i in range(n)])
    return Prepared(name, "bench", "id", ["target"], ids, truth, pred, None)


def data(name, n, rng):
    if name in ("rmse", "mae", "rmsle"):
        t = rng.gamma(2, 10, n)
        return t, t + rng.normal(0, 3, n).clip(-t, None), t * rng.uniform(0.8, 1.2, n)
    if name == "mcrmse":
        t = rng.normal(0, 1, (n, 3))
        return t, t + rng.normal(0, .5, (n, 3)), t + rng.normal(0, .7, (n, 3))
    if name == "logloss":
        t = rng.integers(0, 4, n)
        def p():
            x = np.exp(rng.normal(0, 1, (n, 4)) + 1.5 * np.eye(4)[t])
            return x / x.sum(axis=1, keepdims=True)
        return t, p(), p()
    if name == "auc":
        t = (rng.random(n) < .3).astype(np.int8)
        return t, rng.normal(0, 1, n) + t, rng.normal(0, 1, n) + .7 * t


def main(n=1_000_000):
    rng = np.random.default_rng(0)
    alphas = np.linspace(0, 1, 21)
    for name in ("rmse", "rmsle", "mae", "mcrmse", "logloss", "auc"):
        m = get_metric(name)
        t, a, b = data(name, n, rng)
        o = Options(metric=name)
        ra = score_prepared(prepared(name, t, a, n), o)
        rb = score_prepared(prepared(name, t, b, n), o)
        one, curve = [], []
        for _ in range(3):
            t0 = time.perf_counter()
            score_prepared(prepared(name, t, a, n), o)
            one.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            m.blend(ra, rb, alphas)
            curve.append(time.perf_counter() - t0)
        c, s = float(np.median(curve)), float(np.median(one))
        print(f"{name:8s} blend of 21 alphas on {n:,} rows: {c:.3f} s "
              f"({c / s:.1f}x one score, {s:.3f} s)  {'ok' if c <= 1 else 'OVER 1 s'}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
