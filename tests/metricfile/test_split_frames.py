"""A split's frames kept in the worker (frames.Splits): each call's frames, with the
app's edited cells, against plain pandas: the unedited frames with the cells set by
``.loc`` and the split's rows picked by a boolean mask. Frames made ahead (``refill``)
and frames a metric changed must never reach a later call."""
import numpy as np
import pandas as pd
import pytest

from kmetric_gui.metricfile.frames import Splits, split_rows
from kmetric_gui.metricfile.replicate import Columns

USAGE = np.array([0, 1, 1, 0, 2, 1, 0, 1, 1, 0], dtype=np.int8)     # 0 Public, 1 Private, 2 Ignored
NAMES = ("every", "scored", "public", "private")


def _pair(id_dtype="str"):
    n = len(USAGE)
    ids = pd.Series([f"r{i}" for i in range(n)], dtype=id_dtype)
    sol = pd.DataFrame({"id": ids, "y": np.arange(n) % 3, "w": np.linspace(0, 1, n),
                        "tag": pd.Series([f"t{i % 4}" for i in range(n)], dtype=object)})
    sub = pd.DataFrame({"id": ids.copy(), "y": np.linspace(0.1, 0.9, n), "note": [f"n{i}" for i in range(n)]})
    return sol, sub


def _plain(sol, sub, name, cells):
    """The frames as a script would make them: cells set on copies, rows by a mask."""
    sol, sub = sol.copy(), sub.copy()
    for side, frame in (("sol", sol), ("sub", sub)):
        for col, (pos, values) in (cells or {}).get(side, {}).items():
            if col == "id":
                continue                # rows are matched on it: never edited
            if all(isinstance(v, (int, float)) for v in values) and frame[col].dtype.kind in "fi":
                kind = np.result_type(frame[col].to_numpy(), np.asarray(values))
                frame[col] = frame[col].astype(kind)
            elif frame[col].dtype.kind in "fi":
                frame[col] = frame[col].astype(object)
            for p, v in zip(pos, values):
                frame.loc[p, col] = v
    if name == "every" or name == "scored" and not (USAGE == 2).any():
        return sol, sub
    mask = {"scored": USAGE != 2, "public": USAGE == 0, "private": USAGE == 1}[name]
    return sol[mask].reset_index(drop=True), sub[mask].reset_index(drop=True)


def _check(splits, sol, sub, name, cells):
    got = splits.frames(name, lambda: split_rows(USAGE, name), cells)
    want = _plain(sol, sub, name, cells)
    for g, w in zip(got, want):
        pd.testing.assert_frame_equal(g, w)
    return got


EDITS = [
    None,                                                       # no edit
    {"sub": {"y": ([3], [0.25])}},                              # one cell, a Public row
    {"sub": {"y": ([3, 5], [0.25, 0.75])}},                     # and a Private row
    {"sub": {"y": ([3, 5], [0.5, 0.75])}},                      # the same cell again
    {"sub": {"y": ([5], [0.75])}},                              # the first undone
    {"sol": {"y": ([1], [0.5])}},                               # an integer column takes 0.5
    {"sol": {"w": ([2], ["many"])}, "sub": {"note": ([4], ["x"])}},   # text in a number column
    {"sol": {"tag": ([0, 9], ["a", "b"]), "id": ([0], ["other"])}},   # the id never changes
    None,                                                       # every edit undone
]


@pytest.mark.parametrize("id_dtype", ["str", object])
def test_each_split_with_edits_undo_and_made_ahead_equal_plain_pandas(id_dtype):
    """Every split after each edit, undo and repeat, once made at the call and once from
    frames made ahead (refill), equals plain pandas; a column whose kind an edit widens
    (an integer given 0.5, a number given text) is widened in every split, as in the
    edited file."""
    sol, sub = _pair(id_dtype)
    cols = Columns(sol, sub, "id")
    splits = Splits(cols)
    for cells in EDITS:
        for name in NAMES:
            _check(splits, sol, sub, name, cells)          # made at the call
        splits.refill()
        assert set(splits.ready) == set(NAMES)
        for name in NAMES:
            _check(splits, sol, sub, name, cells)          # made ahead, cells set into them
        assert not splits.ready
        splits.refill()


def test_frames_a_metric_changed_never_reach_the_next_call():
    """A metric deletes the id, replaces a column, writes into the arrays under its frames
    (where numpy lets it) and adds a column: the next call's frames, made at the call or
    ahead, are the plain ones."""
    sol, sub = _pair()
    cols = Columns(sol, sub, "id")
    splits = Splits(cols)
    cells = {"sub": {"y": ([0, 1], [0.5, 0.5])}}
    for _ in range(3):
        for name in NAMES:
            s, u = _check(splits, sol, sub, name, cells)
            del s["id"], u["id"]
            u["y"] = 0.0
            for frame in (s, u):
                for col in frame.columns:
                    a = frame[col].to_numpy()
                    try:
                        a.setflags(write=True)
                        a[:] = a[::-1]
                    except ValueError:
                        pass            # read-only all the way down: pandas' own copy
            s["extra"] = 1
        splits.refill()
    for name in NAMES:
        _check(splits, sol, sub, name, cells)
    pd.testing.assert_frame_equal(cols.frames_all[0], _pair()[0])


def test_nothing_kept_above_the_budget():
    """Columns larger than the budget: each call takes its split afresh, frames equal."""
    sol, sub = _pair()
    splits = Splits(Columns(sol, sub, "id"), budget=10)
    for cells in EDITS[:3]:
        for name in NAMES:
            _check(splits, sol, sub, name, cells)
        splits.refill()
    assert not splits.kept and not splits.ready


def test_split_rows_read_the_usage_codes():
    assert split_rows(USAGE, "public").tolist() == [0, 3, 6, 9]
    assert split_rows(USAGE, "private").tolist() == [1, 2, 5, 7, 8]
    assert split_rows(USAGE, "scored").tolist() == [0, 1, 2, 3, 5, 6, 7, 8, 9]
    assert split_rows(np.array([0, 1], dtype=np.int8), "scored") is None
    assert split_rows(USAGE, "every") is None and split_rows(None, "public") is None
