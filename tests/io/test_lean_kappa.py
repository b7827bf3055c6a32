"""The lean kappa reader (metrics/kappa_reader.py) against a plain csv + dict join and the full read.

Every pair it accepts must give what the full read gives (ids, truth, the
aligned predictions, Usage, the score); every pair it declines must give
the full read's problems, word for word.
"""
import csv
import gzip

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from kmetric_gui.errors import Cancelled, InputError
from kmetric_gui.metrics import kappa_reader as lean
from kmetric_gui.io import pieces
from kmetric_gui.io.ids import KeyIds, _HEX, _keys, row_keys
from kmetric_gui.analysis.scoring import Options, load, score_prepared


def _full(monkeypatch, *a, **kw):
    with monkeypatch.context() as m:
        m.setattr(lean, "load_kappa", lambda *x, **y: None)
        return load(*a, **kw)


def _write(path, header, rows):
    with open(path, "w", newline="") as f:
        f.write(",".join(header) + "\n")
        for r in rows:
            f.write(",".join(str(x) for x in r) + "\n")
    return str(path)


def _hex_ids(rng, n, width, upper=False):
    digits = (_HEX[1] if upper else _HEX[0]).decode()
    out = set()
    while len(out) < n:
        out.add("".join(rng.choice(list(digits), width)))
    return sorted(out)


def _pair(tmp_path, ids, truth, pred, usage=None, shuffle=True, seed=0):
    rng = np.random.default_rng(seed)
    sol_rows = [(i, t) + ((u,) if usage is not None else ()) for i, t, u in
                zip(ids, truth, usage if usage is not None else [None] * len(ids))]
    sol = _write(tmp_path / "sol.csv", ["id", "rating"] + (["Usage"] if usage is not None else []),
                 sol_rows)
    order = rng.permutation(len(ids)) if shuffle else np.arange(len(ids))
    sub = _write(tmp_path / "sub.csv", ["id", "rating"], [(ids[k], pred[k]) for k in order])
    return sol, sub


def _reference(sol, sub):
    """Plain csv + dict: solution order, the submission's rating per id."""
    with open(sol) as f:
        rows = list(csv.DictReader(f))
    with open(sub) as f:
        by_id = {r["id"]: int(r["rating"]) for r in csv.DictReader(f)}
    ids = [r["id"] for r in rows]
    return ids, np.array([int(r["rating"]) for r in rows]), np.array([by_id[i] for i in ids])


@pytest.mark.parametrize("width,upper,shuffle", [(12, False, True), (12, True, True), (8, False, True),
                                                 (16, False, True), (13, False, True), (5, False, True),
                                                 (4, True, True), (12, False, False), (7, False, False)])
def test_lean_equals_a_plain_join_and_the_full_read(tmp_path, monkeypatch, width, upper, shuffle):
    rng = np.random.default_rng(width)
    n = 3000
    ids = _hex_ids(rng, n, width, upper)
    ids = [ids[k] for k in rng.permutation(n)]
    truth = rng.integers(-2, 4, n)
    pred = np.clip(truth + rng.integers(-1, 2, n), -2, 4)
    sol, sub = _pair(tmp_path, ids, truth, pred, shuffle=shuffle)
    monkeypatch.setattr(pieces, "PIECE", 4096)        # many pieces: boundaries everywhere
    got = load(sol, sub, Options())
    full = _full(monkeypatch, sol, sub, Options())
    ref_ids, ref_t, ref_p = _reference(sol, sub)
    lean_taken = isinstance(got.id_source, KeyIds)
    # 16 hex digits fill the 64-bit key: no room for the rating, so the full read.
    assert lean_taken == (width != 16)
    assert got.id_array.to_pylist() == ref_ids == full.id_array.to_pylist()
    assert np.array_equal(got.truth, ref_t) and np.array_equal(got.pred, ref_p)
    assert got.truth.dtype == full.truth.dtype == np.int32 and got.pred.dtype == full.pred.dtype
    rep = score_prepared(got, Options())
    assert rep.score == pytest.approx(cohen_kappa_score(ref_t, ref_p, weights="quadratic"), abs=1e-12)
    assert rep.result.observed.tolist() == score_prepared(full, Options()).result.observed.tolist()


