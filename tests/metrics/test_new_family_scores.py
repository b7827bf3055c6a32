"""Issue 35's families scored from files equal scipy, scikit-learn or the competition's
public formula (written here again from its definition) on random and edge data: ties,
constant columns (undefined, with the reason), empty texts, one row; bad input is one
line naming file, column, row and id."""
import csv as csvmod
import io
import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn import metrics as skm

from kmetric_gui.cli import main
from kmetric_gui.errors import InputError
from kmetric_gui.analysis.scoring import Options, score_files


def table(path, header, rows):
    buf = io.StringIO()
    w = csvmod.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


def pair(tmp_path, header, truth_rows, pred_rows, sub_header=None):
    """Solution and submission files; the submission's rows shuffled (ids join them)."""
    n = len(truth_rows)
    ids = [f"r{i:03d}" for i in range(n)]
    sol = table(tmp_path / "sol.csv", ["id"] + header, [[i] + list(r) for i, r in zip(ids, truth_rows)])
    order = np.random.default_rng(0).permutation(n)
    sub = table(tmp_path / "sub.csv", ["id"] + (sub_header or header),
                [[ids[k]] + list(pred_rows[k]) for k in order])
    return sol, sub


def score(tmp_path, metric, header, truth_rows, pred_rows, sub_header=None, **opts):
    sol, sub = pair(tmp_path, header, truth_rows, pred_rows, sub_header)
    return score_files(sol, sub, Options(metric=metric).with_(**opts))


def quiet(fn, *a):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*a)


SCIPY = {"pearson": stats.pearsonr, "spearman": stats.spearmanr, "kendall": stats.kendalltau}


@pytest.mark.parametrize("kind", list(SCIPY))
@pytest.mark.parametrize("ties,cols", [(False, 1), (True, 1), (True, 3)])
def test_correlations_equal_scipy(tmp_path, kind, ties, cols):
    rng = np.random.default_rng(len(kind) + cols)
    n = 60
    t = rng.normal(size=(n, cols))
    p = t + rng.normal(size=(n, cols))
    if ties:
        t, p = np.round(t * 2) / 2 + 0.25, np.round(p, 1)      # many ties; still "real"
    names = [f"c{j}" for j in range(cols)]
    rep = score(tmp_path, kind, names, t.tolist(), p.tolist())
    want = np.mean([quiet(SCIPY[kind], t[:, j], p[:, j])[0] for j in range(cols)])
    assert rep.score == pytest.approx(want, rel=1e-12)
    assert rep.to_json()["higher_is_better"] is True


