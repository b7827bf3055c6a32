"""The n = 50 cells no interval method brings within 5 points of 95 % (bench/coverage.py:
binary kappa at 5 % prevalence, near-perfect agreement): `score --coverage-check` says so
beside the interval, in the text and in JSON, whichever method is asked for."""
import json

import numpy as np
import pytest

from test_cli import run


def _write(d, name, truth, pred):
    t, s = d / f"{name}_t.csv", d / f"{name}_s.csv"
    t.write_text("id,label\n" + "".join(f"r{i},{x}\n" for i, x in enumerate(truth)))
    s.write_text("id,label\n" + "".join(f"r{i},{x}\n" for i, x in enumerate(pred)))
    return t, s


def rare_binary(d):
    truth = np.zeros(50, dtype=int)
    truth[:3] = 1                   # 3 positives in 50: a 5 % class
    pred = np.zeros(50, dtype=int)
    pred[[0, 1, 10]] = 1
    return _write(d, "rare", truth, pred)


def near_perfect(d):
    truth = np.repeat(np.arange(5), [15, 12, 10, 8, 5])
    pred = truth.copy()
    pred[20] = 2                    # one disagreement in 50, one class off
    return _write(d, "near", truth, pred)


@pytest.mark.parametrize("make, method", [(rare_binary, "auto"), (near_perfect, "bca")])
def test_short_coverage_at_n_50_is_said_beside_the_interval(tmp_path, make, method):
    t, s = make(tmp_path)
    r = run("score", t, s, "--metric", "qwk", "--coverage-check", "--ci-method", method, "--json")
    assert r.returncode == 0, r.stderr
    ci = json.loads(r.stdout)["ci"]
    assert ci["coverage"]["simulations"] == 200
    assert ci["coverage"]["measured"] < 0.93
    assert any("below the nominal 95%" in w for w in ci["warnings"])
    text = run("score", t, s, "--metric", "qwk", "--coverage-check", "--ci-method",
               method).stdout.splitlines()
    at = next(i for i, line in enumerate(text) if line.startswith("score:"))
    assert text[at + 1].strip().startswith("coverage check:")       # right under the interval
    assert any("warning: measured coverage" in line and "below the nominal 95%" in line
               for line in text[at + 1:at + 5])
