"""Kappa gains and the greedy fix-first order against brute-force rescoring."""
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from kmetric_gui.metrics.kernels import weighted_kappa
from kmetric_gui.core.attribution import check_top, nth_in_groups
from kmetric_gui.metrics.kernels.kappa_fixes import (kappa_fix_first, kappa_gain_map,
                                                     kappa_greedy_cells)
from kmetric_gui.errors import InputError
from reference import kappa_ref

SK = {"quadratic": "quadratic", "linear": "linear", "none": None}


def _random_case(rng, n=None, k=None):
    k = k or int(rng.integers(2, 7))
    n = n or int(rng.integers(5, 40))
    t = rng.integers(0, k, n)
    # predictions near the truth, some anywhere
    p = np.clip(t + rng.integers(-1, 2, n), 0, k - 1)
    wild = rng.random(n) < 0.2
    p[wild] = rng.integers(0, k, int(wild.sum()))
    return t, p


def _sk(t, p, w, lo, hi):
    return cohen_kappa_score(t, p, weights=SK[w], labels=list(range(lo, hi + 1)))


@pytest.mark.parametrize("weights", ["quadratic", "linear", "none"])
def test_gain_map_equals_moving_one_row_and_rescoring(weights):
    rng = np.random.default_rng(1)
    for _ in range(40):
        t, p = _random_case(rng)
        r = weighted_kappa(t, p, weights=weights)
        lo, hi = int(r.labels[0]), int(r.labels[-1])
        g = kappa_gain_map(r)
        k = r.labels.size
        for i in range(k):
            for j in range(k):
                rows = np.flatnonzero((t - lo == i) & (p - lo == j))
                if i == j:
                    assert g[i, j] == 0.0
                    continue
                if rows.size == 0:
                    assert np.isnan(g[i, j])
                    continue
                q = p.copy()
                q[rows[0]] = t[rows[0]]
                core = weighted_kappa(t, q, weights=weights, min_rating=lo, max_rating=hi).score
                ref = kappa_ref(t, q, weights, lo, hi)
                sk = _sk(t, q, weights, lo, hi)
                assert core == pytest.approx(sk, abs=1e-12)
                assert r.score + g[i, j] == pytest.approx(ref, abs=1e-12)
                assert r.score + g[i, j] == pytest.approx(sk, abs=1e-12)


def test_a_fix_can_lower_kappa_and_the_map_says_so():
    # Kappa below chance: moving the row changes E more than O.
    t = np.array([1, 1, 0])
    p = np.array([1, 2, 2])
    r = weighted_kappa(t, p)
    g = kappa_gain_map(r)
    assert np.nanmin(g) < 0
    i, j = np.unravel_index(np.nanargmin(g), g.shape)
    row = np.flatnonzero((t == i) & (p == j))[0]
    q = p.copy()
    q[row] = t[row]
    assert r.score + g[i, j] == pytest.approx(_sk(t, q, "quadratic", 0, 2), abs=1e-12)
    assert r.score + g[i, j] < r.score


@pytest.mark.parametrize("weights", ["quadratic", "linear", "none"])
def test_greedy_curve_equals_rescoring_after_each_step(weights):
    rng = np.random.default_rng(2)
    for _ in range(15):
        t, p = _random_case(rng, n=int(rng.integers(5, 25)))
        r = weighted_kappa(t, p, weights=weights)
        lo, hi = int(r.labels[0]), int(r.labels[-1])
        errors = int((t != p).sum())
        f = kappa_fix_first(t, p, top=errors + 5, weights=weights)
        if f.undefined_reason:
            assert len(f) == 0
            continue
        assert len(f) == errors == f.n_fixable
        assert len(set(f.units.tolist())) == errors      # each row fixed once
        q = p.copy()
        prev = r.score
        for unit, gain, after in zip(f.units, f.gains, f.score_after):
            assert q[unit] != t[unit]
            # greedy: no other single fix scores higher at this step
            best = max(_sk(t, np.where(np.arange(t.size) == u, t, q), weights, lo, hi)
                       for u in np.flatnonzero(q != t))
            q[unit] = t[unit]
            now = _sk(t, q, weights, lo, hi)
            assert after == pytest.approx(now, abs=1e-12)
            assert after == pytest.approx(best, abs=1e-12)
            assert gain == pytest.approx(now - prev, abs=1e-12)
            prev = now
        assert f.score_after[-1] == pytest.approx(1.0)


def test_rows_within_a_cell_are_taken_in_file_order_across_chunks():
    t = np.array([0, 1, 0, 2, 0, 1, 0, 2] * 5)
    p = np.array([1, 1, 1, 2, 0, 1, 1, 0] * 5)
    r = weighted_kappa(t, p)
    k = r.labels.size
    ti, pj, _ = kappa_greedy_cells(r, 100)
    codes = np.where(t == p, -1, t * k + p)
    for chunk in (1, 3, 7, 1000):
        rows = nth_in_groups(codes, ti * k + pj, chunk=chunk)
        for c in np.unique(ti * k + pj):
            mine = rows[(ti * k + pj) == c]
            assert mine.tolist() == np.flatnonzero(codes == c)[:mine.size].tolist()


def test_fix_first_top_limits_and_declared_range():
    t = [0, 1, 2, 3, 3, 2]
    p = [1, 1, 3, 0, 3, 2]
    f = kappa_fix_first(t, p, top=2, min_rating=0, max_rating=5)
    assert len(f) == 2 and f.n_fixable == 3
    q = np.array(p)
    for u in f.units:
        q[u] = t[u]
    assert f.score_after[-1] == pytest.approx(_sk(t, q, "quadratic", 0, 5), abs=1e-12)


def test_truth_of_one_class_gives_no_gains_with_the_reason():
    t = [2, 2, 2, 2]
    p = [2, 1, 0, 2]
    r = weighted_kappa(t, p)
    assert r.score == pytest.approx(0.0)
    f = kappa_fix_first(t, p, top=3)
    assert len(f) == 0 and "every truth is rating 2" in f.undefined_reason
    assert np.isnan(kappa_gain_map(r)).all()
    f = kappa_fix_first([1, 1], [1, 1], top=3)
    assert len(f) == 0 and f.undefined_reason


@pytest.mark.parametrize("bad", [0, -1, 2.5, "3", True, None])
def test_top_must_be_a_positive_integer(bad):
    with pytest.raises(InputError, match="at least 1"):
        check_top(bad)


def test_long_greedy_lists_equal_a_one_step_at_a_time_loop_on_the_counts():
    from kmetric_gui.metrics.kernels import kappa_from_confusion
    rng = np.random.default_rng(12)
    for k, n in ((4, 2000), (6, 1000)):
        t = rng.integers(0, k, n)
        p = np.clip(t + rng.integers(-2, 3, n), 0, k - 1)
        r = weighted_kappa(t, p)
        ti, pj, after = kappa_greedy_cells(r, 400)
        o = r.observed.copy()
        loop = []
        for _ in range(400):
            best, cell = -np.inf, None
            for i in range(k):
                for j in range(k):
                    if i != j and o[i, j] > 0:
                        o2 = o.copy()
                        o2[i, j] -= 1
                        o2[i, i] += 1
                        s = kappa_from_confusion(o2).score
                        if s > best + 1e-13:
                            best, cell = s, (i, j)
            o[cell] -= 1
            o[cell[0], cell[0]] += 1
            loop.append(best)
        assert np.allclose(after, loop, atol=1e-12, rtol=0)
