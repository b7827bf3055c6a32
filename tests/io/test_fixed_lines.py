"""Fixed-width lines cut without a parser (io/fixed_lines.py) against Arrow's CSV reader
and a plain csv + dict join, and the two files read side by side (metrics/kappa_reader.py)."""
import io
from dataclasses import replace
import threading
import time

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pytest

from kmetric_gui.errors import Cancelled
from kmetric_gui.io import fixed_lines, pieces
from kmetric_gui.metrics import kappa_reader as lean
from kmetric_gui.io.ids import KeyIds
from kmetric_gui.analysis.scoring import Options, load
from samedata import assert_same

_READ = dict(null_values=[], strings_can_be_null=False, true_values=[], false_values=[])


def _arrow(text, head):
    """What Arrow's reader makes of the lines: (ids, ratings) as Python lists."""
    t = pacsv.read_csv(io.BytesIO(text), read_options=pacsv.ReadOptions(column_names=head),
                       convert_options=pacsv.ConvertOptions(
                           column_types={"id": pa.string(), "r": pa.int64()}, **_READ))
    return t.column("id").to_pylist(), t.column("r").to_pylist()


def _cut(text, head):
    return fixed_lines.layout(head, "id", "r", ",")(memoryview(bytearray(text)))


@pytest.mark.parametrize("end", [b"\n", b"\r\n"])
@pytest.mark.parametrize("head", [["id", "r"], ["r", "id"]])
def test_cut_gives_the_columns_arrow_reads(end, head):
    rng = np.random.default_rng(len(end) + len(head[0]))
    ids = ["".join(rng.choice(list("0123456789abcdef"), 12)) for _ in range(200)]
    vals = rng.integers(0, 10, 200)
    rows = [(i, str(v)) if head[0] == "id" else (str(v), i) for i, v in zip(ids, vals)]
    text = b"".join(",".join(r).encode() + end for r in rows)
    got = _cut(text, head)
    assert got is not None
    assert [bytes(r).decode() for r in got.ids] == _arrow(text, head)[0] == ids
    assert got.values.tolist() == _arrow(text, head)[1] == vals.tolist()
    assert (got.lo, got.hi) == (vals.min(), vals.max())


@pytest.mark.parametrize("text", [
    b"abc,1\n\nabd,2\n",            # a blank line (Arrow skips it)
    b"abc,1\nabd,12\nabe,3\n",       # a two-digit rating
    b"abc,1\nabd,2",                 # no final line break
    b"abc,1\nabd,-\nabe,3\n",        # not a digit
    b"abc,1\nab,12\nabe,3\n",        # same width, fields elsewhere
    b"abc,1\r\nabd,2\n\nab",         # line ends that differ
    b"abc,1\nabd,2\rabe,3\n",        # a lone CR ends a line for Arrow
    b"ab,c,1\n",                     # three fields
    b"abc1\n",                       # no delimiter
    b"abc,\n",                       # no rating
    b",1\n",                         # no id
    b"",
])
def test_cut_leaves_other_pieces_to_arrow(text):
    assert _cut(text, ["id", "r"]) is None


def test_only_two_columns_of_one_byte_delimiter_are_cut():
    assert fixed_lines.layout(["id", "r", "Usage"], "id", "r", ",") is None
    assert fixed_lines.layout(["id", "id"], "id", "id", ",") is None
    assert fixed_lines.layout(["id", "r"], "id", "r", "\t") is not None


def _pair(tmp_path, ids, truth, pred, seed=0, end="\n"):
    rng = np.random.default_rng(seed)
    sol, sub = tmp_path / "sol.csv", tmp_path / "sub.csv"
    sol.write_bytes(("id,r" + end + "".join(f"{i},{t}{end}" for i, t in zip(ids, truth))).encode())
    order = rng.permutation(len(ids))
    sub.write_bytes(("id,r" + end + "".join(f"{ids[k]},{pred[k]}{end}" for k in order)).encode())
    return str(sol), str(sub)


def _many_pieces(tmp_path, monkeypatch, seed, n=4000):
    """A valid pair of 12-hex ids (same ratings in both), read in 1 KB pieces."""
    rng = np.random.default_rng(seed)
    ids = sorted({"".join(rng.choice(list("0123456789abcdef"), 12)) for _ in range(n)})
    t = rng.integers(0, 5, len(ids))
    monkeypatch.setattr(pieces, "PIECE", 1024)
    return _pair(tmp_path, ids, t, t)


def _plain_join(sol, sub):
    """ids, truth and the submission's rating per id, by splitting lines by hand."""
    def rows(path):
        lines = open(path, newline="").read().splitlines()[1:]
        return [(a, int(b)) for a, b in (line.split(",") for line in lines if line)]
    by_id = dict(rows(sub))
    s = rows(sol)
    return [i for i, _ in s], [t for _, t in s], [by_id[i] for i, _ in s]


