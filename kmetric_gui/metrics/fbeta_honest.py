"""F-beta's honest optimiser: the Jaccard threshold's curve with bands, and the threshold
fitted on one part of the documents and scored on the other."""
import numpy as np

from ..analysis.optimisers import HonestReport, _codes, _splits
from .kernels.fbeta_gains import beta_bands, beta_curve, curve_bands, curve_scores, threshold_counts
from .kernels.fbeta_holdout import threshold_holdout

THRESHOLDS = np.round(np.arange(0.05, 1.0001, 0.05), 2)
BETAS = np.array([0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0])


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
