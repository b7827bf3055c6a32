"""Direction: a lower-is-better metric, registered from inside this test, is honoured by
compare (P(better), the star), blends (best alpha), fix first (gains and order), the
shake-up wording and the JSON; each checked against a brute-force loop."""
import json

import numpy as np
import pytest

from filemaker import csv, write
from kmetric_gui import metrics
from kmetric_gui.analysis.comparison import CompareOptions, compare_files
from kmetric_gui.analysis.fixes import top_fixes
from kmetric_gui.metrics.additive import AdditiveMetric
from kmetric_gui.analysis.scoring import Options, score_files
from kmetric_gui.analysis.stats import ShakeupOptions, shakeup, shakeup_lines


class ToyMAE(AdditiveMetric):
    """Mean absolute error: lower is better."""
    name = "toymae"
    label = "Toy mean absolute error"
    higher_is_better = False
    stat_names = ("abs_error",)

    def row_stats(self, truth, pred, options):
        return np.abs(np.asarray(truth) - np.asarray(pred))[:, None]

    def score_sums(self, sums, n):
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(n > 0, sums[..., 0] / n, np.nan)

    def reference(self, truth, pred, options):
        return float(np.mean([abs(t - p) for t, p in zip(truth, pred)]))


@pytest.fixture
def toymae():
    m = metrics.register(ToyMAE())
    yield m
    metrics.unregister(m.name)


@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(7)
    n = 60
    truth = rng.normal(size=n)
    good = truth + rng.normal(scale=0.3, size=n)
    bad = truth + rng.normal(scale=0.9, size=n)
    ids = [f"r{i}" for i in range(n)]
    usage = ["Public" if i % 3 else "Private" for i in range(n)]
    sol = write(tmp_path / "sol.csv", csv([["id", "y", "Usage"]] + [
        [i, repr(float(t)), u] for i, t, u in zip(ids, truth, usage)]))
    # A is the worse file, B the better one: "better" must point at B.
    a = write(tmp_path / "a.csv", csv([["id", "y"]] + [[i, repr(float(v))] for i, v in zip(ids, bad)]))
    b = write(tmp_path / "b.csv", csv([["id", "y"]] + [[i, repr(float(v))] for i, v in zip(ids, good)]))
    return sol, a, b, truth, bad, good


def test_score_and_json_direction(toymae, files):
    sol, a, _, truth, bad, _ = files
    rep = score_files(sol, a, Options(metric="toymae"))
    assert rep.score == pytest.approx(toymae.reference(truth, bad, None), rel=1e-12)
    d = rep.to_json()
    assert d["higher_is_better"] is False and d["metric"] == "toymae"
    kappa_like = metrics.get_metric("qwk")
    assert kappa_like.higher_is_better is True


def test_compare_points_at_the_better_file(toymae, files):
    sol, a, b, truth, bad, good = files
    o = CompareOptions(replicates=300, permutations=50, splits=50, seed=4, alphas=21)
    cmp = compare_files(sol, [a, b], Options(metric="toymae"), o)
    st = cmp.pairs[0].stats
    mae_a, mae_b = np.mean(np.abs(truth - bad)), np.mean(np.abs(truth - good))
    assert mae_b < mae_a
    assert st.delta == pytest.approx(mae_b - mae_a, rel=1e-12)
    # Brute force: the same unit draws (core/compare.py), B better when its MAE is lower.
    rng = np.random.default_rng(4)
    n = truth.size
    wins = losses = 0
    for _ in range(300):
        idx = rng.integers(0, n, size=n)
        ea, eb = np.abs(truth - bad)[idx].mean(), np.abs(truth - good)[idx].mean()
        wins += eb < ea
        losses += eb > ea
    assert st.p_b_better == pytest.approx(wins / 300, abs=1e-12)
    assert st.p_a_better == pytest.approx(losses / 300, abs=1e-12)
    assert st.p_b_better > 0.9
    assert cmp.best == 1               # the star goes to B, the lower MAE
    d = cmp.to_json()
    assert d["higher_is_better"] is False
    assert all(s["higher_is_better"] is False for s in d["submissions"])
    assert d["pairs"][0]["p_b_better"] == pytest.approx(wins / 300)


