"""A saved submission keeps every column of the file it was read from.

The metric writes the columns it scores (id and targets); the others (notes,
confidence, ...) are read again from the source file as text, cell for cell,
and put back in the file's column order. The scored columns take the values
as they stand (edits included).
"""
from ..errors import InputError


def with_all_columns(source, header, rows):
    """(header, rows) with the source file's other columns, in the file's order.

    ``header[0]`` is the id column; ``rows`` are sequences in ``header``'s
    order. Unchanged when the source cannot be read or has no other column.
    """
    from .read import read_header, read_table
    header = [str(h) for h in header]
    try:
        names = read_header(source, "submission")
    except (InputError, OSError, TypeError):
        return header, rows
    if not set(names) - set(header) or header[0] not in names:
        return header, rows
    try:
        table = read_table(source, "submission", string_columns=names)    # text as written
    except InputError:
        try:        # a Parquet file's numbers or dates cannot be read as text: their values
            table = read_table(source, "submission", string_columns=header[:1])
        except (InputError, OSError):
            return header, rows
    except OSError:
        return header, rows
    extra = [c for c in names if c not in header]
    ids = table.column(header[0]).to_pylist()
    at = dict(zip(ids, range(len(ids))))
    values = {c: [v if v is None or isinstance(v, str) else str(v)
                  for v in table.column(c).to_pylist()] for c in extra}
    out = names + [c for c in header if c not in names]
    where = {c: k for k, c in enumerate(header)}

    def merged():
        for row in rows:
            row = list(row)
            r = at.get(str(row[0]))
            yield [row[where[c]] if c in where else
                   ("" if r is None or values[c][r] is None else values[c][r]) for c in out]
    return out, merged()