def test_usage_codes_and_splits_follow_the_rows(tmp_path, monkeypatch):
    rng = np.random.default_rng(3)
    n = 2000
    ids = _hex_ids(rng, n, 12)
    truth = rng.integers(0, 5, n)
    pred = rng.integers(0, 5, n)
    usage = rng.choice(["Public", "Private", " private ", "Ignored"], n)
    sol, sub = _pair(tmp_path, ids, truth, pred, usage)
    monkeypatch.setattr(pieces, "PIECE", 2048)
    got = load(sol, sub, Options())
    assert isinstance(got.id_source, KeyIds)
    full = _full(monkeypatch, sol, sub, Options())
    assert np.array_equal(got.usage, full.usage)
    a, b = score_prepared(got, Options()), score_prepared(full, Options())
    pub = np.char.lower(np.char.strip(usage.astype(str))) == "public"
    assert a.splits["public"].score == b.splits["public"].score == pytest.approx(
        cohen_kappa_score(truth[pub], pred[pub], weights="quadratic"), abs=1e-12)
    assert a.splits["private"].score == b.splits["private"].score


def _problems(fn):
    with pytest.raises(InputError) as e:
        fn()
    return [str(p) for p in e.value.problems]


def _bad_pairs(tmp_path):
    rng = np.random.default_rng(5)
    ids = _hex_ids(rng, 500, 12)
    t = rng.integers(0, 5, 500)
    yield "duplicate", ids[:-1] + [ids[0]], t, t
    yield "duplicate, same order", ids[:-1] + [ids[0]], t, t
    yield "hex value", ids, t, ["0x3"] + list(t[1:])
    yield "fraction", ids, t, ["2.5"] + list(t[1:])
    yield "word", ids, t, ["three"] + list(t[1:])
    yield "empty value", ids, t, [""] + list(t[1:])
    yield "empty id", [""] + ids[1:], t, t
    yield "other width", ids, t, t          # valid (one id of another width): the full read
    yield "quoted", ['"' + ids[0] + '"'] + ids[1:], t, t
    yield "huge", ids, t, [10 ** 12] + list(t[1:])
    yield "span", ids, t, [5000] + list(t[1:])


@pytest.mark.parametrize("case", [c[0] for c in _bad_pairs(None)])
def test_invalid_pairs_give_the_full_reads_problems(tmp_path, monkeypatch, case):
    _, ids, t, p = next(c for c in _bad_pairs(tmp_path) if c[0] == case)
    if case == "other width":
        ids = ["abc"] + ids[1:]
    sol = _write(tmp_path / "sol.csv", ["id", "rating"], zip(ids, t))
    same = case.endswith("same order")
    sub = _write(tmp_path / "sub.csv", ["id", "rating"],
                 zip(ids, p) if same else zip(ids[::-1], list(p)[::-1]))
    if case in ("quoted", "other width"):   # valid, only not for the lean path
        got = load(sol, sub, Options())
        assert not isinstance(got.id_source, KeyIds)
        assert got.id_array.to_pylist() == _full(monkeypatch, sol, sub, Options()).id_array.to_pylist()
        return
    got = _problems(lambda: load(sol, sub, Options()))
    assert got and got == _problems(lambda: _full(monkeypatch, sol, sub, Options()))


def test_missing_and_extra_ids_and_more_rows_are_named(tmp_path, monkeypatch):
    rng = np.random.default_rng(6)
    ids = _hex_ids(rng, 400, 12)
    t = rng.integers(0, 5, 400)
    sol = _write(tmp_path / "sol.csv", ["id", "rating"], zip(ids, t))
    for name, sub_ids in (("missing", ids[1:]), ("extra", ids + ["ffffffffffff"]),
                          ("swapped", ids[1:] + ["ffffffffffff"])):
        sub = _write(tmp_path / f"{name}.csv", ["id", "rating"], zip(sub_ids, list(t) + [1]))
        got = _problems(lambda: load(sol, sub, Options()))
        assert got == _problems(lambda: _full(monkeypatch, sol, sub, Options()))
        assert any("missing" in g or "not in the solution" in g for g in got)


