"""The family metric modules end to end: files in, scores equal to scikit-learn / plain
loops, every bad input named (file, column, row, id), statistics and fixes run."""
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from filemaker import csv, write
from sklearn import metrics as skm

from kmetric_gui.core.resample import bootstrap, resample_indices
from kmetric_gui.errors import InputError
from kmetric_gui.metrics import get_metric
from kmetric_gui.analysis.scoring import Options, load, score_files

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"


# each layout's demo files (named by the metric they demonstrate)
FILES = {"binary": "auc", "multiclass": "logloss", "labels": "accuracy", "mapk": "mapk",
         "regression": "rmse", "columns": "mcrmse", "binary_labels": "f1"}


def demo(layout, b=False):
    name = FILES[layout]
    return DEMO / f"{name}_solution.csv", DEMO / f"{name}_submission{'_b' if b else ''}.csv"


def merged(layout):
    sol, sub = (pd.read_csv(p, dtype={"id": str}) for p in demo(layout))
    return sol.merge(sub, on="id", suffixes=("_t", "_p"))


def apk(actual, predicted, k):
    predicted = predicted[:k]
    score, hits = 0.0, 0.0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            hits += 1.0
            score += hits / (i + 1.0)
    return score / min(len(actual), k) if actual else 0.0


CLASSES = ["cat", "dog", "fox", "owl"]


def reference(metric):
    """The demo pair's score from pandas + scikit-learn (or a plain loop)."""
    if metric in ("auc", "logloss") or metric.endswith("_multi"):
        base = metric.split("_")[0]
        if metric.endswith("_multi"):
            m = merged("multiclass")
            y, p = m["label"].map(CLASSES.index), m[CLASSES].to_numpy()
            p = p / p.sum(axis=1, keepdims=True)      # Kaggle renormalises rows (5 decimals in the file)
            return (skm.roc_auc_score(y, p, multi_class="ovr") if base == "auc"
                    else skm.log_loss(y, p, labels=range(4)))
        m = merged("binary")
        fn = skm.roc_auc_score if base == "auc" else skm.log_loss
        return fn(m["target_t"], m["target_p"])
    if metric == "accuracy":
        m = merged("labels")
        return skm.accuracy_score(m["label_t"], m["label_p"])
    if metric == "f1":
        m = merged("binary_labels")
        return skm.f1_score(m["is_fraud_t"], m["is_fraud_p"])
    if metric == "mapk":
        m = merged("mapk")
        return np.mean([apk(a.split(), p.split(), 5) for a, p in zip(m["items_t"], m["items_p"])])
    if metric == "mcrmse":
        m = merged("columns")
        cols = ["cohesion", "syntax", "vocabulary"]
        return skm.root_mean_squared_error(m[[c + "_t" for c in cols]].to_numpy(),
                                           m[[c + "_p" for c in cols]].to_numpy())
    m = merged("regression")
    t, p = m["price_t"], m["price_p"]
    return {"rmse": skm.root_mean_squared_error, "mae": skm.mean_absolute_error,
            "rmsle": skm.root_mean_squared_log_error}[metric](t, p)


CASES = [("auc", "binary", "auc"), ("logloss", "binary", "logloss"),
         ("auc", "multiclass", "auc_multi"), ("logloss", "multiclass", "logloss_multi"),
         ("accuracy", "labels", "accuracy"), ("mapk", "mapk", "mapk"), ("rmse", "regression", "rmse"),
         ("rmsle", "regression", "rmsle"), ("mae", "regression", "mae"), ("mcrmse", "columns", "mcrmse"),
         ("f1", "binary_labels", "f1")]


@pytest.mark.parametrize("metric,layout,ref", CASES)
def test_demo_scores_equal_references(metric, layout, ref):
    rep = score_files(*demo(layout), Options(metric=metric))
    assert rep.score == pytest.approx(reference(ref), rel=1e-10)
    m = get_metric(metric)
    assert m.reference(rep.prepared, rep.options) == pytest.approx(rep.score, rel=1e-10)
    assert set(rep.splits) == {"public", "private"}
    assert m.higher_is_better is (metric in ("auc", "accuracy", "f1", "mapk"))
    assert rep.to_json()["higher_is_better"] is m.higher_is_better