def test_blend_picks_the_lowest_error(toymae, files):
    sol, a, b, truth, bad, good = files
    o = CompareOptions(replicates=50, permutations=0, splits=10, alphas=41)
    cmp = compare_files(sol, [a, b], Options(metric="toymae"), o)
    curve = cmp.pairs[0].blend
    alphas = np.linspace(0, 1, 41)
    brute = np.array([np.mean(np.abs(truth - (x * bad + (1 - x) * good))) for x in alphas])
    np.testing.assert_allclose(curve.scores, brute, rtol=1e-12)
    assert curve.best_alpha == alphas[int(np.argmin(brute))]
    assert curve.best_score == pytest.approx(brute.min())
    assert curve.best_alpha < 0.5      # mostly B, the better file


def test_fix_first_orders_by_improvement(toymae, files):
    sol, a, _, truth, bad, _ = files
    rep = score_files(sol, a, Options(metric="toymae"))
    tf = top_fixes(rep, 5)
    # Brute force greedy: fix (set to its truth) the row lowering MAE most, five times.
    err = np.abs(truth - bad)
    left, score, order, gains = list(range(truth.size)), err.mean(), [], []
    for _ in range(5):
        after = [(err.sum() - err[i]) / err.size for i in left]
        k = int(np.argmin(after))
        gains.append(score - after[k])
        score = after[k]
        err = err.copy()
        err[left[k]] = 0
        order.append(left.pop(k))
    assert tf.ids == [f"r{i}" for i in order]
    np.testing.assert_allclose(tf.fixes.gains, gains, rtol=1e-9)
    assert (tf.fixes.gains > 0).all()                       # a gain is an improvement
    assert (np.diff(tf.fixes.score_after) < 0).all()        # the score falls: lower is better
    assert json.loads(json.dumps(tf.to_json()))[0]["gain"] > 0


def test_shakeup_wording_follows_direction(toymae, files):
    sol, a, *_ = files
    rep = score_files(sol, a, Options(metric="toymae"))
    sh = shakeup(rep, ShakeupOptions(splits=50, seed=1))
    assert sh.higher_is_better is False and sh.to_dict()["higher_is_better"] is False
    assert "a positive gap: Private scores worse" in "\n".join(shakeup_lines(sh))


def test_registration_is_undone(toymae):
    assert "toymae" in metrics.METRIC_NAMES
    metrics.unregister("toymae")
    assert "toymae" not in metrics.METRIC_NAMES
    metrics.register(toymae)       # the fixture removes it again


@pytest.mark.parametrize("higher", [True, False])
def test_one_statistic_fast_path_equals_the_greedy(higher):
    from kmetric_gui.core.attribution import greedy_types, unit_fix_first
    rng = np.random.default_rng(3)
    n = 300
    loss = np.round(rng.exponential(size=n), 3)        # ties too
    stats = np.stack([np.ones(n), loss], axis=1)

    def score(s):
        s = np.asarray(s, dtype=float)
        v = np.sqrt(s[..., 1] / s[..., 0])               # an RMSE of sums: monotone
        return v if not higher else -v
    fast = unit_fix_first(stats, [1.0, 0.0], score, 40, higher)
    movable = np.flatnonzero(loss != 0)
    d = np.stack([np.zeros(movable.size), -loss[movable]], axis=1)
    picks, after = greedy_types(stats.sum(axis=0), d, np.ones(movable.size, dtype=np.int64),
                                score, 40, higher)
    assert fast.units.tolist() == movable[picks].tolist()
    np.testing.assert_allclose(fast.score_after, after, rtol=1e-12)


def test_cli_says_lower_is_better(toymae, files, capsys):
    from kmetric_gui.cli import main
    sol, a, b, *_ = files
    assert main(["score", str(sol), str(a), "--metric", "toymae"]) == 0
    assert "lower is better" in capsys.readouterr().out.splitlines()[0]
    assert main(["compare", str(sol), str(a), str(b), "--metric", "toymae", "--bootstrap", "50",
                 "--permutations", "10", "--splits", "10"]) == 0
    out = capsys.readouterr().out
    assert "(lower is better)" in out and "B wins" in out
