"""LwLRAP and F-beta gains against brute force: apply the fix, rescore with the core and the loops."""
import numpy as np
import pytest
from sklearn.metrics import label_ranking_average_precision_score

from kmetric_gui.metrics.kernels import jaccard_fbeta, lwlrap
from kmetric_gui.metrics.kernels.fbeta_gains import (beta_curve, curve_bands, curve_scores,
                                          fbeta_doc_gains, fbeta_fix_first, threshold_counts)
from kmetric_gui.metrics.kernels.lwlrap_gains import lwlrap_class_gains, lwlrap_fix_first, sample_gains
from reference import _jac, fbeta_ref, lwlrap_ref


def _lw_case(rng, ties):
    n, c = int(rng.integers(2, 9)), int(rng.integers(2, 7))
    truth = (rng.random((n, c)) < 0.35).astype(int)
    truth[rng.integers(0, n), rng.integers(0, c)] = 1
    # few distinct values so ties happen
    scores = rng.integers(0, 4, (n, c)) / 4.0 if ties else rng.random((n, c))
    return truth, scores


def _perfect_row(t_row):
    return t_row.astype(float)   # every true label above every false one


@pytest.mark.parametrize("ties", ["worst", "original"])
@pytest.mark.parametrize("tied_scores", [False, True])
def test_sample_gains_equal_rescoring_with_the_sample_ranked_perfectly(ties, tied_scores):
    rng = np.random.default_rng(3)
    for _ in range(40):
        truth, scores = _lw_case(rng, tied_scores)
        r = lwlrap(truth, scores, ties=ties)
        g = sample_gains(r)
        for i in range(truth.shape[0]):
            s2 = scores.copy()
            s2[i] = _perfect_row(truth[i])
            assert r.score + g[i] == pytest.approx(lwlrap_ref(truth, s2, ties), abs=1e-12)
            assert r.score + g[i] == pytest.approx(lwlrap(truth, s2, ties=ties).score, abs=1e-12)


@pytest.mark.parametrize("ties", ["worst", "original"])
@pytest.mark.parametrize("tied_scores", [False, True])
def test_class_gains_equal_rescoring_with_the_class_ranked_perfectly(ties, tied_scores):
    rng = np.random.default_rng(4)
    for _ in range(40):
        truth, scores = _lw_case(rng, tied_scores)
        cg = lwlrap_class_gains(truth, scores, ties=ties)
        r = lwlrap(truth, scores, ties=ties)
        assert cg.share.sum() == pytest.approx(r.score, abs=1e-12)
        for j in range(truth.shape[1]):
            s2 = scores.copy()
            s2[:, j] = np.where(truth[:, j] == 1, scores.max() + 1, scores.min() - 1)
            assert r.score + cg.gain[j] == pytest.approx(lwlrap_ref(truth, s2, ties), abs=1e-12)
            if ties == "worst":
                nz = truth.sum(axis=1) > 0
                sk = label_ranking_average_precision_score(truth[nz], s2[nz],
                                                           sample_weight=truth.sum(axis=1)[nz])
                assert r.score + cg.gain[j] == pytest.approx(sk, abs=1e-12)


def test_lwlrap_fix_first_curve_equals_rescoring():
    rng = np.random.default_rng(5)
    for _ in range(20):
        truth, scores = _lw_case(rng, True)
        r = lwlrap(truth, scores)
        f = lwlrap_fix_first(r, top=100)
        gains = sample_gains(r)
        assert f.n_fixable == int((gains > 1e-12).sum()) == len(f)
        s2 = scores.copy()
        prev = r.score
        for unit, gain, after in zip(f.units, f.gains, f.score_after):
            left = [u for u in range(truth.shape[0]) if not np.array_equal(s2[u], truth[u])]
            assert gain == pytest.approx(max(gains[left]), abs=1e-12)   # greedy pick
            s2[unit] = _perfect_row(truth[unit])
            now = lwlrap_ref(truth, s2)
            assert after == pytest.approx(now, abs=1e-12)
            assert gain == pytest.approx(now - prev, abs=1e-12)
            prev = now
        assert (np.diff(f.gains) <= 1e-12).all()     # largest gain first
        if len(f):
            assert f.score_after[-1] == pytest.approx(1.0)


