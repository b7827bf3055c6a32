"""Honest optimisers for a scored report (core/honest.py): the metric-agnostic parts.

A metric's ``honest`` hook fits what it optimises (cut points, a threshold:
metrics/<name>_honest.py) on one part of the rows and scores it on the
other, with the splits made here: Public -> Private and the reverse when the
solution has a Usage column, else two seeded random halves.
"""
from dataclasses import dataclass, field

import numpy as np

from ..core.honest import fold_ids


@dataclass(frozen=True)
class HonestReport:
    kind: str                               # "cut points" or "threshold"
    split: str                              # "Usage" or "random halves (seed S)"
    holdouts: list                          # the metric's hold-outs (each has ``describe()``)
    verdicts: list                          # core.honest.Verdict per hold-out
    kfold: object = None                    # k folds (has ``describe()``), or None
    spread: "np.ndarray | None" = None      # (B, m) fitted values over bootstrap replicates
    curve: dict = field(default_factory=dict)   # a fitted value's curve: x, score, low, high
    groups: "int | None" = None             # groups drawn and split whole (None: single units)

    def lines(self):
        out = [f"honest {self.kind} ({self.split}):"]
        if self.groups is not None:
            out.append(f"  rows in {self.groups:,} groups: halves, folds and bootstrap draws take "
                       "whole groups (each fix's gain is still per row)")
        for h, v in zip(self.holdouts, self.verdicts):
            out.append(f"  {v.text}")
            out.append(f"    {h.describe()}")
        if self.kfold is not None:
            out.append(f"  {self.kfold.describe()}")
        if self.spread is not None and self.spread.size:
            lo, hi = np.percentile(self.spread, [5, 95], axis=0)
            pairs = ", ".join(f"{a:.3g}..{b:.3g}" for a, b in zip(lo, hi))
            out.append(f"  {self.kind} over {self.spread.shape[0]} bootstrap fits (5-95%): {pairs}")
        return out


def _halves(n, seed, codes=None):
    if codes is not None:                 # whole groups in one half
        g = int(codes.max()) + 1 if codes.size else 0
        f = (fold_ids(g, 2, seed) if g >= 2 else np.zeros(g, dtype=np.int64))[codes]
    else:
        f = fold_ids(n, 2, seed) if n >= 2 else np.zeros(n, dtype=np.int64)
    return f == 0, f == 1


def _codes(groups, rows):
    """Group code per scored row (0..G-1), or None without groups."""
    if groups is None:
        return None
    from ..core.groups import group_codes
    return group_codes(np.asarray(groups if rows is None else np.asarray(groups)[rows]))[0]


def _splits(prep, rows, seed, codes=None):
    """(fit masks, names, description) over the scored rows (``codes``: groups kept whole
    in random halves; Kaggle's Usage split is used as it is)."""
    usage = prep.usage
    if usage is not None:
        u = usage if rows is None else usage[rows]
        if (u == 0).any() and (u == 1).any():
            return (u == 0, u == 1), ("public", "private"), "Usage column"
    n = len(prep) if rows is None else rows.size
    a, b = _halves(n, seed, codes)
    whole = "" if codes is None else f" of {int(codes.max()) + 1 if codes.size else 0} groups"
    return (a, b), ("half 1", "half 2"), f"random halves{whole}, seed {seed}"


def honest(report, **kw):
    """The metric's honest-optimiser report over the scored rows, or None."""
    from .fixes import scored_rows
    return report.definition.honest(report, scored_rows(report.prepared), **kw)
