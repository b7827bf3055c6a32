"""Honest optimisers for a scored report (core/honest.py), one entry per metric kind.

The metric modules call these from their ``honest`` hook: kappa fits cut
points (only for continuous predictions), F-beta fits the Jaccard threshold.
Fits use Public -> Private and the reverse when the solution has a Usage
column, else two seeded random halves; kappa adds k folds and the spread of
cut points over bootstrap replicates.
"""
from dataclasses import dataclass, field

import numpy as np

from .metrics.kernels.fbeta_gains import beta_bands, beta_curve, curve_bands, curve_scores, threshold_counts
from .core.honest import (bootstrap_cuts, fit_and_hold_out, fold_ids, holdout_verdict, kfold_cuts,
                          threshold_holdout)
from .metrics.kernels.kappa_cuts import is_continuous

THRESHOLDS = np.round(np.arange(0.05, 1.0001, 0.05), 2)
BETAS = np.array([0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0])


@dataclass(frozen=True)
class HonestReport:
    kind: str                               # "cut points" or "threshold"
    split: str                              # "Usage" or "random halves (seed S)"
    holdouts: list                          # core.honest.HoldOut / ThresholdHoldOut
    verdicts: list                          # core.honest.Verdict per hold-out
    kfold: object = None                    # core.honest.KFold (kappa)
    spread: "np.ndarray | None" = None      # (B, K-1) cut points over bootstrap replicates
    curve: dict = field(default_factory=dict)   # F-beta: thresholds, score, low, high, per split
    groups: "int | None" = None             # groups drawn and split whole (None: single units)

    def lines(self):
        out = [f"honest {self.kind} ({self.split}):"]
        if self.groups is not None:
            out.append(f"  rows in {self.groups:,} groups: halves, folds and bootstrap draws take "
                       "whole groups (each fix's gain is still per row)")
        for h, v in zip(self.holdouts, self.verdicts):
            out.append(f"  {v.text}")
            if hasattr(h, "cuts"):
                out.append(f"    fitted on {h.fit_on}: kappa {h.fit_kappa:.4f} there "
                           f"(+{h.fit_gain:.4f}), {h.held_kappa:.4f} on the other rows "
                           f"({h.held_gain:+.4f})")
            else:
                out.append(f"    fitted on {h.fit_on}: F-beta {h.fit_score:.4f} there, "
                           f"{h.held_score:.4f} on the other documents "
                           f"(default threshold: {h.held_default_score:.4f})")
        if self.kfold is not None:
            k = self.kfold
            out.append(f"  {len(k.folds)}-fold: out-of-fold kappa {k.oof_kappa:.4f} "
                       f"vs {k.start_kappa:.4f} with rounding")
        if self.spread is not None and self.spread.size:
            lo, hi = np.percentile(self.spread, [5, 95], axis=0)
            pairs = ", ".join(f"{a:.3g}..{b:.3g}" for a, b in zip(lo, hi))
            out.append(f"  cut points over {self.spread.shape[0]} bootstrap fits (5-95%): {pairs}")
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
    from .core.groups import group_codes
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


def kappa_honest(report, rows, *, folds=5, replicates=30, verdict_replicates=1000, seed=0,
                 cancel=None, groups=None):
    """Cut points fitted on one part, scored on the other; None for integer predictions.
    groups: label per solution row; halves, folds and bootstrap draws keep groups whole."""
    prep = report.prepared
    x = prep.pred if rows is None else prep.pred[rows]
    if not is_continuous(x):
        return None
    t = prep.truth if rows is None else prep.truth[rows]
    plan = report.definition.plan(prep, report.options)
    lo, hi = plan.params["min_rating"], plan.params["max_rating"]
    # The baseline is the cut points in use (rounding unless the user set some).
    kw = dict(weights=report.options.weights, min_rating=lo, max_rating=hi, start=plan.cuts,
              cancel=cancel)
    codes = _codes(groups, rows)
    (a, b), names, split = _splits(prep, rows, seed, codes)
    holds = [fit_and_hold_out(t, x, a, b, fit_on=names[0], **kw),
             fit_and_hold_out(t, x, b, a, fit_on=names[1], **kw)]
    verdicts = [holdout_verdict(t, x, h, held, replicates=verdict_replicates, seed=seed,
                                groups=codes, **kw)
                for h, held in zip(holds, (b, a))]
    units = t.size if codes is None else (int(codes.max()) + 1 if codes.size else 0)
    kf = kfold_cuts(t, x, folds=folds, seed=seed, groups=codes, **kw) \
        if units >= 2 * folds else None
    spread = bootstrap_cuts(t, x, replicates=replicates, seed=seed, groups=codes, **kw)
    return HonestReport("cut points", split, holds, verdicts, kf, spread, groups=units
                        if codes is not None else None)


def fbeta_honest(report, rows, *, replicates=200, verdict_replicates=1000, seed=0, cancel=None,
                 groups=None):
    """Threshold curve with bands, and the threshold fitted on one part scored on the other
    (groups: label per solution row; bands, halves and draws keep groups whole)."""
    prep, opts = report.prepared, report.options
    truths = prep.truth if rows is None else [prep.truth[i] for i in rows]
    preds = prep.pred if rows is None else [prep.pred[i] for i in rows]
    ths = np.unique(np.append(THRESHOLDS, opts.threshold))
    counts = threshold_counts(truths, preds, ths, matching=opts.matching, clean=opts.clean,
                              cancel=cancel)
    codes = _codes(groups, rows)
    low, high = curve_bands(counts, opts.beta, replicates=replicates, seed=seed, groups=codes)
    (a, b), names, split = _splits(prep, rows, seed, codes)
    curve = {"thresholds": ths, "score": curve_scores(counts, opts.beta), "low": low, "high": high,
             names[0]: curve_scores(counts[:, a], opts.beta),
             names[1]: curve_scores(counts[:, b], opts.beta)}
    r = report.result
    betas = np.unique(np.append(BETAS, opts.beta))
    blow, bhigh = beta_bands(r.per_document, betas, replicates=replicates, seed=seed,
                             groups=codes)
    curve.update(betas=betas, beta_score=beta_curve(r.tp, r.fp, r.fn, betas),
                 beta_low=blow, beta_high=bhigh)
    holds = [threshold_holdout(counts, ths, fit, held, default=opts.threshold, beta=opts.beta,
                               fit_on=name, replicates=verdict_replicates, seed=seed,
                               groups=codes)
             for fit, held, name in ((a, b, names[0]), (b, a, names[1]))]
    return HonestReport("threshold", split, holds, [h.verdict for h in holds], curve=curve,
                        groups=None if codes is None else int(codes.max()) + 1)


def honest(report, **kw):
    """The metric's honest-optimiser report over the scored rows, or None."""
    from .fixes import scored_rows
    return report.definition.honest(report, scored_rows(report.prepared), **kw)
