"""F-beta's Jaccard threshold fitted on some documents and scored on the others (core/honest.py)."""
from dataclasses import dataclass

import numpy as np

from ...core.honest import Verdict, index_of, recode, verdict
from ...core.resample import check_replicates
from .fbeta_gains import curve_scores


@dataclass(frozen=True)
class ThresholdHoldOut:
    fit_on: str
    threshold: float           # best on the fit documents (ties: closest to the default)
    fit_score: float
    fit_default_score: float
    held_score: float
    held_default_score: float
    verdict: Verdict

    def describe(self):
        return (f"fitted on {self.fit_on}: F-beta {self.fit_score:.4f} there, "
                f"{self.held_score:.4f} on the other documents "
                f"(default threshold: {self.held_default_score:.4f})")


def threshold_holdout(counts, thresholds, fit_docs, held_docs, *, default=0.5, beta=0.5,
                      fit_on="fit", replicates=1000, seed=0, level=0.95, groups=None):
    """Best Jaccard threshold on ``fit_docs``, scored on ``held_docs`` against ``default``.

    counts: (T, D, 3) per-document counts at each threshold (fbeta_gains.threshold_counts);
    ``default`` must be one of ``thresholds``.
    """
    ths = np.asarray(thresholds, dtype=np.float64)
    counts = np.asarray(counts)
    d0 = int(np.argmin(np.abs(ths - default)))
    fit = index_of(fit_docs, counts.shape[1])
    held = index_of(held_docs, counts.shape[1])
    fit_curve = curve_scores(counts[:, fit], beta)
    score = np.where(np.isnan(fit_curve), -np.inf, fit_curve)
    best = np.flatnonzero(score == score.max())
    i = int(best[np.argmin(np.abs(ths[best] - ths[d0]))])
    held_curve = curve_scores(counts[:, held], beta)
    # Paired: the same document resamples scored at both thresholds.
    reps = np.empty((check_replicates(replicates), 2))
    pair = counts[[d0, i]][:, held]
    from ...core.groups import row_draws
    codes = None if groups is None else recode(groups, held)
    for r, rows in row_draws(held.size, replicates, seed, codes):
        w = np.bincount(rows, minlength=held.size)[None, :]
        reps[r] = curve_scores(pair, beta, w)[0]
    v = verdict(held_curve[d0], held_curve[i], reps, level=level,
                what=f"threshold {ths[i]:g} fitted on {fit_on}:", held="held-out documents")
    return ThresholdHoldOut(fit_on, float(ths[i]), float(fit_curve[i]), float(fit_curve[d0]),
                            float(held_curve[i]), float(held_curve[d0]), v)