def test_gz_and_declared_range_take_the_full_read(tmp_path, monkeypatch):
    rng = np.random.default_rng(7)
    ids = _hex_ids(rng, 300, 12)
    t = rng.integers(1, 4, 300)
    sol, sub = _pair(tmp_path, ids, t, t)
    gz = str(tmp_path / "sub.csv.gz")
    with open(sub, "rb") as f, gzip.open(gz, "wb") as g:
        g.write(f.read())
    assert not isinstance(load(sol, gz, Options()).id_source, KeyIds)
    assert isinstance(load(sol, sub, Options(min_rating=0, max_rating=4)).id_source, KeyIds)
    got = _problems(lambda: load(sol, sub, Options(min_rating=2)))
    assert got == _problems(lambda: _full(monkeypatch, sol, sub, Options(min_rating=2)))


def test_cancel_stops_the_lean_read(tmp_path, monkeypatch):
    rng = np.random.default_rng(8)
    ids = _hex_ids(rng, 2000, 12)
    t = rng.integers(0, 5, 2000)
    sol, sub = _pair(tmp_path, ids, t, t)
    monkeypatch.setattr(pieces, "PIECE", 1024)
    calls = []
    with pytest.raises(Cancelled):
        load(sol, sub, Options(), cancel=lambda: calls.append(1) or len(calls) > 3)


def test_hex_keys_accept_exactly_the_sixteen_digits_of_their_case():
    for upper in (False, True):
        digits = _HEX[1] if upper else _HEX[0]
        for pos in range(4):
            ok = set()
            for c in range(256):
                row = bytearray(b"0000")
                row[pos] = c
                out = np.empty(1, np.uint64)
                if row_keys(np.frombuffer(bytes(row), np.uint8).reshape(1, 4), digits, out) is not None:
                    ok.add(c)
                    assert out[0] == int(chr(c), 16) << (4 * pos)      # digit p in bits 4p..4p+3
            assert bytes(sorted(ok)) == digits


@pytest.mark.parametrize("width", [1, 3, 4, 7, 8, 11, 12, 16])
def test_keys_decode_back_to_the_ids(width):
    import pyarrow as pa
    rng = np.random.default_rng(width)
    for digits in (_HEX[0], _HEX[1], None):
        alphabet = list(digits.decode()) if digits else [chr(c) for c in range(33, 127)]
        if digits is None and width > 8:
            continue
        ids = sorted({"".join(rng.choice(alphabet, width)) for _ in range(500)})
        keys = _keys(pa.array(ids), width, digits)
        assert np.unique(keys).size == len(ids)          # one key an id
        assert KeyIds(keys, width, digits).decode().to_pylist() == ids


def test_lean_ids_are_text_only_when_asked(tmp_path, monkeypatch):
    rng = np.random.default_rng(9)
    ids = _hex_ids(rng, 100, 12)
    t = rng.integers(0, 5, 100)
    sol, sub = _pair(tmp_path, ids, t, t)
    got = load(sol, sub, Options())
    assert isinstance(got.id_source, KeyIds) and len(got) == 100
    assert got.id_array.to_pylist() == ids and not isinstance(got.id_source, KeyIds)


def test_the_report_reads_a_valid_pair_lean_and_counts_its_rows(tmp_path, monkeypatch):
    from kmetric_gui.report.build import load_counted
    rng = np.random.default_rng(10)
    ids = _hex_ids(rng, 700, 12)
    t = rng.integers(0, 5, 700)
    p = rng.integers(0, 5, 700)
    sol, sub = _pair(tmp_path, ids, t, p)
    prep, n_sol, n_sub = load_counted(sol, sub, Options())
    assert isinstance(prep.id_source, KeyIds) and n_sol == n_sub == 700
    with monkeypatch.context() as m:
        m.setattr(lean, "load_kappa", lambda *x, **y: None)
        full, f_sol, f_sub = load_counted(sol, sub, Options())
    assert (f_sol, f_sub) == (n_sol, n_sub)
    assert np.array_equal(prep.pred, full.pred) and prep.id_array.to_pylist() == full.id_array.to_pylist()
