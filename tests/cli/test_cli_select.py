"""`kmetric select` and `kmetric rank` in a subprocess: JSON keys, agreement with
`kmetric score` and with scikit-learn, bad input (exit 2, one line per problem)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from filemaker import csv, write

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"
SELECT_KEYS = {"metric", "n_units", "replicates", "candidates", "best_set", "top_by_score",
               "verdict", "higher_is_better"}
RANK_KEYS = {"teams", "score", "rank_now", "rank_p05", "rank_p50", "rank_p95", "medals",
             "thresholds", "assumptions"}


def run(*args):
    env = dict(os.environ)
    env.pop("KMETRIC_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "kmetric_gui.cli", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=ROOT)


def kappa_files(tmp_path, n=150, c=4, seed=0, usage=False):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 4, n)
    head = ["id", "rating"] + (["Usage"] if usage else [])
    rows = [[f"r{i}", t[i]] + ([("Public", "Private")[i % 3 > 0]] if usage else [])
            for i in range(n)]
    sol = write(tmp_path / "sol.csv", csv([head] + rows))
    subs, preds = [], []
    for j in range(c):
        p = np.where(rng.random(n) < 0.5 + 0.08 * j, t, rng.integers(0, 4, n))
        preds.append(p)
        subs.append(write(tmp_path / f"s{j}.csv", csv([["id", "rating"]] +
                                                      [[f"r{i}", p[i]] for i in range(n)])))
    return sol, subs, t, preds


def test_select_json_keys_scores_and_probabilities(tmp_path):
    sol, subs, t, preds = kappa_files(tmp_path)
    r = run("select", sol, *subs, "--json", "--bootstrap", "400", "--seed", "2")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert SELECT_KEYS <= set(d)
    assert d["metric"] == "qwk" and d["higher_is_better"] is True
    assert d["n_units"] == 150 and d["replicates"] == 400 and d["draws"] == "exact"
    assert [c["name"] for c in d["candidates"]] == [s.name for s in subs]
    for c, p in zip(d["candidates"], preds):
        assert {"name", "score", "ci", "p_best"} <= set(c)
        assert c["score"] == pytest.approx(cohen_kappa_score(t, p, weights="quadratic"))
        assert c["ci"]["low"] <= c["score"] <= c["ci"]["high"]
    assert sum(c["p_best"] for c in d["candidates"]) == pytest.approx(1.0)
    assert set(d["best_set"]) >= {"names", "p_contains_best"} and len(d["best_set"]["names"]) == 2
    assert d["best_set"]["p_contains_best"] >= d["top_by_score"]["p_contains_best"] - 1e-12
    scores = [c["score"] for c in d["candidates"]]
    top = sorted(range(4), key=lambda j: -scores[j])[:2]
    assert set(d["top_by_score"]["names"]) == {subs[j].name for j in top}
    assert d["best_set"]["names"][0] in d["verdict"]
    # The same scores as `kmetric score`.
    one = json.loads(run("score", sol, subs[0], "--json").stdout)
    assert d["candidates"][0]["score"] == one["score"]


def test_select_human_output_and_pick_three(tmp_path):
    sol, subs, _, _ = kappa_files(tmp_path, c=5)
    r = run("select", sol, *subs, "--pick", "3", "--bootstrap", "300")
    assert r.returncode == 0, r.stderr
    assert "P(best)" in r.stdout and "verdict:" in r.stdout
    best = next(x for x in r.stdout.splitlines() if x.startswith("best set:"))
    assert best.count(".csv") == 3


def test_select_names_each_file_with_other_ids(tmp_path):
    sol, subs, _, _ = kappa_files(tmp_path, n=30, c=3)
    lines = subs[1].read_text().splitlines()
    write(subs[1], "\n".join(lines[:-1] + ["zz9,1"]) + "\n")          # one id swapped
    write(subs[2], "\n".join(lines[:-2]) + "\n")                      # two ids missing
    r = run("select", sol, subs[0], subs[1], subs[2], subs[0])
    assert r.returncode == 2
    err = r.stderr
    assert "s1.csv" in err and "zz9" in err and "s2.csv" in err
    assert "Traceback" not in err
    r = run("select", sol, *subs[:2], "--json")             # 1 valid of 2 is not enough
    assert r.returncode == 2 and "needs at least 3" in r.stderr


def test_select_needs_pick_plus_one(tmp_path):
    sol, subs, _, _ = kappa_files(tmp_path, n=30, c=3)
    r = run("select", sol, *subs, "--pick", "3")
    assert r.returncode == 2
    assert r.stderr.strip() == "kmetric: picking 3 needs at least 4 submissions; got 3"
    r = run("select", sol, *subs, "--pick", "zero", "--bootstrap", "-4")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 2


def test_compare_pairs_carry_the_min_detectable_delta(tmp_path):
    sol, subs, _, _ = kappa_files(tmp_path, c=2)
    d = json.loads(run("compare", sol, *subs, "--json", "--bootstrap", "300",
                       "--permutations", "0").stdout)
    p = d["pairs"][0]
    assert p["min_detectable_delta"] == pytest.approx(
        (1.959963984540054 + 0.8416212335729143) * p["delta_ci"]["se"])


# -- kmetric rank ---------------------------------------------------------------------

def kaggle_board(path, scores):
    rows = [["TeamId", "TeamName", "SubmissionDate", "Score"]]
    rows += [[1000 + i, f"team {i}", "2024-01-01 00:00:00", f"{s:.5f}"] for i, s in enumerate(scores)]
    return write(path, csv(rows))


def test_rank_json_keys_and_the_medal_rules(tmp_path):
    sol, subs, _, _ = kappa_files(tmp_path, n=300, c=1, usage=True)
    score = json.loads(run("score", sol, subs[0], "--json").stdout)
    rng = np.random.default_rng(0)
    board = kaggle_board(tmp_path / "lb.csv", sorted(score["public"] + rng.normal(0, 0.05, 299),
                                                     reverse=True))
    r = run("rank", sol, subs[0], "--leaderboard", board, "--json", "--simulations", "2000")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert RANK_KEYS <= set(d)
    assert d["teams"] == 300 and d["score"] == pytest.approx(score["public"])
    assert d["thresholds"] == {"gold": 10, "silver": 50, "bronze": 100}
    assert set(d["medals"]) == {"gold", "silver", "bronze", "none"}
    assert sum(d["medals"].values()) == pytest.approx(1.0)
    assert d["rank_p05"] <= d["rank_p50"] <= d["rank_p95"]
    assert d["gap_source"] == "shakeup" and len(d["assumptions"]) >= 3
    at1 = next(s for s in d["sensitivity"] if s["correlation"] == 1)
    assert at1["rank_p05"] == at1["rank_p95"] == d["rank_now"]
    # Plain two-column file (with and without a header): the same numbers.
    text = "team,score\n" + "".join(f"t{i},{x}\n" for i, x in
                                    enumerate(np.loadtxt(board, delimiter=",", skiprows=1,
                                                         usecols=3)))
    for body in (text, text.split("\n", 1)[1]):
        plain = write(tmp_path / "plain.csv", body)
        d2 = json.loads(run("rank", sol, subs[0], "--leaderboard", plain, "--json",
                            "--simulations", "2000").stdout)
        assert d2["rank_p50"] == d["rank_p50"] and d2["medals"] == d["medals"]


def test_rank_without_usage_uses_the_bootstrap_spread(tmp_path):
    sol, subs, _, _ = kappa_files(tmp_path, n=200, c=1)
    board = write(tmp_path / "lb.csv", "team,score\n" + "".join(f"t{i},{0.3 + i / 100}\n"
                                                                  for i in range(50)))
    d = json.loads(run("rank", sol, subs[0], "--leaderboard", board, "--json").stdout)
    assert d["gap_source"] == "bootstrap" and d["teams"] == 51
    assert any("bootstrap" in a for a in d["assumptions"])


def test_rank_bad_leaderboards(tmp_path):
    sol, subs, _, _ = kappa_files(tmp_path, n=100, c=1)
    nocol = write(tmp_path / "a.csv", "TeamId,TeamName,When\n1,x,y\n")
    r = run("rank", sol, subs[0], "--leaderboard", nocol)
    assert r.returncode == 2 and "no score column" in r.stderr and "TeamName" in r.stderr
    bad = kaggle_board(tmp_path / "b.csv", [0.9, 0.8])
    write(bad, bad.read_text() + "7,sevens,2024,n/a\n8,eights,2024,\n")
    r = run("rank", sol, subs[0], "--leaderboard", bad)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 2
    assert "row 3 (team 'sevens')" in lines[0] and "'n/a'" in lines[0]
    assert "row 4 (team 'eights')" in lines[1] and "empty" in lines[1]
    assert "Traceback" not in r.stderr


def test_rank_warns_on_direction_and_range(tmp_path):
    sol, subs, _, _ = kappa_files(tmp_path, n=200, c=1)
    lowfirst = kaggle_board(tmp_path / "c.csv", [0.1 + i / 100 for i in range(40)])
    r = run("rank", sol, subs[0], "--leaderboard", lowfirst)
    assert r.returncode == 0
    assert "lists the lowest score first" in r.stderr
    far = kaggle_board(tmp_path / "d.csv", [50 - i / 10 for i in range(40)])
    r = run("rank", sol, subs[0], "--leaderboard", far, "--json")
    assert r.returncode == 0
    assert "far outside the leaderboard's range" in r.stderr
    assert any("far outside" in w for w in json.loads(r.stdout)["warnings"])


def test_a_lower_is_better_metric_flips_the_advice_and_the_rank(tmp_path, monkeypatch):
    """The direction comes from the metric (``higher_is_better``): read as lower-is-better,
    the worst kappa becomes the likeliest best, and a leaderboard listed highest first warns."""
    from kmetric_gui.metrics import get_metric
    from kmetric_gui.analysis.ranking import RankOptions, land, read_leaderboard
    from kmetric_gui.analysis.scoring import score_files
    from kmetric_gui.analysis.select import SelectOptions, select_files
    sol, subs, _, _ = kappa_files(tmp_path, n=200, c=4, seed=3)
    up = select_files(sol, subs, sel=SelectOptions(replicates=500)).to_json()
    monkeypatch.setattr(get_metric("qwk"), "higher_is_better", False, raising=False)
    down = select_files(sol, subs, sel=SelectOptions(replicates=500)).to_json()
    assert up["higher_is_better"] is True and down["higher_is_better"] is False
    scores = [c["score"] for c in down["candidates"]]
    worst = subs[int(np.argmin(scores))].name
    assert max(down["candidates"], key=lambda c: c["p_best"])["name"] == worst
    assert down["top_by_score"]["names"][0] == worst
    board = kaggle_board(tmp_path / "lb.csv", [0.9 - i / 100 for i in range(40)])
    report = score_files(sol, subs[0])
    where = land(report, read_leaderboard(board), RankOptions(simulations=500))
    assert any("highest score first" in w for w in where.warnings)
    # Lower is better: the teams with higher scores are behind us.
    ours = report.score
    assert where.main.rank_now == 1 + sum(s < ours for s in [0.9 - i / 100 for i in range(40)])


def test_rank_reads_kaggles_zip_and_leaves_our_own_row_out(tmp_path):
    sol, subs, _, _ = kappa_files(tmp_path, n=200, c=1)
    rows = [["TeamId", "TeamName", "SubmissionDate", "Score"]]
    rows += [[i, f"team {i}", "2024-01-01", f"{0.9 - i / 100:.3f}"] for i in range(30)]
    rows.append([99, "us", "2024-01-02", "0.5"])
    zipped = write(tmp_path / "comp-publicleaderboard.csv", csv(rows), compress="zip")
    r = run("rank", sol, subs[0], "--leaderboard", zipped, "--json", "--team", "us")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["teams"] == 31 and d["thresholds"] == {"gold": 3, "silver": 6, "bronze": 12}
    r = run("rank", sol, subs[0], "--leaderboard", zipped, "--json", "--team", "nobody")
    assert json.loads(r.stdout)["teams"] == 32 and "not on the leaderboard" in r.stderr


def test_verdict_explains_a_near_copy_in_the_top_two(tmp_path):
    """A and A2 (2 % of rows changed) score above C on this sample: the top two by score
    hold the best less often than A + C, and the verdict says why."""
    rng = np.random.default_rng(0)
    n, k = 300, 5
    t = rng.integers(0, k, n)
    c = np.where(rng.random(n) < 0.64, t, rng.integers(0, k, n))
    a = np.where(rng.random(n) < 0.62, t, rng.integers(0, k, n))
    a2 = np.where(rng.random(n) < 0.02, rng.integers(0, k, n), a)
    sol = write(tmp_path / "sol.csv", csv([["id", "rating"]] + [[f"r{i}", t[i]] for i in range(n)]))
    files = [write(tmp_path / f"{name}.csv", csv([["id", "rating"]] +
                                                  [[f"r{i}", p[i]] for i in range(n)]))
             for name, p in (("A", a), ("A2", a2), ("C", c))]
    d = json.loads(run("select", sol, *files, "--json").stdout)
    assert set(d["top_by_score"]["names"]) == {"A.csv", "A2.csv"}
    assert set(d["best_set"]["names"]) == {"A.csv", "C.csv"}
    assert d["best_set"]["p_contains_best"] > d["top_by_score"]["p_contains_best"] + 0.1
    assert "A2.csv is nearly a copy of A.csv" in d["verdict"]
    assert d["verdict"].startswith("A.csv and C.csv: ")
    i, j = (d["agreement"]["names"].index(x) for x in ("A.csv", "A2.csv"))
    assert d["agreement"]["matrix"][i][j] > 0.9


def test_report_of_three_submissions_holds_the_select_object(tmp_path):
    sol, subs, _, _ = kappa_files(tmp_path, n=120, c=3)
    r = run("report", sol, *subs, "--out", tmp_path / "rep")
    assert r.returncode == 0, r.stderr
    rep = json.loads((tmp_path / "rep" / "report.json").read_text())
    ref = json.loads(run("select", sol, *subs, "--json").stdout)
    assert rep["select"] == ref                      # the `kmetric select --json` object
    assert "tables/select_candidates.csv" in rep["tables"]
    rows = (tmp_path / "rep" / "tables" / "select_candidates.csv").read_text().splitlines()
    assert len(rows) == 4 and rows[0].startswith("candidate,score")


def test_report_with_a_leaderboard_holds_the_rank_object(tmp_path):
    sol, subs, _, _ = kappa_files(tmp_path, n=200, c=2, usage=True)
    board = kaggle_board(tmp_path / "lb.csv", [0.9 - i / 200 for i in range(120)])
    r = run("report", sol, *subs, "--out", tmp_path / "rep", "--leaderboard", board)
    assert r.returncode == 0, r.stderr
    rep = json.loads((tmp_path / "rep" / "report.json").read_text())
    ref = json.loads(run("rank", sol, subs[0], "--leaderboard", board, "--json").stdout)
    assert rep["rank"] == ref                        # the `kmetric rank --json` object
    rows = (tmp_path / "rep" / "tables" / "rank_histogram.csv").read_text().splitlines()
    assert rows[0] == "rank,simulations,medal"
    assert sum(int(x.split(",")[1]) for x in rows[1:]) == ref["simulations"]
    bad = write(tmp_path / "bad.csv", "TeamId,TeamName,When\n1,x,y\n")
    r = run("report", sol, *subs, "--out", tmp_path / "rep2", "--leaderboard", bad)
    assert r.returncode == 2 and "no score column" in r.stderr
