"""`kmetric compare` in a subprocess: JSON keys, agreement with `kmetric score`, bad input."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from filemaker import csv, write
from reference import fbeta_ref, lwlrap_ref

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"
SUB_KEYS = {"name", "score", "ci", "public", "private"}
PAIR_KEYS = {"a", "b", "delta", "delta_ci", "p_b_better", "p_value", "permutations",
             "public_delta", "private_delta", "p_order_flips"}
CI_KEYS = {"level", "low", "high", "se", "method", "replicates", "seed", "undefined_replicates",
           "warnings", "too_narrow_likely"}


def run(*args):
    env = dict(os.environ)
    env.pop("KMETRIC_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "kmetric_gui.cli", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=ROOT)


def demo(metric):
    return (DEMO / f"{metric}_solution.csv", DEMO / f"{metric}_submission.csv",
            DEMO / f"{metric}_submission_b.csv")


@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta"])
def test_demo_json_keys_and_agreement_with_score(metric):
    sol, a, b = demo(metric)
    r = run("compare", sol, a, b, "--json", "--bootstrap", "500", "--permutations", "300",
            "--seed", "3")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["metric"] == metric
    assert {"metric", "n_units", "submissions", "pairs"} <= set(d)
    assert [s["name"] for s in d["submissions"]] == [a.name, b.name]
    for s, path in zip(d["submissions"], (a, b)):
        assert SUB_KEYS <= set(s) and CI_KEYS == set(s["ci"])
        r1 = run("score", sol, path, "--json", "--ci", "0.95", "--bootstrap", "500", "--seed", "3")
        assert r1.returncode == 0 and r1.stdout, (r1.returncode, r1.stderr)
        one = json.loads(r1.stdout)
        assert s["score"] == one["score"]
        assert s["ci"] == one["ci"]          # the same draws as `kmetric score --ci`
        assert s["public"] == one.get("public") and s["private"] == one.get("private")
    (p,) = d["pairs"]
    assert PAIR_KEYS <= set(p) and CI_KEYS == set(p["delta_ci"])
    assert (p["a"], p["b"]) == (a.name, b.name)
    assert p["delta"] == pytest.approx(d["submissions"][1]["score"] - d["submissions"][0]["score"])
    assert p["delta_ci"]["low"] <= p["delta"] <= p["delta_ci"]["high"]
    assert p["permutations"] == 300
    assert 1 / 301 <= p["p_value"] <= 1 and 0 <= p["p_b_better"] <= 1
    assert 0 <= p["p_order_flips"] <= 1
    if metric == "qwk":   # the demo solution has a Usage column
        assert p["public_delta"] == pytest.approx(d["submissions"][1]["public"]
                                                  - d["submissions"][0]["public"])
    else:
        assert p["public_delta"] is None and p["private_delta"] is None


def test_kappa_demo_scores_equal_sklearn_and_runs_are_deterministic():
    sol, a, b = demo("qwk")
    out = run("compare", sol, a, b, "--json", "--bootstrap", "300", "--permutations", "300").stdout
    assert run("compare", sol, a, b, "--json", "--bootstrap", "300", "--permutations", "300").stdout == out
    d = json.loads(out)
    t = pd.read_csv(sol)
    for s, path in zip(d["submissions"], (a, b)):
        m = t.merge(pd.read_csv(path), on="id_code", suffixes=("_t", "_p"))
        assert s["score"] == pytest.approx(cohen_kappa_score(m.diagnosis_t, m.diagnosis_p,
                                                             weights="quadratic"), abs=1e-12)


def test_lwlrap_blend_in_json_equals_the_reference_at_its_best_alpha():
    sol, a, b = demo("lwlrap")
    d = json.loads(run("compare", sol, a, b, "--json", "--bootstrap", "50", "--permutations", "0").stdout)
    blend = d["pairs"][0]["blend"]
    assert len(blend["alphas"]) == 101
    truth = pd.read_csv(sol)
    sa, sb = (pd.read_csv(x).set_index("fname").loc[truth.fname] for x in (a, b))
    classes = list(sa.columns)
    t = np.array([[c in str(v).split(",") for c in classes] for v in truth.labels], int)
    x = blend["best_alpha"]
    ref = lwlrap_ref(t.tolist(), (x * sa.to_numpy() + (1 - x) * sb[classes].to_numpy()).tolist())
    assert blend["best_score"] == pytest.approx(ref, abs=1e-12)
    assert blend["scores"][0] == pytest.approx(d["submissions"][1]["score"], abs=1e-12)   # alpha 0: B
    assert blend["scores"][-1] == pytest.approx(d["submissions"][0]["score"], abs=1e-12)  # alpha 1: A


def test_three_submissions_give_every_pair_and_a_human_table(tmp_path):
    sol, a, b = demo("fbeta")
    c = write(tmp_path / "c.csv", csv([["Id", "PredictionString"]] + [
        [i, ""] for i in pd.read_csv(a).Id]))
    r = run("compare", sol, a, b, c, "--bootstrap", "200", "--permutations", "200")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert any(line.startswith("submission") and "95% CI" in line for line in lines)
    pairs = [line.split()[:2] for line in lines if line.startswith(("fbeta_submission", "c.csv"))
             and len(line.split()) > 6 and line.split()[1].endswith(".csv")]
    assert pairs == [[a.name, b.name], [a.name, "c.csv"], [b.name, "c.csv"]]
    matrix = [line for line in lines if line.startswith("A = #")]
    assert len(matrix) == 3 and matrix[0].startswith(f"A = #1 {a.name}")
    d = json.loads(run("compare", sol, a, b, c, "--json", "--bootstrap", "200").stdout)
    empty = d["submissions"][2]
    assert empty["score"] == 0.0                  # no predictions: tp = 0
    truths = pd.read_csv(sol).groupby("Id").cleaned_label.apply(list)
    preds = pd.read_csv(b).fillna("").set_index("Id").PredictionString.loc[truths.index]
    ref = fbeta_ref(list(truths), [p.split("|") if p else [] for p in preds])[0]
    assert d["submissions"][1]["score"] == pytest.approx(ref, abs=1e-12)
    assert d["pairs"][1]["p_b_better"] == 0.0     # an empty submission never beats A
    assert d["pairs"][1]["p_a_better"] == 1.0
    first = d["pairs"][0]
    assert first["p_a_better"] + first["p_b_better"] <= 1.0


def test_the_same_file_twice_warns_and_gives_zero(tmp_path):
    sol, a, _ = demo("qwk")
    r = run("compare", sol, a, a, "--json", "--bootstrap", "200", "--permutations", "200")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    p = d["pairs"][0]
    assert p["delta"] == 0 and p["p_value"] == 1.0 and p["p_b_better"] == 0
    assert p["delta_ci"]["low"] == p["delta_ci"]["high"] == 0
    assert any("same file" in w for w in d["warnings"])
    assert d["submissions"][1]["name"] == f"{a.name} (2)"
    human = run("compare", sol, a, a, "--bootstrap", "100").stdout
    assert "warning:" in human and "same file" in human


def test_fewer_than_two_submissions_is_exit_2():
    sol, a, _ = demo("qwk")
    r = run("compare", sol, a)
    assert r.returncode == 2
    assert r.stderr.strip() == "kmetric: compare needs at least 2 submissions; got 1"


def test_every_problem_of_every_file_is_listed_and_valid_files_still_compared(tmp_path):
    sol, a, b = demo("qwk")
    ids = list(pd.read_csv(sol).id_code)
    bad1 = write(tmp_path / "bad1.csv", csv([["id_code", "diagnosis"]] + [[i, 1] for i in ids[1:]]))
    bad2 = write(tmp_path / "bad2.csv", csv([["id_code", "diagnosis"]] + [[i, "x"] for i in ids]
                                          + [["zzz", 1]]))
    r = run("compare", sol, a, bad1, b, bad2, "--json", "--bootstrap", "100", "--permutations", "100")
    assert r.returncode == 2
    err = r.stderr.splitlines()
    assert all(line.startswith("kmetric: ") for line in err)
    assert any("bad1.csv" in line and "missing" in line for line in err)
    assert any("bad2.csv" in line and "not in the solution" in line for line in err)
    assert any("bad2.csv" in line and "'x'" in line for line in err)
    d = json.loads(r.stdout)
    assert [s["name"] for s in d["submissions"]] == [a.name, b.name]
    assert set(d["skipped"]) == {"bad1.csv", "bad2.csv"}
    r = run("compare", sol, a, bad1)       # one valid file left: nothing to compare
    assert r.returncode == 2 and r.stdout == ""
    assert "1 of 2 are valid" in r.stderr and "bad1.csv" in r.stderr
    assert "Traceback" not in r.stderr


def test_an_invalid_solution_is_reported_once(tmp_path):
    sol = write(tmp_path / "sol.csv", "id_code,diagnosis\na,1\na,2\n")
    _, a, b = demo("qwk")
    r = run("compare", sol, a, b)
    assert r.returncode == 2
    lines = r.stderr.splitlines()
    sol_lines = [x for x in lines if "sol.csv" in x]
    assert sol_lines and len(sol_lines) == len(set(sol_lines))      # once, not once per submission
    assert not any("(with submission" in x for x in sol_lines)
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("command", ["compare", "select"])
def test_a_metric_not_chosen_is_not_called_invalid_files(command, tmp_path):
    # Submissions that all fit several metrics: the one cause is said, without
    # "0 of 3 are valid" after it (the files are fine; the metric is not chosen).
    sol, a, b = demo("kendall")
    c = write(tmp_path / "c.csv", b.read_text())
    r = run(command, sol, a, b, c)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and "several metrics fit" in lines[0] and "--metric" in lines[0]
    assert "are valid" not in r.stderr


def test_a_submission_of_another_layout_is_named():
    sol, a, _ = demo("qwk")
    r = run("compare", sol, a, DEMO / "lwlrap_submission.csv")
    assert r.returncode == 2
    assert "submission lwlrap_submission.csv" in r.stderr     # the odd one out is named
    assert "1 of 2 are valid" in r.stderr


@pytest.mark.parametrize("flag,value,needle", [
    ("--bootstrap", "0", "--bootstrap must be between 1"),
    ("--ci", "1.5", "--ci must be between 0 and 1"),
    ("--permutations", "-1", "--permutations must be between 0"),
    ("--seed", "x", "--seed expects an integer"),
    ("--public-fraction", "0", "--public-fraction must be between 0 and 1"),
    ("--splits", "2.5", "--splits expects an integer"),
])
def test_bad_flags_name_the_flag_and_range(flag, value, needle):
    sol, a, b = demo("qwk")
    r = run("compare", sol, a, b, flag, value)
    assert r.returncode == 2
    assert needle in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_continuous_kappa_with_ignored_rows_in_process(tmp_path):
    """The app's path: continuous predictions through rounding cuts, Ignored rows left out."""
    from kmetric_gui.analysis.comparison import CompareOptions, compare_files
    from kmetric_gui.analysis.scoring import Options
    from reference import kappa_ref
    rng = np.random.default_rng(5)
    n = 300
    ids = [f"r{i:04d}" for i in range(n)]
    t = rng.integers(0, 4, n)
    usage = rng.choice(["Public", "Private", "Ignored"], n, p=[.3, .6, .1])
    xa, xb = t + rng.normal(0, .7, n), t + rng.normal(.3, .6, n)
    sol = write(tmp_path / "sol.csv", csv([["id", "y", "Usage"]] + list(zip(ids, t, usage))))
    pa = write(tmp_path / "a.csv", csv([["id", "y"]] + [[i, f"{v:.6f}"] for i, v in zip(ids, xa)]))
    pb = write(tmp_path / "b.csv", csv([["id", "y"]] + [[i, f"{v:.6f}"] for i, v in zip(ids, xb)]))
    cmp = compare_files(sol, [pa, pb], Options(allow_continuous=True),
                        CompareOptions(replicates=100, permutations=100, splits=100))
    xa, xb = (np.array([float(f"{v:.6f}") for v in x]) for x in (xa, xb))
    keep = usage != "Ignored"
    assert cmp.n_units == keep.sum()
    cuts = np.array([.5, 1.5, 2.5])
    rate = lambda x: np.searchsorted(cuts, x, side="right")
    for name in ("Public", "Private"):
        m = usage == name
        ref = kappa_ref(t[m], rate(xb[m]), lo=0, hi=3) - kappa_ref(t[m], rate(xa[m]), lo=0, hi=3)
        assert cmp.pairs[0].split_stats[name.lower()].delta == pytest.approx(ref, abs=1e-12)
    blend = cmp.pairs[0].blend
    for k in (0, 37, 50, 100):
        x = blend.alphas[k]
        ref = kappa_ref(t[keep], rate(x * xa[keep] + (1 - x) * xb[keep]), lo=0, hi=3)
        assert blend.scores[k] == pytest.approx(ref, abs=1e-12)
    d = cmp.to_json()
    assert d["public_fraction"] == pytest.approx((usage == "Public").sum() / keep.sum())
    assert d["pairs"][0]["blend"]["best_alpha"] == blend.best_alpha