def test_f1_average_option_reaches_the_kernel():
    # the CLI flag arrives with the options schema; the module reads options.average
    prep = load(*demo("labels"), Options(metric="f1"))
    m = get_metric("f1")
    t, p = prep.truth, prep.pred
    for avg in ("macro", "micro", "weighted"):
        got = m.kernel(t, p, SimpleNamespace(average=avg, pos_label="1")).score
        assert got == pytest.approx(skm.f1_score(t, p, average=avg), rel=1e-12)
    with pytest.raises(InputError, match="at most 2 labels"):
        m.kernel(t, p, SimpleNamespace(average="binary", pos_label="1"))


def problems(tmp_path, sol, sub, metric):
    a, b = write(tmp_path / "sol.csv", sol), write(tmp_path / "sub.csv", sub)
    with pytest.raises(InputError) as e:
        score_files(a, b, Options(metric=metric))
    return e.value.problems


IDS = ["a1", "b2", "c3", "d4"]


@pytest.mark.parametrize("metric,sol,sub,expect", [
    ("logloss", [0, 1, 1, 0], [0.2, 1.3, 0.9, -0.1],
     "submission sub.csv: column 'y': 2 probabilit(ies) outside [0, 1]: row 2 (id 'b2'): 1.3, "
     "row 4 (id 'd4'): -0.1"),
    ("auc", [0, 1, 2, 0], [0.2, 0.3, 0.9, 0.1],
     "solution sol.csv: column 'y': 1 value(s) are not 0 or 1: row 3 (id 'c3'): 2"),
    ("rmsle", [1, 2, 3, 4], [1, -2, 3, 4],
     "submission sub.csv: column 'y': 1 negative value(s) (RMSLE takes log(1 + x) of values >= 0): "
     "row 2 (id 'b2'): -2"),
    ("rmse", [1, 2, 3, 4], [1, "nan", 3, "inf"],
     "submission sub.csv: column 'y': 2 value(s) are not numbers: row 2 (id 'b2')"),
    ("accuracy", ["x", "y", "x", "y"], ["x", "y", "", "y"],
     "submission sub.csv: column 'y': 1 empty label(s): row 3 (id 'c3')"),
    ("mapk", ["p q", "q", "r", "s"], ["p", "", "r s", "s"],
     "submission sub.csv: column 'y': 1 empty prediction(s) (MAP@K needs at least one item a "
     "query): row 2 (id 'b2')"),
])
def test_bad_input_one_line_each(tmp_path, metric, sol, sub, expect):
    s = csv([["id", "y"]] + list(zip(IDS, sol)))
    p = csv([["id", "y"]] + list(zip(IDS, sub)))
    got = problems(tmp_path, s, p, metric)
    assert any(expect in line for line in got), got
    assert all("\n" not in line for line in got)


def test_multiclass_bad_input(tmp_path):
    sol = csv([["id", "label"], ["a1", "cat"], ["b2", "emu"], ["c3", "dog"]])
    sub = csv([["id", "cat", "dog", "owl"], ["a1", .5, .5, 0], ["b2", .2, .3, .5], ["c3", .1, 1.5, 0]])
    got = problems(tmp_path, sol, sub, "logloss")
    assert any("column 'label': 1 label(s) have no probability column in the submission: "
               "row 2 (id 'b2'): 'emu'" in g for g in got), got
    assert any("column 'dog': 1 probabilit(ies) outside [0, 1]: row 3 (id 'c3'): 1.5" in g
               for g in got), got
    sol = csv([["id", "label"], ["a1", "cat"], ["b2", "dog"], ["c3", "dog"]])
    a, b = write(tmp_path / "sol.csv", sol), write(tmp_path / "sub.csv", sub.replace("1.5", "0.9"))
    rep = score_files(a, b, Options(metric="auc"))     # scored as Kaggle scores it, with a note
    assert any("'owl': a class the solution's 'label' never holds" in str(g)
               for g in rep.prepared.notes), rep.prepared.notes
    assert rep.result.skipped == (2,)                  # owl: no positive, no AUC
    onehot = csv([["id", "cat", "dog"], ["a1", 1, 0], ["b2", 1, 1], ["c3", 0, 1]])
    sub2 = csv([["id", "cat", "dog"], ["a1", .5, .5], ["b2", .2, .8], ["c3", .1, .9]])
    got = problems(tmp_path, onehot, sub2, "logloss")
    assert any("1 row(s) are not one-hot (exactly one 1, the rest 0): row 2 (id 'b2')" in g
               for g in got), got


