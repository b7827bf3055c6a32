"""The same ids in the same order: each checked to be there once by one sort of their
keys (fixed-width ids) or Arrow's count (others); a repeat is still found and named."""
import numpy as np
import pyarrow as pa
import pytest

from kmetric_gui.io import ids


@pytest.mark.parametrize("make", [
    lambda n: [f"{k:012x}" for k in range(n)],            # hex, 12 characters
    lambda n: [f"r{k:05d}" for k in range(n)],            # 6 raw bytes
    lambda n: [f"row-{k}" for k in range(n)],             # widths differ
    lambda n: [f"{k:020d}" for k in range(n)],            # 20 characters: no key
])
@pytest.mark.parametrize("repeat", [False, True])
def test_same_order_finds_a_repeat_as_the_join_does(make, repeat):
    values = make(3000)
    if repeat:
        values[2500] = values[17]
    arr = pa.array(values, pa.string())
    ids._UNIQUE.clear()
    al = ids.align(arr, pa.array(values, pa.string()))
    brute = len(set(values)) == len(values)
    assert (al.sol_duplicates.size == 0) == brute
    if brute:
        assert np.array_equal(al.sub_index, np.arange(len(values)))
    else:
        assert 2500 in al.sol_duplicates.tolist()
