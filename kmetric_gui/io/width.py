"""The header's width, counted before any parser sees it.

Arrow's CSV reader takes about 40 microseconds per column (100,000 columns:
4 s) and a table of a million columns takes gigabytes, so a header wider than
MAX_COLUMNS is refused after reading only as far as the column past the
limit. Quotes are followed (a delimiter or line break inside quotes does not
count), so the count is exact for any CSV.
"""
import numpy as np

MAX_COLUMNS = 20_000          # Kaggle's widest tables (class probabilities) are far narrower
_CHUNK = 1 << 20


def header_columns(src, delim, limit=MAX_COLUMNS):
    """Columns of the first line of a binary stream or path, or ``limit + 1`` as soon
    as the line is known to be wider (the rest of the line is then not read)."""
    f = open(src, "rb") if isinstance(src, str) else src
    try:
        d, quoted, count, start = ord(delim), 0, 0, True
        while True:
            chunk = f.read(_CHUNK)
            if not chunk:
                return count + 1
            if start and chunk.startswith(b"\xef\xbb\xbf"):
                chunk = chunk[3:]
            start = False
            text = np.frombuffer(chunk, np.uint8)
            # Quote parity before each byte: odd means inside quotes ("" toggles twice).
            inside = (np.cumsum(text == 34, dtype=np.int64) + quoted) & 1
            quoted = int(inside[-1]) if text.size else quoted
            ends = np.flatnonzero((text == 10) & (inside == 0))
            stop = int(ends[0]) if ends.size else text.size
            count += int(np.count_nonzero((text[:stop] == d) & (inside[:stop] == 0)))
            if count + 1 > limit:
                return limit + 1
            if ends.size:
                return count + 1
    finally:
        f.close()


def width_problem(src, delim, limit=MAX_COLUMNS):
    """A reason in words when the header is wider than ``limit`` columns, else None."""
    if header_columns(src, delim, limit) > limit:
        return (f"the header has more than {limit:,} columns; tables up to {limit:,} "
                "columns are read")
    return None
