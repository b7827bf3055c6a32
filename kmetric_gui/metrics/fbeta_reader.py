"""F-beta pairs read lean: each file parsed in pieces of a few MB (io.pieces).

A plain CSV/TSV F-beta pair (the submission's PredictionString, the
solution's labels one row per id or one row per (id, label)) is read piece
by piece, every column as text: Arrow's parser buffers stay the size of a
piece (a whole-file read holds about twice the text beside the table). The
tables then go through the usual io.prepare (the same checks, the same
Cells) and the submission's id column is freed as soon as the ids are
joined. Reading and scoring this pair run on the lean allocator (see
``io.allocator``): the strings coded for the matching come and go in
large arrays that mimalloc would keep.

Anything out of the ordinary returns None, and so does any problem that
prepare finds: the caller then reads the whole tables (io.read), which
names every problem as before. Reading every column as text gives what
the full read gives only when the full read infers text for every column
but the id (kept as text by both): the first rows of each file are parsed
with Arrow's inference first, and a column inferred as anything else
(numbers, dates) takes the full path. Quoted fields are fine (the demo's
Coleridge solution quotes titles holding commas); a line break inside
quotes takes the full path. "0x" needs no check: no column is read as a
number.
"""
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv

from ..errors import InputError
from ..io.allocator import use_lean
from ..io.pieces import Off, id_column, plain, tables
from ..io.pieces import convert as text_convert
from ..io.read import _release, read_header

PROBE = 1 << 16     # bytes of the first rows parsed with Arrow's inference


def load_fbeta(truth_path, submission_path, options, sol_name, sub_name, step, metric=None):
    """io.Prepared for a valid F-beta pair of plain CSV files, or None.

    ``step(fraction, message)`` reports progress (and raises Cancelled).
    """
    if metric is not None and options.metric not in (None, metric.name):
        return None
    try:
        sol, sub = _read(truth_path, submission_path, options, step, metric)
    except (Off, InputError, pa.ArrowException, OSError, ValueError, MemoryError):
        return None             # the full path reads again and names every problem
    from ..io.prepare import prepare
    step(0.55, "validating and joining ids")
    try:
        prep = prepare(sol, sub, sol_name, sub_name, options)
        prep.file_rows = (sol.num_rows, sub.num_rows)    # a long solution: more rows than ids
        return prep
    except InputError:          # ValidationFailed too: its rows are shown from the full read
        return None
    finally:
        del sol, sub            # the submission's ids: only its predictions are kept
        _release()


def _columns(sol_head, sub_head, options, expected=None):
    """The id column of an F-beta pair (Off for anything the full read would refuse)."""
    from ..chooser import choose_metric
    id_col = id_column(sol_head, sub_head, options)
    targets = [c for c in sub_head if c != id_col and c.lower() != "usage"]
    metric, _ = choose_metric(targets, options.metric)
    if expected is not None and metric is not expected:
        raise Off
    return id_col


def _convert(types):
    return text_convert(types)


def _all_text(path, delim, id_col):
    """Off unless Arrow infers text for every column but the id in the first rows.

    The full read infers a column's type from its first block (1 MB, which
    holds these rows): a value here that is no number or date keeps the
    column text there too.
    """
    with open(path, "rb") as f:
        head = f.read(PROBE)
    cut = head.rfind(b"\n") + 1 if len(head) == PROBE else len(head)
    if cut == 0:
        raise Off
    table = pacsv.read_csv(pa.BufferReader(head[:cut]), parse_options=pacsv.ParseOptions(
        delimiter=delim), convert_options=_convert({id_col: pa.string()}))
    if any(not pa.types.is_string(f.type) for f in table.schema):
        raise Off


def _table(path, delim, head, step, span):
    name = Path(path).name
    parts = list(tables(path, delim, head, _convert({c: pa.string() for c in head}),
                        lambda f: step(span[0] + (span[1] - span[0]) * f, f"reading {name}"),
                        quotes=True, hex=False))
    if not parts:
        raise Off                                  # a header only: the full path says so
    return pa.concat_tables(parts)


def _read(truth_path, submission_path, options, step, metric=None):
    from ..io.memory import check_memory
    sol_delim = plain(truth_path, "solution", options)
    sub_delim = plain(submission_path, "submission", options)
    sol_head = read_header(truth_path, "solution", options.max_inflated)
    sub_head = read_header(submission_path, "submission", options.max_inflated)
    id_col = _columns(sol_head, sub_head, options, metric)
    use_lean()          # an F-beta pair: before Arrow's first allocation (the probes)
    check_memory([truth_path, submission_path])
    _all_text(truth_path, sol_delim, id_col)
    _all_text(submission_path, sub_delim, id_col)
    sol = _table(truth_path, sol_delim, sol_head, step, (0.0, 0.25))
    _release()
    sub = _table(submission_path, sub_delim, sub_head, step, (0.25, 0.55))
    _release()
    return sol, sub
