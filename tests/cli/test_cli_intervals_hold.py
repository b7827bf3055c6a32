"""The defects of issue "Intervals that keep their promise", each through the installed
command's module in a subprocess: the AUC coverage check, tiny data, DeLong's undefined
variance, group cautions, leaderboard ties, medal odds' own error, identical candidates.
Lower-is-better metrics (RMSE) beside higher-is-better ones in compare, select and rank."""
import json
import math

import numpy as np
import pytest

from filemaker import csv, write
from test_cli_select import run


def strict(text):
    def bad(x):
        raise ValueError(f"not JSON: {x}")
    return json.loads(text, parse_constant=bad)


def auc_files(tmp_path, n=200, positives=4, seed=0, subs=1):
    rng = np.random.default_rng(seed)
    y = np.zeros(n, dtype=int)
    y[rng.choice(n, positives, replace=False)] = 1
    sol = write(tmp_path / "auc_sol.csv", csv([["id", "target"]] + [[i, v] for i, v in enumerate(y)]))
    out = []
    for k in range(subs):
        s = np.round(rng.normal(size=n) + 1.2 * y, 4)
        out.append(write(tmp_path / f"auc_sub{k}.csv",
                         csv([["id", "target"]] + [[i, v] for i, v in enumerate(s)])))
    return sol, out


def reg_files(tmp_path, n=300, errors=None, groups=None, usage=False, seed=0, subs=1, name="r"):
    rng = np.random.default_rng(seed)
    t = np.round(10 + rng.normal(size=n), 4)
    head = ["id", "y"] + (["g"] if groups is not None else []) + (["Usage"] if usage else [])
    rows = [[f"i{i}", t[i]] + ([groups[i]] if groups is not None else [])
            + ([("Public", "Private")[i % 3 > 0]] if usage else []) for i in range(n)]
    sol = write(tmp_path / f"{name}_sol.csv", csv([head] + rows))
    out = []
    for k in range(subs):
        e = errors(rng, n) if errors is not None else rng.normal(size=n) * (1 + 0.1 * k)
        out.append(write(tmp_path / f"{name}_sub{k}.csv", csv([["id", "y"]] + [
            [f"i{i}", round(t[i] + e[i], 4)] for i in range(n)])))
    return sol, out


def test_auc_coverage_check_runs_in_score_and_compare(tmp_path):
    # Before: "internal error (TypeError: 'NoneType' object is not subscriptable)", exit 1.
    sol, (a, b) = auc_files(tmp_path, subs=2)
    r = run("score", sol, a, "--metric", "auc", "--coverage-check", "--json")
    assert r.returncode == 0, r.stderr
    ci = strict(r.stdout)["ci"]
    assert ci["method"] == "score" and ci["coverage"]["simulations"] == 200
    assert 0 <= ci["coverage"]["measured"] <= 1 and ci["low"] < ci["high"]
    r = run("compare", sol, a, b, "--metric", "auc", "--coverage-check", "--json",
            "--bootstrap", "300", "--permutations", "50", "--splits", "50")
    assert r.returncode == 0, r.stderr
    for s in strict(r.stdout)["submissions"]:
        assert s["ci"]["coverage"]["simulations"] == 200
    # and a lower-is-better metric beside it
    rsol, (ra, rb) = reg_files(tmp_path, n=150, subs=2)
    r = run("compare", rsol, ra, rb, "--metric", "rmse", "--coverage-check", "--json",
            "--bootstrap", "300", "--permutations", "50", "--splits", "50")
    assert r.returncode == 0, r.stderr
    d = strict(r.stdout)
    assert d["higher_is_better"] is False
    for s in d["submissions"]:
        assert s["ci"]["method"] == "studentised" and s["ci"]["coverage"]["simulations"] == 200


@pytest.mark.parametrize("metric", ["rmse", "qwk"])
def test_coverage_check_refuses_a_single_row(tmp_path, metric):
    # Before: one row printed "100.0% of 200 datasets ... covered".
    sol = write(tmp_path / "s.csv", "id,y\nr0,3\n")
    sub = write(tmp_path / "p.csv", "id,y\nr0,2\n")
    r = run("score", sol, sub, "--metric", metric, "--coverage-check")
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert lines == ["kmetric: --coverage-check needs at least 10 rows to draw datasets from; "
                     "this input has 1"]


