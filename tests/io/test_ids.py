import sys

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

import kmetric_gui.io  # noqa: F401
from kmetric_gui.io.ids import align, id_keys

ids_mod = sys.modules["kmetric_gui.io.ids"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2 ** 64 - 1), min_size=0, max_size=300), st.integers(0, 63))
def test_packed_argsort_equals_stable_argsort(values, shift):
    keys = np.array(values, dtype=np.uint64) >> np.uint64(shift)
    order = ids_mod._argsort(keys.copy())
    assert np.array_equal(order, np.argsort(keys, kind="stable"))
    o, s = ids_mod._sort(keys)
    assert np.array_equal(o, np.argsort(keys, kind="stable")) and np.array_equal(s, np.sort(keys))


def test_wide_random_keys_tie_in_high_bits_and_are_fixed():
    rng = np.random.default_rng(1)
    base = rng.integers(0, 2 ** 40, 2000).astype(np.uint64) << np.uint64(20)
    keys = np.concatenate([base + rng.integers(0, 2 ** 20, 2000).astype(np.uint64), base[:50] + 7])
    assert np.array_equal(ids_mod._argsort(keys), np.argsort(keys, kind="stable"))


def test_many_ties_no_fallback():
    # 30,000 pairs of 64-bit keys sharing their high bits: the old code gave up past 10,000 ties
    rng = np.random.default_rng(2)
    high = rng.integers(0, 2 ** 62, 30_000, dtype=np.uint64) << np.uint64(2)
    keys = np.concatenate([high | np.uint64(3), high, high[:100]])
    rng.shuffle(keys)
    order = ids_mod._argsort(keys)
    assert np.array_equal(order, np.argsort(keys, kind="stable"))


def test_sixteen_hex_ids_with_the_top_bit_set_take_the_packed_path():
    ids = ["ffffffffffffffff", "8000000000000000", "0000000000000001", "7fffffffffffffff"]
    a, b = id_keys(pa.array(ids), pa.array(ids[::-1]))
    assert a.dtype == np.uint64 and a[0] == 2 ** 64 - 1
    al = align(pa.array(ids), pa.array(ids[::-1]))
    assert al.sub_index.tolist() == [3, 2, 1, 0]


def test_chunked_ids_and_non_fixed_ids_join_without_pandas():
    sol = pa.chunked_array([["a1", "b22"], ["c333", "a1"]])
    sub = pa.chunked_array([["c333"], ["b22", "zz", "a1"]])
    al = align(sol, sub)
    assert al.sub_index.tolist() == [3, 1, 0, 3]
    assert al.sol_duplicates.tolist() == [3] and al.extra.tolist() == [2]
    hexes = pa.chunked_array([["00ff", "0a0b"], ["0c0d"]])
    assert align(hexes, pa.array(["0c0d", "00ff", "0a0b"])).sub_index.tolist() == [1, 2, 0]


