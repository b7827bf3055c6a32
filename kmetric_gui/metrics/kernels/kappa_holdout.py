"""Kappa's cut points fitted on one part and scored on the other (core/honest.py).

Cut points fitted on some rows score better on those rows than on new ones.
Here they are fitted on one part and scored on the other (Public -> Private
and the reverse, or k folds across rows), their spread over bootstrap
replicates is shown, and a paired bootstrap of the held-out gain says
plainly whether the gain is within the noise. The rating range (and so W) is the full
files' in every fit.
"""
from dataclasses import dataclass

import numpy as np

from ...core.honest import index_of, recode, fold_ids, verdict
from ...core.resample import check_replicates, resample_counts
from .kappa import as_ratings, weight_matrix, weighted_kappa
from .kappa_cuts import apply_cuts, optimize_cuts, rounding_cuts


@dataclass(frozen=True)
class HoldOut:
    """Cut points fitted on some rows and scored on others."""
    fit_on: str
    cuts: np.ndarray
    fit_kappa: float           # on the fit rows, fitted cuts (optimistic)
    fit_start_kappa: float     # on the fit rows, starting cuts
    held_kappa: float          # on the held-out rows, fitted cuts (honest)
    held_start_kappa: float    # on the held-out rows, starting cuts

    @property
    def fit_gain(self):
        return self.fit_kappa - self.fit_start_kappa

    @property
    def held_gain(self):
        return self.held_kappa - self.held_start_kappa

    def describe(self):
        return (f"fitted on {self.fit_on}: kappa {self.fit_kappa:.4f} there "
                f"(+{self.fit_gain:.4f}), {self.held_kappa:.4f} on the other rows "
                f"({self.held_gain:+.4f})")


def _range(truth, min_rating, max_rating):
    t = as_ratings(truth, "truth")
    lo = int(t.min()) if min_rating is None else int(min_rating)
    hi = int(t.max()) if max_rating is None else int(max_rating)
    return t, lo, hi


def _kappa(t, pred, weights, lo, hi):
    return weighted_kappa(t, pred, weights=weights, min_rating=lo, max_rating=hi).score


def fit_and_hold_out(truth, x, fit_rows, held_rows, *, fit_on="fit", weights="quadratic",
                     min_rating=None, max_rating=None, start=None, cancel=None):
    """Fit cut points on ``fit_rows`` (indices or mask), score on ``held_rows``.

    ``cancel()`` returning True stops the fit (errors.Cancelled), here and below.
    """
    t, lo, hi = _range(truth, min_rating, max_rating)
    x = np.asarray(x, dtype=np.float64)
    fit = index_of(fit_rows, t.size)
    held = index_of(held_rows, t.size)
    start = rounding_cuts(lo, hi) if start is None else np.sort(np.asarray(start, float))
    res = optimize_cuts(t[fit], x[fit], weights=weights, min_rating=lo, max_rating=hi, start=start,
                        cancel=cancel)
    held_fit = _kappa(t[held], apply_cuts(x[held], res.cuts, lo), weights, lo, hi)
    held_start = _kappa(t[held], apply_cuts(x[held], start, lo), weights, lo, hi)
    return HoldOut(fit_on, res.cuts, res.kappa, res.start_kappa, held_fit, held_start)


def public_private(truth, x, public, private, **kw):
    """(fit on Public scored on Private, fit on Private scored on Public)."""
    return (fit_and_hold_out(truth, x, public, private, fit_on="public", **kw),
            fit_and_hold_out(truth, x, private, public, fit_on="private", **kw))


@dataclass(frozen=True)
class KFold:
    folds: list                # HoldOut per fold (fit on the other folds)
    oof_kappa: float           # every row rated by the cuts fitted without its fold
    start_kappa: float         # every row rated by the starting cuts
    oof_pred: np.ndarray       # (N,) those out-of-fold ratings

    def describe(self):
        return (f"{len(self.folds)}-fold: out-of-fold kappa {self.oof_kappa:.4f} "
                f"vs {self.start_kappa:.4f} with rounding")


