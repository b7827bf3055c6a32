"""What `kmetric score --help` says auto does for a confusion matrix is what it does: a
50-row three-class MCC gets the calibrated interval (before: the percentile, which
covered 0.923 at 50 rows in bench/coverage.py), a 50-row two-class one the percentile."""
import json

import numpy as np

from filemaker import csv, write
from test_cli_select import run


def label_files(tmp_path, n, k, seed=0):
    rng = np.random.default_rng(seed)
    t = np.resize(np.arange(k), n)
    p = np.where(rng.random(n) < 0.75, t, (t + 1) % k)
    sol = write(tmp_path / f"sol{k}.csv", csv([["id", "target"]] + [[i, v] for i, v in enumerate(t)]))
    sub = write(tmp_path / f"sub{k}.csv", csv([["id", "target"]] + [[i, v] for i, v in enumerate(p)]))
    return sol, sub


def test_auto_does_for_a_confusion_matrix_what_the_help_says(tmp_path):
    help_text = " ".join(run("score", "--help").stdout.split())
    assert ("for a confusion matrix calibrated below 50 rows (below 200 with three classes or "
            "more) or with a class of under 6 rows, else percentile") in help_text
    three = run("score", *label_files(tmp_path, 50, 3), "--metric", "mcc", "--ci", "0.95",
                "--bootstrap", "300", "--json")
    assert three.returncode == 0, three.stderr
    assert json.loads(three.stdout)["ci"]["method"] == "calibrated"
    two = run("score", *label_files(tmp_path, 50, 2), "--metric", "mcc", "--ci", "0.95",
              "--bootstrap", "300", "--json")
    assert two.returncode == 0, two.stderr
    assert json.loads(two.stdout)["ci"]["method"] == "percentile"