def _counting_cuts(monkeypatch):
    seen = []
    real = fixed_lines._cut

    def cut(*a):
        got = real(*a)
        seen.append(got is not None)
        return got
    monkeypatch.setattr(fixed_lines, "_cut", cut)
    return seen


@pytest.mark.parametrize("end", ["\n", "\r\n"])
@pytest.mark.parametrize("ids_kind", ["hex", "raw"])
def test_cut_and_parsed_pieces_give_one_result(tmp_path, monkeypatch, end, ids_kind):
    rng = np.random.default_rng(4)
    n = 3000
    if ids_kind == "hex":
        ids = sorted({"".join(rng.choice(list("0123456789abcdef"), 12)) for _ in range(n)})
    else:                      # not hex: the raw bytes are the key (7 leave room for the rating)
        ids = [f"im{k:05d}" for k in range(n)]
    truth = rng.integers(0, 10, len(ids))
    pred = rng.integers(0, 10, len(ids))
    pred[[700, 2400]] = 10                 # two-digit ratings: those pieces go to Arrow
    sol, sub = _pair(tmp_path, ids, truth, pred, end=end)
    monkeypatch.setattr(pieces, "PIECE", 2048)
    seen = _counting_cuts(monkeypatch)
    got = load(sol, sub, Options())
    assert isinstance(got.id_source, KeyIds)          # the lean reader took it
    assert True in seen and False in seen             # both kinds of piece
    keys = got.id_source
    ref_ids, ref_t, ref_p = _plain_join(sol, sub)
    assert got.id_array.to_pylist() == ref_ids
    assert got.truth.tolist() == ref_t and got.pred.tolist() == ref_p
    monkeypatch.setattr(lean, "layout", lambda *a: None)     # every piece parsed by Arrow
    parsed = load(sol, sub, Options())
    assert isinstance(parsed.id_source, KeyIds)
    assert (parsed.id_source.width, parsed.id_source.digits) == (keys.width, keys.digits)
    assert np.array_equal(parsed.id_source.keys, keys.keys)
    assert_same(replace(parsed, id_source=None), replace(got, id_source=None))


def test_non_ascii_raw_ids_take_the_full_read(tmp_path, monkeypatch):
    ids = [f"é{k:04d}" for k in range(300)]                  # 6 bytes, not hex
    t = np.arange(300) % 5
    sol, sub = _pair(tmp_path, ids, t, t[::-1])
    got = load(sol, sub, Options())
    assert not isinstance(got.id_source, KeyIds)
    ref_ids, ref_t, ref_p = _plain_join(sol, sub)
    assert got.id_array.to_pylist() == ref_ids and got.pred.tolist() == ref_p


def test_files_packed_differently_are_not_joined_on_keys(tmp_path, monkeypatch):
    # Lower-case ids in one file, the same letters upper-case in the other: other ids.
    rng = np.random.default_rng(5)
    ids = sorted({"".join(rng.choice(list("abcdef"), 12)) for _ in range(200)})
    t = rng.integers(0, 5, len(ids))
    sol, sub = _pair(tmp_path, ids, t, t)
    text = open(sub).read()
    open(sub, "w").write("id,r\n" + text.split("\n", 1)[1].upper())
    monkeypatch.setattr(lean, "load_kappa", lambda *a, **k: None)
    with pytest.raises(Exception) as full:
        load(sol, sub, Options())
    monkeypatch.undo()
    with pytest.raises(Exception) as got:
        load(sol, sub, Options())
    assert [str(p) for p in got.value.problems] == [str(p) for p in full.value.problems]


def test_a_failed_solution_read_stops_and_waits_for_the_submission(tmp_path, monkeypatch):
    sol, sub = _many_pieces(tmp_path, monkeypatch, seed=6)
    ended, real = [], lean._read_submission

    def slow_sub(*a):
        try:
            return real(*a)
        finally:
            time.sleep(0.2)
            ended.append(threading.current_thread().name)

    def bad_sol(*a):
        raise pieces.Off
    monkeypatch.setattr(lean, "_read_submission", slow_sub)
    monkeypatch.setattr(lean, "_read_solution", bad_sol)
    assert lean.load_kappa(sol, sub, Options(), "sol", "sub") is None
    assert ended and ended[0].startswith("kmetric-read")      # finished before the return


def test_cancel_reaches_the_submission_side(tmp_path, monkeypatch):
    sol, sub = _many_pieces(tmp_path, monkeypatch, seed=7)
    asked = []

    def cancel():              # true once the submission's thread asks
        asked.append(threading.current_thread().name)
        return any(name.startswith("kmetric-read") for name in asked)
    real = lean._read_solution
    monkeypatch.setattr(lean, "_read_solution", lambda *a: (time.sleep(0.3), real(*a))[1])
    with pytest.raises(Cancelled):
        load(sol, sub, Options(), cancel=cancel)


