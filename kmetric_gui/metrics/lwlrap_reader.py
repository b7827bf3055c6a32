"""LwLRAP pairs read lean: each file parsed in pieces of a few MB (io.pieces).

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

from ..errors import InputError
from ..io.pieces import Off, id_column, plain, tables
from ..io.pieces import convert as text_convert
from ..io.read import _release, read_header

def load_lwlrap(truth_path, submission_path, options, sol_name, sub_name, step, metric=None):
    """io.Prepared for a valid wide LwLRAP pair of plain CSV files, or None.

    ``step(fraction, message)`` reports progress (and raises Cancelled).
    """
    if metric is not None and options.metric not in (None, metric.name) or options.target_column:
        return None
    try:
        tables = _read(truth_path, submission_path, options, step, metric)
    except (Off, InputError, pa.ArrowException, OSError, ValueError, MemoryError):
        return None             # the full path reads again and names every problem
    from ..io.prepare import prepare
    step(0.55, "validating and joining ids")
    try:
        prep = prepare(*tables, sol_name, sub_name, options)
    except InputError:          # ValidationFailed too: its rows are shown from the full read
        return None
    finally:
        del tables
        _release()              # the submission's table is freed: give its memory back
    return prep


def _columns(sol_head, sub_head, options, expected=None):
    """(id column, classes in submission order, Usage column or None) of a wide pair."""
    from ..chooser import choose_metric
    id_col = id_column(sol_head, sub_head, options)
    if any(c.lower() == "usage" for c in sub_head if c != id_col):
        raise Off
    classes = [c for c in sub_head if c != id_col]
    metric, _ = choose_metric(classes, options.metric)
    if expected is not None and metric is not expected:
        raise Off
    usage = [c for c in sol_head if c != id_col and c.lower() == "usage"]
    sol_extra = [c for c in sol_head if c != id_col and c.lower() != "usage"]
    if len(classes) < 2 or len(usage) > 1 or sorted(sol_extra) != sorted(classes):
        raise Off
    return id_col, classes, (usage[0] if usage else None)


def _table(path, delim, head, types, step, span):
    convert = text_convert(types)
    name = Path(path).name
    parts = list(tables(path, delim, head, convert,
                        lambda f: step(span[0] + (span[1] - span[0]) * f, f"reading {name}")))
    if not parts:
        raise Off                                  # a header only: the full path says so
    return pa.concat_tables(parts)


def _no_negative_zero(table, classes):
    for c in classes:
        for chunk in table.column(c).chunks:
            v = np.frombuffer(chunk.buffers()[1], np.float64)[chunk.offset:chunk.offset + len(chunk)]
            if np.signbit(v).any() and (np.signbit(v) & (v == 0)).any():
                raise Off


def _read(truth_path, submission_path, options, step, metric=None):
    from ..io.memory import check_memory
    sol_delim = plain(truth_path, "solution", options)
    sub_delim = plain(submission_path, "submission", options)
    sol_head = read_header(truth_path, "solution", options.max_inflated)
    sub_head = read_header(submission_path, "submission", options.max_inflated)
    id_col, classes, usage = _columns(sol_head, sub_head, options, metric)
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
