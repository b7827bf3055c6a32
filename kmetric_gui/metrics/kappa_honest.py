"""Kappa's honest optimiser: cut points (continuous predictions only) fitted on one
part and scored on the other, k folds, and their spread over bootstrap replicates."""
from ..analysis.optimisers import HonestReport, _codes, _splits
from .kernels.kappa_cuts import is_continuous
from .kernels.kappa_holdout import bootstrap_cuts, fit_and_hold_out, holdout_verdict, kfold_cuts


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
