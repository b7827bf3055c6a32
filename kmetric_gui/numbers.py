"""One strict number grammar for files, table edits and command-line flags.

A number is: optional spaces, an optional sign, decimal digits with an
optional fraction and exponent (``3``, ``+3``, ``-0``, ``2.0``, ``1e0``,
``.5``, ``5.``), optional spaces. Rejected, with a reason in words: hex
(``0x3``), underscores (``1_0``), thousands separators or decimal commas
(``1,000``), non-ASCII digits (``３``), words (``three``, ``true``), empty
text, and values that are not finite (``nan``, ``inf``, ``1e400``).

A rating is a number with a whole value (``2.0`` is 2, ``2.5`` is not) of
magnitude below 2^53, so that it is exact in a double.

``parse_number``/``parse_rating`` read one text (ValueError with a message
in words); ``column_numbers`` reads a whole Arrow column at once (a regex
match over the column, then a cast: no Python loop over rows).
"""
import datetime
import math
import re

import numpy as np

NUMBER_PATTERN = r"[ \t]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t]*"
RATING_LIMIT = 2 ** 53          # ratings are whole numbers with |r| < 2^53
_NUMBER = re.compile(NUMBER_PATTERN)
_WORDS = {"nan", "inf", "infinity", "+inf", "-inf", "+nan", "-nan", "+infinity", "-infinity"}


def shown(value, width=40):
    """A value for a message: text in single quotes, cut when long; numbers plainly."""
    if value is None:
        return "empty"
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return str(int(v)) if v.is_integer() and abs(v) < 1e16 else repr(v)
    text = str(value)
    if len(text) > width:
        text = text[:width - 3] + "..."
    if not text.isprintable():
        text = text.encode("unicode_escape").decode("ascii")
    return f"'{text}'"


def why_not_number(text):
    """Why ``text`` is not a number, in words; None when it is one."""
    if text is None:
        return "empty"
    if isinstance(text, (bool, np.bool_)):
        return "true/false is not a number"
    if isinstance(text, (int, np.integer)):
        return None
    if isinstance(text, (float, np.floating)):
        return None if math.isfinite(text) else "not a finite number"
    if isinstance(text, (datetime.date, datetime.time, datetime.timedelta)):
        return "a date or a time, not a number"
    if not isinstance(text, str):
        return "not a number"
    s = str(text)
    t = s.strip(" \t")
    if not t:
        return "empty"
    low = t.lower()
    if _NUMBER.fullmatch(s):
        return None if math.isfinite(float(t)) else "too large (beyond 1.8e308)"
    if low.lstrip("+-").startswith(("0x", "0o", "0b")):
        return "hexadecimal, octal or binary numbers are not accepted (write decimal digits)"
    if "_" in t:
        return "underscores are not accepted in numbers"
    if "," in t:
        return "commas are not accepted in numbers (no thousands separators; the decimal mark is '.')"
    if any(ch.isdigit() and not ch.isascii() for ch in t):
        return "only the digits 0-9 are accepted"
    if low in _WORDS:
        return "not a finite number"
    if low in ("true", "false", "yes", "no"):
        return "true/false is not a number"
    return "not a decimal number"


def parse_number(text):
    """A finite float from text in the strict grammar (ValueError in words otherwise)."""
    why = why_not_number(text)
    if why:
        raise ValueError(f"{shown(text)} is not a number: {why}")
    return float(text if not isinstance(text, str) else text.strip(" \t"))


def parse_rating(text):
    """An int from text in the strict grammar whose value is whole and below 2^53."""
    why = why_not_number(text)
    if why:
        raise ValueError(f"{shown(text)} is not a rating: {why}")
    if isinstance(text, str):
        t = text.strip(" \t")
        v = int(t) if re.fullmatch(r"[+-]?[0-9]+", t) else float(t)
    else:
        v = text
    if (isinstance(v, float) and not v.is_integer()) or (isinstance(text, str)
                                                         and not exact_whole(text)):
        raise ValueError(f"{shown(text)} is not a rating: not a whole number")
    if abs(v) >= RATING_LIMIT:
        raise ValueError(f"{shown(text)} is not a rating: too large (ratings stay below 2^53, "
                         "about 9.007e15)")
    return int(v)


# A decimal text that is whole as written: digits, then only zeros after the point.
_PLAIN_WHOLE = r"[ \t]*[+-]?[0-9]*(?:\.0*)?[ \t]*"


def exact_whole(text):
    """Whether a number in the grammar is a whole number as written: 4.9999999999999999
    is not (float() rounds it to 5.0), 1.5e1 and 2.000 are."""
    if re.fullmatch(_PLAIN_WHOLE, text):
        return True
    from decimal import Decimal, InvalidOperation
    try:
        d = Decimal(text.strip(" \t"))
        return d == d.to_integral_value()
    except (InvalidOperation, ValueError):
        return False


