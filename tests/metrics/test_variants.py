"""Variants of the built-ins (issue 35, item 2), each on a pair laid out as a real
competition's files and held to scikit-learn or a plain loop of the competition's
definition; the statistics of a variant held to plain loops over the same draws."""
import json

import numpy as np
import pandas as pd
import pytest
from filemaker import csv, write
from sklearn import metrics as skm
from sklearn.preprocessing import MultiLabelBinarizer

from kmetric_gui.analysis.fixes import top_fixes
from kmetric_gui.analysis.scoring import Options, load, score_files, score_prepared
from kmetric_gui.cli import main
from kmetric_gui.core.resample import bootstrap, resample_indices


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def pair(tmp_path, sol_cols, sub_cols, name="x"):
    """Two CSVs from {column: values} dicts (ids in the first column)."""
    s = write(tmp_path / f"{name}_sol.csv", pd.DataFrame(sol_cols).to_csv(index=False))
    p = write(tmp_path / f"{name}_sub.csv", pd.DataFrame(sub_cols).to_csv(index=False))
    return str(s), str(p)


def binary_data(n=120, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(int)
    p = np.round(np.clip(0.35 * y + rng.random(n) * 0.6 + 0.02, 0.01, 0.99), 4)
    w = np.round(rng.uniform(0.2, 3.0, n), 3)
    ids = [f"r{i:04d}" for i in range(n)]
    usage = np.where(np.arange(n) % 3 == 0, "Private", "Public")
    return ids, y, p, w, usage


# -- weights ---------------------------------------------------------------------------

def test_weighted_log_loss_and_auc_as_scikit_learn(tmp_path, capsys):
    ids, y, p, w, usage = binary_data()
    sol, sub = pair(tmp_path, {"id": ids, "target": y, "weight": w, "Usage": usage},
                    {"id": ids, "target": p})
    for metric, ref in (("logloss", skm.log_loss), ("auc", skm.roc_auc_score)):
        code, out, err = run(["score", sol, sub, "--metric", metric, "--weights-column",
                              "weight", "--json"], capsys)
        assert code == 0, err
        d = json.loads(out)
        assert d["score"] == pytest.approx(ref(y, p, sample_weight=w), rel=1e-12)
        pub = usage == "Public"
        assert d["public"] == pytest.approx(ref(y[pub], p[pub], sample_weight=w[pub]), rel=1e-12)
        assert d["variant"]["weights_column"] == "weight"


def test_weighted_multilabel_auc(tmp_path):
    rng = np.random.default_rng(3)
    n, c = 90, 3
    y = (rng.random((n, c)) < 0.4).astype(int)
    s = np.round(rng.random((n, c)) * 0.7 + 0.3 * y, 3)
    w = np.round(rng.uniform(0, 2, n), 2)
    cols = ["a", "b", "c"]
    ids = [f"q{i}" for i in range(n)]
    sol, sub = pair(tmp_path, {"id": ids, **{k: y[:, j] for j, k in enumerate(cols)}, "w": w},
                    {"id": ids, **{k: s[:, j] for j, k in enumerate(cols)}})
    rep = score_files(sol, sub, Options(metric="auc", weights_column="w"))
    want = np.mean([skm.roc_auc_score(y[:, j], s[:, j], sample_weight=w) for j in range(c)])
    assert rep.score == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("metric,kw,ref", [
    ("accuracy", {}, lambda t, p, w: skm.accuracy_score(t, p, sample_weight=w)),
    ("f1", {"average": "macro"}, lambda t, p, w: skm.f1_score(t, p, average="macro",
                                                              sample_weight=w)),
    ("f1", {"average": "binary"}, lambda t, p, w: skm.f1_score(t, p, sample_weight=w)),
])
def test_weighted_labels(tmp_path, metric, kw, ref):
    rng = np.random.default_rng(4)
    n = 100
    t = rng.integers(0, 2 if kw.get("average") == "binary" else 4, n)
    p = np.where(rng.random(n) < 0.6, t, rng.integers(0, 2 if kw.get("average") == "binary"
                                                      else 4, n))
    w = np.round(rng.uniform(0.1, 4, n), 2)
    ids = [f"r{i}" for i in range(n)]
    sol, sub = pair(tmp_path, {"id": ids, "y": t, "w": w}, {"id": ids, "y": p})
    rep = score_files(sol, sub, Options(metric=metric, weights_column="w", **kw))
    assert rep.score == pytest.approx(ref(t, p, w), rel=1e-12)


@pytest.mark.parametrize("metric,ref", [
    ("rmse", lambda t, p, w: skm.root_mean_squared_error(t, p, sample_weight=w)),
    ("mae", lambda t, p, w: skm.mean_absolute_error(t, p, sample_weight=w)),
    ("rmsle", lambda t, p, w: skm.root_mean_squared_log_error(t, p, sample_weight=w)),
    ("mcrmse", lambda t, p, w: skm.root_mean_squared_error(t, p, sample_weight=w)),
])
def test_weighted_regression(tmp_path, metric, ref):
    rng = np.random.default_rng(5)
    n = 80
    c = 2 if metric == "mcrmse" else 1
    t = np.round(rng.uniform(0, 50, (n, c)), 2)
    p = np.round(t * rng.uniform(0.7, 1.3, (n, c)), 2)
    w = np.round(rng.uniform(0, 3, n), 2)
    ids = [f"r{i}" for i in range(n)]
    names = ["a", "b"][:c]
    sol, sub = pair(tmp_path, {"id": ids, **{k: t[:, j] for j, k in enumerate(names)}, "w": w},
                    {"id": ids, **{k: p[:, j] for j, k in enumerate(names)}})
    rep = score_files(sol, sub, Options(metric=metric, weights_column="w"))
    tt, pp = (t, p) if c > 1 else (t[:, 0], p[:, 0])
    assert rep.score == pytest.approx(ref(tt, pp, w), rel=1e-12)


def test_weighted_statistics_are_exact_resamples(tmp_path):
    """The bootstrap of a weighted score: each replicate equals the weighted metric of
    the rows drawn (scikit-learn on those rows), for the additive and the rank kind."""
    ids, y, p, w, _ = binary_data(60, seed=8)
    sol, sub = pair(tmp_path, {"id": ids, "target": y, "w": w}, {"id": ids, "target": p})
    rep = score_files(sol, sub, Options(metric="logloss", weights_column="w"))
    reps = bootstrap(rep.definition.units(rep.result), 20, seed=3)
    idx = resample_indices(60, 20, seed=3)
    want = [skm.log_loss(y[i], p[i], sample_weight=w[i], labels=[0, 1]) for i in idx]
    np.testing.assert_allclose(reps, want, rtol=1e-10)
    from kmetric_gui.metrics.kernels.ranking_boot import auc_draws
    rep = score_files(sol, sub, Options(metric="auc", weights_column="w"))
    reps = bootstrap(rep.definition.units(rep.result), 20, seed=3)
    want = [skm.roc_auc_score(y[i], p[i], sample_weight=w[i]) for i in auc_draws(60, 20, 3)]
    np.testing.assert_allclose(reps, want, rtol=1e-10)
    jack, _ = rep.definition.units(rep.result).jackknife()
    for k in (0, 7, 31):
        keep = np.arange(60) != k
        assert jack[k] == pytest.approx(skm.roc_auc_score(y[keep], p[keep],
                                                          sample_weight=w[keep]), rel=1e-10)


def test_weighted_fix_first_is_what_rescoring_gives(tmp_path):
    """Fix first under weights: score_after equals the weighted metric of the file with
    those rows fixed (AUC: moved to their ideal rank; log loss: the truth given 1)."""
    ids, y, p, w, _ = binary_data(70, seed=11)
    sol, sub = pair(tmp_path, {"id": ids, "target": y, "w": w}, {"id": ids, "target": p})
    for metric in ("auc", "logloss"):
        o = Options(metric=metric, weights_column="w")
        rep = score_files(sol, sub, o)
        tf = top_fixes(rep, 4)
        prep = rep.prepared
        for k in range(len(tf.fixes)):
            rows = tf.rows[:k + 1]
            fixed = rep.definition.fix_rows(prep, rows)[1]
            after = score_prepared(type(prep)(**{**prep.__dict__, "pred": fixed}), o).score
            assert tf.fixes.score_after[k] == pytest.approx(after, abs=1e-9), (metric, k)


# -- class weights, balance -------------------------------------------------------------

def test_balanced_log_loss_as_icr(tmp_path, capsys):
    """ICR's balanced log loss: each class's mean -log p(true class), averaged."""
    ids, y, p, _, _ = binary_data(100, seed=12)
    sol, sub = pair(tmp_path, {"Id": ids, "Class": y}, {"Id": ids, "Class": p})
    code, out, err = run(["score", sol, sub, "--metric", "logloss", "--balanced", "--json",
                          "--ci", "0.9", "--bootstrap", "100"], capsys)
    assert code == 0, err
    q = np.clip(p, 1e-15, 1 - 1e-15)
    want = (-np.mean(np.log(1 - q[y == 0])) - np.mean(np.log(q[y == 1]))) / 2
    assert json.loads(out)["score"] == pytest.approx(want, rel=1e-12)


def test_class_weighted_log_loss_as_plasticc(tmp_path):
    """PLAsTiCC: -(sum_c w_c sum_i y_ic/N_c ln p_ic) / sum_c w_c, rows renormalised."""
    rng = np.random.default_rng(13)
    n, k = 150, 4
    t = rng.integers(0, k, n)
    p = rng.dirichlet(np.ones(k) * 2, n)
    wc = np.array([1.0, 2.0, 1.0, 0.5])
    cls = [f"class_{j}" for j in range(k)]
    ids = [f"o{i}" for i in range(n)]
    onehot = np.eye(k, dtype=int)[t]
    sol, sub = pair(tmp_path, {"object_id": ids, **{c: onehot[:, j] for j, c in enumerate(cls)}},
                    {"object_id": ids, **{c: p[:, j] for j, c in enumerate(cls)}})
    rep = score_files(sol, sub, Options(metric="logloss", class_weights=tuple(wc)))
    q = pd.read_csv(sub)[cls].to_numpy()
    q = np.clip(q, 1e-15, 1 - 1e-15)
    q /= q.sum(axis=1, keepdims=True)
    per = [np.mean(-np.log(q[t == j, j])) for j in range(k)]
    assert rep.score == pytest.approx(np.dot(wc, per) / wc.sum(), rel=1e-12)


# -- mask, rounding --------------------------------------------------------------------

def test_mask_column_scores_only_its_rows(tmp_path, capsys):
    rng = np.random.default_rng(14)
    n = 60
    t = np.round(rng.normal(size=n), 3)
    p = np.round(t + rng.normal(size=n) * 0.5, 3)
    m = np.where(rng.random(n) < 0.6, "True", "False")
    ids = [f"r{i}" for i in range(n)]
    sol, sub = pair(tmp_path, {"id": ids, "y": t, "scored": m}, {"id": ids, "y": p})
    code, out, err = run(["score", sol, sub, "--metric", "mae", "--mask-column", "scored",
                          "--json", "--ci", "0.9", "--bootstrap", "100", "--top-fixes", "2"],
                         capsys)
    assert code == 0, err
    d = json.loads(out)
    keep = m == "True"
    assert d["score"] == pytest.approx(skm.mean_absolute_error(t[keep], p[keep]), rel=1e-12)
    assert d["n_rows"] == int(keep.sum())
    assert any("left out by the mask column 'scored'" in x for x in d["notes"])


def kaggle_log_loss(t, p, eps=1e-15):
    """Binary log loss, the true class's probability clipped to [eps, 1 - eps] (scikit-learn
    clips at the float's own epsilon, so whole-number probabilities differ)."""
    q = np.clip(np.where(t == 1, p, 1 - p), eps, 1 - eps)
    return -np.mean(np.log(q))


@pytest.mark.parametrize("metric,ref", [("rmse", skm.root_mean_squared_error),
                                        ("logloss", kaggle_log_loss)])
def test_round_before_scoring(tmp_path, metric, ref):
    ids, y, p, _, _ = binary_data(80, seed=15)
    t = y if metric == "logloss" else np.round(p * 10 + y, 3)
    q = np.round(p * 0.9 + 0.05, 5) if metric == "logloss" else np.round(p * 10 + 0.2, 5)
    sol, sub = pair(tmp_path, {"id": ids, "y": t}, {"id": ids, "y": q})
    for digits in (0, 2):
        rep = score_files(sol, sub, Options(metric=metric, round=digits))
        assert rep.score == pytest.approx(ref(t, np.round(q, digits)), rel=1e-12)
    # the file keeps its values: a saved submission is the one read
    prep = load(sol, sub, Options(metric=metric, round=1))
    np.testing.assert_array_equal(prep.pred, q)


# -- a metric per group, then the mean ----------------------------------------------------

def champs(t, p, g):
    """CHAMPS scalar coupling: mean over types of log(max(MAE of the type, 1e-9))."""
    return np.mean([np.log(max(np.mean(np.abs(t[g == k] - p[g == k])), 1e-9))
                    for k in np.unique(g)])


def test_log_mae_by_type_as_champs(tmp_path, capsys):
    rng = np.random.default_rng(16)
    n = 200
    types = np.array(["1JHC", "2JHH", "3JHN", "1JHN"])[rng.integers(0, 4, n)]
    t = np.round(rng.normal(size=n) * 10, 3)
    p = np.round(t + rng.normal(size=n) * np.where(types == "1JHC", 3, 0.5), 3)
    ids = list(range(4_658_147, 4_658_147 + n))
    sol, sub = pair(tmp_path, {"id": ids, "type": types, "scalar_coupling_constant": t},
                    {"id": ids, "scalar_coupling_constant": p})
    code, out, err = run(["score", sol, sub, "--metric", "mae", "--group-by", "type",
                          "--group-transform", "log", "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["score"] == pytest.approx(champs(t, p, types), rel=1e-12)
    assert d["group_scores"]["1JHC"] == pytest.approx(
        np.mean(np.abs(t - p)[types == "1JHC"]), rel=1e-12)
    # The unit stays the row: every bootstrap replicate is CHAMPS's score of its rows.
    rep = score_files(sol, sub, Options(metric="mae", group_by="type", group_transform="log"))
    reps = bootstrap(rep.definition.units(rep.result), 15, seed=2)
    idx = resample_indices(n, 15, seed=2)
    np.testing.assert_allclose(reps, [champs(t[i], p[i], types[i]) for i in idx], rtol=1e-10)
    tf = top_fixes(rep, 3)
    fixed = rep.prepared.pred.copy()
    fixed[tf.rows] = rep.prepared.truth[tf.rows]
    assert tf.fixes.score_after[-1] == pytest.approx(champs(t, fixed, types), rel=1e-10)


def test_group_mean_of_auc_says_what_is_not_available(tmp_path, capsys):
    ids, y, p, _, _ = binary_data(90, seed=17)
    g = np.array(["a", "b", "c"])[np.arange(90) % 3]
    sol, sub = pair(tmp_path, {"id": ids, "target": y, "site": g}, {"id": ids, "target": p})
    code, out, err = run(["score", sol, sub, "--metric", "auc", "--group-by", "site", "--json"],
                         capsys)
    assert code == 0, err
    want = np.mean([skm.roc_auc_score(y[g == k], p[g == k]) for k in "abc"])
    assert json.loads(out)["score"] == pytest.approx(want, abs=1e-12)
    code, out, err = run(["score", sol, sub, "--metric", "auc", "--group-by", "site", "--ci",
                          "0.9"], capsys)
    assert code == 2 and "per-group mean of ROC AUC has no per-row statistics" in err


# -- multi-label F1, error rate --------------------------------------------------------------

@pytest.mark.parametrize("average", ["micro", "macro"])
def test_multilabel_f1_on_space_separated_labels(tmp_path, average):
    """iMet-style attribute ids, several a row, space-separated in both files."""
    rng = np.random.default_rng(18)
    labels = [str(k) for k in range(12)]
    n = 80
    t = [" ".join(x for x in labels if rng.random() < 0.2) for _ in range(n)]
    p = [" ".join(x for x in labels if rng.random() < 0.25) for _ in range(n)]
    ids = [f"{i:08x}" for i in range(n)]
    sol, sub = pair(tmp_path, {"id": ids, "attribute_ids": t}, {"id": ids, "attribute_ids": p})
    rep = score_files(sol, sub, Options(metric="f1", multi_label=True, average=average))
    ts, ps = [x.split() for x in t], [x.split() for x in p]
    mlb = MultiLabelBinarizer().fit(ts + ps)
    want = skm.f1_score(mlb.transform(ts), mlb.transform(ps), average=average, zero_division=0)
    assert rep.score == pytest.approx(want, rel=1e-12)
    reps = bootstrap(rep.definition.units(rep.result), 10, seed=1)
    idx = resample_indices(n, 10, seed=1)
    T, P = mlb.transform(ts), mlb.transform(ps)
    np.testing.assert_allclose(reps, [skm.f1_score(T[i], P[i], average=average, zero_division=0)
                                      for i in idx], rtol=1e-10)


def test_error_rate_is_one_minus_accuracy_lower_is_better(tmp_path, capsys):
    rng = np.random.default_rng(19)
    n = 90
    t = rng.choice(["cat", "dog", "fox"], n)
    p = np.where(rng.random(n) < 0.7, t, rng.choice(["cat", "dog", "fox"], n))
    ids = [f"r{i}" for i in range(n)]
    sol, sub = pair(tmp_path, {"id": ids, "label": t}, {"id": ids, "label": p})
    code, out, err = run(["score", sol, sub, "--metric", "error_rate", "--json", "--ci", "0.9",
                          "--bootstrap", "200"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["score"] == pytest.approx(1 - skm.accuracy_score(t, p), abs=1e-12)
    assert d["higher_is_better"] is False
    assert d["ci"]["low"] <= d["score"] <= d["ci"]["high"]


# -- bad input: one line each, naming file, column, row and id ---------------------------------

@pytest.mark.parametrize("values,expect", [
    (["1", "-2", "3", "0.5"], "column 'w' (--weights-column): 1 negative weight(s): row 2 (id 'b'): -2"),
    (["1", "", "3", "x"], "column 'w': 2 value(s) are not numbers: row 2 (id 'b')"),
])
def test_bad_weights_one_line(tmp_path, capsys, values, expect):
    sol = write(tmp_path / "s.csv", csv([["id", "y", "w"]] + [[i, k % 2, v] for k, (i, v) in
                                                               enumerate(zip("abcd", values))]))
    sub = write(tmp_path / "p.csv", csv([["id", "y"]] + [[i, 0.5] for i in "abcd"]))
    code, out, err = run(["score", str(sol), str(sub), "--metric", "logloss",
                          "--weights-column", "w"], capsys)
    assert code == 2 and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "solution s.csv" in lines[0] and expect in lines[0], err


def test_a_mask_selecting_no_row_is_one_line(tmp_path, capsys):
    sol = write(tmp_path / "s.csv", csv([["id", "y", "m"]] + [[i, k, 0] for k, i in enumerate("abc")]))
    sub = write(tmp_path / "p.csv", csv([["id", "y"]] + [[i, 1.0] for i in "abc"]))
    code, out, err = run(["score", str(sol), str(sub), "--metric", "rmse", "--mask-column", "m"],
                         capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "column 'm' (--mask-column): no row holds 1 or true" in lines[0]
    assert "row 1 (id 'a')" in lines[0]


def test_a_missing_variant_column_is_named(tmp_path, capsys):
    ids, y, p, _, _ = binary_data(10)
    sol, sub = pair(tmp_path, {"id": ids, "y": y}, {"id": ids, "y": p})
    code, out, err = run(["score", sol, sub, "--metric", "auc", "--weights-column", "wt"], capsys)
    assert code == 2 and "no column 'wt' (--weights-column)" in err


# -- every analysis keeps working with a variant on ------------------------------------------

VARIANTS = [("rmse", {"weights_column": "w"}), ("mae", {"group_by": "g"}),
            ("logloss", {"weights_column": "w", "round": 2}), ("auc", {"weights_column": "w"}),
            ("accuracy", {"weights_column": "w"}), ("f1", {"group_by": "g"}),
            ("logloss", {"balanced": True}), ("rmse", {"mask_column": "m"})]


@pytest.mark.parametrize("metric,kw", VARIANTS)
def test_compare_blends_and_edits_with_a_variant(tmp_path, metric, kw):
    from kmetric_gui.analysis.comparison import CompareOptions, compare_files
    rng = np.random.default_rng(20)
    n = 60
    ids = [f"r{i}" for i in range(n)]
    labels = metric in ("accuracy", "f1")
    y = rng.integers(0, 2, n)
    t = y if metric in ("logloss", "auc") or labels else np.round(rng.normal(size=n) * 5, 3)
    subs = []
    for k, scale in enumerate((0.3, 0.8)):
        if metric in ("logloss", "auc"):
            v = np.round(np.clip(0.5 * y + rng.random(n) * 0.5 * scale + 0.2, 0.01, 0.99), 4)
        elif labels:
            v = np.where(rng.random(n) < 1 - scale / 2, y, 1 - y)
        else:
            v = np.round(t + rng.normal(size=n) * scale * 5, 3)
        subs.append(v)
    cols = {"id": ids, "y": t, "w": np.round(rng.uniform(0.1, 2, n), 2),
            "g": np.array(["u", "v", "x"])[np.arange(n) % 3],
            "m": (np.arange(n) % 4 != 0).astype(int),
            "Usage": np.where(np.arange(n) % 2 == 0, "Public", "Private")}
    sol = write(tmp_path / "s.csv", pd.DataFrame(cols).to_csv(index=False))
    paths = []
    for k, v in enumerate(subs):
        paths.append(str(write(tmp_path / f"p{k}.csv",
                               pd.DataFrame({"id": ids, "y": v}).to_csv(index=False))))
    o = Options(metric=metric, **kw)
    cmp = compare_files(str(sol), paths, o, CompareOptions(replicates=100, permutations=30,
                                                           splits=30, seed=1, alphas=5))
    a, b = (s.report for s in cmp.submissions)
    pr = cmp.pairs[0]
    assert pr.stats.delta == pytest.approx(b.score - a.score, abs=1e-12)
    if pr.blend is not None:        # the end points are the two submissions (alpha 1: A)
        assert pr.blend.scores[-1] == pytest.approx(a.score, abs=1e-9)
        assert pr.blend.scores[0] == pytest.approx(b.score, abs=1e-9)
    # an edit (a prediction changed) scores as the edited file does
    prep = a.prepared
    pred = np.array(prep.pred, copy=True)
    pred[0] = pred[1]
    edited = type(prep)(**{**prep.__dict__, "pred": pred})
    mine = score_prepared(edited, o).score
    df = pd.DataFrame({"id": ids, "y": subs[0]})
    row = df.index[df.id == prep.ids[0]][0]
    df.loc[row, "y"] = df.loc[df.index[df.id == prep.ids[1]][0], "y"]
    again = score_files(str(sol), str(write(tmp_path / "e.csv", df.to_csv(index=False))), o)
    assert mine == pytest.approx(again.score, abs=1e-12)
