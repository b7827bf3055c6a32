"""A metric file's session edited and rescored through its worker (splits sent by name,
their frames kept and made ahead there), against score() called in this process on
frames pandas makes from the files with the same cells set. The metric changes its
inputs (deletes the id, replaces and overwrites columns) after computing its value:
nothing of that may reach the next edit's score."""
import importlib.util
import sys

import numpy as np
import pandas as pd
import pytest

from kmetric_gui import metrics
from kmetric_gui.analysis.scoring import Options, load, score_prepared
from kmetric_gui.fields import FieldSpec
from kmetric_gui.metricfile import worker
from kmetric_gui.metricfile.metric import file_metric
from kmetric_gui.metricfile.runner import MetricWorker, split_positions
from kmetric_gui.state.session import Session

N = 40
METRIC = '''
import numpy as np

HIGHER_IS_BETTER = False


def score(solution, submission, row_id_column_name):
    del solution[row_id_column_name]
    del submission[row_id_column_name]
    err = submission["p"].to_numpy(dtype=float) - solution["y"].to_numpy(dtype=float)
    value = float(np.mean(err ** 2 * (1 + solution["w"].to_numpy(dtype=float))))
    submission["p"] = 0.0
    for frame in (solution, submission):
        for col in frame.columns:
            a = frame[col].to_numpy()
            try:
                a.setflags(write=True)
                a[:] = 0
            except ValueError:
                pass
    solution["y"] *= 3
    solution.loc[0, "w"] = 1e9
    return value
'''


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("edit")
    rng = np.random.default_rng(5)
    ids = [f"x{i}" for i in range(N)]
    usage = rng.choice(["Public", "Private", "Ignored"], size=N, p=[0.4, 0.5, 0.1])
    pd.DataFrame({"id": ids, "y": rng.integers(0, 3, N), "w": rng.random(N).round(3),
                  "Usage": usage}).to_csv(d / "sol.csv", index=False)
    order = rng.permutation(N)
    pd.DataFrame({"id": [ids[i] for i in order], "p": rng.random(N).round(4)}).to_csv(
        d / "sub.csv", index=False)
    (d / "mutating.py").write_text(METRIC)
    return d / "sol.csv", d / "sub.csv", d / "mutating.py"


def _plain_score(path):
    spec = importlib.util.spec_from_file_location("mutating_plain", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m.score


def _expected(files, edits):
    """score() here on pandas' frames of the files with ``edits`` {(side, row, column):
    value} set: every scored row, Public, Private."""
    sol_path, sub_path, metric = files
    score = _plain_score(metric)
    sol = pd.read_csv(sol_path, dtype={"id": str})
    sub = sol[["id"]].merge(pd.read_csv(sub_path, dtype={"id": str}), on="id")
    for (side, row, col), value in edits.items():
        frame = sol if side == "truth" else sub
        if isinstance(value, float) and frame[col].dtype.kind == "i":
            frame[col] = frame[col].astype(float)
        frame.loc[row, col] = value
    out = {}
    for name, mask in (("all", sol["Usage"] != "Ignored"), ("public", sol["Usage"] == "Public"),
                       ("private", sol["Usage"] == "Private")):
        s = sol[mask].drop(columns=["Usage"]).reset_index(drop=True)
        out[name] = score(s, sub[mask].reset_index(drop=True), "id")
    return out


def _scores(session, options):
    rep = score_prepared(session.data.prepared(), options)
    return {"all": rep.score, **{k: r.score for k, r in rep.splits.items()}}


@pytest.mark.parametrize("workers", [1, 2])
def test_edits_undo_and_splits_equal_plain_calls(files, workers):
    """Edit, a second edit of the same cell, a solution cell (an integer column given a
    fraction), undo and redo: all, Public and Private after each step equal the plain
    calls, with the metric deleting and overwriting its inputs every call."""
    sol, sub, path = files
    m = file_metric(path, paths=(sol, sub), workers=workers)
    metrics.register(m)
    try:
        o = Options(metric=m.name)
        prep = load(sol, sub, o)
        s = Session(o)
        s.load(prep, sol, sub)
        p, y = FieldSpec("pred", prep.pred.names.index("p")), FieldSpec("truth", prep.truth.names.index("y"))
        steps = [((p, 3, "0.125"), {("pred", 3, "p"): 0.125}),
                 ((p, 3, "0.875"), {("pred", 3, "p"): 0.875}),
                 ((p, 11, "0.5"), {("pred", 3, "p"): 0.875, ("pred", 11, "p"): 0.5}),
                 ((y, 7, "2.5"), {("pred", 3, "p"): 0.875, ("pred", 11, "p"): 0.5,
                                  ("truth", 7, "y"): 2.5})]
        for _ in range(2):                     # twice: frames made ahead after each call
            assert _scores(s, o) == pytest.approx(_expected(files, {}), abs=1e-12)
        for (spec, row, text), edits in steps:
            assert s.edit_text(spec, row, text) is None
            for _ in range(2):
                assert _scores(s, o) == pytest.approx(_expected(files, edits), abs=1e-12)
        for _, edits in reversed([((None,), {})] + steps[:-1]):
            s.undo()
            assert _scores(s, o) == pytest.approx(_expected(files, edits), abs=1e-12)
        s.redo()
        assert _scores(s, o) == pytest.approx(_expected(files, steps[0][1]), abs=1e-12)
    finally:
        metrics.unregister(m.name)
        m.close()


def test_rows_of_a_split_travel_as_its_name():
    """The runner sends a row set equal to a split as the split's name (other rows as
    they are); the worker scores a name as the same rows: fixes and draws too."""
    usage = np.array([0, 1, 1, 2, 0, 1], dtype=np.int8)
    w = MetricWorker(None, ("a", "b"))
    w._splits = split_positions(usage)
    public, private = np.flatnonzero(usage == 0), np.flatnonzero(usage == 1)
    assert w._named(public) == "public" and w._named(private.copy()) == "private"
    assert w._named({"rows": np.flatnonzero(usage != 2), "cells": {}}) == {"rows": "scored", "cells": {}}
    for other in (public[:1], private[::-1], public.astype(float), None, "scored"):
        assert w._named(other) is other
    assert MetricWorker(None, ("a", "b"))._named(public) is public     # before prepare()


def test_a_name_scores_the_same_rows_as_its_positions(files):
    """In the worker's own functions: a split's name and its positions give the same
    score, plain, with cells, in a blend and as a bootstrap draw's base."""
    sol, sub, path = files
    code, pair = path.read_text(), (str(sol), str(sub))
    ok, (n, usage, key) = worker.prepare(code, "mutating.py", "score", (str(sol), str(sub)), None)
    assert ok == "ok"
    cells = {"sub": {"p": ([2, 5], [0.25, 0.75])}}
    state = np.random.default_rng(3).bit_generator.state
    for name in ("public", "private", "scored"):
        pos = split_positions(usage)[name]
        pairs = [(name, pos), ({"rows": name, "cells": cells}, {"rows": pos, "cells": cells}),
                 ({"rows": name, "blend": (pair, 0.5)}, {"rows": pos, "blend": (pair, 0.5)}),
                 ({"rows": name, "draw": state, "n": 10}, {"rows": pos, "draw": state, "n": 10})]
        for named, given in pairs:
            a, b = worker.score_rows(code, "mutating.py", "score", (str(sol), str(sub)), None, {},
                                     [named, given])
            assert a[0] == b[0] == "ok" and a[1] == pytest.approx(b[1], abs=1e-12), (name, named)
    sys.modules.pop("mutating_plain", None)
