"""`kmetric score --ci/--bootstrap/--seed/--shakeup`: the real command in a subprocess."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from filemaker import csv, write
from sklearn.metrics import cohen_kappa_score, confusion_matrix

from kmetric_gui.core.resample import resample_counts

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"
QWK = (DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv")
CI_KEYS = ["level", "low", "high", "se", "method", "replicates", "seed", "undefined_replicates",
           "warnings", "too_narrow_likely"]
SHAKE_KEYS = ["public_fraction", "splits", "seed", "gap_mean", "gap_sd", "gap_p05", "gap_p50",
              "gap_p95", "actual_gap", "actual_gap_percentile"]


def run(*args):
    env = dict(os.environ)
    env.pop("KMETRIC_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "kmetric_gui.cli", "score", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=ROOT)


def _demo(metric):
    return DEMO / f"{metric}_solution.csv", DEMO / f"{metric}_submission.csv"


def _qwk_rows():
    sol, sub = pd.read_csv(QWK[0]), pd.read_csv(QWK[1])
    return sol.merge(sub, on="id_code", suffixes=("_t", "_p"))


def _reference_interval(t, p, labels, level, b, seed):
    """Percentile interval from sklearn on rows rebuilt from the drawn cell counts."""
    o = confusion_matrix(t, p, labels=labels)
    ti, pj = np.nonzero(o)
    counts = resample_counts(o[ti, pj], b, seed)
    reps = np.array([cohen_kappa_score(np.repeat(ti, c), np.repeat(pj, c), weights="quadratic",
                                       labels=range(len(labels))) for c in counts])
    a = (1 - level) / 2
    return np.quantile(reps, [a, 1 - a]), reps.std(ddof=1)


def test_kappa_json_intervals_equal_sklearn_on_the_same_draws():
    r = run(*QWK, "--ci", "0.9", "--bootstrap", "300", "--seed", "7", "--ci-method", "percentile",
            "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert list(d["ci"]) == CI_KEYS
    assert d["ci"]["level"] == 0.9 and d["ci"]["replicates"] == 300 and d["ci"]["seed"] == 7
    assert d["ci"]["method"] == "percentile" and d["ci"]["undefined_replicates"] == 0
    m = _qwk_rows()
    labels = list(range(5))
    for key, rows in (("ci", m), ("public_ci", m[m.Usage == "Public"]),
                      ("private_ci", m[m.Usage == "Private"])):
        (lo, hi), se = _reference_interval(rows.diagnosis_t, rows.diagnosis_p, labels, 0.9, 300, 7)
        assert d[key]["low"] == pytest.approx(lo, abs=1e-12), key
        assert d[key]["high"] == pytest.approx(hi, abs=1e-12), key
        assert d[key]["se"] == pytest.approx(se, abs=1e-12), key
        assert d[key]["low"] < d[key.replace("_ci", "") if key != "ci" else "score"] < d[key]["high"]


def test_shakeup_json_uses_the_usage_share_and_the_actual_gap():
    r = run(*QWK, "--shakeup", "--splits", "400", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert "ci" not in d
    s = d["shakeup"]
    assert list(s)[:10] == SHAKE_KEYS
    assert s["public_fraction"] == pytest.approx(178 / 600) and s["splits"] == 400 and s["seed"] == 0
    assert s["actual_gap"] == pytest.approx(d["private"] - d["public"], abs=1e-15)
    assert 0 <= s["actual_gap_percentile"] <= 100
    assert s["gap_p05"] < s["gap_p50"] < s["gap_p95"] and s["gap_sd"] > 0
    r2 = run(*QWK, "--shakeup", "--splits", "400", "--public-fraction", "0.5", "--json")
    assert json.loads(r2.stdout)["shakeup"]["public_fraction"] == 0.5


def test_human_lines():
    r = run(*QWK, "--ci", "0.95", "--shakeup")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert re.search(r"^score:   0\.\d{6}  \[0\.\d{3,6}, 0\.\d{3,6}\] 95% CI "
                     r"\(auto: percentile, 2000 replicates, seed 0\)$", out, re.M), out
    assert re.search(r"^public:  0\.\d{6}  \[.*\] 95% CI", out, re.M)
    assert re.search(r"^private: 0\.\d{6}  \[.*\] 95% CI", out, re.M)
    assert "shake-up: 2000 random splits, Public 30% (178 of 600 rows), seed 0" in out
    assert "actual gap" in out


@pytest.mark.parametrize("metric", ["lwlrap", "fbeta"])
def test_other_metrics_and_bca(metric):
    r = run(*_demo(metric), "--ci", "0.95", "--bootstrap", "500", "--ci-method", "bca",
            "--shakeup", "--splits", "300", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["ci"]["method"] == "bca" and d["ci"]["low"] < d["score"] < d["ci"]["high"]
    assert list(d["shakeup"])[:10] == SHAKE_KEYS
    assert d["shakeup"]["public_fraction"] == 0.3          # no Usage column: the default
    assert d["shakeup"]["actual_gap"] is None
    if metric == "lwlrap":
        assert set(d["per_class_ci"]) == set(d["per_class"])
        for name, ci in d["per_class_ci"].items():
            assert list(ci) == CI_KEYS and ci["low"] <= d["per_class"][name] <= ci["high"]
    else:
        assert "per_class_ci" not in d


def test_same_seed_same_output_other_seed_differs():
    a = run(*_demo("lwlrap"), "--ci", "0.95", "--bootstrap", "200", "--seed", "3", "--shakeup", "--json")
    b = run(*_demo("lwlrap"), "--ci", "0.95", "--bootstrap", "200", "--seed", "3", "--shakeup", "--json")
    c = run(*_demo("lwlrap"), "--ci", "0.95", "--bootstrap", "200", "--seed", "4", "--shakeup", "--json")
    assert a.stdout == b.stdout and a.stdout != c.stdout


@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta"])
def test_without_the_flags_nothing_changes(metric):
    plain = run(*_demo(metric))
    seeded = run(*_demo(metric), "--seed", "5")
    assert plain.returncode == 0 and plain.stdout == seeded.stdout
    assert "CI" not in plain.stdout and "shake-up" not in plain.stdout
    d = json.loads(run(*_demo(metric), "--json").stdout)
    assert not {"ci", "public_ci", "private_ci", "shakeup", "per_class_ci"} & set(d)


@pytest.mark.parametrize("flags,needle", [
    (["--ci", "1"], "--ci must be between 0 and 1 (exclusive); got 1"),
    (["--ci", "0"], "--ci must be between 0 and 1"),
    (["--ci", "-0.5"], "--ci must be between 0 and 1"),
    (["--ci", "abc"], "--ci expects a number; got 'abc'"),
    (["--ci", "nan"], "--ci expects a finite number"),
    (["--bootstrap", "0"], "--bootstrap must be between 1 and 1,000,000; got 0"),
    (["--bootstrap", "2000000"], "--bootstrap must be between 1 and 1,000,000"),
    (["--bootstrap", "1.5"], "--bootstrap expects an integer"),
    (["--shakeup", "--splits", "0"], "--splits must be between 1 and 1,000,000"),
    (["--shakeup", "--splits", "5000000"], "--splits must be between 1 and 1,000,000"),
    (["--shakeup", "--public-fraction", "1.2"], "--public-fraction must be between 0 and 1"),
    (["--shakeup", "--public-fraction", "0"], "--public-fraction must be between 0 and 1"),
    (["--splits", "10"], "--splits is a shake-up option: add --shakeup"),
    (["--seed", "-1", "--ci", "0.9"], "--seed must be 0 or more"),
])
def test_bad_flags_exit_2_with_one_line(flags, needle, capsys):
    from kmetric_gui.cli import main     # in-process: the flags are checked before any file is read
    assert main(["score", *map(str, QWK), *flags]) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], err
    assert lines[0].startswith("kmetric: ") and out == ""


def test_shakeup_of_one_row_is_refused(tmp_path):
    a = write(tmp_path / "s.csv", csv([["id", "y"], ["a", 1]]))
    b = write(tmp_path / "p.csv", csv([["id", "y"], ["a", 1]]))
    r = run(a, b, "--metric", "qwk", "--shakeup")
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "--shakeup: a shake-up needs at least 2 rows to split" in lines[0]


def test_undefined_replicates_are_shown(tmp_path):
    a = write(tmp_path / "s.csv", csv([["id", "y"], ["a", 0], ["b", 0], ["c", 1]]))
    b = write(tmp_path / "p.csv", csv([["id", "y"], ["a", 0], ["b", 0], ["c", 1]]))
    r = run(a, b, "--metric", "qwk", "--ci", "0.9", "--bootstrap", "300")
    assert r.returncode == 0, r.stderr
    n = int(re.search(r"(\d+) undefined\)", r.stdout).group(1))
    assert 60 < n < 140                                      # P(one class only) = 1/3
    d = json.loads(run(a, b, "--metric", "qwk", "--ci", "0.9", "--bootstrap", "300", "--json").stdout)
    assert d["ci"]["undefined_replicates"] == n and d["ci"]["replicates"] == 300


def test_python_api_matches_the_command_and_can_be_cancelled():
    from kmetric_gui.errors import Cancelled
    from kmetric_gui.analysis.scoring import score_files
    from kmetric_gui.analysis.stats import ShakeupOptions, StatsOptions, analyze
    rep = score_files(*_demo("lwlrap"))
    st = analyze(rep, StatsOptions(0.9, 300, 2, "bca"), ShakeupOptions(None, 200, 2))
    r = run(*_demo("lwlrap"), "--ci", "0.9", "--bootstrap", "300", "--seed", "2", "--ci-method", "bca",
            "--shakeup", "--splits", "200", "--json")
    d = json.loads(r.stdout)
    assert st.to_json() == {k: d[k] for k in ("ci", "per_class_ci", "shakeup")}
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) > 1

    with pytest.raises(Cancelled):
        analyze(rep, StatsOptions(0.9, 5000, 0), None, cancel=cancel)
    with pytest.raises(Cancelled):
        analyze(rep, None, ShakeupOptions(None, 50000, 0), cancel=lambda: True)


def test_compact_text_for_the_score_panel():
    from kmetric_gui.core.intervals import Interval
    from kmetric_gui.analysis.stats import compact_text
    iv = Interval(0.7412, 0.8123, 0.02, 0.95, "percentile", 2000, 0)
    assert compact_text(0.778012, iv) == "0.7780 [0.741, 0.812]"
    narrow = Interval(0.77801, 0.77809, 2e-5, 0.95, "percentile", 2000, 0)
    assert compact_text(0.778050, narrow) == "0.7781 [0.778010, 0.778090]"   # width decides decimals
    nan = float("nan")
    assert compact_text(nan, Interval(nan, nan, nan, 0.95, "percentile", 10, 10)) == "undefined [undefined]"


def test_app_keeps_the_intervals_when_no_shakeup_can_be_made(tmp_path):
    from kmetric_gui.errors import InputError
    from kmetric_gui.analysis.scoring import score_files
    from kmetric_gui.analysis.stats import ShakeupOptions, StatsOptions, analyze
    a = write(tmp_path / "s.csv", csv([["id", "y"], ["a", 1]]))
    b = write(tmp_path / "p.csv", csv([["id", "y"], ["a", 2]]))
    rep = score_files(a, b)
    st = analyze(rep, StatsOptions(0.9, 50), ShakeupOptions())
    assert st.shakeup is None and "at least 2 rows" in st.shakeup_problem
    assert st.intervals["ci"].replicates == 50
    assert st.to_json()["shakeup_problem"] == st.shakeup_problem
    with pytest.raises(InputError, match="at least 2 rows"):
        analyze(rep, None, ShakeupOptions(), strict=True)
