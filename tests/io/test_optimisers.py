"""Honest optimisers of a scored report (kmetric_gui.analysis.optimisers) against the core by hand."""
import numpy as np
import pytest

from filemaker import write
from kmetric_gui.metrics.kernels.fbeta_gains import curve_scores, threshold_counts
from kmetric_gui.metrics.kernels.fbeta_holdout import threshold_holdout
from kmetric_gui.metrics.kernels.kappa_holdout import fit_and_hold_out
from kmetric_gui.analysis.optimisers import honest
from kmetric_gui.analysis.scoring import Options, score_files
from reference import fbeta_ref

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"


def _continuous_files(tmp_path, n=400, seed=0, ignored=True):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 5, n)
    x = t + rng.normal(0.3, 0.9, n)
    use = np.where(rng.random(n) < 0.3, "Public", "Private")
    if ignored:
        use[:7] = "Ignored"
    ids = [f"r{i}" for i in range(n)]
    sol = write(tmp_path / "s.csv", "id,y,Usage\n" + "".join(
        f"{i},{a},{u}\n" for i, a, u in zip(ids, t, use)))
    sub = write(tmp_path / "p.csv", "id,y\n" + "".join(f"{i},{float(v)!r}\n" for i, v in zip(ids, x)))
    return sol, sub, t, x, use


def test_kappa_cut_points_fitted_on_public_scored_on_private_by_hand(tmp_path):
    sol, sub, t, x, use = _continuous_files(tmp_path)
    rep = score_files(sol, sub, Options(allow_continuous=True))
    h = honest(rep, replicates=3, verdict_replicates=50)
    keep = use != "Ignored"
    tt, xx, uu = t[keep], x[keep], use[keep]
    pub, priv = uu == "Public", uu == "Private"
    by_hand = fit_and_hold_out(tt, xx, pub, priv, min_rating=0, max_rating=4)
    assert h.split == "Usage column"
    assert np.array_equal(h.holdouts[0].cuts, by_hand.cuts)
    assert h.holdouts[0].held_kappa == pytest.approx(by_hand.held_kappa, abs=1e-12)
    assert h.holdouts[0].fit_on == "public" and h.holdouts[1].fit_on == "private"
    assert h.spread.shape == (3, 4) and len(h.kfold.folds) == 5
    text = "\n".join(h.lines())
    assert "fitted on public" in text and ("within the noise" in text or "beyond the noise" in text)


def test_integer_kappa_predictions_have_nothing_to_fit():
    rep = score_files(DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv")
    assert honest(rep) is None


def test_fbeta_threshold_halves_equal_the_core_and_the_loop():
    rep = score_files(DEMO / "fbeta_solution.csv", DEMO / "fbeta_submission.csv")
    h = honest(rep, replicates=20, verdict_replicates=20, seed=3)
    assert h.split == "random halves, seed 3"
    ths = h.curve["thresholds"]
    truths, preds = rep.prepared.truth, rep.prepared.pred
    counts = threshold_counts(truths, preds, ths)
    assert np.allclose(h.curve["score"], curve_scores(counts))
    for th, s in zip(ths[::5], h.curve["score"][::5]):
        assert s == pytest.approx(fbeta_ref(truths, preds, threshold=th)[0], abs=1e-12)
    assert (h.curve["low"] <= h.curve["score"] + 1e-12).all()
    for b, s in zip(h.curve["betas"], h.curve["beta_score"]):
        assert s == pytest.approx(fbeta_ref(truths, preds, beta=b)[0], abs=1e-12)
    assert (h.curve["beta_low"] <= h.curve["beta_high"]).all()
    from kmetric_gui.core.honest import fold_ids
    a = fold_ids(len(truths), 2, 3) == 0
    by_hand = threshold_holdout(counts, ths, a, ~a, default=0.5, replicates=20, seed=3)
    assert h.holdouts[0].threshold == by_hand.threshold
    assert h.holdouts[0].held_score == pytest.approx(by_hand.held_score, abs=1e-12)
