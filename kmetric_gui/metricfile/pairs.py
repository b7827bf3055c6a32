"""Pair statistics of `compare` under a metric file, by re-scoring in the pool of
submission A's worker, with B's frames loaded beside A's (``edits``):

- permutation p-value: each scored row's predictions swapped between A and B at
  random, both re-scored (core.compare.p_value);
- P(order flips): random Public/Private splits, A and B scored on each side
  (core.compare.flip_probability);
- blend: alpha x A + (1 - alpha) x B for numeric predictions, best alpha in the
  metric's direction (alpha weighs A, as the built-in blends).
"""
import numpy as np

from ..core.compare import flip_probability
from ..metrics.base import split_row_sets as split_rows


def _values(results):
    return np.array([r[1] if r[0] == "ok" else np.nan for r in results], dtype=np.float64)


def permutation_deltas(w, args, other, n_rows, usage, permutations, seed, progress=None):
    """(P,) B' - A' under random swaps of each scored row's predictions."""
    base = split_rows(usage)["all"]
    n_all = n_rows if base is None else len(usage)
    rng = np.random.default_rng([seed, 1])

    def sets():
        for _ in range(permutations):
            mask = np.zeros(n_all, dtype=bool)
            pick = rng.random(n_rows) < 0.5
            if base is None:
                mask = pick
            else:
                mask[base] = pick
            yield {"rows": "scored", "swap": (other, mask)}
            yield {"rows": "scored", "swap": (other, ~mask)}
    v = _values(w.score_sets(args, sets(), progress=progress, count=2 * permutations))
    return v[1::2] - v[0::2]


def order_flips(w, args, other, n_rows, usage, fraction, splits, seed, progress=None):
    """Share of random splits where Public and Private order A and B oppositely."""
    from ..core.shakeup import public_size
    base = split_rows(usage)["all"]
    base = np.arange(n_rows) if base is None else base
    k = public_size(n_rows, fraction)
    rng = np.random.default_rng([seed, 2])
    marks = np.arange(n_rows) < k

    def sets():
        for _ in range(splits):
            pub = rng.permuted(marks)
            for rows in (base[pub], base[~pub]):
                yield rows
                yield {"rows": rows, "swap": (other, None)}
    v = _values(w.score_sets(args, sets(), progress=progress, count=4 * splits))
    return flip_probability(v.reshape(splits, 4)), k


def blend_curve(w, args, other, alphas, higher_is_better, progress=None):
    """{"best_alpha", "best_score", "alphas", "scores"} or None when nothing blends."""
    res = w.score_sets(args, ({"rows": "scored", "blend": (other, a)} for a in alphas),
                       progress=progress, count=len(alphas))
    if all(r[0] == "unavailable" for r in res):
        return None
    scores = _values(res)
    ok = np.isfinite(scores)
    best = None
    if ok.any():
        sign = 1.0 if higher_is_better else -1.0
        best = int(np.flatnonzero(ok)[np.argmax(sign * scores[ok])])
    num = [None if not np.isfinite(x) else float(x) for x in scores]
    return {"best_alpha": None if best is None else float(alphas[best]),
            "best_score": None if best is None else float(scores[best]),
            "alphas": [float(a) for a in alphas], "scores": num}