def test_delong_with_one_positive_is_null_with_its_reason(tmp_path):
    # Before: "delong": {"se": NaN, "low": NaN, ...}: not JSON.
    sol, (sub,) = auc_files(tmp_path, n=50, positives=1)
    r = run("score", sol, sub, "--metric", "auc", "--json")
    assert r.returncode == 0, r.stderr
    d = strict(r.stdout)["delong"]
    assert d["se"] is None and d["low"] is None and d["high"] is None
    assert "at least 2 positive and 2 negative rows; there are 1 and 49" in d["undefined_reason"]


def test_few_groups_get_a_caution_and_one_group_refuses(tmp_path):
    groups = ["a" if i % 2 else "b" for i in range(300)]
    sol, (sub,) = reg_files(tmp_path, groups=groups)
    r = run("score", sol, sub, "--metric", "rmse", "--group-column", "g", "--json", "--ci", "0.95")
    assert r.returncode == 0, r.stderr
    ci = strict(r.stdout)["ci"]
    assert ci["groups"] == 2 and ci["too_narrow_likely"] is True
    assert any(w.startswith("too narrow likely: only 2 groups to resample") for w in ci["warnings"])
    human = run("score", sol, sub, "--metric", "rmse", "--group-column", "g", "--ci", "0.95").stdout
    assert "warning: too narrow likely: only 2 groups" in human
    one, (sub1,) = reg_files(tmp_path, groups=["x"] * 300, name="one")
    r = run("score", one, sub1, "--metric", "rmse", "--group-column", "g", "--ci", "0.95")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [
        "kmetric: an interval needs at least 2 groups to resample; every scored row is in one group"]


def test_a_usage_group_column_leaves_each_side_without_an_interval_said(tmp_path):
    sol, (sub,) = reg_files(tmp_path, usage=True)
    r = run("score", sol, sub, "--metric", "rmse", "--group-column", "Usage", "--json", "--ci",
            "0.95")
    assert r.returncode == 0, r.stderr
    d = strict(r.stdout)
    assert any("only 2 groups" in w for w in d["ci"]["warnings"])
    for side in ("public_ci", "private_ci"):
        assert d[side]["low"] is None and d[side]["too_narrow_likely"] is True
        assert any(w.startswith("no interval: an interval needs at least 2 groups")
                   for w in d[side]["warnings"])


def test_heavy_tailed_errors_are_flagged_too_narrow_likely(tmp_path):
    sol, (sub,) = reg_files(tmp_path, n=1000, errors=lambda rng, n: rng.standard_t(3, n), seed=4)
    ci = strict(run("score", sol, sub, "--metric", "rmse", "--json", "--ci", "0.95").stdout)["ci"]
    assert ci["method"] == "studentised" and ci["too_narrow_likely"] is True
    assert any(w.startswith("too narrow likely if the tail is heavy: the largest row holds")
               for w in ci["warnings"])
    light, (sub2,) = reg_files(tmp_path, n=1000, seed=4, name="light")
    ci = strict(run("score", light, sub2, "--metric", "rmse", "--json", "--ci", "0.95").stdout)["ci"]
    assert ci["too_narrow_likely"] is False and ci["warnings"] == []


def test_binary_kappa_with_three_positives_in_fifty_is_flagged(tmp_path):
    truth = [1, 1, 1] + [0] * 47
    pred = [1, 1, 0] + [0] * 7 + [1] + [0] * 39
    sol = write(tmp_path / "t.csv", csv([["id", "label"]] + [[i, v] for i, v in enumerate(truth)]))
    sub = write(tmp_path / "p.csv", csv([["id", "label"]] + [[i, v] for i, v in enumerate(pred)]))
    ci = strict(run("score", sol, sub, "--metric", "qwk", "--json", "--ci", "0.95").stdout)["ci"]
    assert any(w.startswith("too narrow likely: only 3 rows") for w in ci["warnings"])


