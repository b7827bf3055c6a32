"""Medal thresholds at every team-count boundary, and the rank simulation against plain loops."""
import numpy as np
import pytest

from kmetric_gui.core.rank import medal_of, medal_thresholds, simulate_ranks
from kmetric_gui.errors import InputError


@pytest.mark.parametrize("teams, gold, silver, bronze", [
    # 1-99: top 10 % / 20 % / 40 %, rounded down
    (1, 0, 0, 0), (5, 0, 1, 2), (10, 1, 2, 4), (55, 5, 11, 22), (99, 9, 19, 39),
    # 100-249: gold top 10, silver 20 %, bronze 40 %
    (100, 10, 20, 40), (101, 10, 20, 40), (249, 10, 49, 99),
    # 250-999: gold 10 + 0.2 % (one more per 500 teams), silver top 50, bronze top 100
    (250, 10, 50, 100), (499, 10, 50, 100), (500, 11, 50, 100), (999, 11, 50, 100),
    # 1000+: gold 10 + 0.2 %, silver 5 %, bronze 10 %
    (1000, 12, 50, 100), (1499, 12, 74, 149), (1500, 13, 75, 150), (5000, 20, 250, 500),
])
def test_medal_thresholds_at_each_boundary(teams, gold, silver, bronze):
    assert medal_thresholds(teams) == {"gold": gold, "silver": silver, "bronze": bronze}


def test_medal_of_ranks():
    th = medal_thresholds(1000)
    assert medal_of([1, 12, 13, 50, 51, 100, 101], th).tolist() == [0, 0, 1, 1, 2, 2, 3]
    with pytest.raises(InputError):
        medal_thresholds(0)


def plain_loop(ours, others, gaps, rho, sims, seed, higher=True):
    """The model of core/rank.py, one simulation and one team at a time."""
    rng = np.random.default_rng(seed + 1000)
    g = np.asarray(gaps, float)
    mu = g.mean()
    sign = 1 if higher else -1
    ranks = []
    for _ in range(sims):
        g0 = rng.choice(g)
        mine = ours + g0
        rank = 1
        for s in others:
            h = rng.choice(g)
            theirs = s + mu + rho * (g0 - mu) + np.sqrt(1 - rho ** 2) * (h - mu)
            rank += sign * (theirs - mine) > 0
        ranks.append(rank)
    return np.array(ranks)


@pytest.mark.parametrize("rho", [0.0, 0.5, 0.9])
def test_rank_distribution_matches_a_plain_loop(rho):
    rng = np.random.default_rng(5)
    others = rng.normal(0.80, 0.01, 60)
    gaps = rng.normal(0.0, 0.012, 500) + 0.002
    sim = simulate_ranks(0.805, others, gaps, rho, 4000, seed=3)
    ref = plain_loop(0.805, others, gaps, rho, 1500, seed=3)
    se = np.sqrt(ref.var() / 1500 + sim.ranks.var() / 4000)
    assert abs(sim.ranks.mean() - ref.mean()) < 4 * se
    for q in (0.1, 0.5, 0.9):
        assert abs(np.quantile(sim.ranks, q) - np.quantile(ref, q)) <= 2
    th = medal_thresholds(61)
    p = np.bincount(medal_of(sim.ranks, th), minlength=4) / sim.ranks.size
    p_ref = np.bincount(medal_of(ref, th), minlength=4) / ref.size
    assert np.all(np.abs(p - p_ref) < 4 * np.sqrt(p_ref * (1 - p_ref) / 1500) + 0.01)


def test_full_correlation_keeps_the_public_order():
    others = np.array([0.9, 0.85, 0.8, 0.7, 0.6])
    sim = simulate_ranks(0.82, others, np.linspace(-0.1, 0.1, 51), 1.0, 500)
    assert sim.rank_now == 3 and np.all(sim.ranks == 3)


