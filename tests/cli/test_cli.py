"""The real `kmetric` command in a subprocess: exit codes, JSON, stderr."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from filemaker import csv, write

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"


def run(*args):
    env = dict(os.environ)
    env.pop("KMETRIC_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "kmetric_gui.cli", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=ROOT)


def test_json_kappa_demo():
    r = run("score", DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["metric"] == "qwk" and d["n_rows"] == 600
    assert {"score", "public", "private", "observed", "chosen"} <= set(d)
    # the JSON score equals sklearn on the joined files
    import pandas as pd
    from sklearn.metrics import cohen_kappa_score
    sol = pd.read_csv(DEMO / "qwk_solution.csv")
    sub = pd.read_csv(DEMO / "qwk_submission.csv")
    m = sol.merge(sub, on="id_code", suffixes=("_t", "_p"))
    assert d["score"] == pytest.approx(cohen_kappa_score(
        m.diagnosis_t, m.diagnosis_p, weights="quadratic", labels=range(5)))
    pub = m[m.Usage == "Public"]
    assert d["public"] == pytest.approx(cohen_kappa_score(
        pub.diagnosis_t, pub.diagnosis_p, weights="quadratic", labels=range(5)))


@pytest.mark.parametrize("metric,keys", [("lwlrap", {"per_class", "tied_positives"}),
                                         ("fbeta", {"tp", "fp", "fn"})])
def test_json_other_metrics(metric, keys):
    r = run("score", DEMO / f"{metric}_solution.csv", DEMO / f"{metric}_submission.csv", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["metric"] == metric and keys <= set(d) and 0 < d["score"] <= 1


def test_human_output_names_choice():
    r = run("score", DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv")
    assert r.returncode == 0
    assert "metric:  qwk" in r.stdout and "one target column" in r.stdout
    assert "public:" in r.stdout and "private:" in r.stdout


def test_undefined_score_is_null_and_exit_0(tmp_path):
    a = write(tmp_path / "s.csv", "id,y\na,2\nb,2\n")
    b = write(tmp_path / "p.csv", "id,y\na,2\nb,2\n")
    r = run("score", a, b, "--json")
    assert r.returncode == 0
    d = json.loads(r.stdout)
    assert d["score"] is None and "rating 2" in d["undefined_reason"]


@pytest.mark.parametrize("sub,needle", [
    ("id,y\na,1\na,2\nb,0\n", "duplicate id(s) in column 'id': 'a' (rows 1, 2)"),
    ("id,y\na,1\n", "missing: 'b'"),
    ("id,y\na,1\nb,x\n", "'x'"),
    ("", "file is empty"),
])
def test_bad_input_exit_2_one_line_per_problem(tmp_path, sub, needle):
    a = write(tmp_path / "s.csv", "id,y\na,1\nb,0\n")
    b = write(tmp_path / "p.csv", sub)
    r = run("score", a, b, "--metric", "qwk", "--json")     # 0/1 ratings: kappa named
    assert r.returncode == 2
    assert r.stdout == ""
    assert needle in r.stderr and "Traceback" not in r.stderr
    assert all(line.startswith("kmetric: ") for line in r.stderr.splitlines())
    assert "p.csv" in r.stderr


def test_missing_file_and_bad_option():
    r = run("score", "nope.csv", DEMO / "qwk_submission.csv")
    assert r.returncode == 2 and "nope.csv: file not found" in r.stderr
    r = run("score", DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv", "--weights", "cubic")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    r = run("score", DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv", "--threshold", "nan")
    assert r.returncode == 2 and "finite" in r.stderr


def test_declared_range_violation(tmp_path):
    a = write(tmp_path / "s.csv", csv([["id", "y"], ["a", 1], ["b", 7]]))
    b = write(tmp_path / "p.csv", csv([["id", "y"], ["a", 1], ["b", 2]]))
    r = run("score", a, b, "--max-rating", "4")
    assert r.returncode == 2
    assert "s.csv: column 'y': 1 rating(s) above the declared maximum 4: row 2 (id 'b'): 7" in r.stderr