def board(path, scores, dates=None):
    rows = [["TeamName", "SubmissionDate", "Score"]]
    for i, s in enumerate(scores):
        rows.append([f"t{i}", dates[i] if dates else "2024-01-01 00:00:00", repr(float(s))])
    return write(path, csv(rows))


@pytest.mark.parametrize("metric", ["rmse", "qwk"])
def test_ties_on_the_leaderboard_go_to_the_earlier_submission(tmp_path, metric):
    # Before: 9 teams at exactly our public score ranked behind us (rank 1).
    if metric == "rmse":
        sol, (sub,) = reg_files(tmp_path, usage=True)
    else:
        from test_cli_select import kappa_files
        sol, subs, _, _ = kappa_files(tmp_path, usage=True)
        sub = subs[0]
    ours = strict(run("score", sol, sub, "--metric", metric, "--json").stdout)["public"]
    worse = 1.0 if metric == "rmse" else -1.0
    scores = [ours] * 9 + [ours + worse * (0.2 + 0.01 * i) for i in range(40)]
    dates = [f"2024-01-{d:02d} 10:00:00" for d in range(1, 10)] + ["2024-01-01 00:00:00"] * 40
    lb = board(tmp_path / "lb.csv", scores, dates)
    got = {}
    for when in (None, "first", "2024-01-05T12:00:00"):
        args = ["rank", sol, sub, "--metric", metric, "--leaderboard", lb, "--json",
                "--correlation", "1", "--simulations", "400"]
        r = run(*args, *(["--submission-time", when] if when else []))
        assert r.returncode == 0, r.stderr
        got[when] = strict(r.stdout)
    assert got[None]["rank_now"] == 10 and got[None]["submission_time"] == "last"
    assert got["first"]["rank_now"] == 1
    assert got["2024-01-05T12:00:00"]["rank_now"] == 6          # 5 tied teams submitted earlier
    assert got[None]["rank_p50"] == 10 and got["first"]["rank_p50"] == 1    # at correlation 1
    assert any("every tie counts against us" in a for a in got[None]["assumptions"])
    r = run("rank", sol, sub, "--metric", metric, "--leaderboard", lb, "--submission-time", "soon")
    assert r.returncode == 2 and "--submission-time: 'soon' is not a date" in r.stderr


def test_rare_medal_odds_carry_their_error_and_agree_between_seeds(tmp_path):
    # Before: odds of 0.1-0.5 % from one set of 2,000 gaps differed 4-16x between runs,
    # with no error shown.
    sol, (sub,) = reg_files(tmp_path, n=400, usage=True)
    ours = strict(run("score", sol, sub, "--metric", "rmse", "--json").stdout)["public"]
    probe = board(tmp_path / "probe.csv", [ours + 1, ours + 2, ours + 3])
    gap_sd = strict(run("rank", sol, sub, "--metric", "rmse", "--leaderboard", probe,
                        "--json").stdout)["gap_sd"]
    # Ten teams ahead by about 3.2 sd of the difference of two gaps (correlation 0): gold
    # (top 10 of 101) needs passing one of them, a chance of well under 1 %.
    spread = gap_sd * math.sqrt(2)
    scores = list(ours - spread * np.linspace(3.1, 3.6, 10)) + list(ours + np.linspace(0.3, 2, 90))
    lb = board(tmp_path / "lb.csv", scores)
    odds = []
    for seed in ("0", "7"):
        r = run("rank", sol, sub, "--metric", "rmse", "--leaderboard", lb, "--json", "--seed",
                seed, "--correlation", "0")
        assert r.returncode == 0, r.stderr
        d = strict(r.stdout)
        odds.append(d["medal_odds"])
        assert d["batches"] >= 8 and d["splits"] >= 2000 * 0.9
        for k, o in d["medal_odds"].items():
            assert o["p"] == pytest.approx(d["medals"][k])
            assert o["p"] < 0.001 and o["shown"] in ("< 0.1 %", "0 %") or \
                o["se"] <= 0.25 * o["p"] + 1e-12
    gold = [o["gold"] for o in odds]
    assert 0.0005 < gold[0]["p"] < 0.02                 # a rare medal, as made
    assert abs(gold[0]["p"] - gold[1]["p"]) <= 4 * math.hypot(gold[0]["se"], gold[1]["se"])
    human = run("rank", sol, sub, "--metric", "rmse", "--leaderboard", lb, "--correlation", "0").stdout
    assert "gold " in human and "±" in human and "Monte-Carlo" in human