def test_a_failed_submission_read_stops_the_solution_read(tmp_path, monkeypatch):
    sol, sub = _many_pieces(tmp_path, monkeypatch, seed=8)
    lines = open(sub).read().split("\n")
    lines[1] = lines[1][:-1] + "x"                  # the submission's first rating: a word
    open(sub, "w").write("\n".join(lines))
    sol_pieces, real = [], lean._piece

    def piece(*a, **k):
        if threading.current_thread() is threading.main_thread():
            sol_pieces.append(1)
            time.sleep(0.01)                        # the solution's side is the slow one
        return real(*a, **k)
    monkeypatch.setattr(lean, "_piece", piece)
    assert lean.load_kappa(sol, sub, Options(), "sol", "sub") is None
    assert len(sol_pieces) < 15                     # of about 60: stopped, not read to the end
    monkeypatch.undo()
    with pytest.raises(Exception) as got:
        load(sol, sub, Options())
    assert "row 1" in str(got.value.problems[0]) and "'x'" in str(got.value.problems[0])


def test_loads_on_two_threads_do_not_wait_for_each_other(tmp_path, monkeypatch):
    rng = np.random.default_rng(9)
    ids = sorted({"".join(rng.choice(list("0123456789abcdef"), 12)) for _ in range(300)})
    t = rng.integers(0, 5, len(ids))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    big = _pair(tmp_path / "a", ids, t, t)
    small = _pair(tmp_path / "b", ids[:50], t[:50], t[:50])
    release, holding, real = threading.Event(), threading.Event(), lean._read_submission

    def held(path, *a):
        if path == big[1]:
            holding.set()
            release.wait(20)                        # the other lane's read, still running
        return real(path, *a)
    monkeypatch.setattr(lean, "_read_submission", held)
    other = threading.Thread(target=load, args=big)
    other.start()
    try:
        assert holding.wait(10)
        done = []
        lane = threading.Thread(target=lambda: done.append(load(*small)))
        lane.start()
        lane.join(10)
        assert done and len(done[0]) == 50 and isinstance(done[0].id_source, KeyIds)
    finally:
        release.set()
        other.join(20)


def test_the_submission_packs_ids_as_the_solution_chose(tmp_path, monkeypatch):
    # 7-byte ids, some only hex digits, some not: the solution's first piece has a
    # non-hex id (raw bytes for both files), the submission's first piece only hex ones.
    hexy = [f"{k:07x}" for k in range(200)]
    other = [f"g{k:06d}" for k in range(200)]
    sol_ids, t = other + hexy, np.arange(400) % 5
    sol, sub = tmp_path / "sol.csv", tmp_path / "sub.csv"
    sol.write_text("id,r\n" + "".join(f"{i},{v}\n" for i, v in zip(sol_ids, t)))
    by_id = dict(zip(sol_ids, t))
    sub.write_text("id,r\n" + "".join(f"{i},{(by_id[i] + 1) % 5}\n" for i in hexy + other))
    monkeypatch.setattr(pieces, "PIECE", 1024)
    got = load(str(sol), str(sub), Options())
    assert isinstance(got.id_source, KeyIds)        # the lean path, not the whole-table read
    ref_ids, ref_t, ref_p = _plain_join(str(sol), str(sub))
    assert got.id_array.to_pylist() == ref_ids and got.pred.tolist() == ref_p


@pytest.mark.parametrize("case", ["valid", "repeated at the halves' seam", "repeated in a half"])
def test_ids_compared_in_two_halves(tmp_path, monkeypatch, case):
    # Small chunks, so that 1,000 rows are checked and placed as two halves on two threads.
    monkeypatch.setattr(lean, "_STEP", 64)
    rng = np.random.default_rng(10)
    ids = sorted({"".join(rng.choice(list("0123456789abcdef"), 12)) for _ in range(1200)})[:1000]
    ids.sort(key=lambda i: i[::-1])         # key order: the first digit in the lowest bits
    if case != "valid":        # the same id twice in both files: in key order at 499 and 500
        k = 500 if case.startswith("repeated at") else 200
        ids[k] = ids[k - 1]
    ids = [ids[k] for k in rng.permutation(1000)]
    t = rng.integers(0, 5, 1000)
    p = rng.integers(0, 5, 1000)
    sol, sub = _pair(tmp_path, ids, t, p)
    if case == "valid":
        got = load(sol, sub, Options())
        assert isinstance(got.id_source, KeyIds)
        ref_ids, ref_t, ref_p = _plain_join(sol, sub)
        assert got.id_array.to_pylist() == ref_ids and got.pred.tolist() == ref_p
        return
    assert lean.load_kappa(sol, sub, Options(), "sol", "sub") is None
    with pytest.raises(Exception) as got:
        load(sol, sub, Options())
    assert any("duplicate" in str(q) for q in got.value.problems)
