"""A pair's permutation p-value, its order-flip probability, and the counts' checks."""
import numpy as np

from ..errors import InputError

_TIE = 1e-12          # |permuted delta| within this of |delta| counts as extreme


def p_value(observed, permuted):
    """(1 + #{|permuted| >= |observed|}) / (P + 1); nan when the observed delta is."""
    if not np.isfinite(observed):
        return float("nan")
    hits = np.count_nonzero(np.abs(permuted) >= abs(observed) - _TIE)
    return float((1 + hits) / (permuted.size + 1))


def flip_probability(split_scores):
    """Share of splits where Public and Private order the pair oppositely (ties: no flip)."""
    pub = split_scores[:, 1] - split_scores[:, 0]
    priv = split_scores[:, 3] - split_scores[:, 2]
    ok = np.isfinite(pub) & np.isfinite(priv)
    if not ok.any():
        return float("nan")
    return float(np.count_nonzero(pub[ok] * priv[ok] < 0) / ok.sum())


def check_counts(replicates, permutations, splits=0):
    for name, v, lo in (("bootstrap replicates", replicates, 1),
                        ("permutations", permutations, 0), ("splits", splits, 0)):
        if int(v) != v or v < lo or v > 10_000_000:
            raise InputError(f"{name} must be a whole number from {lo} to 10000000; got {v}")