def test_far_teams_never_move_and_lower_is_better_mirrors():
    rng = np.random.default_rng(1)
    others = np.r_[rng.normal(0.5, 0.01, 200), np.full(50, 5.0), np.full(30, -5.0)]
    gaps = rng.normal(0, 0.01, 300)
    up = simulate_ranks(0.5, others, gaps, 0.3, 2000, seed=9)
    assert up.ranks.min() >= 51 and up.ranks.max() <= 251
    down = simulate_ranks(-0.5, -others, -gaps, 0.3, 2000, seed=9, higher_is_better=False)
    np.testing.assert_array_equal(up.ranks, down.ranks)
    assert up.teams == 281 and up.thresholds == medal_thresholds(281)


def test_bad_settings():
    with pytest.raises(InputError, match="correlation"):
        simulate_ranks(0.5, [0.4], [0.0], 1.5)
    with pytest.raises(InputError, match="gap"):
        simulate_ranks(0.5, [0.4], [np.nan])


def test_land_pools_independent_batches_each_a_plain_simulation():
    """ranking.land simulates in independent batches (ranking_odds): batch 0 draws its gaps
    and leaderboards with the seed itself, so its ranks are one simulate_ranks call's; the
    odds are the batches' mean and their error the batches' spread."""
    from kmetric_gui.analysis.ranking import Leaderboard, RankOptions, land, our_gaps
    from kmetric_gui.analysis.ranking_odds import BATCHES
    from kmetric_gui.analysis.scoring import score_files
    from pathlib import Path
    demo = Path(__file__).resolve().parents[2] / "resources" / "demo"
    report = score_files(demo / "qwk_solution.csv", demo / "qwk_submission.csv")
    rng = np.random.default_rng(4)
    scores = np.sort(rng.normal(0.7, 0.05, 400))[::-1]
    board = Leaderboard("lb.csv", [f"t{i}" for i in range(400)], scores)
    o = RankOptions(correlation=0.3, simulations=3000, seed=5)
    got = land(report, board, o)
    per = 3000 // BATCHES
    _, first_gaps, _ = our_gaps(report, 2000 // BATCHES, 5)
    for sim in [got.main, *got.sensitivity]:
        want = simulate_ranks(got.score, scores, first_gaps, sim.correlation, per, 5)
        assert np.array_equal(sim.ranks[:per], want.ranks)
        assert sim.batches.shape[0] == got.batches >= BATCHES
        m, se = sim.medals(), sim.medal_errors()
        for k, p in m.items():
            assert p == pytest.approx(sim.batches[:, list(m).index(k)].mean())
            assert se[k] == pytest.approx(sim.batches[:, list(m).index(k)].std(ddof=1)
                                          / np.sqrt(got.batches))
    assert [s.correlation for s in got.sensitivity] == [0.0, 1.0]


def test_ties_count_for_the_teams_submitted_first():
    others = np.array([0.9, 0.8, 0.8, 0.8, 0.7])
    gaps = np.array([-0.01, 0.0, 0.01])
    last = simulate_ranks(0.8, others, gaps, 1.0, 50)
    assert last.rank_now == 5 and np.all(last.ranks == 5)             # every tie ahead of us
    first = simulate_ranks(0.8, others, gaps, 1.0, 50, earlier=np.zeros(5, bool))
    assert first.rank_now == 2 and np.all(first.ranks == 2)
    some = simulate_ranks(0.8, others, gaps, 1.0, 50, earlier=[True, True, False, False, True])
    assert some.rank_now == 3
    # correlation 0 with one gap value: every tie stays a tie in every simulation
    flat = simulate_ranks(0.8, others, np.zeros(20), 0.0, 200)
    assert np.all(flat.ranks == 5)
    flat_first = simulate_ranks(0.8, others, np.zeros(20), 0.0, 200, earlier=np.zeros(5, bool))
    assert np.all(flat_first.ranks == 2)
    # lower is better: the mirror image
    low = simulate_ranks(-0.8, -others, -gaps, 1.0, 50, higher_is_better=False,
                         earlier=[True, True, False, False, True])
    assert low.rank_now == 3 and np.all(low.ranks == 3)
    assert simulate_ranks(-0.8, -others, -gaps, 1.0, 50, higher_is_better=False).rank_now == 5
