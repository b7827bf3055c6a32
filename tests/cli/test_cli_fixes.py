"""`kmetric score --top-fixes N`: apply the listed fixes to the files and rescore independently."""
import json

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from filemaker import write
from reference import fbeta_ref, lwlrap_ref
from test_cli import DEMO, run


def _json(*args):
    r = run("score", *args, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_kappa_demo_fixes_rescored_with_sklearn():
    d = _json(DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv", "--top-fixes", "12")
    fixes = d["top_fixes"]
    assert len(fixes) == 12 and set(fixes[0]) == {"id", "gain", "score_after"}
    m = pd.read_csv(DEMO / "qwk_solution.csv", dtype={"id_code": str}).merge(
        pd.read_csv(DEMO / "qwk_submission.csv", dtype={"id_code": str}),
        on="id_code", suffixes=("_t", "_p")).set_index("id_code")
    base = m.diagnosis_p.copy()
    # the first fix is the best single fix of all (brute force over every wrong row)
    wrong = m.index[m.diagnosis_p != m.diagnosis_t]
    best = max(cohen_kappa_score(m.diagnosis_t, base.where(base.index != i, m.at[i, "diagnosis_t"]),
                                 weights="quadratic", labels=range(5)) for i in wrong)
    assert fixes[0]["score_after"] == pytest.approx(best, abs=1e-12)
    prev = d["score"]
    for f in fixes:
        assert m.at[f["id"], "diagnosis_p"] != m.at[f["id"], "diagnosis_t"]
        m.at[f["id"], "diagnosis_p"] = m.at[f["id"], "diagnosis_t"]
        now = cohen_kappa_score(m.diagnosis_t, m.diagnosis_p, weights="quadratic", labels=range(5))
        assert f["score_after"] == pytest.approx(now, abs=1e-12)
        assert f["gain"] == pytest.approx(now - prev, abs=1e-12)
        prev = now


def test_lwlrap_demo_fixes_rescored_with_the_loop():
    d = _json(DEMO / "lwlrap_solution.csv", DEMO / "lwlrap_submission.csv", "--top-fixes", "6")
    sol = pd.read_csv(DEMO / "lwlrap_solution.csv")
    sub = pd.read_csv(DEMO / "lwlrap_submission.csv").set_index("fname").loc[sol.fname]
    classes = list(sub.columns)
    truth = np.array([[c in str(labels).split(",") for c in classes] for labels in sol["labels"]],
                     dtype=int)
    scores = sub.to_numpy(dtype=float)
    row = {f: i for i, f in enumerate(sol.fname)}
    assert lwlrap_ref(truth, scores) == pytest.approx(d["score"], abs=1e-12)
    for f in d["top_fixes"]:
        i = row[f["id"]]
        scores[i] = truth[i]           # true labels ranked above every false one
        assert f["score_after"] == pytest.approx(lwlrap_ref(truth, scores), abs=1e-12)
    assert len(d["top_fixes"]) == 6


def test_fbeta_demo_fixes_rescored_with_the_loop():
    d = _json(DEMO / "fbeta_solution.csv", DEMO / "fbeta_submission.csv", "--top-fixes", "5")
    sol = pd.read_csv(DEMO / "fbeta_solution.csv")
    sub = pd.read_csv(DEMO / "fbeta_submission.csv", keep_default_na=False).set_index("Id")
    ids = list(dict.fromkeys(sol.Id))
    truths = [list(sol.cleaned_label[sol.Id == i]) for i in ids]
    preds = [[p for p in sub.at[i, "PredictionString"].split("|") if p.strip()] for i in ids]
    assert fbeta_ref(truths, preds)[0] == pytest.approx(d["score"], abs=1e-12)
    prev = d["score"]
    for f in d["top_fixes"]:
        k = ids.index(f["id"])
        preds[k] = list(truths[k])
        now = fbeta_ref(truths, preds)[0]
        assert f["score_after"] == pytest.approx(now, abs=1e-12)
        assert f["gain"] == pytest.approx(now - prev, abs=1e-12) and f["gain"] > 0
        prev = now


def test_ignored_rows_are_never_listed_and_ids_map_to_the_scored_rows(tmp_path):
    sol = write(tmp_path / "s.csv", "id,y,Usage\nz,0,Ignored\na,0,Public\nb,1,Private\n"
                                    "c,2,Public\nd,2,Private\ne,1,Ignored\n")
    sub = write(tmp_path / "p.csv", "id,y\na,2\nb,1\nc,0\nd,2\ne,0\nz,2\n")
    d = _json(sol, sub, "--top-fixes", "10")
    assert [f["id"] for f in d["top_fixes"]] and {f["id"] for f in d["top_fixes"]} == {"a", "c"}
    t, p = {"a": 0, "b": 1, "c": 2, "d": 2}, {"a": 2, "b": 1, "c": 0, "d": 2}
    for f in d["top_fixes"]:
        p[f["id"]] = t[f["id"]]
        now = cohen_kappa_score(list(t.values()), list(p.values()), weights="quadratic",
                                labels=range(3))
        assert f["score_after"] == pytest.approx(now, abs=1e-12)


def test_human_output_lists_the_same_fixes_as_json():
    args = (DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv", "--top-fixes", "3")
    d = _json(*args)
    r = run("score", *args)
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("fix first"))
    rows = [line.split() for line in lines[start + 3:start + 6]]
    assert [row[1] for row in rows] == [f["id"] for f in d["top_fixes"]]
    assert [float(row[3]) for row in rows] == [round(f["score_after"], 6) for f in d["top_fixes"]]
    # the error column names the row's truth and prediction, read from the files here
    sol = pd.read_csv(DEMO / "qwk_solution.csv", dtype={"id_code": str}).set_index("id_code")
    sub = pd.read_csv(DEMO / "qwk_submission.csv", dtype={"id_code": str}).set_index("id_code")
    for row in rows:
        assert " ".join(row[4:]) == (f"truth {sol.at[row[1], 'diagnosis']}, "
                                     f"predicted {sub.at[row[1], 'diagnosis']}")


def test_more_fixes_asked_than_errors(tmp_path):
    sol = write(tmp_path / "s.csv", "id,y\na,0\nb,1\nc,2\n")
    sub = write(tmp_path / "p.csv", "id,y\na,0\nb,2\nc,2\n")
    d = _json(sol, sub, "--top-fixes", "5")
    assert [f["id"] for f in d["top_fixes"]] == ["b"]
    assert d["top_fixes"][0]["score_after"] == pytest.approx(1.0)
    r = run("score", sol, sub, "--top-fixes", "5")
    assert "only 1 row can be fixed" in r.stdout


def test_one_class_truth_gives_no_fixes_with_the_reason(tmp_path):
    sol = write(tmp_path / "s.csv", "id,y\na,2\nb,2\nc,2\n")
    sub = write(tmp_path / "p.csv", "id,y\na,2\nb,0\nc,1\n")
    d = _json(sol, sub, "--top-fixes", "3")
    assert d["top_fixes"] == [] and "every truth is rating 2" in d["top_fixes_reason"]
    r = run("score", sol, sub, "--top-fixes", "3")
    assert r.returncode == 0 and "fixes:   none: every truth is rating 2" in r.stdout
    sub2 = write(tmp_path / "q.csv", "id,y\na,2\nb,2\nc,2\n")
    d = _json(sol, sub2, "--top-fixes", "3")
    assert d["score"] is None and d["top_fixes"] == [] and d["top_fixes_reason"]


@pytest.mark.parametrize("bad", ["0", "-2", "abc", "2.5", ""])
def test_bad_top_fixes_exit_2_naming_the_flag(bad):
    r = run("score", DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv", "--top-fixes", bad)
    assert r.returncode == 2 and r.stdout == ""
    assert "--top-fixes" in r.stderr and "at least 1" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta"])
def test_metric_gains_hook_agrees_with_the_first_greedy_fix(metric):
    from kmetric_gui.analysis.fixes import gains, top_fixes
    from kmetric_gui.analysis.scoring import score_files
    rep = score_files(DEMO / f"{metric}_solution.csv", DEMO / f"{metric}_submission.csv")
    tf = top_fixes(rep, 1)
    g = gains(rep)
    if metric == "qwk":
        best = np.nanmax(g)
        k = rep.result.labels[0]
        t, p = rep.prepared.truth[tf.rows[0]] - k, rep.prepared.pred[tf.rows[0]] - k
        assert g[t, p] == pytest.approx(best, abs=1e-15)
    elif metric == "lwlrap":
        classes, samples = g
        best = samples.max()
        assert classes.share.sum() == pytest.approx(rep.score, abs=1e-12)
        assert np.argmax(samples) == tf.fixes.units[0]
    else:
        best = np.nanmax(g.both)
        assert np.nanargmax(g.both) == tf.fixes.units[0]
        assert (g.both >= np.maximum(g.fp_removed, g.fn_removed) - 1e-15).all()
    assert tf.fixes.gains[0] == pytest.approx(best, abs=1e-12)


def test_ten_class_kappa_file(tmp_path):
    rng = np.random.default_rng(10)
    n = 300
    t = rng.integers(0, 10, n)
    p = np.clip(t + rng.integers(-2, 3, n), 0, 9)
    ids = [f"x{i:03d}" for i in range(n)]
    sol = write(tmp_path / "s.csv", "id,grade\n" + "".join(f"{i},{v}\n" for i, v in zip(ids, t)))
    sub = write(tmp_path / "p.csv", "id,grade\n" + "".join(f"{i},{v}\n" for i, v in zip(ids, p)))
    d = _json(sol, sub, "--top-fixes", "15", "--weights", "linear")
    assert len(d["observed"]) == 10 and len(d["top_fixes"]) == 15
    row = {i: k for k, i in enumerate(ids)}
    q = p.copy()
    for f in d["top_fixes"]:
        k = row[f["id"]]
        # the best single fix at this step, by brute force over one wrong row of each cell
        wrong = np.flatnonzero(q != t)
        _, first = np.unique(t[wrong] * 10 + q[wrong], return_index=True)
        best = max(cohen_kappa_score(t, np.where(np.arange(n) == u, t, q), weights="linear",
                                     labels=range(10)) for u in wrong[first])
        q[k] = t[k]
        now = cohen_kappa_score(t, q, weights="linear", labels=range(10))
        assert f["score_after"] == pytest.approx(now, abs=1e-12)
        assert now == pytest.approx(best, abs=1e-12)


def test_lwlrap_ids_map_to_scored_samples_with_ignored_rows(tmp_path):
    sol = write(tmp_path / "s.csv", "fname,a,b,c,Usage\nz,1,0,0,Ignored\nx,1,0,1,Public\n"
                                    "y,0,1,0,Private\nw,0,0,1,Public\n")
    sub = write(tmp_path / "p.csv", "fname,a,b,c\nz,0.1,0.9,0.5\nx,0.2,0.5,0.9\ny,0.6,0.3,0.1\n"
                                    "w,0.9,0.8,0.7\n")
    d = _json(sol, sub, "--top-fixes", "5")
    truth = {"x": [1, 0, 1], "y": [0, 1, 0], "w": [0, 0, 1]}
    scores = {"x": [0.2, 0.5, 0.9], "y": [0.6, 0.3, 0.1], "w": [0.9, 0.8, 0.7]}
    assert lwlrap_ref(list(truth.values()), list(scores.values())) == pytest.approx(d["score"])
    assert {f["id"] for f in d["top_fixes"]} == {"x", "y", "w"}     # never the Ignored z
    for f in d["top_fixes"]:
        scores[f["id"]] = [float(v) for v in truth[f["id"]]]
        assert f["score_after"] == pytest.approx(lwlrap_ref(list(truth.values()),
                                                            list(scores.values())), abs=1e-12)