def kfold_cuts(truth, x, *, folds=5, seed=0, weights="quadratic", min_rating=None,
               max_rating=None, start=None, cancel=None, groups=None):
    """Cut points fitted on k-1 folds and applied to the k-th, for each fold
    (``groups``: group code per row; a group's rows share a fold)."""
    from ...core.groups import group_folds
    t, lo, hi = _range(truth, min_rating, max_rating)
    x = np.asarray(x, dtype=np.float64)
    fid = fold_ids(t.size, folds, seed) if groups is None else group_folds(groups, folds, seed)
    kw = dict(weights=weights, min_rating=lo, max_rating=hi, start=start, cancel=cancel)
    out, oof = [], np.empty(t.size, dtype=np.int64)
    for f in range(int(folds)):
        h = fit_and_hold_out(t, x, fid != f, fid == f, fit_on=f"fold {f + 1}", **kw)
        out.append(h)
        rows = fid == f
        oof[rows] = apply_cuts(x[rows], h.cuts, lo)
    start_cuts = rounding_cuts(lo, hi) if start is None else np.sort(np.asarray(start, float))
    return KFold(out, _kappa(t, oof, weights, lo, hi),
                 _kappa(t, apply_cuts(x, start_cuts, lo), weights, lo, hi), oof)


def bootstrap_cuts(truth, x, *, replicates=50, seed=0, weights="quadratic", min_rating=None,
                   max_rating=None, start=None, cancel=None, groups=None):
    """(B, K-1) cut points fitted on bootstrap replicates of the rows (whole groups)."""
    from ...core.groups import row_draws
    t, lo, hi = _range(truth, min_rating, max_rating)
    x = np.asarray(x, dtype=np.float64)
    out = np.empty((check_replicates(replicates), hi - lo))
    for i, rows in row_draws(t.size, replicates, seed, groups):
        out[i] = optimize_cuts(t[rows], x[rows], weights=weights, min_rating=lo, max_rating=hi,
                               start=start, cancel=cancel).cuts
    return out


def kappa_paired_replicates(truth, pred_a, pred_b, *, weights="quadratic", lo, hi,
                            replicates=1000, seed=0, groups=None):
    """(B, 2) kappas of A and B on the same row resamples (multinomial over joint cells;
    ``groups``: group code per row, whole groups drawn)."""
    t = as_ratings(truth, "truth") - lo
    a, b = as_ratings(pred_a, "A") - lo, as_ratings(pred_b, "B") - lo
    k = hi - lo + 1
    cell_of = (t * k + a) * k + b
    joint = np.bincount(cell_of, minlength=k ** 3)
    cells = np.flatnonzero(joint)
    if groups is None:
        counts = resample_counts(joint[cells], replicates, seed).astype(np.float64)   # (B, M)
    else:
        from ...core.groups import group_draws
        counts = np.empty((check_replicates(replicates), cells.size))
        for r, rows in group_draws(groups, replicates, seed):
            counts[r] = np.bincount(cell_of[rows], minlength=k ** 3)[cells]
    ti, ai, bi = cells // (k * k), (cells // k) % k, cells % k
    w = weight_matrix(k, weights)
    r = counts.shape[0]
    base = (np.arange(r) * k)[:, None]

    def hist(idx):
        return np.bincount((base + idx).ravel(), counts.ravel(), r * k).reshape(r, k)
    ht = hist(ti)
    n = counts.sum(axis=1)
    out = np.empty((r, 2))
    for col, pj in enumerate((ai, bi)):
        num = counts @ w[ti, pj]
        with np.errstate(invalid="ignore", divide="ignore"):
            den = ((ht @ w) * hist(pj)).sum(axis=1) / n
            out[:, col] = np.where(den > 0, 1.0 - num / den, np.nan)
    return out


def holdout_verdict(truth, x, hold, held_rows, *, weights="quadratic", min_rating=None,
                    max_rating=None, start=None, replicates=1000, seed=0, level=0.95, cancel=None,
                    groups=None):
    """Is a HoldOut's held-out gain (fitted vs starting cuts) within the noise?
    ``groups`` (group code per row): the paired bootstrap draws whole groups."""
    t, lo, hi = _range(truth, min_rating, max_rating)
    rows = index_of(held_rows, t.size)
    xs = np.asarray(x, dtype=np.float64)[rows]
    start = rounding_cuts(lo, hi) if start is None else np.sort(np.asarray(start, float))
    a, b = apply_cuts(xs, start, lo), apply_cuts(xs, hold.cuts, lo)
    reps = kappa_paired_replicates(t[rows], a, b, weights=weights, lo=lo, hi=hi,
                                   replicates=replicates, seed=seed,
                                   groups=None if groups is None else recode(groups, rows))
    return verdict(hold.held_start_kappa, hold.held_kappa, reps, level=level,
                   what=f"cut points fitted on {hold.fit_on}:")