def _inexact_rows(arr, rows):
    """Rows (of ``rows``) of a text column whose text is not whole as written."""
    import pyarrow.compute as pc
    if not rows.size:
        return rows
    sub = arr.take(arrow_ints(rows))
    plain = bool_array(pc.fill_null(pc.match_substring_regex(sub, f"^{_PLAIN_WHOLE}$"),
                                    arrow_scalar(False)))
    check = rows[~plain]
    if not check.size:
        return check
    texts = arr.take(arrow_ints(check)).to_pylist()
    return check[[not exact_whole(t) for t in texts]]


# ---- whole Arrow columns -------------------------------------------------------------------

def _bits(buf, offset, n):
    """A bit-packed Arrow buffer as a bool numpy array (no pandas)."""
    raw = np.frombuffer(buf, dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[offset:offset + n].view(bool)


def bool_array(arr):
    """An Arrow boolean array (nulls as False) as numpy bool."""
    import pyarrow as pa
    import pyarrow.compute as pc
    if isinstance(arr, pa.ChunkedArray):
        parts = [bool_array(c) for c in arr.chunks]
        return np.concatenate(parts) if parts else np.zeros(0, bool)
    if arr.null_count:
        arr = pc.fill_null(arr, arrow_scalar(False))
    return _bits(arr.buffers()[1], arr.offset, len(arr))


def plain_array(arr, dtype=None):
    """A numeric Arrow array without nulls as numpy (zero copy for one chunk)."""
    import pyarrow as pa
    if isinstance(arr, pa.ChunkedArray):
        parts = [plain_array(c, dtype) for c in arr.chunks]
        if len(parts) == 1:
            return parts[0]
        return np.concatenate(parts) if parts else np.zeros(0, dtype or np.float64)
    if pa.types.is_boolean(arr.type):
        return bool_array(arr)
    np_type = _numpy_type(arr.type)
    out = np.frombuffer(arr.buffers()[1], dtype=np_type)[arr.offset:arr.offset + len(arr)]
    return out if dtype is None else out.astype(dtype, copy=False)


def _numpy_type(arrow_type):
    """numpy's dtype of a numeric Arrow type. Not DataType.to_pandas_dtype: in older pyarrow
    (17 does) it imports pandas, and fails where pandas is not installed."""
    import pyarrow as pa
    t = arrow_type
    if pa.types.is_integer(t) or pa.types.is_floating(t):
        kind = "f" if pa.types.is_floating(t) else "u" if pa.types.is_unsigned_integer(t) else "i"
        return np.dtype(f"{kind}{t.bit_width // 8}")
    return np.dtype(t.to_pandas_dtype())


def arrow_ints(values):
    """An Arrow int64 array from integers (pa.array imports pandas: a slow start)."""
    import pyarrow as pa
    v = np.ascontiguousarray(values, dtype=np.int64)
    return pa.Array.from_buffers(pa.int64(), v.size, [None, pa.py_buffer(v)])


def arrow_texts(values):
    """An Arrow string array from Python strings, without pa.array (see arrow_ints)."""
    import pyarrow as pa
    raw = [str(v).encode("utf-8") for v in values]
    offsets = np.zeros(len(raw) + 1, np.int32)
    np.cumsum([len(b) for b in raw], out=offsets[1:])
    return pa.Array.from_buffers(pa.string(), len(raw),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(raw))])


def arrow_scalar(value, type=None):
    """An Arrow scalar for a compute call (pa.scalar imports pandas: a slow start)."""
    import pyarrow as pa
    if isinstance(value, bool):
        bits = np.packbits(np.array([value]), bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), 1, [None, pa.py_buffer(bits)])[0]
    if isinstance(value, str):
        return arrow_texts([value])[0]
    if isinstance(value, float) or type == pa.float64():
        v = np.array([value], np.float64)
        return pa.Array.from_buffers(pa.float64(), 1, [None, pa.py_buffer(v)])[0]
    return arrow_ints([value])[0]


class ColumnValues:
    """Numbers read from one column.

    ``values``: float64 (or int64 for ratings) with every valid row; rows in
    ``bad`` hold 0 there. ``bad``: rows that are not numbers (see
    ``reason(row)``); ``fraction``: ratings that are not whole; ``too_large``:
    ratings of magnitude 2^53 or more.
    """

    def __init__(self, arr, values, bad, fraction=None, too_large=None):
        self.arr, self.values, self.bad = arr, values, bad
        empty = np.zeros(0, np.int64)
        self.fraction = empty if fraction is None else fraction
        self.too_large = empty if too_large is None else too_large

    @property
    def ok(self):
        return not (self.bad.size or self.fraction.size or self.too_large.size)

    def raw(self, row):
        return self.arr[int(row)].as_py()

    def reason(self, row):
        return why_not_number(self.raw(row)) or "not a number"


