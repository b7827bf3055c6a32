"""Wide tables in linear time: columns found by name through a map made once, and plain
numeric columns read many at a time.

Arrow makes the list of a table's names anew on every ``Table.column_names`` (about
3 us a name), so a test of one name against that list, once per column, is quadratic:
a 12,000-class submission took 5 minutes before scoring. And a few numpy calls per
column cost more than the numbers themselves when a table has thousands of columns and
a few rows; blocks of columns are checked in one call each.
"""
import numpy as np

BLOCK = 1 << 22          # values handled at once (32 MB of float64)
_DTYPES = {}             # Arrow type -> numpy dtype


def positions(table):
    """{name: position} of a table's columns (the first of a repeated name), read once."""
    out = {}
    for i, name in enumerate(table.schema.names):
        out.setdefault(name, i)
    return out


def _dtype(arrow_type):
    d = _DTYPES.get(arrow_type)
    if d is None:
        from ..numbers import _numpy_type
        d = _DTYPES[arrow_type] = _numpy_type(arrow_type)
    return d


def plain(col, integer=False):
    """Whether a column's values can be copied as numbers as they are: integers (or, unless
    ``integer``, floats) without gaps. Any other column goes through the number grammar."""
    import pyarrow as pa
    t = col.type
    ok = pa.types.is_integer(t) or (not integer and pa.types.is_floating(t))
    return ok and not col.null_count


def fill(dst, col):
    """Copy a plain numeric column (chunked or not) into the 1-D array ``dst``."""
    chunks = col.chunks if hasattr(col, "chunks") else [col]
    at = 0
    for ch in chunks:
        k = len(ch)
        if k:
            dst[at:at + k] = np.frombuffer(ch.buffers()[1], _dtype(ch.type))[ch.offset:ch.offset + k]
            at += k
    return dst


def blocks(cols, n, budget=BLOCK):
    """(indices, (k, n) float64 matrix) for the plain numeric columns ``cols`` (a list of
    (index, column)), a few thousand columns at a time."""
    step = max(1, budget // max(n, 1))
    for a in range(0, len(cols), step):
        part = cols[a:a + step]
        m = np.empty((len(part), n))
        for j, (_, col) in enumerate(part):
            fill(m[j], col)
        yield [i for i, _ in part], m
