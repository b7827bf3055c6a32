"""Words that mean what they say: Holm-adjusted p-values, 'B wins', the null, the interval's
quantity (kmetric compare / score)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kmetric_gui.core.multiple import holm

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"
SOL, A, B = (DEMO / f"qwk_{n}.csv" for n in ("solution", "submission", "submission_b"))


def run(*args):
    env = dict(os.environ)
    env.pop("KMETRIC_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "kmetric_gui.cli", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=ROOT)


def _holm_by_definition(p):
    """Holm (1979): reject H_(1..k) while p_(i) <= a / (m - i + 1); the adjusted p-value is
    the smallest level a at which H_(i) is rejected."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    for rank, i in enumerate(order):
        out[i] = min(1.0, max((m - r) * p[order[r]] for r in range(rank + 1)))
    return out


def test_holm_by_hand_and_by_definition():
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    rng = np.random.default_rng(0)
    for _ in range(50):
        p = rng.random(rng.integers(1, 9)) ** 3
        assert holm(p) == pytest.approx(_holm_by_definition(list(p)))
    got = holm([0.2, np.nan, 0.01])            # nan (no permutations) is not a test
    assert np.isnan(got[1]) and got[[0, 2]] == pytest.approx([0.2, 0.02])


def test_three_submissions_get_holm_adjusted_p_values_two_do_not():
    args = ["compare", SOL, A, B, SOL, "--bootstrap", "200", "--permutations", "300", "--json"]
    d = json.loads(run(*args).stdout)
    ps = [p["p_value"] for p in d["pairs"]]
    assert [p["p_value_holm"] for p in d["pairs"]] == pytest.approx(list(holm(ps)))
    two = json.loads(run("compare", SOL, A, B, "--bootstrap", "200", "--permutations", "300",
                         "--json").stdout)
    assert "p_value_holm" not in two["pairs"][0]
    human = run(*args[:-1]).stdout
    assert "Holm p" in human and "Holm's step-down" in human


def test_the_columns_say_what_they_are():
    out = run("compare", SOL, A, B, "--bootstrap", "200", "--permutations", "300").stdout
    assert "P(B>A)" not in out and "B wins" in out
    assert "share of bootstrap replicates (resampled test sets) in which B scores better" in out
    assert "exchangeable within each unit" in out
    assert "whole population this test set was drawn from" in out
    score = run("score", SOL, A, "--ci", "0.95", "--bootstrap", "200").stdout
    assert "95% intervals: for the score on the whole population" in score