def test_cli_path_imports_no_pandas(tmp_path):
    import subprocess
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    sol = tmp_path / "sol.csv"            # a kappa pair without Usage: the lean path
    sol.write_text("id,rating\n00ab,1\n00cd,2\n00ef,0\n")
    code = ("import sys; from kmetric_gui.analysis.scoring import score_files; "
            f"score_files({str(sol)!r}, {str(sol)!r}); "
            "(tmp := open(sys.argv[1], 'w')).write(str(sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('pandas', 'scipy', 'sklearn') or m in ('pyarrow.compute', "
            "'kmetric_gui.metrics.kernels.fbeta', 'kmetric_gui.core.attribution', "
            "'kmetric_gui.metrics.kernels.fbeta_gains'))))")
    out = tmp_path / "mods.txt"
    env = dict(__import__("os").environ, PYTHONPATH=str(root))
    r = subprocess.run([sys.executable, "-c", code, str(out)], cwd=root, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert out.read_text() == "[]"


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


def test_same_order_ids_join_as_the_identity_and_repeats_are_still_found():
    ids = ["a7", "b", "c10", "d"]
    al = align(pa.array(ids), pa.chunked_array([pa.array(ids[:1]), pa.array(ids[1:])]))
    assert al.sub_index.tolist() == [0, 1, 2, 3]
    assert al.sol_duplicates.size == al.missing.size == al.extra.size == 0
    # the same ids in the same order with a repeat: not the identity, the repeat is said
    rep = pa.array(["a", "b", "a"])
    al = align(rep, pa.array(["a", "b", "a"]))
    assert al.sol_duplicates.tolist() == [2] and al.sub_duplicates.tolist() == [2]
    # a remembered unique truth does not vouch for another array of the same length
    uniq = pa.array(["x", "y", "z"])
    assert align(uniq, pa.array(["x", "y", "z"])).sol_duplicates.size == 0
    twice = pa.array(["x", "x", "z"])
    assert align(twice, pa.array(["x", "x", "z"])).sol_duplicates.tolist() == [1]
    # empty ids (nulls) never take the shortcut
    from kmetric_gui.io.ids import _same_order
    assert not _same_order(pa.array(["x", None]), pa.array(["x", None]))


@pytest.mark.parametrize("width", [4, 8, 12, 16])
def test_hex_keys_from_strided_unaligned_rows_equal_a_plain_loop(width):
    """The pair look-up reads the text in place: rows that start at an odd byte and
    lines longer than the id (fixed-width files) give the same keys as a loop."""
    from kmetric_gui.io.ids import row_keys
    rng = np.random.default_rng(width)
    for digits in (b"0123456789abcdef", b"0123456789ABCDEF"):
        ids = ["".join(rng.choice(list(digits.decode()), width)) for _ in range(300)]
        lines = b"".join(b"x" + i.encode() + b",7\n" for i in ids)   # id at byte 1 of a line
        rows = np.frombuffer(lines, np.uint8).reshape(len(ids), width + 4)[:, 1:1 + width]
        out = np.empty(len(ids), np.uint64)
        assert row_keys(rows, digits, out) is out
        want = [sum(int(c, 16) << (4 * p) for p, c in enumerate(i)) for i in ids]
        assert out.tolist() == want
        for p in range(width):               # one foreign byte anywhere: no keys
            bad = bytearray(lines)
            bad[5 * (width + 4) + 1 + p] = ord("g")
            rows = np.frombuffer(bytes(bad), np.uint8).reshape(len(ids), width + 4)[:, 1:1 + width]
            assert row_keys(rows, digits, out) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2 ** 64 - 1), min_size=0, max_size=300), st.integers(0, 63),
       st.integers(0, 5))
def test_argsort_says_whether_a_key_repeats(values, shift, repeats):
    keys = np.array(values + values[:repeats], dtype=np.uint64) >> np.uint64(shift)
    order, distinct = ids_mod._argsort_distinct(keys.copy())
    assert np.array_equal(order, np.argsort(keys, kind="stable"))
    assert distinct == (np.unique(keys).size == keys.size)


def test_wide_keys_sharing_their_high_bits_are_distinct_unless_equal():
    # 48-bit keys of 2M rows are cut by 5 bits: neighbours tie in the high bits only
    rng = np.random.default_rng(4)
    keys = rng.choice(2 ** 48, 1 << 21, replace=False).astype(np.uint64)
    keys[:1000] = keys[1000:2000] ^ np.uint64(1)          # ties in the cut keys, not repeats
    order, distinct = ids_mod._argsort_distinct(keys)
    assert distinct and np.array_equal(order, np.argsort(keys, kind="stable"))
    keys[5] = keys[77]
    assert not ids_mod._argsort_distinct(keys)[1]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 30).flatmap(lambda n: st.tuples(
    st.lists(st.sampled_from(["0a0b0c0d0e0f", "000000000001", "ffffffffffff", "00000000000f",
                              "123456789abc"]), min_size=n, max_size=n),
    st.lists(st.sampled_from(["0a0b0c0d0e0f", "000000000001", "ffffffffffff", "00000000000f",
                              "123456789abc"]), min_size=n, max_size=n))))
def test_equal_length_files_with_repeats_join_like_a_dict(pair):
    # equal lengths try the one-gather check first; repeats, missing and extra ids then
    # take the full scan and are listed as before
    sol, sub = pair
    al = align(pa.array(sol, pa.string()), pa.array(sub, pa.string()))
    first = {}
    for i, s in enumerate(sub):
        first.setdefault(s, i)
    assert al.sub_index.tolist() == [first.get(s, -1) for s in sol]
    assert al.sol_duplicates.tolist() == [i for i, s in enumerate(sol) if s in sol[:i]]
    assert al.sub_duplicates.tolist() == [i for i, s in enumerate(sub) if s in sub[:i]]
    assert al.missing.tolist() == [i for i, s in enumerate(sol) if s not in first]
    assert al.extra.tolist() == [i for i, s in enumerate(sub) if s not in set(sol)]
