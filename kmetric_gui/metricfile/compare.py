"""Compare submissions under a metric file: each scored as Kaggle would, then a
paired bootstrap by re-scoring every submission on the SAME resampled rows."""
import os
from pathlib import Path

import numpy as np

from ..core.intervals import percentile_interval
from .kaggle import bootstrap, open_worker, score_file


def _num(x):
    return None if x is None or not np.isfinite(x) else float(x)


def compare_with_file(metric_file, truth, subs, arg_texts=(), higher_is_better=None, id_column=None,
                      timeout=None, memory_gb=None, level=0.95, replicates=1000, seed=0, executor="local",
                      cancel=None, progress=None, nice=0):
    """The `kmetric compare --json` object for submissions scored by a metric file.
    ``cancel``/``progress``: the app's job (Cancel kills the worker; k of n submissions)."""
    workers = max(1, min(os.cpu_count() or 1, 8))
    scores, reps, names = [], [], []
    for k, path in enumerate(subs):
        if progress is not None:
            progress(k / len(subs), f"comparing: {Path(path).name}")
        with open_worker(metric_file, (truth, path), id_column, timeout, memory_gb, workers, executor) as w:
            w.cancel_check, w.nice = cancel, nice
            fs, usage = score_file(w, arg_texts, higher_is_better)
            values, _failed = bootstrap(w, fs, usage, replicates, seed)
        higher_is_better = fs.higher_is_better          # the first file's answer holds for all
        scores.append(fs)
        reps.append(values)
        names.append(Path(path).name)
    sign = 1.0 if higher_is_better else -1.0
    out = {"metric": f"file:{scores[0].source.name}", "n_units": scores[0].n_rows, "unit": "row",
           "higher_is_better": higher_is_better,
           "metric_file": {"path": scores[0].source.path, "sha256": scores[0].source.sha256,
                           "function": "score", "args": scores[0].args},
           "submissions": [], "pairs": []}
    for name, fs, v in zip(names, scores, reps):
        out["submissions"].append({"name": name, "score": fs.score,
                                   "ci": percentile_interval(v, level).to_dict(seed),
                                   "public": fs.splits.get("public"), "private": fs.splits.get("private")})
    for i in range(len(subs)):
        for j in range(i + 1, len(subs)):
            a, b = scores[i], scores[j]
            delta = reps[j] - reps[i]
            ok = np.isfinite(delta)
            better = sign * delta[ok]
            pub = [s.splits.get("public") for s in (a, b)]
            pri = [s.splits.get("private") for s in (a, b)]
            out["pairs"].append({
                "a": names[i], "b": names[j], "delta": b.score - a.score,
                "delta_ci": percentile_interval(delta, level).to_dict(seed),
                "p_b_better": _num(float((better > 0).mean())) if ok.any() else None,
                "p_a_better": _num(float((better < 0).mean())) if ok.any() else None,
                "p_value": None, "permutations": 0,
                "public_delta": None if None in pub else pub[1] - pub[0],
                "private_delta": None if None in pri else pri[1] - pri[0],
                "p_order_flips": None})
    return out
