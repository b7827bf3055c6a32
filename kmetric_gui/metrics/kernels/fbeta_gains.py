"""F-beta: per-document gains of removing its FPs / FNs, fix-first, and score curves.

Counts pool over documents, so a fix changes three numbers: removing a
document's FPs takes its fp off FP; removing its FNs counts its missed
truths as found (fn moves from FN to TP); a full fix (predictions equal to
the truths) does both. Unmatched predictions never decide a match, so
removing them changes no TP.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from dataclasses import dataclass

import numpy as np

from ...core.attribution import as_fixlist, check_top, empty_fixes, greedy_types, nth_in_groups
from .fbeta import MATCHINGS, _check_numbers
from .fbeta.match import _match
from .fbeta.table import _Prepared, _segment_sums
from ...core._checks import check_option
from ...core.intervals import percentile_interval
from ...core.resample import check_replicates

if TYPE_CHECKING:
    from ...core.attribution import FixList
    from .fbeta import FbetaResult


@dataclass(frozen=True)
class FbetaDocGains:
    fp_removed: np.ndarray    # (D,) score change if the document's FPs were removed
    fn_removed: np.ndarray    # (D,) ... if its FNs were found
    both: np.ndarray          # (D,) ... if its predictions equalled its truths
    score: float


def fbeta_scores(tp, fp, fn, beta=0.5):
    """Vectorised F-beta of pooled counts (nan when tp + fp + fn == 0)."""
    tp, fp, fn = (np.asarray(x, dtype=np.float64) for x in (tp, fp, fn))
    b2 = float(beta) ** 2
    den = (1 + b2) * tp + b2 * fn + fp
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.where(tp > 0, (1 + b2) * tp / den, 0.0)
    return np.where(tp + fp + fn > 0, f, np.nan)


def fbeta_doc_gains(result: FbetaResult) -> FbetaDocGains:
    """Exact gain of each document's three fixes (nan when the score is undefined)."""
    tp, fp, fn = (result.per_document[:, i].astype(np.float64) for i in range(3))
    b = result.beta
    score = result.score
    if result.undefined_reason:
        nan = np.full(tp.size, np.nan)
        return FbetaDocGains(nan, nan, nan, score)
    TP, FP, FN = result.tp, result.fp, result.fn
    return FbetaDocGains(fbeta_scores(TP, FP - fp, FN, b) - score,
                         fbeta_scores(TP + fn, FP, FN - fn, b) - score,
                         fbeta_scores(TP + fn, FP - fp, FN - fn, b) - score, score)


def no_gain_reason(result):
    """Why no fix can move an F-beta (undefined, or no ground truths at all), or None."""
    if result.undefined_reason:
        return result.undefined_reason
    if result.tp + result.fn == 0:
        return ("there are no ground truths: F-beta is 0 with any prediction and "
                "undefined with none, so no fix can raise it")
    return None


