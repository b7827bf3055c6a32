"""Read Kaggle tables: CSV, TSV, .gz, .zip (one table), Parquet.

pyarrow's multi-threaded CSV reader parses a stream of the file (sources.py:
a plain file in blocks, never memory-mapped, so the page cache never counts
as the process's memory; a .gz or .zip inflated once, capped). Every fault
ends in an InputError naming the file and the reason in words.
"""
import re

import pyarrow as pa
import pyarrow.csv as pacsv

from ..errors import InputError
from .memory import (GB, NEED_PER_BYTE, available_memory, check_memory,  # noqa: F401 (API)
                     default_max_inflated, memory_message, memory_need, size_words, text_size)
from .sources import CHANGED, fingerprint
from .sources import (BOMB_FLOOR, BOMB_RATIO, PARQUET, Bomb,  # noqa: F401 (API)
                      _fail, head_bytes, open_source, os_reason, raise_stream_error, saw_hex,
                      stream_fault)
from .exact import long_digits, whole_floats
from .width import MAX_COLUMNS, width_problem

MAX_ROW_GROUPS = 10_000     # each costs ~30 microseconds and a chunk per column
_BLOCKS = (1 << 20, 64 << 20, 1 << 30)   # parser block sizes: bigger ones for huge lines


def _delimiter(name, header):
    if name.endswith((".tsv", ".tab")):
        return "\t"
    if "," not in header and "\t" in header:
        return "\t"
    return ","


def read_header(path, label="file", max_inflated=None):
    """Column names of a table without reading its rows."""
    name, opener = open_source(path, label, max_inflated)
    if not str(path).lower().endswith(PARQUET + (".zip", ".gz")):
        head = head_bytes(opener)          # a plain CSV whose header fits the sniff: read it here
        body = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
        if b"\n" in body and not body.startswith(b"PAR1") and b"\x00" not in body:
            import csv
            try:
                first = body.split(b"\n", 1)[0].decode("utf-8").rstrip("\r")
            except UnicodeDecodeError:
                first = ""
            if first.strip() and '"' not in first:
                names = next(csv.reader([first], delimiter=_delimiter(name, first)))
                if len(names) > MAX_COLUMNS:
                    _fail(label, path, width_problem(str(path), _delimiter(name, first)))
                return names
    return read_table(path, label, header_only=True, max_inflated=max_inflated).column_names


def read_table(path, label="file", *, string_columns=(), header_only=False, max_inflated=None):
    """Read a table into a pyarrow Table; InputError names the file and the fault.

    ``string_columns`` are kept as text (ids like '007' or hex codes). Empty
    cells of text columns stay "" (never null), and no word ("NA", "nan",
    "true") is read as a missing value or a boolean: numbers.py judges them.
    ``max_inflated``: bytes a .gz/.zip may inflate to (None: from memory).
    """
    name, opener = open_source(path, label, max_inflated)
    before = fingerprint(path)
    try:
        table = _read(path, label, name, opener, string_columns, header_only)
        if fingerprint(path) != before:
            _fail(label, path, CHANGED)
        return table
    except InputError:
        raise
    except Exception as e:   # inflating faults surface from inside the parser
        stream_fault(label, path, e)
        raise