def test_saved_blend_scores_what_the_curve_said(tmp_path):
    from kmetric_gui.analysis.comparison import CompareOptions, compare_files
    from kmetric_gui.errors import InputError
    from kmetric_gui.analysis.scoring import Options
    sol, a, b = demo("lwlrap")
    cmp = compare_files(sol, [a, b], Options(), CompareOptions(replicates=50, permutations=0))
    pair = cmp.pairs[0]
    out = tmp_path / "blend.csv"
    cmp.save_blend(pair, pair.blend.best_alpha, out)
    d = json.loads(run("score", sol, out, "--json").stdout)
    assert d["score"] == pytest.approx(pair.blend.best_score, abs=1e-12)
    header = out.read_text().splitlines()[0]
    assert header == pd.read_csv(a, nrows=0).columns.str.cat(sep=",")
    with pytest.raises(InputError):
        cmp.save_blend(pair, 1.5, out)
    f = compare_files(DEMO / "fbeta_solution.csv", [DEMO / "fbeta_submission.csv",
                                                    DEMO / "fbeta_submission_b.csv"],
                      Options(), CompareOptions(replicates=20, permutations=0))
    with pytest.raises(InputError):
        f.save_blend(f.pairs[0], 0.5, out)


def test_compare_reports_of_the_app_without_paths():
    from kmetric_gui.analysis.comparison import CompareOptions, compare_reports
    from kmetric_gui.analysis.scoring import Options, score_files
    sol, a, b = demo("fbeta")
    reports = [score_files(sol, x, Options()) for x in (a, b)]
    cmp = compare_reports(["A (edited)", "B"], [None, None], reports,
                          CompareOptions(replicates=50, permutations=50, splits=50))
    assert cmp.pairs[0].stats.delta == pytest.approx(reports[1].score - reports[0].score)
    assert not cmp.pairs[0].same_file and cmp.warnings == []


def test_compare_reports_refuses_another_truth():
    from dataclasses import replace

    from kmetric_gui.analysis.comparison import CompareOptions, compare_reports
    from kmetric_gui.errors import InputError
    from kmetric_gui.analysis.scoring import Options, score_files, score_prepared
    sol, a, b = demo("qwk")
    ra, rb = (score_files(sol, x, Options()) for x in (a, b))
    truth = ra.prepared.truth.copy()
    truth[0] = (truth[0] + 1) % 5                   # the shown data's solution was edited
    edited = score_prepared(replace(ra.prepared, truth=truth), Options())
    with pytest.raises(InputError, match="another truth"):
        compare_reports(["A", "B"], [None, None], [edited, rb], CompareOptions(replicates=10))
    rl = score_files(DEMO / "lwlrap_solution.csv", DEMO / "lwlrap_submission.csv", Options())
    with pytest.raises(InputError, match="layout fits lwlrap"):
        compare_reports(["A", "L"], [None, None], [ra, rl], CompareOptions(replicates=10))