@pytest.mark.parametrize("kind", list(SCIPY))
def test_a_constant_column_is_undefined_with_the_reason(tmp_path, kind, capsys):
    t = [[1.5, 0.5], [2.5, 1.5], [3.5, 2.5], [4.5, 0.5]]
    p = [[1.0, 7.0], [3.0, 7.0], [2.0, 7.0], [4.0, 7.0]]        # column 2 constant
    sol, sub = pair(tmp_path, ["a", "b"], t, p)
    assert main(["score", str(sol), str(sub), "--metric", kind, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["score"] is None and "one distinct value" in d["undefined_reason"]
    assert np.isnan(quiet(SCIPY[kind], np.array(t)[:, 1], np.array(p)[:, 1])[0])   # scipy agrees
    assert d["column_scores"]["b"] is None and d["column_scores"]["a"] is not None


@pytest.mark.parametrize("kind", list(SCIPY))
def test_one_row_has_no_correlation(tmp_path, kind):
    rep = score(tmp_path, kind, ["y"], [[1.5]], [[2.0]])
    assert math.isnan(rep.score) and "fewer than two rows" in rep.result.undefined_reason


@pytest.mark.parametrize("k,labels", [(2, ["0", "1"]), (4, ["ant", "bee", "cow", "dog"])])
def test_mcc_equals_scikit_learn(tmp_path, k, labels):
    rng = np.random.default_rng(k)
    y = rng.integers(0, k, 80)
    pred = np.where(rng.random(80) < 0.6, y, rng.integers(0, k, 80))
    rep = score(tmp_path, "mcc", ["label"], [[labels[v]] for v in y], [[labels[v]] for v in pred])
    names = np.array(labels)
    assert rep.score == pytest.approx(skm.matthews_corrcoef(names[y], names[pred]), rel=1e-12)


def test_mcc_one_predicted_class_is_zero_as_scikit_learn(tmp_path):
    t, p = ["a", "b", "a", "c"], ["a", "a", "a", "a"]
    rep = score(tmp_path, "mcc", ["y"], [[v] for v in t], [[v] for v in p])
    assert rep.score == skm.matthews_corrcoef(t, p) == 0.0
    assert "one class" in rep.to_json()["note"]


def smape_plain(a, f):
    total = 0.0
    for x, y in zip(a, f):
        den = (abs(x) + abs(y)) / 2
        total += 0.0 if den == 0 else abs(y - x) / den
    return 100 * total / len(a)


def test_smape_and_mape_equal_their_definitions(tmp_path):
    rng = np.random.default_rng(5)
    a = np.round(np.where(rng.random(70) < 0.2, 0.0, rng.gamma(2, 10, 70)), 1)
    f = np.round(np.maximum(a + rng.normal(0, 5, 70), 0), 1)
    f[:3] = 0.0
    a[:2] = 0.0                               # both zero: counts 0 in SMAPE
    rows_a, rows_f = [[v] for v in a.tolist()], [[v] for v in f.tolist()]
    rep = score(tmp_path, "smape", ["sales"], rows_a, rows_f)
    assert rep.score == pytest.approx(smape_plain(a, f), rel=1e-12)
    rep = score(tmp_path, "mape", ["sales"], rows_a, rows_f)
    assert rep.score == pytest.approx(skm.mean_absolute_percentage_error(a, f), rel=1e-12)
    assert rep.to_json()["truth_zero"] == int((a == 0).sum())


def test_ndcg_equals_scikit_learn(tmp_path):
    rng = np.random.default_rng(9)
    items = [f"i{j}" for j in range(12)]
    truth, pred, rel, sc = [], [], [], []
    for q in range(50):
        r = list(rng.choice(items, rng.integers(0 if q == 0 else 1, 4), replace=False))
        p = list(rng.choice(items, 5, replace=False))
        truth.append([" ".join(r)])
        pred.append([" ".join(p)])
        rel.append([1.0 if it in r else 0.0 for it in items])
        sc.append([5.0 - p.index(it) if it in p else 0.0 for it in items])
    for k in (3, 5):
        rep = score(tmp_path, "ndcg", ["items"], truth, pred, k=k)
        want = skm.ndcg_score(np.array(rel), np.array(sc), k=k, ignore_ties=True)
        assert rep.score == pytest.approx(want, rel=1e-12)


def test_ndcg_counts_a_repeated_prediction_once(tmp_path):
    rep = score(tmp_path, "ndcg", ["items"], [["a b"]], [["a a b"]], k=3)
    assert rep.score == pytest.approx((1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3)), rel=1e-12)


def edit(a, b):
    """Levenshtein by recursion on prefixes (memoised): another route than the table."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def d(i, j):
        if i == 0 or j == 0:
            return i + j
        return min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] != b[j - 1]))
    return d(len(a), len(b))


TEXTS = [("kitten", "sitting"), ("", "abc"), ("abc", ""), ("", ""), ("flaw", "lawn"),
         ("naïve café", "naive cafe"), ("same", "same"), ("a b, c", "a, b c"),
         ("intention", "execution"), ("x" * 45, "y" * 3)]


@pytest.mark.parametrize("normalize", ["none", "row", "total"])
def test_levenshtein_equals_the_definition(tmp_path, normalize):
    rep = score(tmp_path, "levenshtein", ["text"], [[a] for a, _ in TEXTS],
                [[b] for _, b in TEXTS], normalize=normalize)
    d = [edit(a, b) for a, b in TEXTS]
    if normalize == "none":
        want = np.mean(d)
    elif normalize == "row":
        want = np.mean([k / max(len(a), len(b)) if max(len(a), len(b)) else 0.0
                        for k, (a, b) in zip(d, TEXTS)])
    else:
        want = sum(d) / sum(len(a) for a, _ in TEXTS)
    assert rep.score == pytest.approx(want, rel=1e-12)


def test_levenshtein_batches_of_many_lengths():
    from kmetric_gui.metrics.kernels import text
    rng = np.random.default_rng(2)
    letters = list("abcde")
    a = ["".join(rng.choice(letters, rng.integers(0, 30))) for _ in range(300)]
    b = ["".join(rng.choice(letters, rng.integers(0, 30))) for _ in range(300)]
    old = text.CELLS
    text.CELLS = 500                      # batches of a few rows: every boundary crossed
    try:
        got = text.levenshtein_distances(a, b)
    finally:
        text.CELLS = old
    assert got.tolist() == [edit(x, y) for x, y in zip(a, b)]


def tweet_jaccard(str1, str2):
    a, b = set(str1.lower().split()), set(str2.lower().split())
    c = a.intersection(b)
    return float(len(c)) / (len(a) + len(b) - len(c))


def test_word_jaccard_equals_the_competition(tmp_path):
    truth = ["Sooo SAD", "good day", "i`d have responded", "so sad, really", "Love it"]
    pred = ["sad", "", "I`D HAVE responded, if", "so sad really", "love it love"]
    rep = score(tmp_path, "jaccard_words", ["selected_text"], [[t] for t in truth],
                [[p] for p in pred])
    assert rep.score == pytest.approx(np.mean([tweet_jaccard(t, p) for t, p in zip(truth, pred)]))


def kaggle_kl(solution, submission, epsilon=1e-15, micro_average=True):
    """The HMS metric's steps on pandas frames, written from its published definition."""
    solution, submission = solution.copy(), submission.copy()
    for col in solution.columns:
        solution[col] = solution[col].astype(float)
        submission[col] = np.clip(submission[col], epsilon, 1 - epsilon)
        nz = solution[col] != 0
        solution.loc[nz, col] = solution.loc[nz, col] * np.log(
            solution.loc[nz, col] / submission.loc[nz, col])
        solution.loc[~nz, col] = 0
    return np.average(solution.sum(axis=1)) if micro_average else np.average(solution.mean())


@pytest.mark.parametrize("micro", [True, False])
def test_kl_divergence_equals_the_hms_metric(tmp_path, micro):
    rng = np.random.default_rng(11)
    votes = rng.multinomial(7, [0.5, 0.3, 0.1, 0.1], 40)
    t = votes / votes.sum(axis=1, keepdims=True)
    p = rng.dirichlet(np.ones(4), 40)
    p[0] = [1.0, 0.0, 0.0, 0.0]                          # clipped at eps and 1 - eps
    names = ["seizure", "lpd", "gpd", "other"]
    rep = score(tmp_path, "kl_divergence", names, t.tolist(), p.tolist(), micro_average=micro)
    want = kaggle_kl(pd.DataFrame(t, columns=names), pd.DataFrame(p, columns=names),
                     micro_average=micro)
    assert rep.score == pytest.approx(want, rel=1e-12)


def test_kl_divergence_doctest_examples_of_the_hms_metric(tmp_path):
    rep = score(tmp_path, "kl_divergence", ["ham", "spam"], [[0, 1], [1, 0], [1, 0], [0, 1]],
                [[.1, .9], [.9, .1], [.8, .2], [.35, .65]])
    assert f"{rep.score:.6f}" == "0.216162"                # Kaggle's doctest: 0.216161...
    sol = [[0, 0.1, 0.9], [0.5, 0.5, 0], [0.5, 0.5, 0]]
    rep = score(tmp_path, "kl_divergence", ["ham", "spam", "other"], sol,
                [[0.2, 0.1, 0.7], [0.3, 0.5, 0.2], [0.5, 0.5, 0]])
    assert f"{rep.score:.6f}"[:7] == "0.16053"               # 0.160531...
    assert score(tmp_path, "kl_divergence", ["ham", "spam", "other"], sol, sol).score == 0.0


def osic(t, p, c, lo=70, hi=1000):
    sd = np.maximum(c, lo)
    delta = np.minimum(np.abs(t - p), hi)
    return float(np.mean(-np.sqrt(2) * delta / sd - np.log(np.sqrt(2) * sd)))


@pytest.mark.parametrize("opts", [{}, {"sigma_min": 100.0, "error_max": 300.0}])
def test_laplace_ll_equals_osic(tmp_path, opts):
    rng = np.random.default_rng(4)
    t = np.round(rng.normal(2500, 500, 50))
    p = np.round(t + rng.normal(0, 300, 50))
    c = np.round(rng.uniform(0, 600, 50), 1)
    rep = score(tmp_path, "laplace_ll", ["FVC"], [[v] for v in t], list(zip(p, c)),
                sub_header=["FVC", "Confidence"], **opts)
    assert rep.score == pytest.approx(osic(t, p, c, opts.get("sigma_min", 70),
                                           opts.get("error_max", 1000)), rel=1e-12)
    assert rep.to_json()["higher_is_better"] is True


def icecube(az_true, zen_true, az_pred, zen_pred):
    """The host's mean angular error, written again from its notebook's steps."""
    sa1, ca1, sz1, cz1 = np.sin(az_true), np.cos(az_true), np.sin(zen_true), np.cos(zen_true)
    sa2, ca2, sz2, cz2 = np.sin(az_pred), np.cos(az_pred), np.sin(zen_pred), np.cos(zen_pred)
    prod = np.clip(sz1 * sz2 * (ca1 * ca2 + sa1 * sa2) + cz1 * cz2, -1, 1)
    return np.average(np.abs(np.arccos(prod)))


def test_angular_equals_icecube_and_vectors(tmp_path):
    rng = np.random.default_rng(8)
    n = 60
    az, zen = rng.uniform(0, 2 * np.pi, n), np.arccos(rng.uniform(-1, 1, n))
    pa, pz = rng.uniform(0, 2 * np.pi, n), np.arccos(rng.uniform(-1, 1, n))
    pa[:3], pz[:3] = az[:3], zen[:3]                     # exact: angle 0
    pa[3], pz[3] = az[3] + np.pi, np.pi - zen[3]         # opposite: angle pi
    rep = score(tmp_path, "angular", ["azimuth", "zenith"], list(zip(az, zen)), list(zip(pa, pz)))
    assert rep.score == pytest.approx(icecube(az, zen, pa, pz), rel=1e-12)
    wild = pz.copy()
    wild[5], wild[6] = 4.0, -0.5                         # zeniths outside [0, pi]: sin < 0
    rep = score(tmp_path, "angular", ["azimuth", "zenith"], list(zip(az, zen)), list(zip(pa, wild)))
    assert rep.score == pytest.approx(icecube(az, zen, pa, wild), rel=1e-12)
    u = np.column_stack([np.sin(zen) * np.cos(az), np.sin(zen) * np.sin(az), np.cos(zen)]) * 3
    v = np.column_stack([np.sin(pz) * np.cos(pa), np.sin(pz) * np.sin(pa), np.cos(pz)]) * 0.5
    rep = score(tmp_path, "angular", ["dx", "dy", "dz"], u.tolist(), v.tolist())
    assert rep.score == pytest.approx(icecube(az, zen, pa, pz), rel=1e-9)


def problems(tmp_path, metric, header, truth_rows, pred_rows, sub_header=None):
    sol, sub = pair(tmp_path, header, truth_rows, pred_rows, sub_header)
    with pytest.raises(InputError) as e:
        score_files(sol, sub, Options(metric=metric))
    lines = e.value.problems
    assert all("\n" not in str(line) for line in lines)
    return " | ".join(str(line) for line in lines)


@pytest.mark.parametrize("metric", ["pearson", "spearman", "kendall", "smape", "mape"])
def test_nan_in_a_file_is_refused(tmp_path, metric):
    said = problems(tmp_path, metric, ["y"], [[1.5], [2.5], [3.5]], [["1"], ["nan"], ["3"]])
    assert "submission sub.csv: column 'y': 1 value(s) are not numbers: row" in said
    assert "(id 'r001')" in said


def test_bad_inputs_of_the_new_layouts_one_line_each(tmp_path):
    said = problems(tmp_path, "kl_divergence", ["a", "b"], [[0.5, 0.5], [0.2, 0.7]],
                    [[0.5, 0.5], [1.2, -0.2]])
    assert "solution sol.csv: 1 row(s) of vote fractions do not sum to 1: row 2 (id 'r001')" in said
    assert "submission sub.csv: column 'a': 1 value(s) outside [0, 1]" in said
    said = problems(tmp_path, "kl_divergence", ["a", "b"], [[3, 2], [1, 4]], [[0.5, 0.5], [0.2, 0.8]])
    assert "vote counts? divide each row by its total" in said
    said = problems(tmp_path, "angular", ["x", "y", "z"], [[1, 0, 0], [0, 0, 0]],
                    [[0, 1, 0], [0, 0, 1]])
    assert "solution sol.csv: columns x, y, z: 1 zero vector(s) (no direction): row 2 (id 'r001')" \
        in said
    said = problems(tmp_path, "jaccard_words", ["t"], [["good"], ["  "]], [["good"], ["x"]])
    assert "solution sol.csv: column 't': 1 text(s) without a word" in said and "'r001'" in said
    said = problems(tmp_path, "laplace_ll", ["FVC"], [[2000], [2100]], [[1990], [2050]])
    assert "expected one confidence column besides the target 'FVC'" in said
    said = problems(tmp_path, "ndcg", ["items"], [["a b"], ["c"]], [["a"], [""]])
    assert "1 empty prediction(s) (NDCG@K needs at least one item a query): row" in said


def test_kl_micro_average_is_on_unless_the_cli_says_no(tmp_path, capsys):
    # A true-by-default option's flag is its off switch (a store_true --micro-average read
    # false whenever it was absent: the CLI scored the macro average, micro / classes).
    rng = np.random.default_rng(2)
    t = rng.dirichlet(np.ones(3), 30)
    p = rng.dirichlet(np.ones(3), 30)
    names = ["a", "b", "c"]
    sol, sub = pair(tmp_path, names, t.tolist(), p.tolist())
    frames = pd.DataFrame(t, columns=names), pd.DataFrame(p, columns=names)
    for flags, micro in (([], True), (["--no-micro-average"], False)):
        assert main(["score", str(sol), str(sub), "--metric", "kl_divergence", "--json"] + flags) == 0
        d = json.loads(capsys.readouterr().out)
        assert d["score"] == pytest.approx(kaggle_kl(*frames, micro_average=micro), rel=1e-12)
        assert d["options"]["micro_average"] is micro