def fbeta_fix_first(result: FbetaResult, top: int = 10) -> FixList:
    """Documents in greedy order of a full fix, with the exact score after each."""
    top = check_top(top)
    per = result.per_document.astype(np.int64)
    bad = (per[:, 1] + per[:, 2]) > 0
    n_fix = int(bad.sum())
    reason = no_gain_reason(result)
    if reason:
        return empty_fixes(result.score, reason, n_fix)
    if n_fix == 0:
        return empty_fixes(result.score, None, 0)
    # Documents with the same (fp, fn) have the same fix: greedy over those kinds.
    # One int64 key per (fp, fn) in lexicographic order: np.unique(axis=0) sorts
    # structured rows while holding the GIL (about 1 s at a million documents,
    # a frozen window even though this runs on a worker).
    fp, fn = per[bad][:, 1], per[bad][:, 2]
    span = int(fn.max()) + 1
    codes, kind_of = np.unique(fp * span + fn, return_inverse=True)
    kinds = np.stack([codes // span, codes % span], axis=1)
    kind_of = kind_of.ravel()
    group = np.full(per.shape[0], -1, dtype=np.int64)
    group[bad] = kind_of
    counts = np.bincount(kind_of, minlength=kinds.shape[0])
    deltas = np.stack([kinds[:, 1], -kinds[:, 0], -kinds[:, 1]], axis=1)
    beta = result.beta

    def score_fn(stats):
        return fbeta_scores(stats[..., 0], stats[..., 1], stats[..., 2], beta)
    picks, after = greedy_types([result.tp, result.fp, result.fn], deltas, counts, score_fn, top)
    return as_fixlist(nth_in_groups(group, picks), after, result.score, n_fix)


def threshold_counts(truths, predictions, thresholds, *, matching="one-to-one", clean=False,
                     cancel=None):
    """(T, D, 3) per-document tp, fp, fn at each Jaccard threshold (strings read once)."""
    check_option("matching", matching, MATCHINGS)
    ths = [_check_numbers(0.5, t)[1] for t in np.atleast_1d(thresholds)]
    prep = _Prepared(truths, predictions, clean)
    out = np.zeros((len(ths), prep.n_docs, 3), dtype=np.int64)
    for i, th in enumerate(ths):
        if cancel is not None and cancel():
            from ...errors import Cancelled
            raise Cancelled("threshold curve")
        chosen, used = _match(prep, th, matching)
        tp = _segment_sums(chosen >= 0, prep.t_start, prep.nt)
        out[i, :, 0] = tp
        out[i, :, 1] = prep.npd - _segment_sums(used[:-1], prep.p_start, prep.npd)
        out[i, :, 2] = prep.nt - tp
    return out


def curve_scores(counts, beta=0.5, weights=None):
    """Scores from (T, D, 3) counts; weights (B, D) document weights give (B, T)."""
    counts = np.asarray(counts, dtype=np.float64)
    if weights is None:
        tot = counts.sum(axis=1)                              # (T, 3)
    else:
        tot = np.einsum("bd,tdk->btk", np.asarray(weights, dtype=np.float64), counts)
    return fbeta_scores(tot[..., 0], tot[..., 1], tot[..., 2], beta)


def beta_curve(tp, fp, fn, betas):
    """Score of the same pooled counts at each beta (matching does not depend on beta).

    tp, fp, fn: scalars, or (B,) replicate sums giving (B, len(betas)).
    """
    b2 = np.asarray(betas, dtype=np.float64) ** 2
    tp, fp, fn = (np.asarray(x, dtype=np.float64)[..., None] for x in (tp, fp, fn))
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.where(tp > 0, (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp), 0.0)
    return np.where(tp + fp + fn > 0, f, np.nan)


def curve_replicates(counts, beta=0.5, *, replicates=200, seed=0, groups=None):
    """(B, T) curve scores over document resamples (per-document index draws, the law
    and seed of the stats bootstrap; that one draws over distinct (TP, FP, FN) rows
    when they repeat, so its numbers differ within resampling noise)."""
    counts = np.asarray(counts)
    reps = np.empty((check_replicates(replicates), counts.shape[0]))
    d = counts.shape[1]
    from ...core.groups import row_draws      # whole groups when ``groups`` (code per document)
    for r, rows in row_draws(d, replicates, seed, groups):
        reps[r] = curve_scores(counts, beta, np.bincount(rows, minlength=d)[None, :])[0]
    return reps


def beta_bands(per_document, betas, *, replicates=200, level=0.95, seed=0, groups=None):
    """Percentile band (low, high) of the score at each beta over document resamples."""
    per = np.asarray(per_document, dtype=np.float64).reshape(-1, 3)
    sums = np.empty((check_replicates(replicates), 3))
    from ...core.groups import row_draws
    for r, rows in row_draws(per.shape[0], replicates, seed, groups):
        sums[r] = np.bincount(rows, minlength=per.shape[0]) @ per
    reps = beta_curve(sums[:, 0], sums[:, 1], sums[:, 2], betas)     # (B, len(betas))
    bands = [percentile_interval(reps[:, i], level) for i in range(reps.shape[1])]
    return np.array([b.low for b in bands]), np.array([b.high for b in bands])


def curve_bands(counts, beta=0.5, *, replicates=200, level=0.95, seed=0, groups=None):
    """Percentile band (low, high), each (T,), of the curve over document resamples."""
    reps = curve_replicates(counts, beta, replicates=replicates, seed=seed, groups=groups)
    bands = [percentile_interval(reps[:, t], level) for t in range(reps.shape[1])]
    return np.array([b.low for b in bands]), np.array([b.high for b in bands])
