"""Log loss (binary and multi-class), as Kaggle's metrics compute it.

Probabilities are clipped to [eps, 1 - eps] (eps = 1e-15 by default), then
each row is divided by its sum, and the loss of a row is -log of the
probability it gives its true class. Binary: one probability per row (of
class 1); the pair (1 - p, p) already sums to 1. Only the probability of the
true class and the row sum are needed, so a row costs one log and one gather
beyond the clip. The per-row losses are the additive statistic.

Probabilities outside [0, 1] (and NaN/inf) are refused with their position:
Kaggle would clip them silently, hiding a broken submission.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ...errors import InputError
from ...core._checks import as_numeric, position
from ...core.additive import mean_units

DEFAULT_EPS = 1e-15


@dataclass(frozen=True)
class LogLossResult:
    score: float                  # nan when undefined
    undefined_reason: "str | None"
    n: int
    # (losses, p_true); a binary pair keeps (truth as bool, p) and makes them on first use
    per_row: tuple = field(repr=False)
    eps: float = DEFAULT_EPS
    clipped: int = 0              # rows whose true-class probability was clipped
    higher_is_better: bool = False

    @cached_property
    def _made(self):
        r = self.per_row
        return _binary_rows(*r, self.eps) if r[0].dtype == np.bool_ else r

    @property
    def losses(self):
        """(n,) -log p(true class), after clipping and renormalising."""
        return self._made[0]

    @property
    def p_true(self):
        """(n,) that probability."""
        return self._made[1]

    @property
    def row_stats(self):
        return self.losses

    def units(self):
        return mean_units(self.losses)


def check_eps(eps):
    e = float(eps)
    if not 0.0 <= e < 0.5:
        raise InputError(f"eps must be at least 0 and below 0.5; got {eps!r}")
    return e


def _check_probabilities(p):
    lo, hi = p.min(), p.max()
    if lo >= 0 and hi <= 1:
        return
    bad = ~((p >= 0) & (p <= 1))
    i = int(np.flatnonzero(bad.ravel())[0])
    v = p.ravel()[i]
    what = ("NaN" if np.isnan(v) else "an infinite value" if np.isinf(v)
            else f"{v.item()!r}, outside [0, 1]")
    raise InputError(f"probabilities have {what} at {position(i, p.shape)} "
                     f"({int(bad.sum())} such value(s) in all)")


def _truth_codes(truth, c):
    """Class code per row from codes (n,) or a one-hot matrix (n, C)."""
    t = as_numeric(truth, "truth")
    if t.ndim == 2:
        if t.shape[1] != c:
            raise InputError(f"truth has {t.shape[1]} columns, probabilities {c}")
        ones = (t == 1).sum(axis=1)
        ok = ((t == 0) | (t == 1)).all(axis=1) & (ones == 1)
        if not ok.all():
            r = int(np.flatnonzero(~ok)[0])
            raise InputError(f"truth row {r} is not one-hot (one 1, the rest 0): {t[r].tolist()} "
                             f"({int((~ok).sum())} such row(s) in all)")
        return np.argmax(t, axis=1)
    if t.ndim != 1:
        raise InputError(f"truth must be 1-D class codes or 2-D one-hot; got {t.ndim}-D")
    if t.size and not (t.min() >= 0 and t.max() < c and
                       (t.dtype.kind in "iub" or np.array_equal(t, np.round(t)))):
        bad = np.flatnonzero(~((t >= 0) & (t < c) & (t == np.round(t))))[0]
        raise InputError(f"truth class codes must be integers 0..{c - 1}; "
                         f"found {t[bad].item()!r} at row {bad}")
    return t.astype(np.intp, copy=False)


def log_loss(truth, probabilities, *, eps: float = DEFAULT_EPS) -> LogLossResult:
    """Mean log loss.

    truth: (n,) 0/1 with probabilities (n,) of class 1; or (n,) class codes
    0..C-1 / (n, C) one-hot with probabilities (n, C).

    >>> round(log_loss([1, 0], [0.8, 0.4]).score, 6)    # -(log .8 + log .6) / 2
    0.366985
    """
    eps = check_eps(eps)
    p = as_numeric(probabilities, "probabilities").astype(np.float64, copy=False)
    if p.ndim not in (1, 2):
        raise InputError(f"probabilities must be 1-D or 2-D; got {p.ndim}-D")
    n = p.shape[0]
    if n == 0:
        z = np.zeros(0)
        return LogLossResult(float("nan"), "no rows to score", 0, (z, z), eps)
    if p.ndim == 2 and p.shape[1] >= 2:
        return _multi_class(truth, p, eps)
    _check_probabilities(p)
    if p.ndim == 1:
        t = as_numeric(truth, "truth")
        if t.shape != p.shape:
            raise InputError(f"truth and probabilities differ in shape: {t.shape} vs {p.shape}")
        if t.dtype != np.bool_ and not (t.min() >= 0 and t.max() <= 1 and
                                        (t.dtype.kind in "iu" or np.array_equal(t, np.round(t)))):
            bad = int(np.flatnonzero(~((t == 0) | (t == 1)))[0])
            raise InputError(f"truth must be 0 or 1; found {t[bad].item()!r} at row {bad}")
    else:
        raise InputError(f"multi-class probabilities need at least 2 columns; got {p.shape[1]}")
    t = t.astype(bool, copy=False)
    total, clipped = _binary_blocks(t, p, eps)
    if not np.isfinite(total):
        zero = int(np.count_nonzero(np.where(t, p, 1.0 - p) == 0))
        return LogLossResult(-total / n, _infinite(zero), n, (t, p), eps, clipped)
    return LogLossResult(-total / n, None, n, (t, p), eps, clipped)


def _infinite(rows):
    """Why the mean loss is infinite (eps 0 clips nothing away from 0): the score stays
    inf, as the definition gives, and this says so where a number cannot (JSON)."""
    return (f"{rows:,} row(s) give their true class probability 0 and eps is 0 (nothing is "
            "clipped): their loss, -log 0, is infinite, and so is the mean")


def _binary_blocks(t, p, eps, out=None):
    """(sum of log p(true class) after the clip, rows clipped) of a binary pair, by
    blocks in cache: no n-sized temporary unless ``out`` = (p_true, log p) to fill."""
    n, total, clipped = p.shape[0], 0.0, 0
    buf = np.empty(min(BLOCK, n)) if out is None else None
    for a in range(0, n, BLOCK):
        b = min(n, a + BLOCK)
        o = buf[:b - a] if out is None else out[0][a:b]
        np.subtract(1.0, p[a:b], out=o)
        np.copyto(o, p[a:b], where=t[a:b])
        if o.min() < eps or o.max() > 1.0 - eps:
            clipped += int(np.count_nonzero((o < eps) | (o > 1.0 - eps)))
            np.clip(o, eps, 1.0 - eps, out=o)
        lg = o if out is None else out[1][a:b]
        with np.errstate(divide="ignore"):     # log 0 = -inf with eps 0: said by the caller
            np.log(o, out=lg)
        total += float(lg.sum())
    return total, clipped


def _binary_rows(t, p, eps):
    """(losses, p_true) of a binary pair (statistics need them; the score does not)."""
    pt, losses = np.empty(p.shape[0]), np.empty(p.shape[0])
    _binary_blocks(t, p, eps, (pt, losses))
    np.negative(losses, out=losses)
    return losses, pt


BLOCK = 1 << 16     # values a block of rows: 512 kB, read from memory once, the rest in cache


def _row_sums(p, eps, clip):
    """(min, max, each row's sum) of (n, C) probabilities in one pass over blocks of rows;
    ``clip``: the sums of the values clipped to [eps, 1 - eps]."""
    n, c = p.shape
    step = max(1, BLOCK // c)
    sums = np.empty(n)
    buf = np.empty((min(step, n), c)) if clip else None
    lo, hi = np.inf, -np.inf
    for a in range(0, n, step):
        blk = p[a:a + step]
        if clip:
            blk = np.clip(blk, eps, 1.0 - eps, out=buf[:blk.shape[0]])
        else:
            lo, hi = np.minimum(lo, blk.min()), np.maximum(hi, blk.max())   # NaN stays NaN
        np.einsum("ij->i", blk, out=sums[a:a + blk.shape[0]])
    return lo, hi, sums


def _multi_class(truth, p, eps):
    """Kaggle's clip, renormalise, -log of the true class, for (n, C) probabilities.

    One pass over the matrix gives its range and the row sums; only when a value lies
    outside [eps, 1 - eps] (a clip changes it) are the clipped sums made (a second
    pass). Then one gather and one log a row: no n x C temporary."""
    n, c = p.shape
    lo, hi, sums = _row_sums(p, eps, clip=False)
    if not (lo >= 0 and hi <= 1):
        _check_probabilities(p)
    codes = _truth_codes(truth, c)
    if codes.shape[0] != n:
        raise InputError(f"truth has {codes.shape[0]} rows, probabilities {n}")
    flat = np.arange(n, dtype=np.intp) * c + codes
    raw = np.take(p, flat) if p.flags.c_contiguous else p[np.arange(n), codes]
    # eps 0: a row of zeros has no share to renormalise (0 / 0) and a true class given
    # 0 has an infinite loss; both are said as the reason, not as numpy's warnings.
    with np.errstate(divide="ignore", invalid="ignore"):
        if lo >= eps and hi <= 1.0 - eps:      # nothing to clip (a zero or a one needs it)
            pt, clipped = raw / sums, 0
        else:
            sums = _row_sums(p, eps, clip=True)[2]
            pt = np.clip(raw, eps, 1.0 - eps)
            pt /= sums
            clipped = int(np.count_nonzero((raw < eps) | (raw > 1.0 - eps)))
        losses = np.log(pt)
    np.negative(losses, out=losses)
    score = float(losses.mean())
    if np.isfinite(score):
        return LogLossResult(score, None, n, (losses, pt), eps, clipped)
    empty = int(np.count_nonzero(sums == 0))
    why = (f"{empty:,} row(s) have probabilities summing to 0 and eps is 0: they cannot be "
           "renormalised" if empty else _infinite(int(np.count_nonzero(pt == 0))))
    return LogLossResult(score, why, n, (losses, pt), eps, clipped)
