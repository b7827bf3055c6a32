"""LwLRAP pairs read lean: each file parsed in pieces of a few MB.

The usual wide LwLRAP pair (an id column and one column per class in both
files, 0/1 truth, scores, plain CSV) is read piece by piece: Arrow's
parser buffers stay the size of a piece (a whole-file read holds about
twice the text's size on top of the table), and the solution's 0/1 class
columns are read as 1-byte integers (8 bytes in a whole-file read). The
tables then go through the usual io.prepare (the same checks, the same
matrices) and are freed as soon as the matrices exist.

Anything out of the ordinary returns None, and so does any problem that
prepare finds: the caller then reads the whole tables (io.read), which
names every problem as before. The column types are chosen so that this
path only ever accepts what the full path reads as the same values:

- int8 parses a subset of what int64 parses: a valid 0/1 column that the
  full read infers as int64 reads the same here; anything else (1.0, 300)
  fails here and takes the full path. "0x" anywhere takes the full path
  (Arrow's integers take 0x3 as 3; the full path re-reads such columns).
- float64 scores: a column the full read infers as float64 parses with the
  same converter; one it infers as int64 gives the same doubles, except
  "-0" (int 0, double -0.0): a -0.0 score takes the full path.
"""
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from ..errors import InputError
from .read import PARQUET, _delimiter, _release, read_header
from .sources import head_bytes, open_source

_PIECE = 4 << 20            # bytes of text per parse: Arrow's threads share its 1 MB blocks


class _Off(Exception):
    """This pair is not for the lean path (the full path will say why, if anything)."""


def load_lwlrap(truth_path, submission_path, options, sol_name, sub_name, step):
    """io.Prepared for a valid wide LwLRAP pair of plain CSV files, or None.

    ``step(fraction, message)`` reports progress (and raises Cancelled).
    """
    if options.metric not in (None, "lwlrap") or options.target_column:
        return None
    try:
        tables = _read(truth_path, submission_path, options, step)
    except (_Off, InputError, pa.ArrowException, OSError, ValueError, MemoryError):
        return None             # the full path reads again and names every problem
    from .prepare import prepare
    step(0.55, "validating and joining ids")
    try:
        prep = prepare(*tables, sol_name, sub_name, options)
    except InputError:          # ValidationFailed too: its rows are shown from the full read
        return None
    finally:
        del tables
        _release()              # the submission's table is freed: give its memory back
    return prep


def _plain(path, label, options):
    """The delimiter of a plain CSV/TSV file; _Off for .gz/.zip/Parquet or odd text."""
    name, opener = open_source(path, label, options.max_inflated)
    if str(path).lower().endswith((".gz", ".zip")) or name.endswith(PARQUET):
        raise _Off
    head = head_bytes(opener)
    if head[:4] == b"PAR1" or b"\x00" in head or head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise _Off
    body = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    if b"\n" not in body:
        raise _Off
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.start < len(body) - 4:                 # not just a character cut at the sniff edge
            raise _Off from None
    first = body.split(b"\n", 1)[0].decode("utf-8").rstrip("\r")
    if not first.strip():
        raise _Off
    return _delimiter(name, first)


def _columns(sol_head, sub_head, options):
    """(id column, classes in submission order, Usage column or None) of a wide pair."""
    from ..metrics import choose_metric
    for head in (sol_head, sub_head):
        if len(set(head)) != len(head) or any(not c.strip() for c in head):
            raise _Off
    id_col = options.id_column or sub_head[0]
    if id_col not in sol_head or id_col not in sub_head:
        raise _Off
    if any(c.lower() == "usage" for c in sub_head if c != id_col):
        raise _Off
    classes = [c for c in sub_head if c != id_col]
    metric, _ = choose_metric(classes, options.metric)
    if metric.name != "lwlrap":
        raise _Off
    usage = [c for c in sol_head if c != id_col and c.lower() == "usage"]
    sol_extra = [c for c in sol_head if c != id_col and c.lower() != "usage"]
    if len(classes) < 2 or len(usage) > 1 or sorted(sol_extra) != sorted(classes):
        raise _Off
    return id_col, classes, (usage[0] if usage else None)


