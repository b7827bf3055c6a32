"""Numbers Arrow rounds to a whole double: '4.9999999999999999' reads as 5.0.

A double holds 15-17 significant digits, so only a text with a long run of
digits can round to a whole value it is not. When a float column's values are
all whole and the file holds such a run, the reader reads that column again
as text, and the number grammar judges each value as written (numbers.py).
"""
import re

import numpy as np
import pyarrow as pa

from ..numbers import arrow_scalar, plain_array

_LONG = re.compile(rb"[0-9.]{17,}")      # 16 or more digits, with or without a point
_BLOCK = 16 << 20


def whole_floats(table):
    """Names of the float columns whose finite values are all whole."""
    out = []
    for f in table.schema:
        if not pa.types.is_floating(f.type):
            continue
        col = table.column(f.name)
        whole = True
        for chunk in col.chunks:
            if not len(chunk):
                continue
            # plain_array, not np.asarray: pyarrow's __array__ imports pandas (0.4 s)
            v = plain_array(chunk.fill_null(arrow_scalar(0.0)) if chunk.null_count else chunk,
                            np.float64)
            with np.errstate(invalid="ignore"):
                if not np.all((v == np.floor(v)) | ~np.isfinite(v)):
                    whole = False
                    break
        if whole:
            out.append(f.name)
    return out


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