def test_lwlrap_without_positives_has_no_gains():
    r = lwlrap([[0, 0], [0, 0]], [[0.1, 0.2], [0.3, 0.4]])
    f = lwlrap_fix_first(r, top=3)
    assert len(f) == 0 and f.undefined_reason == r.undefined_reason


# ---- F-beta ----------------------------------------------------------------

WORDS = ["alpha", "beta", "gamma", "delta", "survey", "study", "data", "census"]


def _doc(rng, k):
    """k strings with distinct, non-empty token sets."""
    out, seen = [], set()
    while len(out) < k:
        toks = frozenset(rng.choice(WORDS, int(rng.integers(1, 4)), replace=False))
        if toks not in seen:
            seen.add(toks)
            out.append(" ".join(sorted(toks)))
    return out


def _fb_case(rng):
    d = int(rng.integers(1, 7))
    truths = [_doc(rng, int(rng.integers(0, 4))) for _ in range(d)]
    preds = []
    for gts in truths:
        keep = [g for g in gts if rng.random() < 0.5]
        noise = _doc(rng, int(rng.integers(0, 3)))
        preds.append(keep + noise)
    return truths, preds


def _used_predictions(gts, pds, threshold, matching):
    """The reference loop's matching: which predictions were matched (plain loop)."""
    gts, order = sorted(gts), sorted(range(len(pds)), key=lambda i: pds[i])
    used = [False] * len(pds)
    for g in gts:
        best, best_j = -1.0, -1
        for j in order:
            if matching == "one-to-one" and used[j]:
                continue
            s = _jac(g, pds[j])
            if s > best:
                best, best_j = s, j
        if best_j >= 0 and best >= threshold:
            used[best_j] = True
    return used


@pytest.mark.parametrize("matching", ["one-to-one", "many-to-one"])
def test_document_gains_equal_rescoring_with_the_fix_applied(matching):
    rng = np.random.default_rng(6)
    for _ in range(60):
        truths, preds = _fb_case(rng)
        r = jaccard_fbeta(truths, preds, matching=matching)
        if r.undefined_reason:
            continue
        g = fbeta_doc_gains(r)
        for d in range(len(truths)):
            used = _used_predictions(truths[d], preds[d], 0.5, matching)
            fps = [p for p, u in zip(preds[d], used) if not u]
            fixes = {"fp_removed": [p for p, u in zip(preds[d], used) if u],
                     "fn_removed": truths[d] + fps,
                     "both": list(truths[d])}
            for name, new in fixes.items():
                p2 = [list(x) for x in preds]
                p2[d] = new
                ref, _ = fbeta_ref(truths, p2, matching=matching)
                got = r.score + getattr(g, name)[d]
                assert got == pytest.approx(ref, abs=1e-12, nan_ok=True), name
                core = jaccard_fbeta(truths, p2, matching=matching).score
                assert core == pytest.approx(ref, abs=1e-12, nan_ok=True)


def test_fbeta_fix_first_curve_equals_rescoring():
    rng = np.random.default_rng(7)
    for _ in range(30):
        truths, preds = _fb_case(rng)
        r = jaccard_fbeta(truths, preds)
        f = fbeta_fix_first(r, top=50)
        if r.undefined_reason or r.tp + r.fn == 0:
            assert len(f) == 0 and f.undefined_reason
            continue
        per = r.per_document
        assert f.n_fixable == int(((per[:, 1] + per[:, 2]) > 0).sum()) == len(f)
        p2 = [list(x) for x in preds]
        prev = r.score
        for unit, gain, after in zip(f.units, f.gains, f.score_after):
            # greedy: the best single full fix at this step
            best = max(fbeta_ref(truths, [list(truths[u]) if u == v else p2[v]
                                          for v in range(len(p2))])[0]
                       for u in range(len(p2)) if p2[u] != list(truths[u])
                       and (per[u, 1] + per[u, 2]) > 0)
            p2[unit] = list(truths[unit])
            now, _ = fbeta_ref(truths, p2)
            assert after == pytest.approx(now, abs=1e-12)
            assert after == pytest.approx(best, abs=1e-12)
            assert gain == pytest.approx(now - prev, abs=1e-12)
            prev = now


