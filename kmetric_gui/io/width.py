"""The header's width, counted before any parser sees it.

Arrow's CSV reader takes about 40 microseconds per column (100,000 columns:
4 s) and a table of a million columns takes gigabytes, so a header wider than
MAX_COLUMNS is refused after reading only as far as the column past the
limit. A header holding quotes is read by the csv module (a delimiter or a
line break inside quotes is no column, as for Arrow's parser).
"""
MAX_COLUMNS = 20_000          # Kaggle's widest tables (class probabilities) are far narrower
_CHUNK = 1 << 20


def header_columns(src, delim, limit=MAX_COLUMNS):
    """Columns of the first line of a binary stream or path, or ``limit + 1`` as soon
    as the line is known to be wider (the rest of the line is then not read)."""
    f = open(src, "rb") if isinstance(src, str) else src
    try:
        d, count, start, seen = delim.encode(), 0, True, []
        while True:
            chunk = f.read(_CHUNK)
            if start and chunk.startswith(b"\xef\xbb\xbf"):
                chunk = chunk[3:]
            start = False
            if not chunk:
                return count + 1
            seen.append(chunk)
            line_end = chunk.find(b"\n")
            part = chunk if line_end < 0 else chunk[:line_end]
            if b'"' in part:            # quotes: the csv module follows them as Arrow does
                return _quoted(seen, f, delim, limit)
            count += part.count(d)
            if count + 1 > limit:
                return limit + 1
            if line_end >= 0:
                return count + 1
    finally:
        f.close()


def _quoted(seen, f, delim, limit, cap=64 << 20):
    """Fields of the first record of a header holding quotes (read up to ``cap`` bytes)."""
    import codecs
    import csv
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    total = [0]

    def lines():
        pending = ""
        for chunk in _chunks(seen, f):
            total[0] += len(chunk)
            pending += decoder.decode(chunk)
            *whole, pending = pending.split("\n")
            for line in whole:
                yield line + "\n"
            if total[0] > cap:
                return
        if pending:
            yield pending

    # csv's field limit counts characters of one field; the header's width is what we bound.
    old = csv.field_size_limit()
    csv.field_size_limit(max(old, cap))
    try:
        first = next(csv.reader(lines(), delimiter=delim), [])
    except csv.Error:           # a bare \r in an unquoted field: count the first line's delimiters
        line = b"".join(seen).split(b"\n", 1)[0]
        return min(line.count(delim.encode()) + 1, limit + 1)
    finally:
        csv.field_size_limit(old)
    return min(max(len(first), 1), limit + 1)


def _chunks(seen, f):
    yield from seen
    while True:
        chunk = f.read(_CHUNK)
        if not chunk:
            return
        yield chunk


def width_problem(src, delim, limit=MAX_COLUMNS):
    """A reason in words when the header is wider than ``limit`` columns, else None."""
    if header_columns(src, delim, limit) > limit:
        return (f"the header has more than {limit:,} columns; tables up to {limit:,} "
                "columns are read")
    return None
