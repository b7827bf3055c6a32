"""Every command's JSON is JSON: parsed with a strict parser (NaN and Infinity, which
Python's json writes by default and JSON has not, are refused) over every demo of every
registered metric and over edge data where numbers are undefined (one positive, one
class, perfect agreement, one row). `check-metric` prints no JSON."""
import json

import numpy as np
import pytest

from filemaker import csv, write
from kmetric_gui.cli import main
from kmetric_gui.metrics import REGISTRY


def _refuse(name):
    raise ValueError(f"{name} is not JSON")


def strict(text):
    return json.loads(text, parse_constant=_refuse)


def _no_bare_floats(x):
    """Every number finite (a strict parser refuses the rest; this checks the writer too)."""
    if isinstance(x, float):
        assert np.isfinite(x)
    elif isinstance(x, dict):
        for v in x.values():
            _no_bare_floats(v)
    elif isinstance(x, list):
        for v in x:
            _no_bare_floats(v)


def command_json(capsys, *args):
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    assert code in (0, 2), out.err
    if code == 2:            # refused with its reasons (one line each), nothing on stdout
        assert out.out == "" and out.err.strip()
        return None
    d = strict(out.out)
    _no_bare_floats(d)
    return d


FAST = ["--bootstrap", "200", "--seed", "1"]
COMPARE = FAST + ["--permutations", "40", "--splits", "40"]


def leaderboard(path, score, higher):
    step = 0.01 if higher else -0.01
    rows = [["TeamName", "SubmissionDate", "Score"]] + [
        [f"t{i}", f"2024-01-{1 + i:02d} 00:00:00", score + step * (i - 4)] for i in range(9)]
    return write(path, csv(rows))


def every_command(capsys, tmp_path, metric, sol, sub, sub_b):
    """score, compare, select, rank and report's report.json of one truth and two
    submissions; returns the score object."""
    m = ["--metric", metric]
    d = command_json(capsys, "score", sol, sub, *m, "--json", "--ci", "0.95", *FAST,
                     "--shakeup", "--splits", "50", "--top-fixes", "3")
    if d is None:          # e.g. too few units to split: the interval alone
        d = command_json(capsys, "score", sol, sub, *m, "--json", "--ci", "0.95", *FAST)
    command_json(capsys, "compare", sol, sub, sub_b, *m, "--json", *COMPARE)
    third = write(tmp_path / f"copy_{sub.name}", sub.read_text())
    command_json(capsys, "select", sol, sub, sub_b, third, *m, "--json", *FAST)
    if d is not None and d["score"] is not None:
        lb = leaderboard(tmp_path / f"lb_{metric}.csv", d["score"], d["higher_is_better"])
        command_json(capsys, "rank", sol, sub, *m, "--leaderboard", lb, "--json",
                     "--simulations", "500")
    out = tmp_path / f"report_{metric}"
    code = main([str(x) for x in ("report", sol, sub, sub_b, *m, "--out", out, "--ci", "0.95",
                                  *FAST)])
    capsys.readouterr()
    if code == 0:
        _no_bare_floats(strict((out / "report.json").read_text()))
    return d


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_command_on_every_demo_writes_strict_json(capsys, tmp_path, name):
    paths = REGISTRY[name].demo_paths()
    if paths is None:
        pytest.skip(f"{name} has no demo")
    sol, sub = map(type(tmp_path), paths)
    d = every_command(capsys, tmp_path, name, sol, sub, sub.with_name(f"{name}_submission_b.csv"))
    assert d is not None and d["metric"] == name and "ci" in d


def _pair(tmp_path, name, truth, pred, pred_b):
    rows = lambda v: csv([["id", "target"]] + [[f"r{i}", x] for i, x in enumerate(v)])  # noqa: E731
    return (write(tmp_path / f"{name}_t.csv", rows(truth)), write(tmp_path / f"{name}_a.csv", rows(pred)),
            write(tmp_path / f"{name}_b.csv", rows(pred_b)))


EDGES = {
    # AUC with one positive: DeLong's variance is undefined (was bare NaN)
    "auc-one-positive": ("auc", [1] + [0] * 29, np.linspace(0, 1, 30).round(3).tolist(),
                         np.linspace(1, 0, 30).round(3).tolist()),
    # AUC with no positive: the score itself is undefined
    "auc-one-class": ("auc", [0] * 20, np.linspace(0, 1, 20).round(3).tolist(),
                      np.linspace(1, 0, 20).round(3).tolist()),
    # perfect agreement: every replicate the same (a zero-width interval)
    "qwk-perfect": ("qwk", [0, 1, 2, 3] * 10, [0, 1, 2, 3] * 10, [0, 1, 2, 2] * 10),
    # one row: intervals of one unit, no shake-up possible
    "rmse-one-row": ("rmse", [3.0], [2.5], [1.0]),
    # log loss with certain, wrong predictions (clipped)
    "logloss-certain": ("logloss", [1, 0, 1, 0] * 5, [0, 1, 1, 0] * 5, [0.5] * 20),
    # F1 with the positive class never predicted
    "f1-none-predicted": ("f1", [1, 0, 0, 1] * 6, [0] * 24, [1] * 24),
}


@pytest.mark.parametrize("edge", sorted(EDGES))
def test_every_command_on_edge_data_writes_strict_json(capsys, tmp_path, edge):
    metric, truth, a, b = EDGES[edge]
    sol, sub, sub_b = _pair(tmp_path, edge, truth, a, b)
    every_command(capsys, tmp_path, metric, sol, sub, sub_b)


def test_delong_of_one_positive_is_null_not_nan(capsys, tmp_path):
    metric, truth, a, b = EDGES["auc-one-positive"]
    sol, sub, _ = _pair(tmp_path, "one", truth, a, b)
    d = command_json(capsys, "score", sol, sub, "--metric", metric, "--json")
    assert d["delong"]["se"] is None and "undefined_reason" in d["delong"]


def test_the_writer_turns_any_stray_non_finite_number_into_null():
    from kmetric_gui.cli.output import dumps
    text = dumps({"a": float("nan"), "b": [np.float64("inf"), 1.5, np.int64(3)], "c": True})
    assert strict(text) == {"a": None, "b": [None, 1.5, 3], "c": True}