def test_one_hot_logloss_and_multilabel_auc(tmp_path):
    rng = np.random.default_rng(3)
    n, c = 50, 3
    y = rng.integers(0, c, n)
    p = rng.dirichlet(np.ones(c), n)
    ids = [f"r{i}" for i in range(n)]
    names = ["u", "v", "w"]
    onehot = np.eye(c, dtype=int)[y]
    sol = write(tmp_path / "s.csv", csv([["id"] + names] + [[i] + r for i, r in zip(ids, onehot.tolist())]))
    sub = write(tmp_path / "p.csv", csv([["id"] + names] + [[i] + r for i, r in zip(ids, p.tolist())]))
    assert score_files(sol, sub, Options(metric="logloss")).score == pytest.approx(
        skm.log_loss(y, p), rel=1e-10)
    multi = (rng.random((n, c)) < 0.4).astype(int)
    multi[0], multi[1] = 1, 0
    sol = write(tmp_path / "s.csv", csv([["id"] + names] + [[i] + r for i, r in zip(ids, multi.tolist())]))
    assert score_files(sol, sub, Options(metric="auc")).score == pytest.approx(
        skm.roc_auc_score(multi, p), rel=1e-10)


def test_auc_statistics_use_the_rows():
    rep = score_files(*demo("binary"), Options(metric="auc"))
    units = get_metric("auc").units(rep.result)
    reps = bootstrap(units, 25, seed=3)
    t, p = rep.prepared.truth, rep.prepared.pred
    ref = [skm.roc_auc_score(t[i], p[i]) for i in resample_indices(len(t), 25, seed=3)]
    assert reps == pytest.approx(ref, rel=1e-12)
    loo, _ = units.jackknife()
    for r in (0, 7, 123):
        keep = np.arange(len(t)) != r
        assert loo[r] == pytest.approx(skm.roc_auc_score(t[keep], p[keep]), rel=1e-12)


def test_additive_units_and_fix_first_lower_is_better():
    rep = score_files(*demo("regression"), Options(metric="rmse"))
    m = get_metric("rmse")
    assert m.units(rep.result).point() == pytest.approx(rep.score)
    fixes = m.fixes(rep, None, 5)
    err = np.abs(rep.prepared.pred - rep.prepared.truth)
    assert fixes.units.tolist() == np.argsort(-err, kind="stable")[:5].tolist()
    sq = err ** 2
    for k in range(5):
        left = sq.copy()
        left[fixes.units[:k + 1]] = 0
        assert fixes.score_after[k] == pytest.approx(math.sqrt(left.mean()))
    assert (fixes.gains > 0).all() and (np.diff(fixes.score_after) < 0).all()


@pytest.mark.parametrize("metric,layout", [("mapk", "mapk"), ("accuracy", "labels"),
                                           ("logloss", "multiclass")])
def test_fix_first_raises_the_score_in_its_direction(metric, layout):
    rep = score_files(*demo(layout), Options(metric=metric))
    fixes = get_metric(metric).fixes(rep, None, 3)
    assert len(fixes) == 3 and (fixes.gains > 0).all()
    better = np.diff(np.r_[rep.score, fixes.score_after])
    assert (better > 0).all() if get_metric(metric).higher_is_better else (better < 0).all()


def run(*args):
    env = dict(os.environ)
    env.pop("KMETRIC_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "kmetric_gui.cli", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=ROOT)


def test_cli_ci_and_compare_for_a_lower_is_better_metric():
    r = run("score", *demo("regression"), "--metric", "rmse", "--ci", "0.9", "--bootstrap", "300",
            "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["higher_is_better"] is False and d["ci"]["low"] < d["score"] < d["ci"]["high"]
    r = run("compare", *demo("regression"), demo("regression", b=True)[1], "--metric", "rmse",
            "--bootstrap", "300", "--permutations", "200", "--json")
    assert r.returncode == 0, r.stderr
    pair = json.loads(r.stdout)["pairs"][0]
    assert pair["delta"] > 0          # B's RMSE is larger (worse)


def test_cli_auc_compare_and_bad_file_exit_2(tmp_path):
    r = run("compare", *demo("binary"), demo("binary", b=True)[1], "--metric", "auc",
            "--bootstrap", "200", "--permutations", "50", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["pairs"][0]["delta"] < 0 and d["pairs"][0]["delta_ci"]["high"] < 0
    sol = write(tmp_path / "s.csv", csv([["id", "y"], ["a", 1], ["b", 0]]))
    sub = write(tmp_path / "p.csv", csv([["id", "y"], ["a", 2.5], ["b", 0.1]]))
    r = run("score", sol, sub, "--metric", "logloss")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "submission p.csv: column 'y': 1 probabilit(ies) outside [0, 1]: row 1 (id 'a'): 2.5" \
        in r.stderr