def column_numbers(arr, integer=False):
    """Read an Arrow column (any type) with the strict grammar; returns ColumnValues.

    Whole numbers without gaps (the usual rating column) come back as int32
    when they fit, chunk by chunk: no combined copy of the column.
    """
    import pyarrow as pa
    if integer:
        fast = _int_chunks(arr)
        if fast is not None:
            return ColumnValues(arr, fast, np.zeros(0, np.int64))
    if isinstance(arr, pa.ChunkedArray):
        if not integer and arr.num_chunks > 1 and not arr.null_count and \
                (pa.types.is_integer(arr.type) or arr.type == pa.float64()):
            return _float_chunks(arr)
        arr = arr.chunk(0) if arr.num_chunks == 1 else arr.combine_chunks()
    t = arr.type
    if pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_null(t):
        nulls = bool_array(arr.is_null()) if arr.null_count else None
        if pa.types.is_null(t):
            return ColumnValues(arr, np.zeros(len(arr), np.float64), np.arange(len(arr)))
        filled = arr
        if arr.null_count:
            import pyarrow.compute as pc   # only when needed: a faster start
            filled = pc.fill_null(arr, arrow_scalar(0.0 if pa.types.is_floating(t) else 0).cast(t))
        vals = plain_array(filled)
    elif pa.types.is_string(t) or pa.types.is_large_string(t):
        import pyarrow.compute as pc
        ok = pc.fill_null(pc.match_substring_regex(arr, f"^{NUMBER_PATTERN}$"), arrow_scalar(False))
        clean = pc.utf8_trim(pc.if_else(ok, arr, arrow_scalar("0")), " \t")
        vals = plain_array(pc.cast(clean, pa.float64()))
        nulls = ~bool_array(ok)
    else:                          # booleans, dates, times, binary, lists: not numbers
        return ColumnValues(arr, np.zeros(len(arr), np.float64), np.arange(len(arr)))
    if vals.dtype.kind == "f":
        bad_mask = ~np.isfinite(vals)
        if nulls is not None:
            bad_mask |= nulls
    else:
        bad_mask = nulls
    bad = np.flatnonzero(bad_mask) if bad_mask is not None else np.zeros(0, np.int64)
    if not integer:
        if vals.dtype.kind != "f":
            vals = vals.astype(np.float64)
        if bad.size:
            vals = vals.copy()     # a zero-copy view writes into the Arrow table itself
            vals[bad] = 0.0
        return ColumnValues(arr, vals, bad)
    return _whole(arr, vals, bad)


def _float_chunks(arr):
    """A numeric chunked column without nulls as float64, each chunk cast straight into
    the result: no combined copy (an integer column of 5M rows: 40 MB less)."""
    vals = np.empty(len(arr), np.float64)
    at = 0
    for c in arr.chunks:
        v = plain_array(c)
        vals[at:at + v.size] = v
        at += v.size
    bad = np.flatnonzero(~np.isfinite(vals))
    vals[bad] = 0.0
    return ColumnValues(arr, vals, bad)


def _int_chunks(arr):
    """An integer column without nulls, all within int32, as one int32 array; else None."""
    import pyarrow as pa
    chunks = arr.chunks if isinstance(arr, pa.ChunkedArray) else [arr]
    if not all(pa.types.is_integer(c.type) and not c.null_count for c in chunks):
        return None
    views = [plain_array(c) for c in chunks if len(c)]
    lim = np.iinfo(np.int32)
    if any(v.min() < lim.min or v.max() > lim.max for v in views):
        return None
    out = np.empty(sum(v.size for v in views), np.int32)
    at = 0
    for v in views:
        out[at:at + v.size] = v
        at += v.size
    return out


def pa_text(arr):
    import pyarrow as pa
    return pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)


def _whole(arr, vals, bad):
    if vals.dtype.kind in "iu":
        with np.errstate(over="ignore"):
            big = (vals >= RATING_LIMIT) | (vals <= -RATING_LIMIT) if vals.size else np.zeros(0, bool)
        too_large = np.flatnonzero(big)
        if bad.size:
            big[bad] = False
        out = vals.astype(np.int64, copy=False)
        if too_large.size or bad.size:
            out = out.copy()
            out[too_large] = 0
            out[bad] = 0
        return ColumnValues(arr, out, bad, too_large=np.setdiff1d(too_large, bad))
    finite = np.isfinite(vals)
    if bad.size:
        finite[bad] = False
    with np.errstate(invalid="ignore"):
        big = finite & (np.abs(vals) >= RATING_LIMIT)
        frac = finite & ~big & (vals != np.floor(vals))
    if pa_text(arr):           # whole once rounded to a double, not as written
        inexact = _inexact_rows(arr, np.flatnonzero(finite & ~big & ~frac))
        if inexact.size:
            frac[inexact] = True
    good = finite & ~big & ~frac
    out = np.where(good, vals, 0.0).astype(np.int64)
    return ColumnValues(arr, out, bad, np.flatnonzero(frac), np.flatnonzero(big))


__all__ = ["NUMBER_PATTERN", "RATING_LIMIT", "parse_number", "parse_rating", "why_not_number",
           "shown", "column_numbers", "ColumnValues", "plain_array", "bool_array", "arrow_ints",
           "arrow_scalar", "arrow_texts"]