@pytest.mark.parametrize("metric", ["rmse", "qwk"])
def test_identical_candidates_are_said_indistinguishable(tmp_path, metric):
    # Before: "E1 and E2: 100 % that one of them is the best of the 3".
    if metric == "rmse":
        sol, (sub,) = reg_files(tmp_path)
    else:
        from test_cli_select import kappa_files
        sol, subs, _, _ = kappa_files(tmp_path)
        sub = subs[0]
    text = sub.read_text()
    files = [write(tmp_path / f"E{k}.csv", text) for k in (1, 2, 3)]
    r = run("select", sol, *files, "--metric", metric, "--json", "--bootstrap", "300")
    assert r.returncode == 0, r.stderr
    d = strict(r.stdout)
    assert d["verdict"].startswith("indistinguishable: all 3 candidates score the same")
    assert d["indistinguishable"] == [["E1.csv", "E2.csv", "E3.csv"]]
    human = run("select", sol, *files, "--metric", metric, "--bootstrap", "300").stdout
    assert "100 % that one of them" not in human and "indistinguishable" in human


def test_a_metric_file_interval_from_few_rows_is_flagged_and_unhonourable_flags_refused(tmp_path):
    from test_cli_select import ROOT
    folder = ROOT / "resources" / "metrics"
    sol = write(tmp_path / "s.csv", "".join((folder / "bll_solution.csv").read_text(
        ).splitlines(keepends=True)[:60]))
    sub = write(tmp_path / "p.csv", "".join((folder / "bll_submission.csv").read_text(
        ).splitlines(keepends=True)[:60]))
    mf = folder / "balanced_log_loss.py"
    r = run("score", sol, sub, "--metric-file", mf, "--ci", "0.95", "--bootstrap", "200", "--json")
    assert r.returncode == 0, r.stderr
    ci = strict(r.stdout)["ci"]
    assert ci["method"] == "percentile" and ci["too_narrow_likely"] is True
    assert any(w.startswith("too narrow likely: 59 rows; a percentile interval from re-scored")
               for w in ci["warnings"])
    # Before: --coverage-check and --group-column were silently ignored with a metric file.
    r = run("score", sol, sub, "--metric-file", mf, "--coverage-check", "--group-column", "id")
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith("kmetric: --coverage-check is not available")
    assert lines[1].startswith("kmetric: --group-column is not available with --metric-file")


def test_auto_does_for_auc_what_the_help_says(tmp_path):
    # Before: the help said auto calibrates below 200 units; for AUC it never did.
    help_text = " ".join(run("score", "--help").stdout.split())
    assert ("for a rank statistic of one 0/1 column the score interval below 50 rows of the "
            "rarer class") in help_text
    sol, (sub,) = auc_files(tmp_path, n=300, positives=6)
    human = run("score", sol, sub, "--metric", "auc", "--ci", "0.95").stdout
    assert "(auto: score, closed form)" in human
    sol2, (sub2,) = auc_files(tmp_path, n=300, positives=120, seed=1)
    ci = strict(run("score", sol2, sub2, "--metric", "auc", "--ci", "0.95", "--bootstrap", "300",
                    "--json").stdout)["ci"]
    assert ci["method"] == "percentile" and ci["replicates"] == 300


def test_the_report_page_carries_the_interval_warnings(tmp_path):
    sol, (sub,) = auc_files(tmp_path, n=200, positives=4)
    out = tmp_path / "rep"
    r = run("report", sol, sub, "--metric", "auc", "--out", out, "--ci", "0.95", "--ci-method",
            "percentile", "--bootstrap", "300")
    assert r.returncode == 0, r.stderr
    page = (out / "index.html").read_text()
    assert "warning: too narrow likely: only 4 rows in the rarer class" in page
    assert strict((out / "report.json").read_text())["ci"]["too_narrow_likely"] is True