def test_threshold_curve_and_beta_curve_equal_rescoring():
    rng = np.random.default_rng(8)
    truths, preds = _fb_case(rng)
    while jaccard_fbeta(truths, preds).undefined_reason:
        truths, preds = _fb_case(rng)
    ths = np.linspace(0.0, 1.0, 11)
    counts = threshold_counts(truths, preds, ths)
    curve = curve_scores(counts, beta=0.5)
    for th, s, c in zip(ths, curve, counts):
        ref, (tp, fp, fn) = fbeta_ref(truths, preds, threshold=th)
        assert s == pytest.approx(ref, abs=1e-12)
        assert tuple(c.sum(axis=0)) == (tp, fp, fn)
    r = jaccard_fbeta(truths, preds)
    for b, s in zip([0.5, 1.0, 2.0], beta_curve(r.tp, r.fp, r.fn, [0.5, 1.0, 2.0])):
        assert s == pytest.approx(fbeta_ref(truths, preds, beta=b)[0], abs=1e-12)


def test_curve_bands_are_percentiles_of_the_stats_bootstrap_draws():
    from kmetric_gui.core.intervals import percentile_interval
    from kmetric_gui.core.resample import bootstrap, resample_indices
    from kmetric_gui.metrics.kernels.units import fbeta_units
    rng = np.random.default_rng(9)
    truths, preds = _fb_case(rng)
    while len(truths) < 4:
        truths, preds = _fb_case(rng)
    ths = [0.3, 0.5]
    counts = threshold_counts(truths, preds, ths)
    low, high = curve_bands(counts, level=0.9, replicates=60, seed=4)
    draws = resample_indices(len(truths), 60, seed=4)
    for t, th in enumerate(ths):
        reps = np.array([fbeta_ref([truths[d] for d in row], [preds[d] for d in row],
                                   threshold=th)[0] for row in draws])
        reps = reps[np.isfinite(reps)]
        assert low[t] == pytest.approx(np.quantile(reps, 0.05), abs=1e-12)
        assert high[t] == pytest.approx(np.quantile(reps, 0.95), abs=1e-12)
    # at the scoring threshold the band is the stats bootstrap's interval
    units = fbeta_units(jaccard_fbeta(truths, preds, threshold=0.5))
    ci = percentile_interval(bootstrap(units, 60, seed=4), 0.9)
    assert (low[1], high[1]) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_beta_bands_are_percentiles_of_the_loop_on_the_same_draws():
    from kmetric_gui.metrics.kernels.fbeta_gains import beta_bands
    from kmetric_gui.core.resample import resample_indices
    rng = np.random.default_rng(11)
    truths, preds = _fb_case(rng)
    while len(truths) < 4 or jaccard_fbeta(truths, preds).undefined_reason:
        truths, preds = _fb_case(rng)
    r = jaccard_fbeta(truths, preds)
    betas = [0.5, 1.0, 2.0]
    low, high = beta_bands(r.per_document, betas, replicates=40, level=0.8, seed=2)
    draws = resample_indices(len(truths), 40, seed=2)
    for i, b in enumerate(betas):
        reps = np.array([fbeta_ref([truths[d] for d in row], [preds[d] for d in row], beta=b)[0]
                         for row in draws])
        reps = reps[np.isfinite(reps)]
        assert (low[i], high[i]) == pytest.approx(tuple(np.quantile(reps, [0.1, 0.9])), abs=1e-12)


def test_fbeta_fix_first_groups_documents_without_sorting_rows(monkeypatch):
    # np.unique(axis=0) sorts structured rows while holding the GIL: at a million
    # documents the fixes worker froze the window for about a second.
    rng = np.random.default_rng(11)
    truths, preds = _fb_case(rng)
    while True:
        r = jaccard_fbeta(truths, preds)
        if not r.undefined_reason and r.tp + r.fn and ((r.per_document[:, 1:]).sum(1) > 0).any():
            break
        truths, preds = _fb_case(rng)
    real, axes = np.unique, []

    def unique(ar, *args, **kwargs):
        axes.append(kwargs.get("axis"))
        return real(ar, *args, **kwargs)
    monkeypatch.setattr(np, "unique", unique)
    f = fbeta_fix_first(r, top=50)
    assert len(f) and axes and all(a is None for a in axes)
