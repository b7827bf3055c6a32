"""Real competitions' file shapes (issue 35, item 1): each a small synthetic pair laid out
as that competition's files, scored through the installed command's code and held to
scikit-learn or a plain loop written from the competition's published definition."""
import json

import numpy as np
import pandas as pd
import pytest
from filemaker import csv, write
from sklearn import metrics as skm

from kmetric_gui.cli import main
from kmetric_gui.analysis.scoring import Options, score_files


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def files(tmp_path, sol_rows, sub_rows):
    s = write(tmp_path / "solution.csv", csv(sol_rows))
    p = write(tmp_path / "submission.csv", csv(sub_rows))
    return str(s), str(p)


# -- predicted classes the answers never hold -----------------------------------------

def test_unseen_predicted_labels_are_wrong_with_a_note(tmp_path, capsys):
    """Landmark-style labels: 60 classes, a test set holding 25 of them; predictions name
    classes absent from the answers. Accuracy and macro F1 as scikit-learn computes them
    (the unseen class is a class of its own with F1 0), and a note names it."""
    rng = np.random.default_rng(5)
    n = 200
    truth = rng.integers(0, 25, n)
    pred = np.where(rng.random(n) < 0.5, truth, rng.integers(0, 60, n))
    ids = [f"img{i:04d}" for i in range(n)]
    sol, sub = files(tmp_path, [["id", "landmark_id"]] + list(zip(ids, truth)),
                     [["id", "landmark_id"]] + list(zip(ids, pred)))
    unseen = sorted(set(pred) - set(truth))
    assert unseen
    rep = score_files(sol, sub, Options(metric="accuracy"))
    assert rep.score == pytest.approx(skm.accuracy_score(truth, pred), abs=1e-12)
    notes = [str(n) for n in rep.prepared.notes]
    assert any("never holds" in t and "scored as wrong" in t for t in notes), notes
    rep = score_files(sol, sub, Options(metric="f1", average="macro"))
    assert rep.score == pytest.approx(skm.f1_score(truth, pred, average="macro"), abs=1e-12)
    code, out, err = run(["score", sol, sub, "--metric", "f1", "--average", "macro", "--json"],
                         capsys)
    assert code == 0, err
    d = json.loads(out)
    assert any("never holds" in t for t in d["notes"])


def test_class_columns_the_answers_never_hold(tmp_path):
    """Multi-class probabilities over 4 classes; the answers hold 3. Log loss as Kaggle
    computes it (the fourth column still in each row's sum), one-vs-rest AUC over the
    classes that occur, and a note naming the column."""
    rng = np.random.default_rng(2)
    n = 60
    classes = ["cat", "dog", "emu", "owl"]
    truth = rng.integers(0, 3, n)
    p = rng.dirichlet(np.ones(4), n).round(4)
    p[:, 3] = 1 - p[:, :3].sum(axis=1)
    ids = [f"r{i}" for i in range(n)]
    sol, sub = files(tmp_path, [["id", "label"]] + [[i, classes[t]] for i, t in zip(ids, truth)],
                     [["id"] + classes] + [[i] + list(r) for i, r in zip(ids, p)])
    rep = score_files(sol, sub, Options(metric="logloss"))
    q = np.clip(p, 1e-15, 1 - 1e-15)
    q /= q.sum(axis=1, keepdims=True)
    want = -np.mean(np.log(q[np.arange(n), truth]))
    assert rep.score == pytest.approx(want, rel=1e-12)
    assert any("'owl'" in str(x) and "never holds" in str(x) for x in rep.prepared.notes)
    rep = score_files(sol, sub, Options(metric="auc"))
    want = np.mean([skm.roc_auc_score(truth == k, p[:, k]) for k in range(3)])
    assert rep.score == pytest.approx(want, abs=1e-12)


# -- columns the metric does not score -------------------------------------------------

