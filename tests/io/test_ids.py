import sys

import numpy as np
import pyarrow as pa
from hypothesis import given, settings, strategies as st

import kmetric_gui.io  # noqa: F401
from kmetric_gui.io.ids import align, id_keys

ids_mod = sys.modules["kmetric_gui.io.ids"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2 ** 62), min_size=0, max_size=300), st.integers(0, 62))
def test_packed_argsort_equals_stable_argsort(values, shift):
    keys = (np.array(values, dtype=np.int64) >> shift)
    order = ids_mod._argsort_packed(keys)
    if order is not None:
        assert np.array_equal(order, np.argsort(keys, kind="stable"))
    o, s = ids_mod._sort(keys)
    assert np.array_equal(o, np.argsort(keys, kind="stable")) and np.array_equal(s, np.sort(keys))


def test_wide_random_keys_tie_in_high_bits_and_are_fixed():
    rng = np.random.default_rng(1)
    base = rng.integers(0, 2 ** 40, 2000) << 20
    keys = np.concatenate([base + rng.integers(0, 2 ** 20, 2000), base[:50] + 7])
    order = ids_mod._argsort_packed(keys)
    assert order is not None and np.array_equal(order, np.argsort(keys, kind="stable"))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text("0123456789abcdef", min_size=12, max_size=12), max_size=40),
       st.lists(st.text("0123456789abcdef", min_size=12, max_size=12), max_size=40))
def test_align_matches_a_dict_join(sol, sub):
    al = align(pa.array(sol, pa.string()), pa.array(sub, pa.string()))
    first = {}
    for i, s in enumerate(sub):
        first.setdefault(s, i)
    want = [first.get(s, -1) for s in sol]
    assert al.sub_index.tolist() == want
    assert sorted(al.missing.tolist()) == [i for i, s in enumerate(sol) if s not in first]
    sol_set = set(sol)
    assert al.extra.tolist() == [i for i, s in enumerate(sub) if s not in sol_set]


def test_id_keys_equal_iff_ids_equal():
    a = pa.array(["00ff", "0a0b", "zz", "00FF"])
    b = pa.array(["00FF", "00ff"])
    ka, kb = id_keys(a, b)
    assert ka[0] == kb[1] and ka[3] == kb[0] and ka[0] != ka[3]
