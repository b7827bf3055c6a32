"""The aligned pair a metric file is given, against pandas' own merge, and the
problems of ids that almost match (the one-pass match must hand them on)."""
import numpy as np
import pandas as pd
import pytest

from kmetric_gui.errors import InputError
from kmetric_gui.metricfile.frames import read_aligned


def _write(tmp_path, sol, sub):
    sol.to_csv(tmp_path / "sol.csv", index=False)
    sub.to_csv(tmp_path / "sub.csv", index=False)
    return tmp_path / "sol.csv", tmp_path / "sub.csv"


def _pair(n=200, seed=0):
    rng = np.random.default_rng(seed)
    sol = pd.DataFrame({"id": [f"i{k}" for k in range(n)], "y": rng.integers(0, 2, n),
                        "Usage": rng.choice(["Public", "Private", "Ignored"], n)})
    sub = pd.DataFrame({"id": sol["id"], "p": rng.random(n)})
    return sol, sub


@pytest.mark.parametrize("order", ["shuffled", "same"])
def test_aligned_equals_a_pandas_merge(tmp_path, order):
    sol, sub = _pair()
    if order == "shuffled":
        sub = sub.sample(frac=1, random_state=1)
    s_path, u_path = _write(tmp_path, sol, sub)
    got_sol, got_sub, usage, key = read_aligned((s_path, u_path))
    ref_sol = pd.read_csv(s_path, dtype={"id": str})
    ref_sub = ref_sol[["id"]].merge(pd.read_csv(u_path, dtype={"id": str}), on="id", how="left")
    assert key == "id"
    pd.testing.assert_frame_equal(got_sol, ref_sol.drop(columns=["Usage"]))
    pd.testing.assert_frame_equal(got_sub, ref_sub)
    codes = {"Public": 0, "Private": 1, "Ignored": 2}
    assert usage.tolist() == [codes[u] for u in ref_sol["Usage"]]


def test_usage_words_in_any_case_and_spacing(tmp_path):
    sol, sub = _pair(6)
    sol["Usage"] = ["Public", " private", "IGNORED", "Private", "public ", "Ignored"]
    _, _, usage, _ = read_aligned(_write(tmp_path, sol, sub))
    assert usage.tolist() == [0, 1, 2, 1, 0, 2]


@pytest.mark.parametrize("sol_ids,sub_ids,needle", [
    # the same ids in the same order, one of them twice on both sides
    (["a", "a", "b"], ["a", "a", "b"], "solution sol.csv, column 'id': repeated id: 'a' (row 3)"),
    # as many rows, every solution id found, but one of them twice in the solution
    (["a", "a", "b"], ["a", "b", "c"], "solution sol.csv, column 'id': repeated id: 'a' (row 3)"),
    # as many rows, one solution id missing from the submission
    (["a", "b", "c"], ["a", "b", "b"], "ids of the solution missing: 'c' (row 4)"),
    (["a", "b", "c"], ["c", "a", "z"], "ids of the solution missing: 'b' (row 3)"),
])
def test_ids_that_almost_match_are_named(tmp_path, sol_ids, sub_ids, needle):
    sol = pd.DataFrame({"id": sol_ids, "y": [1, 0, 1]})
    sub = pd.DataFrame({"id": sub_ids, "p": [0.1, 0.2, 0.3]})
    with pytest.raises(InputError) as e:
        read_aligned(_write(tmp_path, sol, sub))
    assert any(needle in line for line in e.value.problems), e.value.problems
