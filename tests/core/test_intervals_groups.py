"""Grouped rows: whole groups resampled and split (core/groups.py, --group-column, --groups)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from filemaker import csv, write
from sklearn.metrics import cohen_kappa_score

from kmetric_gui.core.groups import group_codes, grouped_units
from kmetric_gui.metrics.kernels.kappa import weighted_kappa
from kmetric_gui.core.resample import Units, bootstrap, resample_indices
from kmetric_gui.metrics.kernels.units import kappa_units
from kmetric_gui.analysis.stats import interval_of

ROOT = Path(__file__).resolve().parents[2]


def _mean_units(x):
    return Units(np.column_stack([x, np.ones_like(x)]), lambda s: s[:, 0] / s[:, 1], None, "row")


def test_correlated_pairs_row_bootstrap_too_narrow_group_bootstrap_right():
    # Population: groups of two identical rows (both eyes of one patient), value N(0, 1)
    # per group; the population mean is 0. Resampling rows halves the variance it sees.
    rng = np.random.default_rng(0)
    g, datasets = 60, 200
    codes = np.repeat(np.arange(g), 2)
    row_hits = group_hits = 0
    for d in range(datasets):
        x = np.repeat(rng.normal(size=g), 2)
        units = _mean_units(x)
        row = interval_of(units, 0.95, 400, d, "percentile")
        grp = interval_of(grouped_units(units, codes, g), 0.95, 400, d, "percentile")
        row_hits += row.low <= 0 <= row.high
        group_hits += grp.low <= 0 <= grp.high
    # expected: rows about P(|Z| < 1.96 / sqrt 2) = 0.83, groups about 0.94 (n = 60)
    assert row_hits / datasets < 0.89
    assert abs(group_hits / datasets - 0.95) < 0.04


def test_grouped_kappa_replicates_equal_sklearn_on_the_drawn_groups_rows():
    rng = np.random.default_rng(3)
    n = 80
    t = rng.integers(0, 4, n)
    p = np.clip(t + rng.integers(-1, 2, n), 0, 3)
    labels = rng.integers(0, 25, n)          # 25 groups of uneven size
    res = weighted_kappa(t, p)
    obs = np.asarray(res.observed)
    lookup = np.full(16, -1)
    lookup[np.flatnonzero(obs)] = np.arange(np.count_nonzero(obs))
    codes, ng = group_codes(labels)
    gu = grouped_units(kappa_units(res), codes, ng, lookup[t * 4 + p])
    assert gu.n == ng == len(set(labels.tolist())) and gu.point() == pytest.approx(res.score)
    reps = bootstrap(gu, 30, seed=2)
    drawn = resample_indices(ng, 30, seed=2)     # the very group draws
    for r, groups in zip(reps, drawn):
        rows = np.concatenate([np.flatnonzero(codes == k) for k in groups])
        assert r == pytest.approx(cohen_kappa_score(t[rows], p[rows], weights="quadratic",
                                                    labels=range(4)), abs=1e-12)


def _run(*args):
    env = dict(os.environ)
    env.pop("KMETRIC_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "kmetric_gui.cli", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=ROOT)


def _pair_files(tmp_path):
    rng = np.random.default_rng(1)
    sol, sub, grp = [["id", "y", "patient"]], [["id", "y"]], [["id", "patient"]]
    for k in range(60):
        t = int(rng.integers(0, 5))
        q = int(np.clip(t + rng.integers(-1, 2), 0, 4))
        for eye in "LR":
            sol.append([f"p{k}{eye}", t, f"p{k}"])
            sub.append([f"p{k}{eye}", q])
            grp.append([f"p{k}{eye}", f"p{k}"])
    return (write(tmp_path / "s.csv", csv(sol)), write(tmp_path / "p.csv", csv(sub)),
            write(tmp_path / "g.csv", csv(grp)))


def test_cli_group_column_and_groups_file_agree_and_say_how_many(tmp_path):
    sol, sub, grp = _pair_files(tmp_path)
    base = ["score", sol, sub, "--ci", "0.95", "--ci-method", "percentile", "--shakeup",
            "--splits", "300", "--json"]
    by_col = json.loads(_run(*base, "--group-column", "patient").stdout)
    by_file = json.loads(_run(*base, "--groups", grp).stdout)
    rows = json.loads(_run(*base).stdout)
    assert by_col["ci"]["groups"] == 60 and "groups" not in rows["ci"]
    assert by_col["ci"] == by_file["ci"]
    # each pair is two identical rows: the group interval is wider than the row one
    assert by_col["ci"]["high"] - by_col["ci"]["low"] > 1.2 * (rows["ci"]["high"] - rows["ci"]["low"])
    human = _run(*base[:-1], "--group-column", "patient").stdout
    assert "60 groups" in human and "(18 of 60 groups)" in human


def test_cli_group_problems_are_named(tmp_path):
    sol, sub, grp = _pair_files(tmp_path)
    r = _run("score", sol, sub, "--ci", "0.95", "--group-column", "nope")
    assert r.returncode == 2 and "solution: no column 'nope'" in r.stderr
    part = write(tmp_path / "part.csv", "id,patient\np0L,p0\n")
    r = _run("score", sol, sub, "--ci", "0.95", "--groups", part)
    assert r.returncode == 2 and "no group for id 'p0R' and 118 more" in r.stderr


def test_compare_moves_whole_groups_and_says_how_many(tmp_path):
    sol, sub, grp = _pair_files(tmp_path)
    rng = np.random.default_rng(7)
    lines = sub.read_text().splitlines()
    other = [lines[0]]
    flip = {}
    for line in lines[1:]:            # B: both eyes of a patient moved together
        i, y = line.split(",")
        k = i[:-1]
        flip.setdefault(k, int(rng.integers(-1, 2)))
        other.append(f"{i},{int(np.clip(int(y) + flip[k], 0, 4))}")
    sub_b = write(tmp_path / "b.csv", "\n".join(other) + "\n")
    base = ["compare", sol, sub, sub_b, "--bootstrap", "400", "--permutations", "400", "--json"]
    rows = json.loads(_run(*base).stdout)
    grouped = json.loads(_run(*base, "--group-column", "patient").stdout)
    assert rows["n_units"] == 120 and grouped["n_units"] == 60 and grouped["unit"] == "group"
    assert all(s["ci"]["groups"] == 60 for s in grouped["submissions"])
    assert grouped["pairs"][0]["delta"] == rows["pairs"][0]["delta"]
    w_rows = rows["pairs"][0]["delta_ci"]["high"] - rows["pairs"][0]["delta_ci"]["low"]
    w_grp = grouped["pairs"][0]["delta_ci"]["high"] - grouped["pairs"][0]["delta_ci"]["low"]
    assert w_grp > 1.2 * w_rows          # identical pairs: the row bootstrap is too narrow
    by_file = json.loads(_run(*base, "--groups", grp).stdout)
    assert by_file["pairs"][0]["delta_ci"] == grouped["pairs"][0]["delta_ci"]
