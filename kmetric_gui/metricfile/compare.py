"""Compare submissions under a metric file: each scored as Kaggle would, a paired
bootstrap by re-scoring every submission on the SAME resampled rows, then per
pair (in A's worker, B's frames beside A's) the permutation p-value, P(order
flips) and the blend curve (``pairs``)."""
import os
from pathlib import Path

import numpy as np

from ..analysis.stats import file_interval
from ..core.intervals import percentile_interval
from .kaggle import bootstrap, open_worker, plan_replicates, score_file
from ..core.compare import p_value
from .pairs import blend_curve, order_flips, permutation_deltas

DEFAULT_FRACTION = 0.3


def _num(x):
    return None if x is None or not np.isfinite(x) else float(x)


def _quiet(what, estimate, detail):
    return None


def compare_with_file(metric_file, truth, subs, arg_texts=(), higher_is_better=None, id_column=None,
                      timeout=None, memory_gb=None, level=0.95, replicates=1000, seed=0, executor="local",
                      permutations=0, splits=0, public_fraction=None, alphas=0, progress_for=_quiet,
                      cancel=None, progress=None, nice=0, limits=None, on_start=None):
    """The `kmetric compare --json` object for submissions scored by a metric file.
    ``permutations``, ``splits``, ``alphas`` (0: none) ask for the pair statistics beyond the
    bootstrap; ``progress_for(what, estimate seconds, detail)`` gives a progress callable (or None).
    ``cancel``/``progress``: the app's job (Cancel kills the worker; k of n submissions).
    ``limits``: a runner.Limits (time, memory, Python, sandbox) instead of timeout/memory_gb;
    ``on_start(worker)``: called once the first worker's processes can start (the CLI's note)."""
    workers = max(1, min(os.cpu_count() or 1, 8))
    scores, reps, names, notes = [], [], [], []
    usage = place = None
    for k, path in enumerate(subs):
        if progress is not None:
            progress(k / len(subs), f"comparing: {Path(path).name}")
        with open_worker(metric_file, (truth, path), id_column, timeout, memory_gb, workers, executor,
                         limits) as w:
            w.cancel_check, w.nice = cancel, nice
            if on_start is not None and place is None:
                on_start(w)
            fs, usage = score_file(w, arg_texts, higher_is_better)
            place = place or w.place()
            b, est = plan_replicates(w, fs.call_seconds, replicates)
            if b < replicates:
                notes.append(f"{Path(path).name}: {b} of {replicates} bootstrap replicates, as many "
                             "as fit in the time limit")
            values, _failed = bootstrap(w, fs, usage, max(b, 1), seed,
                                        progress=progress_for("bootstrap", est, f"{b} replicates of "
                                                              f"{Path(path).name}"))
        higher_is_better = fs.higher_is_better          # the first file's answer holds for all
        scores.append(fs)
        reps.append(values)
        names.append(Path(path).name)
    sign = 1.0 if higher_is_better else -1.0
    out = {"metric": f"file:{scores[0].source.name}", "n_units": scores[0].n_rows, "unit": "row",
           "higher_is_better": higher_is_better,
           "metric_file": {"path": scores[0].source.path, "sha256": scores[0].source.sha256,
                           "function": "score", "args": scores[0].args, **place},
           "submissions": [], "pairs": [], "replicates": int(len(reps[0])), "seed": seed,
           "splits": splits}
    for name, fs, v in zip(names, scores, reps):
        out["submissions"].append({"name": name, "score": fs.score,
                                   "ci": file_interval(v, level, fs.n_rows).to_dict(seed),
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
    if permutations or splits or alphas:
        fraction = public_fraction
        if fraction is None and usage is not None and ((usage == 0).any() and (usage == 1).any()):
            fraction = float((usage == 0).sum() / (usage != 2).sum())
        fraction = fraction if fraction is not None else DEFAULT_FRACTION
        out["public_fraction"] = fraction
        _pairs(out, metric_file, truth, subs, scores, usage, dict(
            id_column=id_column, timeout=timeout, memory_gb=memory_gb, workers=workers, executor=executor,
            limits=limits),
            permutations, splits, fraction, alphas, seed, notes, progress_for, cancel, nice)
    if notes:
        out["warnings"] = notes
    return out


def _pairs(out, metric_file, truth, subs, scores, usage, opts, permutations, splits, fraction, alphas,
           seed, notes, progress_for, cancel=None, nice=0):
    """Fill each pair's p-value, order flips and blend, A's worker re-scoring."""
    pairs = iter(out["pairs"])
    for i in range(len(subs) - 1):
        fs = scores[i]
        with open_worker(metric_file, (truth, subs[i]), opts["id_column"], opts["timeout"],
                         opts["memory_gb"], opts["workers"], opts["executor"], opts["limits"]) as w:
            w.cancel_check, w.nice = cancel, nice
            w.setup_seconds = fs.setup_seconds       # its processes start cold too
            for j in range(i + 1, len(subs)):
                p = next(pairs)
                other = (os.path.abspath(truth), os.path.abspath(subs[j]))
                name = f"{p['a']} vs {p['b']}"
                if permutations:
                    n, est = plan_replicates(w, 2 * fs.call_seconds, permutations)
                    if n:
                        perm = permutation_deltas(w, fs.args, other, fs.n_rows, usage, n, seed,
                                                  progress_for("permutations", est, f"{n} swaps, {name}"))
                        p["p_value"], p["permutations"] = _num(p_value(p["delta"], perm)), n
                    if n < permutations:
                        notes.append(f"{name}: {n} of {permutations} permutations, as many as fit in "
                                     "the time limit")
                if splits and fs.n_rows >= 2:
                    n, est = plan_replicates(w, 4 * fs.call_seconds, splits)
                    if n:
                        flips, _ = order_flips(w, fs.args, other, fs.n_rows, usage, fraction, n, seed,
                                               progress_for("order flips", est, f"{n} splits, {name}"))
                        p["p_order_flips"] = _num(flips)
                if alphas:
                    grid = np.linspace(0, 1, alphas)
                    if plan_replicates(w, fs.call_seconds, alphas)[0] < alphas:
                        grid = np.linspace(0, 1, 11)
                    blend = blend_curve(w, fs.args, other, grid, out["higher_is_better"])
                    if blend is not None:
                        p["blend"] = blend
