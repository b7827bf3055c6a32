"""Grouped rows in `kmetric report` and with `score --top-fixes`: the report's intervals,
shake-up and comparison are `score` / `compare` with the same --group-column (the
grouped bootstrap, tested against a coverage simulation and plain loops elsewhere);
a fix's gain stays per row."""
import json

import numpy as np
import pytest

from test_cli import run


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("groups")
    rng = np.random.default_rng(1)
    n = 200
    t = np.repeat(rng.integers(0, 5, n // 2), 2)
    a = np.clip(t + np.repeat(rng.integers(-1, 2, n // 2), 2), 0, 4)
    b = np.clip(t + rng.integers(-1, 2, n), 0, 4)
    (d / "t.csv").write_text("id,patient,diagnosis\n" + "".join(
        f"r{i},p{i // 2},{x}\n" for i, x in enumerate(t)))
    for name, p in (("a.csv", a), ("b.csv", b)):
        (d / name).write_text("id,diagnosis\n" + "".join(f"r{i},{x}\n" for i, x in enumerate(p)))
    return d


def _json(*args):
    r = run(*args, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_report_groups_as_score_and_compare(files, tmp_path):
    flags = ["--group-column", "patient", "--ci", "0.9", "--bootstrap", "500", "--shakeup",
             "--splits", "300"]
    out = tmp_path / "rep"
    r = run("report", files / "t.csv", files / "a.csv", files / "b.csv", "--out", out, *flags)
    assert r.returncode in (0, 3), r.stderr
    rep = json.loads((out / "report.json").read_text())
    score = _json("score", files / "t.csv", files / "a.csv", *flags)
    assert rep["groups"] == 100 and rep["ci"]["groups"] == 100
    assert rep["ci"] == score["ci"]
    assert rep["shakeup"] == score["shakeup"]
    cmp = _json("compare", files / "t.csv", files / "a.csv", files / "b.csv",
                "--group-column", "patient", "--ci", "0.9", "--bootstrap", "500")
    assert rep["comparison"]["n_units"] == cmp["n_units"] == 100
    assert rep["comparison"]["pairs"][0]["delta_ci"] == cmp["pairs"][0]["delta_ci"]
    page = (out / "index.html").read_text()
    assert "Rows in 100 groups" in page and "of 100 groups" in page
    # without groups: rows, and the report says nothing of groups
    plain = tmp_path / "plain"
    r = run("report", files / "t.csv", files / "a.csv", "--out", plain, "--ci", "0.9",
            "--bootstrap", "500")
    assert r.returncode in (0, 3), r.stderr
    rep = json.loads((plain / "report.json").read_text())
    assert "groups" not in rep and "groups" not in rep["ci"]
    assert rep["ci"]["high"] - rep["ci"]["low"] < score["ci"]["high"] - score["ci"]["low"]


def test_report_with_a_missing_group_column_exits_2_in_one_line(files, tmp_path):
    r = run("report", files / "t.csv", files / "a.csv", "--out", tmp_path / "x",
            "--group-column", "ward", "--ci", "0.9")
    assert r.returncode == 2
    assert "no column 'ward'" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "x" / "report.json").exists()


def test_fix_gains_stay_per_row_with_groups(files):
    plain = _json("score", files / "t.csv", files / "a.csv", "--top-fixes", "10")
    grouped = _json("score", files / "t.csv", files / "a.csv", "--top-fixes", "10",
                    "--group-column", "patient")
    assert grouped["top_fixes"] == plain["top_fixes"]
    r = run("score", files / "t.csv", files / "a.csv", "--top-fixes", "3", "--group-column",
            "patient")
    assert r.returncode == 0
    assert "rows in 100 groups: each gain is of fixing one row" in r.stdout
    bad = run("score", files / "t.csv", files / "a.csv", "--top-fixes", "3", "--group-column",
              "ward")
    assert bad.returncode == 2 and "no column 'ward'" in bad.stderr
