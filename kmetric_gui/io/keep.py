"""A saved submission keeps every column of the file it was read from, and can
keep the file's own row order.

The metric writes the columns it scores (id and targets) in the solution's row
order; the others (notes, confidence, ...) are read again from the source file
as text, cell for cell, and put back in the file's column order. The scored
columns take the values as they stand (edits included); a cell whose value is
still the file's keeps the file's text ('0.18240', '1.0'). With ``file_order``
the rows follow the ids of the file as it is on disk when saving, so a diff
against the original shows only the edits.
"""
from pathlib import Path

import numpy as np

from ..errors import InputError
from .problems import SHOW, quote


def with_all_columns(source, header, rows):
    """(header, rows) with the source file's other columns, in the file's order.

    ``header[0]`` is the id column; ``rows`` are sequences in ``header``'s
    order. Unchanged when the source cannot be read or has no other column.
    """
    header, rows, _ = as_in_file(source, header, rows)
    return header, rows


def as_in_file(source, header, rows, file_order=False):
    """(header, rows, note): ``with_all_columns``, and with ``file_order`` the rows in
    the order of the source file's ids.

    The order is kept only when it is clear: a file that cannot be read, lacks
    the id column or repeats an id leaves the solution's order, and ``note``
    says why in words. Ids of the data missing from the file go at the end (in
    the solution's order), and the file's rows whose id is not in the data are
    not written (they were never part of it); ``note`` counts both. ``note`` is
    "" when there is nothing to say.
    """
    from .read import read_header
    header = [str(h) for h in header]
    name = Path(str(source)).name
    keeping = "kept the solution's row order"
    try:
        names = read_header(source, "submission")
    except (InputError, OSError, TypeError):
        return header, rows, (f"{keeping}: {name} cannot be read now" if file_order else "")
    if header[0] not in names:
        return header, rows, (f"{keeping}: {name} has no column {quote([header[0]])} now"
                              if file_order else "")
    extra = [c for c in names if c not in header]
    table = _as_text(source, names, header)
    if table is None:
        return header, rows, (f"{keeping}: {name} cannot be read now" if file_order else "")
    ids = [None if v is None else str(v) for v in table.column(header[0]).to_pylist()]
    values = {c: [v if v is None or isinstance(v, str) else str(v)
                  for v in table.column(c).to_pylist()] for c in names if c != header[0]}
    out = names + [c for c in header if c not in names] if extra else header
    where = {c: k for k, c in enumerate(header)}
    import pyarrow as pa      # the file's own text only (a Parquet number has none)
    scored = [(k, values[c]) for k, c in enumerate(header) if k and c in values
              and pa.types.is_string(table.column(c).type)]
    note, pairs = "", None
    if file_order:
        rows = list(rows)
        pairs, note = _file_order(ids, [str(r[0]) for r in rows], name)
    if pairs is None:                      # the solution's order; extras found by id
        at = dict(zip(ids, range(len(ids))))
        pairs = ((row, at.get(str(row[0]))) for row in rows)
    else:
        pairs = ((rows[i], r) for i, r in pairs)

    def merged():
        for row, r in pairs:
            if r is not None and scored:     # a value not edited keeps the file's text
                row = list(row)
                for k, texts in scored:
                    if _same_value(texts[r], row[k]):
                        row[k] = texts[r]
            yield [row[where[c]] if c in where else
                   ("" if r is None or values[c][r] is None else values[c][r]) for c in out]
    return out, merged(), note


def _same_value(text, value):
    """Whether the file's text of a scored cell holds ``value`` (then it is written as the
    file has it: '0.18240' stays so, not '0.1824'; a diff shows only the edits)."""
    if text is None:
        return False
    if isinstance(value, str):
        return text == value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        return False
    from ..numbers import why_not_number
    return why_not_number(text) is None and float(text.strip(" \t")) == float(value)


def _as_text(source, names, header):
    """The source table with every column as written (text), or None."""
    from .read import read_table
    try:
        return read_table(source, "submission", string_columns=names)
    except InputError:
        try:        # a Parquet file's numbers or dates cannot be read as text: their values
            return read_table(source, "submission", string_columns=header[:1])
        except (InputError, OSError):
            return None
    except OSError:
        return None


def _file_order(file_ids, data_ids, name):
    """([(data row, file row or None)] in the file's order, note), or (None, note)
    when the file's ids give no clear order."""
    seen, repeated = {}, {}
    for r, i in enumerate(file_ids):
        if i is None:                   # an empty id matches no row of the data
            continue
        if i in seen:
            repeated.setdefault(i, [seen[i] + 1]).append(r + 1)
        else:
            seen[i] = r
    if repeated:
        shown = ", ".join(f"{quote([i])} (rows {', '.join(map(str, rows[:SHOW]))})"
                          for i, rows in list(repeated.items())[:SHOW])
        more = ", ..." if len(repeated) > SHOW else ""
        return None, (f"kept the solution's row order: {name} now repeats "
                      f"{len(repeated)} id(s): {shown}{more}")
    at = {i: k for k, i in enumerate(data_ids)}
    order = [(at[i], r) for r, i in enumerate(file_ids) if i in at]
    placed = {k for k, _ in order}
    rest = [(k, None) for k in range(len(data_ids)) if k not in placed]
    dropped = len(file_ids) - len(order)
    notes = []
    if rest:
        notes.append(f"{len(rest)} row(s) whose id is not in {name} now put at the end")
    if dropped:
        notes.append(f"{dropped} row(s) of {name} whose id is not in the data left out")
    return order + rest, "; ".join(notes)