def _read(path, label, name, opener, string_columns, header_only, breaks=False):
    head = head_bytes(opener)
    if name.endswith(PARQUET) or head[:4] == b"PAR1":
        return _read_parquet(path, label, opener, string_columns, header_only)
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        _fail(label, path, "UTF-16 text; save it as UTF-8 (CSV UTF-8 in Excel)")
    if b"\x00" in head:
        _fail(label, path, "binary data, not a text table (CSV, TSV, gz, zip or Parquet)")
    if not head:
        _fail(label, path, "file is empty")
    body = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.start < len(body) - 4:   # not just a character cut at the sniff edge
            _fail(label, path, f"not UTF-8 text (byte {e.start + 1})")
    first = body.split(b"\n", 1)[0].decode("utf-8", "replace").rstrip("\r")
    if not first.strip():
        _fail(label, path, "the first line (header) is empty")
    delim = _delimiter(name, first)
    wide = width_problem(opener(), delim)
    if wide:
        _fail(label, path, wide)
    # A header longer than the sniff window needs big parser blocks from the start.
    blocks = _BLOCKS[1:] if b"\n" not in body else _BLOCKS
    types = {c: pa.string() for c in string_columns}
    convert = pacsv.ConvertOptions(column_types=types, null_values=[], true_values=[],
                                   false_values=[], strings_can_be_null=False,
                                   quoted_strings_can_be_null=False)
    # Line breaks inside quoted fields are valid CSV; Arrow reads them only when told
    # (its threads then split the text less freely), so only on a second try.
    parse = pacsv.ParseOptions(delimiter=delim, newlines_in_values=breaks)
    kind = "TSV" if delim == "\t" else "CSV"
    for i, block in enumerate(blocks):
        src = opener()
        try:
            opts = pacsv.ReadOptions(block_size=block)
            if header_only:
                reader = pacsv.open_csv(src, read_options=opts, parse_options=parse,
                                        convert_options=convert)
                table = _empty(reader.schema)
            else:
                table = pacsv.read_csv(src, read_options=opts, parse_options=parse,
                                       convert_options=convert)
            raise_stream_error(src)
            ints = [f.name for f in table.schema if pa.types.is_integer(f.type)]
            # Arrow's integer parser takes 0x3 as 3, its float parser 4.9999999999999999
            # as 5.0: such columns are read again as text, for the number grammar.
            again = ints if ints and saw_hex(src) else []
            rounded = whole_floats(table) if not header_only else []
            if rounded and long_digits(opener):
                again += rounded
            if again:
                convert.column_types = dict(types, **{c: pa.string() for c in again})
                src2 = opener()
                try:
                    table = pacsv.read_csv(src2, read_options=opts, parse_options=parse,
                                           convert_options=convert)
                    raise_stream_error(src2)
                finally:
                    if not isinstance(src2, str):
                        src2.close()
            return _checked(table, label, path)
        except pa.ArrowInvalid as e:
            raise_stream_error(src)
            msg = str(e)
            if "straddling" in msg or "straddles" in msg:
                if i + 1 < len(blocks):
                    continue
                _fail(label, path, f"cannot parse as {kind}: a line or a field is longer than "
                      f"{block >> 20} MB")
            if not breaks and "columns, got" in msg and _has_quote(opener):
                return _read(path, label, name, opener, string_columns, header_only, True)
            _fail(label, path, f"cannot parse as {kind}: {_words(msg, opener)}")
        finally:
            if not isinstance(src, str):
                src.close()


def _has_quote(opener):
    """Whether the text holds a double quote (a field may then hold a line break)."""
    src = opener()
    f = open(src, "rb") if isinstance(src, str) else src
    try:
        while True:
            block = f.read(16 << 20)
            if not block:
                return False
            if b'"' in block:
                return True
    except OSError:
        return False
    finally:
        f.close()


def _empty(schema):
    """An empty table of a schema (Schema.empty_table imports pandas: slow start)."""
    return pa.Table.from_batches([], schema=schema)


def _words(msg, opener=None):
    """Arrow's CSV messages in plain words (with the row, found again in the file:
    Arrow's message quotes the line but does not number it)."""
    msg = re.sub(r"^(CSV parse error|In CSV column #\d+): ", "", msg)
    m = re.match(r"Expected (\d+) columns?, got (\d+): ?(.*)", msg, re.S)
    if m:
        line = m.group(3).rstrip("\r\n")
        row = _row_of(opener, line) if opener is not None else None
        shown = line.strip()
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        where = f"row {row:,}" if row else "a line"
        if m.group(1) == "1":           # not a table: its lines are not ours to echo
            return f"{where} has {m.group(2)} fields where the header has 1 (is it a comma-separated table?)"
        return f"{where} has {m.group(2)} fields where the header has {m.group(1)}: '{shown}'"
    if "invalid UTF8" in msg:
        return "not UTF-8 text (a value holds bytes that are not UTF-8)"
    if "Empty CSV file" in msg:
        return "the file has no header line"
    return msg.split("\n")[0]


def _row_of(opener, line, chunk=1 << 20):
    """The data row (1 = the line after the header) of the first line reading ``line``,
    or None (not found: a quoted field spanning lines, say). Only on a failed read."""
    want = line.encode("utf-8")
    if not want:
        return None
    src = opener()
    f = open(src, "rb") if isinstance(src, str) else src
    try:
        lines, carry = 0, b""
        while True:
            data = f.read(chunk)
            text = carry + data
            start = 0
            while True:                     # every whole line of this chunk
                end = text.find(b"\n", start)
                if end < 0:
                    break
                if text[start:end].rstrip(b"\r") == want:
                    return lines             # line 0 is the header
                lines += 1
                start = end + 1
            carry = text[start:]
            if not data:
                return lines if carry.rstrip(b"\r") == want else None
    except OSError:
        return None
    finally:
        f.close()


_TYPE_WORDS = (("list", "lists of values"), ("struct", "records"), ("map", "key-value maps"),
               ("binary", "binary data"), ("dictionary", "categories"))


