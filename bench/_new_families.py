"""Issue 35's families against their references at 1M rows (bench/families.py calls this;
``--only`` words pick cases as there). References: scipy / scikit-learn where they have
the metric; else the competition's own formula as its public code writes it (numpy or
pandas), or a plain Python loop of the definition (SMAPE, Levenshtein), timed on a slice
and multiplied up where it would take minutes ("extrapolated")."""
import math
import warnings

import numpy as np
import pandas as pd
from scipy import stats
from sklearn import metrics as skm

from kmetric_gui.metrics.kernels.angular import angular_distance
from kmetric_gui.metrics.kernels.correlation import correlation
from kmetric_gui.metrics.kernels.divergence import kl_divergence
from kmetric_gui.metrics.kernels.laplace import laplace_log_likelihood
from kmetric_gui.metrics.kernels.mcc import mcc
from kmetric_gui.metrics.kernels.ndcg import ndcg
from kmetric_gui.metrics.kernels.percentage import percentage_error
from kmetric_gui.metrics.kernels.ranks import stable_order
from kmetric_gui.metrics.kernels.text import jaccard_words, levenshtein


def _smape_loop(a, f):
    total = 0.0
    for x, y in zip(a, f):
        den = (abs(x) + abs(y)) / 2
        total += 0.0 if den == 0 else abs(y - x) / den
    return 100 * total / len(a)


def _edit_loop(pairs):
    out = []
    for a, b in pairs:
        prev = list(range(len(b) + 1))
        for i, ca in enumerate(a, 1):
            cur = [i]
            for j, cb in enumerate(b, 1):
                cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
            prev = cur
        out.append(prev[-1])
    return sum(out) / len(out)


def _tweet(truth, pred):
    def jac(s1, s2):
        a, b = set(s1.lower().split()), set(s2.lower().split())
        c = a.intersection(b)
        return float(len(c)) / (len(a) + len(b) - len(c))
    return float(np.mean([jac(a, b) for a, b in zip(truth, pred)]))


def _hms(sol, sub, eps=1e-15):
    """Kaggle's HMS KL divergence steps (pandas, column by column)."""
    sol, sub = sol.copy(), sub.copy()
    for col in sol.columns:
        sub[col] = np.clip(sub[col], eps, 1 - eps)
        nz = sol[col] != 0
        sol.loc[nz, col] = sol.loc[nz, col] * np.log(sol.loc[nz, col] / sub.loc[nz, col])
        sol.loc[~nz, col] = 0
    return np.average(sol.sum(axis=1))


def _osic(t, p, c):
    sd = np.maximum(c, 70)
    delta = np.minimum(np.abs(t - p), 1000)
    return np.mean(-np.sqrt(2) * delta / sd - np.log(np.sqrt(2) * sd))


def _icecube(az_true, zen_true, az_pred, zen_pred):
    sa1, ca1, sz1, cz1 = np.sin(az_true), np.cos(az_true), np.sin(zen_true), np.cos(zen_true)
    sa2, ca2, sz2, cz2 = np.sin(az_pred), np.cos(az_pred), np.sin(zen_pred), np.cos(zen_pred)
    prod = np.clip(sz1 * sz2 * (ca1 * ca2 + sa1 * sa2) + cz1 * cz2, -1, 1)
    return np.average(np.abs(np.arccos(prod)))


