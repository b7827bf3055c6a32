"""Numbers Arrow rounds to a whole double: '4.9999999999999999' reads as 5.0.

A double holds 15-17 significant digits, so only a text with a long run of
digits can round to a whole value it is not. When a float column's values are
all whole and the file holds such a run, the reader reads that column again
as text, and the number grammar judges each value as written (numbers.py).
"""
import re

import numpy as np

from ..numbers import arrow_scalar, plain_array

_LONG = re.compile(rb"[0-9.]{17,}")      # 16 or more digits, with or without a point
_BLOCK = 16 << 20


def whole_floats(table):
    """Names of the float columns whose finite values are all whole."""
    import pyarrow as pa
    from .blocks import blocks
    names, n = table.schema.names, table.num_rows
    whole, plain = [], []
    for i, col in enumerate(table.columns):     # one pass: no look-up by name per column
        if not pa.types.is_floating(col.type):
            continue
        if col.null_count:
            if _whole(col):
                whole.append(i)
        else:
            plain.append((i, col))
    for idx, m in blocks(plain, n):             # thousands of columns a numpy call
        with np.errstate(invalid="ignore"):
            ok = ((m == np.floor(m)) | ~np.isfinite(m)).all(axis=1)
        whole.extend(i for i, good in zip(idx, ok) if good)
    return [names[i] for i in sorted(whole)]


def _whole(col):
    for chunk in col.chunks:
        if not len(chunk):
            continue
        # plain_array, not np.asarray: pyarrow's __array__ imports pandas (0.4 s)
        v = plain_array(chunk.fill_null(arrow_scalar(0.0)) if chunk.null_count else chunk,
                        np.float64)
        with np.errstate(invalid="ignore"):
            if not np.all((v == np.floor(v)) | ~np.isfinite(v)):
                return False
    return True


def long_digits(opener):
    """Whether the text holds a run of 16 or more digits (a point among them or not)."""
    src = opener()
    f = open(src, "rb") if isinstance(src, str) else src
    try:
        tail = b""
        while True:
            block = f.read(_BLOCK)
            if not block:
                return False
            if _LONG.search(tail + block):
                return True
            tail = block[-17:]
    except OSError:
        return False
    finally:
        f.close()