def _pieces(path, delim, head, types, step, span):
    """Tables of a few MB of whole lines each, Arrow's multi-threaded reader on each.

    Reading the text ourselves bounds the memory (Arrow's streaming reader is
    single-threaded, its whole-file reader holds the text); each piece is
    checked on the way: a quote (a field could hold a line break) or a hex
    prefix sends the pair to the full path.
    """
    import os
    read = pacsv.ReadOptions(column_names=head, block_size=_PIECE // 4)
    parse = pacsv.ParseOptions(delimiter=delim)
    convert = pacsv.ConvertOptions(column_types=types, null_values=[], true_values=[],
                                   false_values=[], strings_can_be_null=False,
                                   quoted_strings_can_be_null=False)
    size, done, name = max(os.path.getsize(path), 1), 0, Path(path).name
    block = bytearray(_PIECE)           # one buffer for every piece: no copies of the text
    view, carry = memoryview(block), 0  # carry: bytes of a line cut at the end of a piece
    with open(path, "rb") as f:
        f.readline()                                # the header (names given above)
        while True:
            end = carry + f.readinto(view[carry:])
            if end == 0:
                return
            cut = block.rfind(b"\n", 0, end) + 1 if end == len(block) else end
            if cut == 0:
                raise _Off                          # a line longer than a piece
            if block.find(b'"', 0, cut) >= 0 or _hex(block, cut):
                raise _Off
            done += cut
            step(span[0] + (span[1] - span[0]) * done / size, f"reading {name}")
            # Arrow copies every value out of the text: the buffer is free for the next piece.
            yield pacsv.read_csv(pa.BufferReader(pa.py_buffer(view[:cut])), read_options=read,
                                 parse_options=parse, convert_options=convert)
            carry = end - cut
            block[:carry] = block[cut:end]


def _hex(block, end):
    """A "0x" or "0X" among the first ``end`` bytes (one-byte finds run at memchr speed)."""
    return ((block.find(b"x", 0, end) >= 0 and block.find(b"0x", 0, end) >= 0)
            or (block.find(b"X", 0, end) >= 0 and block.find(b"0X", 0, end) >= 0))


def _table(path, delim, head, types, step, span):
    parts = list(_pieces(path, delim, head, types, step, span))
    if not parts:
        raise _Off                                  # a header only: the full path says so
    return pa.concat_tables(parts)


def _no_negative_zero(table, classes):
    for c in classes:
        for chunk in table.column(c).chunks:
            v = np.frombuffer(chunk.buffers()[1], np.float64)[chunk.offset:chunk.offset + len(chunk)]
            if np.signbit(v).any() and (np.signbit(v) & (v == 0)).any():
                raise _Off


def _read(truth_path, submission_path, options, step):
    from .memory import check_memory
    sol_delim = _plain(truth_path, "solution", options)
    sub_delim = _plain(submission_path, "submission", options)
    sol_head = read_header(truth_path, "solution", options.max_inflated)
    sub_head = read_header(submission_path, "submission", options.max_inflated)
    id_col, classes, usage = _columns(sol_head, sub_head, options)
    check_memory([truth_path, submission_path])
    sol_types = {id_col: pa.string(), **{c: pa.int8() for c in classes}}
    if usage:
        sol_types[usage] = pa.string()
    sol = _table(truth_path, sol_delim, sol_head, sol_types, step, (0.0, 0.15))
    _release()                  # the parser's freed buffers
    sub_types = {id_col: pa.string(), **{c: pa.float64() for c in classes}}
    sub = _table(submission_path, sub_delim, sub_head, sub_types, step, (0.15, 0.55))
    _release()
    _no_negative_zero(sub, classes)
    return sol, sub