def add_rows(rows, n, r, want, timed):
    """Append (case, wall, cpu, reference, ref wall, ref cpu, ratio, target) rows."""
    rng = np.random.default_rng(35)

    def row(case, ours, ref, ref_name, ref_repeat=None, scale=1.0, target=">= 5x", rtol=1e-9):
        if not want(case):
            return
        w, c, a = timed(ours, r)
        rw, rc, b = timed(ref, ref_repeat or r)
        if scale == 1.0:
            assert math.isclose(float(a), float(b), rel_tol=rtol, abs_tol=1e-12), (case, a, b)
        rows.append((case, w, c, ref_name + (", extrapolated" if scale != 1.0 else ""),
                     rw * scale, rc * scale, f"{rc * scale / c:.1f}x", target))

    t = rng.normal(size=n)
    p = t + rng.normal(size=n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for kind, fn in (("pearson", stats.pearsonr), ("spearman", stats.spearmanr),
                         ("kendall", stats.kendalltau)):
            row(f"{kind}, {n:,} rows", lambda k=kind: correlation(t, p, k).score,
                lambda f=fn: f(t, p)[0], f"scipy.stats.{fn.__name__}")
        if want("kendall"):
            w, c, _ = timed(lambda: (stable_order(t), stable_order(p)), r)
            rows.append(("floor: sorting both columns (two stable sorts)", w, c, "", 0, 0, "",
                         "(any exact tau sorts both)"))
    ct = rng.integers(0, 5, n)
    cp = np.where(rng.random(n) < 0.6, ct, rng.integers(0, 5, n))
    row(f"mcc, {n:,} rows, 5 classes", lambda: mcc(ct, cp).score,
        lambda: skm.matthews_corrcoef(ct, cp), "sklearn matthews_corrcoef")
    a = np.round(np.where(rng.random(n) < 0.05, 0, rng.gamma(2, 20, n)))
    f = np.round(np.maximum(a * np.exp(rng.normal(0, 0.3, n)), 0), 1)
    k = n // 20
    row(f"smape, {n:,} rows", lambda: percentage_error(a, f, "smape").score,
        lambda: _smape_loop(a[:k].tolist(), f[:k].tolist()), "Python loop of the definition",
        scale=n / k)
    if want("smape"):
        w, c, _ = timed(lambda: percentage_error(a, f, "smape").score, r)
        rw, rc, _ = timed(lambda: 100 * np.nanmean(2 * np.abs(f - a) / (np.abs(a) + np.abs(f))), r)
        rows.append((f"smape, {n:,} rows", w, c, "numpy one-liner (nan rows dropped)", rw, rc,
                     f"{rc / c:.1f}x", ""))
    a1 = a + 1.0
    row(f"mape, {n:,} rows", lambda: percentage_error(a1, f, "mape").score,
        lambda: skm.mean_absolute_percentage_error(a1, f), "sklearn mean_absolute_percentage_error")
    if want("mape"):
        w, c, _ = timed(lambda: (np.add.reduce(a1), np.add.reduce(f)), r)
        rows.append(("floor: one pass reading both arrays", w, c, "", 0, 0, "",
                     "(any exact MAPE reads every value)"))
    items = [f"i{j}" for j in range(20)]
    codes = np.argsort(rng.random((n, 20)), axis=1)[:, :5]          # five distinct items
    pred = [" ".join(items[j] for j in rc) for rc in codes.tolist()]
    truth_code = rng.integers(0, 20, n)
    act = [items[j] for j in truth_code]
    if want("ndcg"):
        rel = np.zeros((n, 20))
        rel[np.arange(n), truth_code] = 1.0
        sc = np.zeros((n, 20))
        for pos in range(5):
            sc[np.arange(n), codes[:, pos]] = 5.0 - pos
        pl, al = [x.split() for x in pred], [[x] for x in act]      # as the layout reads them
        row(f"ndcg@5, {n:,} queries, 20 items", lambda: ndcg(al, pl, k=5).score,
            lambda: skm.ndcg_score(rel, sc, k=5, ignore_ties=True),
            "sklearn ndcg_score on ready dense arrays")

        def dense_then_sklearn():           # what the item lists need before sklearn can score
            index = {it: j for j, it in enumerate(items)}
            r2, s2 = np.zeros((n, 20)), np.zeros((n, 20))
            for q, (a_, p_) in enumerate(zip(al, pl)):
                for it in a_:
                    r2[q, index[it]] = 1.0
                for pos, it in enumerate(p_[:5]):
                    s2[q, index[it]] = 5.0 - pos
            return skm.ndcg_score(r2, s2, k=5, ignore_ties=True)
        row(f"ndcg@5, {n:,} queries, 20 items", lambda: ndcg(al, pl, k=5).score,
            dense_then_sklearn, "the lists made dense, then sklearn ndcg_score", ref_repeat=1)
    letters = np.array(list("abcdefghij "))
    truth = ["".join(letters[rng.integers(0, 11, rng.integers(3, 15))]) for _ in range(n)]
    typo = [s[:-1] + "x" if s and rng.random() < 0.5 else s + "y" for s in truth]
    m = n // 50
    row(f"levenshtein, {n:,} rows of 3-14 characters", lambda: levenshtein(truth, typo).score,
        lambda: _edit_loop(list(zip(truth[:m], typo[:m]))), "Python table loop", scale=n / m)
    words = np.array("the a sad happy good day love hate so really work home fun".split())
    tweets = [" ".join(words[rng.integers(0, 13, rng.integers(1, 9))]) for _ in range(n)]
    guess = [s if rng.random() < 0.5 else s.split(" ", 1)[-1].upper() for s in tweets]
    row(f"jaccard_words, {n:,} rows (half predicted exactly)", lambda: jaccard_words(tweets, guess).score,
        lambda: _tweet(tweets, guess), "the competition's jaccard() per row")
    votes = rng.multinomial(10, [0.3, 0.2, 0.2, 0.1, 0.1, 0.1], n)
    tv = votes / votes.sum(axis=1, keepdims=True)
    pv = rng.dirichlet(np.ones(6), n)
    if want("kl_divergence"):
        cols = [f"c{j}" for j in range(6)]
        st, sp_ = pd.DataFrame(tv, columns=cols), pd.DataFrame(pv, columns=cols)
        row(f"kl_divergence, {n:,} rows x 6", lambda: kl_divergence(tv, pv).score,
            lambda: _hms(st, sp_), "HMS metric's pandas steps")
    ft = rng.normal(2700, 600, n)
    fp = ft + rng.normal(0, 200, n)
    fc = rng.uniform(0, 500, n)
    row(f"laplace_ll, {n:,} rows", lambda: laplace_log_likelihood(ft, fp, fc).score,
        lambda: _osic(ft, fp, fc), "OSIC's numpy formula", target=">= 5x (see note)")
    if want("laplace"):
        w, c, _ = timed(lambda: np.log(fc + 70.0), r)
        rows.append(("floor: one logarithm a row (np.log of the sigmas)", w, c, "", 0, 0, "",
                     "(both take log(sqrt(2) sigma) a row)"))
    az, zen = rng.uniform(0, 2 * np.pi, n), np.arccos(rng.uniform(-1, 1, n))
    pa, pz = rng.uniform(0, 2 * np.pi, n), np.arccos(rng.uniform(-1, 1, n))
    tz, pzz = np.column_stack([az, zen]), np.column_stack([pa, pz])
    row(f"angular, {n:,} rows", lambda: angular_distance(tz, pzz).score,
        lambda: _icecube(az, zen, pa, pz), "IceCube host's numpy formula", target=">= 5x (see note)")
    if want("angular"):
        w, c, _ = timed(lambda: (np.cos(az - pa), np.cos(zen), np.cos(pz), np.arccos(np.cos(zen))), r)
        rows.append(("floor: four trigonometric functions a row", w, c, "", 0, 0, "",
                     "(cos of the azimuth gap, two zenith cosines, arccos)"))