def _read_parquet(path, label, opener, string_columns, header_only):
    import pyarrow.parquet as pq  # imported when needed: keeps start-up fast
    src = opener()
    try:
        data = src if isinstance(src, str) else pa.py_buffer(src.read())
        raise_stream_error(src)
    finally:
        if not isinstance(src, str):
            src.close()
    damaged = "not a readable Parquet file (damaged, or not Parquet)"
    try:
        pf = pq.ParquetFile(data if isinstance(data, str) else pa.BufferReader(data))
        meta = pf.metadata
    except (pa.ArrowException, OSError, ValueError):
        _fail(label, path, damaged)
    if meta.num_columns > MAX_COLUMNS:
        _fail(label, path, f"{meta.num_columns:,} columns; tables up to {MAX_COLUMNS:,} "
              "columns are read")
    if meta.num_row_groups > MAX_ROW_GROUPS:
        _fail(label, path, f"{meta.num_row_groups:,} row groups; files of up to "
              f"{MAX_ROW_GROUPS:,} are read (write it with bigger row groups, such as "
              "pyarrow's default of about a million rows)")
    try:
        # ParquetFile.read, not read_table: with many row groups the dataset reader
        # takes about 7 times as long and 5 times the memory.
        table = _empty(pf.schema_arrow) if header_only else pf.read()
    except (pa.ArrowException, OSError, ValueError):
        _fail(label, path, damaged)
    table = _checked(table, label, path)
    for c in string_columns:
        if c not in table.column_names:
            continue
        typ = table.schema.field(c).type
        if pa.types.is_string(typ) or pa.types.is_large_string(typ):
            continue
        if pa.types.is_dictionary(typ):
            typ = typ.value_type
        if not (pa.types.is_integer(typ) or pa.types.is_string(typ) or pa.types.is_large_string(typ)):
            what = next((w for k, w in _TYPE_WORDS if k in str(typ)), f"values of type {typ}")
            if pa.types.is_temporal(typ):
                what = "dates or times"
            elif pa.types.is_floating(typ) or pa.types.is_decimal(typ) or pa.types.is_boolean(typ):
                what = "numbers with a fraction or true/false values"
            _fail(label, path, f"id column '{c}' holds {what}; ids must be text or whole numbers")
        i = table.column_names.index(c)
        table = table.set_column(i, c, table.column(c).cast(pa.string()))
    return table


def _checked(table, label, path):
    names = table.column_names
    from collections import Counter      # one pass: names.count per name was quadratic
    dup = sorted(c for c, k in Counter(names).items() if k > 1)
    if dup:
        _fail(label, path, f"duplicate column name(s): {', '.join(dup)}")
    blank = [i + 1 for i, c in enumerate(names) if not str(c).strip()]
    if blank:
        _fail(label, path, f"column {blank[0]} has no name in the header")
    return table      # chunked as read: columns are combined one by one when used


def read_pair(truth_path, submission_path, id_column=None, max_inflated=None):
    """(solution table, submission table); InputError lists every problem of both files.

    Checks the memory the files need before reading (refused early with the
    estimate), then reads one file after the other.
    """
    errors = []
    for label, p in (("solution", truth_path), ("submission", submission_path)):
        try:
            open_source(p, label, max_inflated)
        except InputError as e:
            errors.extend(e.problems)
    if errors:
        raise InputError(errors[0], errors)
    check_memory([truth_path, submission_path])
    keep = [id_column] if id_column else []
    if id_column and "," in id_column:      # a composite key's parts are ids too (io/shapes.py)
        keep += [p.strip() for p in id_column.split(",") if p.strip()]
    if not keep:
        try:
            head = read_header(submission_path, "submission", max_inflated)
            keep = head[:1]
        except InputError as e:
            errors.extend(e.problems)
    # One file after the other: Arrow's reader already uses every core, and the
    # parser's transient buffers (about the text's size) are then needed once.
    tables, header_errors = [], errors
    errors = []
    for label, p in (("solution", truth_path), ("submission", submission_path)):
        if label == "submission" and header_errors:
            break
        try:
            tables.append(read_table(p, label, string_columns=keep, max_inflated=max_inflated))
            _release()
        except InputError as e:
            errors.extend(e.problems)
        except MemoryError:
            need, avail = memory_need([truth_path, submission_path])
            errors.append(memory_message(need, avail))
    errors += header_errors
    if errors:
        raise InputError(errors[0], errors)
    return tables[0], tables[1]


def _release():
    """Give the parser's freed buffers back to the system (the join needs the room)."""
    try:
        pa.default_memory_pool().release_unused()
    except AttributeError:          # older pyarrow
        pass
