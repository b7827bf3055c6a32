"""A resample's repeat numbers and ids against plain loops."""
import numpy as np
import pandas as pd
import pytest

from kmetric_gui.metricfile.replicate import Columns, occurrences


def _plain_k(rows):
    seen, out = {}, []
    for r in rows:
        out.append(seen.get(r, 0))
        seen[r] = out[-1] + 1
    return out


def test_occurrences_with_a_reused_buffer_equal_a_plain_loop():
    """The scratch buffer keeps the previous draw's positions: the result must not
    depend on them (heavy repeats, a single row drawn many times, one row, none)."""
    rng = np.random.default_rng(8)
    first = np.empty(500, dtype=np.int64)
    cases = [rng.integers(0, 500, size=500), rng.integers(0, 7, size=500),
             np.full(50, 3), np.array([499]), np.array([], dtype=np.int64),
             rng.integers(0, 500, size=500)]
    for rows in cases:
        assert occurrences(rows, first).tolist() == _plain_k(rows)
        assert occurrences(rows).tolist() == _plain_k(rows)


@pytest.mark.parametrize("stem", ["a", "sample-000000000000-of-a-long-series-", "é€"])
@pytest.mark.parametrize("dtype", ["str", object])
def test_ids_of_deep_repeats_equal_a_plain_loop(stem, dtype):
    """Rows drawn 12+ times get '#12', ... (levels made as needed), in draw order; ids
    past 12 bytes (kept outside Arrow's string views) and non-ASCII ones too."""
    n = 5
    sol = pd.DataFrame({"id": pd.Series([f"{stem}{i}" for i in range(n)], dtype=dtype), "y": np.arange(n)})
    sub = pd.DataFrame({"id": sol["id"].copy(), "p": np.arange(n) / 10})
    cols = Columns(sol, sub, "id")
    rows = np.array([2, 2, 0, 2, 4, 2, 2, 0, 2, 2, 2, 2, 2, 2, 2, 2, 1])
    s, u = cols.frames(rows)
    expect = [f"{stem}{r}" if k == 0 else f"{stem}{r}#{k}" for r, k in zip(rows, _plain_k(rows))]
    assert s["id"].tolist() == expect and u["id"].tolist() == expect
    assert s["id"].dtype == sol["id"].dtype
    assert s["y"].tolist() == rows.tolist()
    rows2 = rows[::-1].copy()                    # a second draw from the same tables
    s2, _ = cols.frames(rows2)
    assert s2["id"].tolist() == [f"{stem}{r}" if k == 0 else f"{stem}{r}#{k}"
                                 for r, k in zip(rows2, _plain_k(rows2))]