def test_answer_columns_not_scored_are_left_alone_and_listed(tmp_path, capsys):
    """SIIM-ISIC melanoma's answers: image_name, patient_id, sex, age, target, Usage; the
    submission image_name, target. AUC of the target only; the others listed."""
    rng = np.random.default_rng(3)
    n = 80
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1), 4)
    names = [f"ISIC_{i:07d}" for i in range(n)]
    usage = ["Public" if i % 3 else "Private" for i in range(n)]
    sol, sub = files(tmp_path,
                     [["image_name", "patient_id", "sex", "age_approx", "target", "Usage"]]
                     + [[nm, f"IP_{i % 9}", "male", 40 + i % 30, t, u]
                        for i, (nm, t, u) in enumerate(zip(names, y, usage))],
                     [["image_name", "target"]] + list(zip(names, s)))
    code, out, err = run(["score", sol, sub, "--metric", "auc", "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["score"] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    pub = np.array([u == "Public" for u in usage])
    assert d["public"] == pytest.approx(skm.roc_auc_score(y[pub], s[pub]), abs=1e-12)
    assert any("not scored, left alone: patient_id, sex, age_approx" in t for t in d["notes"])


def test_target_columns_named_leave_a_keep_flag_and_features_alone(tmp_path, capsys):
    """An MCRMSE answer file with a text id, a 'keep' flag and a feature beside the two
    scored columns: --target-column names them; the others are listed, not targets."""
    rng = np.random.default_rng(4)
    n = 50
    t = rng.normal(size=(n, 2)).round(3)
    p = (t + rng.normal(size=(n, 2)) * 0.5).round(3)
    ids = [f"t{i}" for i in range(n)]
    sol, sub = files(tmp_path, [["text_id", "cohesion", "syntax", "keep", "n_words"]]
                     + [[i, a, b, 1, 100 + k] for k, (i, (a, b)) in enumerate(zip(ids, t))],
                     [["text_id", "cohesion", "syntax"]] + [[i, a, b] for i, (a, b) in zip(ids, p)])
    code, out, err = run(["score", sol, sub, "--metric", "mcrmse"], capsys)
    assert code == 2 and "missing target column(s) of the solution: keep, n_words" in err
    assert "--target-column cohesion,syntax" in err
    code, out, err = run(["score", sol, sub, "--metric", "mcrmse", "--target-column",
                          "cohesion,syntax", "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    want = np.mean([skm.root_mean_squared_error(t[:, j], p[:, j]) for j in range(2)])
    assert d["score"] == pytest.approx(want, rel=1e-12)
    assert any("left alone: keep, n_words" in x for x in d["notes"])


def test_label_column_found_among_answer_columns(tmp_path):
    """A multi-class answer file with a patient id beside the label: the label column is
    the one whose values are the submission's classes; the id is left alone."""
    classes = ["A", "B", "C"]
    rng = np.random.default_rng(8)
    n = 30
    truth = rng.integers(0, 3, n)
    p = rng.dirichlet(np.ones(3), n).round(4)
    p[:, 2] = 1 - p[:, :2].sum(axis=1)
    ids = [f"r{i}" for i in range(n)]
    sol, sub = files(tmp_path, [["id", "patient", "label"]]
                     + [[i, f"P{k}", classes[t]] for k, (i, t) in enumerate(zip(ids, truth))],
                     [["id"] + classes] + [[i] + list(r) for i, r in zip(ids, p)])
    rep = score_files(sol, sub, Options(metric="logloss"))
    assert rep.score == pytest.approx(skm.log_loss(truth, p, labels=[0, 1, 2]), rel=1e-9)
    assert any("left alone: patient" in str(x) for x in rep.prepared.notes)


# -- unscored rows ---------------------------------------------------------------------

def test_jigsaw_answers_rows_of_minus_one_are_left_out(tmp_path, capsys):
    """Jigsaw toxic comments: test_labels.csv holds -1 in all six labels for rows not
    scored; the submission lists every test row. Kaggle's score: the mean column AUC over
    the rows with labels."""
    rng = np.random.default_rng(6)
    labels = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"]
    n = 120
    y = (rng.random((n, 6)) < 0.3).astype(int)
    unscored = rng.random(n) < 0.25
    y[unscored] = -1
    s = np.round(rng.random((n, 6)) * 0.7 + 0.3 * (y == 1), 4)
    ids = [f"{i:016x}" for i in range(n)]
    sol, sub = files(tmp_path, [["id"] + labels] + [[i] + list(r) for i, r in zip(ids, y)],
                     [["id"] + labels] + [[i] + list(r) for i, r in zip(ids, s)])
    code, out, err = run(["score", sol, sub, "--metric", "auc", "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    keep = ~unscored
    want = np.mean([skm.roc_auc_score(y[keep, j], s[keep, j]) for j in range(6)])
    assert d["score"] == pytest.approx(want, abs=1e-12)
    assert d["n_rows"] == int(keep.sum())
    assert any(f"{int(unscored.sum())} row(s) left out" in x and "-1 in every label" in x
               for x in d["notes"])


def test_an_unscored_value_named_leaves_its_rows_out(tmp_path):
    rng = np.random.default_rng(1)
    n = 40
    t = rng.normal(size=n).round(3)
    t[::4] = -999
    p = (t + rng.normal(size=n)).round(3)
    ids = [f"r{i}" for i in range(n)]
    sol, sub = files(tmp_path, [["id", "y"]] + list(zip(ids, t)), [["id", "y"]] + list(zip(ids, p)))
    rep = score_files(sol, sub, Options(metric="rmse", unscored_value=-999.0))
    keep = t != -999
    assert rep.score == pytest.approx(skm.root_mean_squared_error(t[keep], p[keep]), rel=1e-12)
    assert rep.n_rows == int(keep.sum())


@pytest.mark.parametrize("pub,priv,ign", [("PublicTest", "PrivateTest", "Ignored"),
                                          ("public", "private", "None"),
                                          ("Public_Test", "Private Test", "unused")])
def test_usage_spellings(tmp_path, pub, priv, ign):
    n = 30
    rng = np.random.default_rng(9)
    t = rng.normal(size=n).round(3)
    p = (t + rng.normal(size=n)).round(3)
    usage = [(pub, priv, ign)[i % 3] for i in range(n)]
    ids = [f"r{i}" for i in range(n)]
    sol, sub = files(tmp_path, [["id", "y", "Usage"]] + list(zip(ids, t, usage)),
                     [["id", "y"]] + list(zip(ids, p)))
    rep = score_files(sol, sub, Options(metric="mae"))
    k = np.arange(n) % 3
    assert rep.score == pytest.approx(skm.mean_absolute_error(t[k < 2], p[k < 2]), rel=1e-12)
    assert rep.splits["public"].score == pytest.approx(
        skm.mean_absolute_error(t[k == 0], p[k == 0]), rel=1e-12)
    assert rep.splits["private"].score == pytest.approx(
        skm.mean_absolute_error(t[k == 1], p[k == 1]), rel=1e-12)


def test_unknown_usage_is_named_and_a_map_adds_it(tmp_path, capsys):
    ids = [f"r{i}" for i in range(6)]
    usage = ["Public", "Holdout", "Holdout", "Public", "Private", "Private"]
    sol, sub = files(tmp_path, [["id", "y", "Usage"]] + [[i, k, u] for k, (i, u) in
                                                         enumerate(zip(ids, usage))],
                     [["id", "y"]] + [[i, k + 0.5] for k, i in enumerate(ids)])
    code, out, err = run(["score", sol, sub, "--metric", "mae"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "column 'Usage': 2 value(s) are not Public, Private or Ignored: rows 2, 3 " \
           "('Holdout')" in err and "--usage-map Holdout=" in err
    code, out, err = run(["score", sol, sub, "--metric", "mae", "--usage-map",
                          "Holdout=private", "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["private"] == pytest.approx(0.5) and d["options"]["usage_map"] == "Holdout=private"


# -- keys of two columns --------------------------------------------------------------

def test_composite_key_image_and_class(tmp_path, capsys):
    """Severstal-style rows keyed by (ImageId, ClassId), the submission in another order:
    the pair is the key (pandas merges on both columns)."""
    rng = np.random.default_rng(7)
    rows = [(f"{k:04x}.jpg", c) for k in range(20) for c in (1, 2, 3, 4)]
    y = (rng.random(len(rows)) < 0.4).astype(int)
    s = np.round(rng.random(len(rows)), 4)
    order = rng.permutation(len(rows))
    sol, sub = files(tmp_path, [["ImageId", "ClassId", "has_defect"]]
                     + [[a, c, t] for (a, c), t in zip(rows, y)],
                     [["ImageId", "ClassId", "has_defect"]]
                     + [[rows[i][0], rows[i][1], s[i]] for i in order])
    a = pd.read_csv(sol, dtype={"ImageId": str, "ClassId": str})
    b = pd.read_csv(sub, dtype={"ImageId": str, "ClassId": str})
    m = a.merge(b, on=["ImageId", "ClassId"], suffixes=("_t", "_p"))
    code, out, err = run(["score", sol, sub, "--metric", "auc", "--id-column", "ImageId,ClassId",
                          "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["score"] == pytest.approx(
        skm.roc_auc_score(m.has_defect_t, m.has_defect_p), abs=1e-12)


def test_composite_key_trip_and_time_a_repeated_pair_is_refused(tmp_path, capsys):
    """Smartphone decimeter-style rows keyed by (phone, millisSinceGpsEpoch): a repeated
    pair in the submission is one line naming the file, both columns, the rows and ids."""
    keys = [("pixel4", 1000 + 1000 * k) for k in range(8)]
    sol_rows = [["phone", "millisSinceGpsEpoch", "lat"]] + [[p, t, 37.0 + k] for k, (p, t)
                                                            in enumerate(keys)]
    sub_rows = [["phone", "millisSinceGpsEpoch", "lat"]] + [[p, t, 37.1 + k] for k, (p, t)
                                                            in enumerate(keys)]
    sub_rows.append(["pixel4", 3000, 40.0])
    sol, sub = files(tmp_path, sol_rows, sub_rows)
    code, out, err = run(["score", sol, sub, "--metric", "mae", "--id-column",
                          "phone,millisSinceGpsEpoch"], capsys)
    assert code == 2, out
    line = [x for x in err.splitlines() if "duplicate" in x]
    assert len(line) == 1, err
    assert "submission submission.csv" in line[0]
    assert "columns 'phone' + 'millisSinceGpsEpoch'" in line[0]
    assert "'pixel4|3000' (rows 3, 9)" in line[0]
    code, out, err = run(["score", sol, sol, "--metric", "mae", "--id-column",
                          "phone,millisSinceGpsEpoch", "--json"], capsys)
    assert code == 0 and json.loads(out)["score"] == 0.0


def test_composite_key_written_back_with_its_columns(tmp_path):
    from kmetric_gui.analysis.scoring import load
    from kmetric_gui.io.shapes import as_written
    from kmetric_gui.metrics import get_metric
    sol, sub = files(tmp_path, [["a", "b", "y"], ["x", "1", 0.5], ["x", "2", 1.5]],
                     [["a", "b", "pred"], ["x", "2", 1.0], ["x", "1", 2.0]])
    prep = load(sol, sub, Options(metric="rmse", id_column="a,b", target_column="y=pred"))
    header, rows = as_written(prep, *get_metric("rmse").submission_rows(prep))
    assert header == ["a", "b", "pred"]
    assert sorted(map(tuple, rows)) == [("x", "1", 2.0), ("x", "2", 1.0)]


# -- submissions listing more ids -------------------------------------------------------

def apk(actual, predicted, k=12):
    """Ben Hamner's apk, as H&M's evaluation page defines MAP@12."""
    predicted = predicted[:k]
    score, hits = 0.0, 0.0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            hits += 1.0
            score += hits / (i + 1.0)
    return score / min(len(actual), k) if actual else 0.0


def test_hm_submission_lists_every_customer(tmp_path, capsys):
    """H&M: the submission lists every customer; the answers hold the customers who
    bought in the test week. --extra-ids ignore scores the answers' customers only."""
    rng = np.random.default_rng(10)
    customers = [f"{k:064x}" for k in range(300)]
    buyers = sorted(rng.choice(300, 90, replace=False).tolist())
    items = [f"0{k:09d}" for k in range(40)]
    truth = {customers[c]: list(rng.choice(items, rng.integers(1, 5), replace=False))
             for c in buyers}
    pred = {c: list(rng.choice(items, 12, replace=False)) for c in customers}
    sol, sub = files(tmp_path, [["customer_id", "prediction"]]
                     + [[c, " ".join(v)] for c, v in truth.items()],
                     [["customer_id", "prediction"]] + [[c, " ".join(v)] for c, v in pred.items()])
    code, out, err = run(["score", sol, sub, "--metric", "mapk", "--k", "12"], capsys)
    assert code == 2 and "210 id(s) are not in the solution" in err
    assert "--extra-ids ignore" in err
    code, out, err = run(["score", sol, sub, "--metric", "mapk", "--k", "12", "--extra-ids",
                          "ignore", "--json", "--ci", "0.9", "--bootstrap", "200"], capsys)
    assert code == 0, err
    d = json.loads(out)
    want = np.mean([apk(truth[c], pred[c]) for c in truth])
    assert d["score"] == pytest.approx(want, abs=1e-12) and d["n_rows"] == 90
    assert any("210 id(s) not in the solution left out" in x for x in d["notes"])
    assert d["options"]["extra_ids"] == "ignore"


# -- scored columns named differently, several target columns ---------------------------

def test_target_column_mapped_from_solution_to_submission(tmp_path, capsys):
    """House prices: answers 'Id,SalePrice', a submission naming its column 'pred'."""
    rng = np.random.default_rng(12)
    n = 40
    t = np.round(rng.uniform(5e4, 5e5, n), 0)
    p = np.round(t * rng.uniform(0.8, 1.2, n), 0)
    p[3] = -5.0
    ids = list(range(1461, 1461 + n))
    sol, sub = files(tmp_path, [["Id", "SalePrice"]] + list(zip(ids, t)),
                     [["Id", "pred"]] + list(zip(ids, p)))
    code, out, err = run(["score", sol, sub, "--metric", "rmsle", "--target-column",
                          "SalePrice=pred"], capsys)
    assert code == 2 and "column 'pred': 1 negative value(s)" in err and "'SalePrice'" not in err
    p[3] = 1.5e5
    sol, sub = files(tmp_path, [["Id", "SalePrice"]] + list(zip(ids, t)),
                     [["Id", "pred"]] + list(zip(ids, p)))
    code, out, err = run(["score", sol, sub, "--metric", "rmsle", "--target-column",
                          "SalePrice=pred", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["score"] == pytest.approx(skm.root_mean_squared_log_error(t, p),
                                                     rel=1e-12)


@pytest.mark.parametrize("metric,ref", [
    ("rmsle", skm.root_mean_squared_log_error), ("rmse", skm.root_mean_squared_error),
    ("mae", skm.mean_absolute_error)])
def test_several_target_columns_mean_over_columns(tmp_path, metric, ref):
    """COVID-19 forecasting: ConfirmedCases and Fatalities, RMSLE of each column, their
    mean (scikit-learn's multioutput 'uniform_average'); RMSE and MAE alike."""
    rng = np.random.default_rng(13)
    n = 50
    t = np.round(rng.uniform(0, 1000, (n, 2)), 0)
    p = np.round(t * rng.uniform(0.5, 1.5, (n, 2)), 1)
    ids = [f"f{i}" for i in range(n)]
    sol, sub = files(tmp_path, [["ForecastId", "ConfirmedCases", "Fatalities"]]
                     + [[i, a, b] for i, (a, b) in zip(ids, t)],
                     [["ForecastId", "ConfirmedCases", "Fatalities"]]
                     + [[i, a, b] for i, (a, b) in zip(ids, p)])
    rep = score_files(sol, sub, Options(metric=metric))
    assert rep.score == pytest.approx(ref(t, p), rel=1e-12)
    cols = rep.to_json()["column_scores"]
    assert cols["Fatalities"] == pytest.approx(ref(t[:, 1], p[:, 1]), rel=1e-12)


def test_an_unscored_value_a_layout_does_not_read_is_refused(tmp_path, capsys):
    """Kappa's layout has no unscored rows: the setting is refused in words, not ignored."""
    sol, sub = files(tmp_path, [["id", "y"], ["a", 1], ["b", 2]], [["id", "y"], ["a", 1], ["b", 1]])
    code, out, err = run(["score", sol, sub, "--metric", "qwk", "--unscored-value", "-1"], capsys)
    assert code == 2 and "--unscored-value: Weighted kappa's layout" in err
