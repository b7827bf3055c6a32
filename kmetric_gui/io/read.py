"""Read Kaggle tables: CSV, TSV, .gz, .zip (one table), Parquet.

pyarrow's multi-threaded CSV reader does the parsing (several times faster
than pandas' default engine on large files). Tables stay in Arrow memory:
ids are joined from their raw bytes (see ``ids.py``), columns become numpy
arrays one at a time.
"""
import gzip
import zipfile
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv

from ..errors import InputError

PARQUET = (".parquet", ".pq")
_SNIFF = 64 * 1024


def _fail(label, path, why):
    raise InputError(f"{label} {Path(path).name}: {why}")


def _open_bytes(path, label):
    """(name used for format detection, pyarrow Buffer) of the table inside path.

    A plain file is memory-mapped (no copy); .zip and .gz are unpacked in memory.
    """
    p = Path(path)
    if not p.exists():
        _fail(label, path, "file not found")
    if p.is_dir():
        _fail(label, path, "is a directory, not a table file")
    if p.stat().st_size == 0:
        _fail(label, path, "file is empty")
    name = p.name.lower()
    if name.endswith(".zip"):
        try:
            with zipfile.ZipFile(p) as zf:
                members = [m for m in zf.infolist() if not m.is_dir()
                           and not m.filename.startswith("__MACOSX/")
                           and not Path(m.filename).name.startswith(".")]
                if len(members) != 1:
                    names = ", ".join(m.filename for m in members[:5]) or "nothing"
                    _fail(label, path, f"zip holds {len(members)} files ({names}); "
                          "expected exactly one table")
                return members[0].filename.lower(), pa.py_buffer(zf.read(members[0]))
        except zipfile.BadZipFile:
            _fail(label, path, "not a valid zip archive")
    if name.endswith(".gz"):
        try:
            data = gzip.decompress(p.read_bytes())
        except (OSError, EOFError) as e:
            _fail(label, path, f"not a valid gzip file ({e})")
        return name[:-3], pa.py_buffer(data)
    try:
        return name, pa.memory_map(str(p), "r").read_buffer()
    except OSError as e:
        _fail(label, path, f"cannot read ({e.strerror or e})")


def _delimiter(name, header):
    if name.endswith((".tsv", ".tab")):
        return "\t"
    if "," not in header and "\t" in header:
        return "\t"
    return ","


def read_header(path, label="file"):
    """Column names of a table without reading its rows."""
    return read_table(path, label, header_only=True).column_names


def read_table(path, label="file", *, string_columns=(), header_only=False):
    """Read a table into a pyarrow Table; InputError names the file and the fault.

    ``string_columns`` are kept as text (ids like '007' or hex codes).
    """
    name, data = _open_bytes(path, label)
    head = data.slice(0, min(_SNIFF, data.size)).to_pybytes()
    if name.endswith(PARQUET) or head[:4] == b"PAR1":
        return _read_parquet(path, label, data, string_columns, header_only)
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        _fail(label, path, "UTF-16 text; save it as UTF-8 (CSV UTF-8 in Excel)")
    if b"\x00" in head:
        _fail(label, path, "binary data, not a text table (CSV, TSV, gz, zip or Parquet)")
    skip = 3 if head.startswith(b"\xef\xbb\xbf") else 0
    head = head[skip:]
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.start < len(head) - 4:   # not just a character cut at the sniff edge
            _fail(label, path, f"not UTF-8 text (byte {e.start})")
    first = head.split(b"\n", 1)[0].decode("utf-8", "replace").rstrip("\r")
    if not first.strip():
        _fail(label, path, "the first line (header) is empty")
    delim = _delimiter(name, first)
    end = min(skip + len(first.encode()) + 1, data.size) if header_only else data.size
    cols = [c.strip('"') for c in first.split(delim)]
    types = {c: pa.string() for c in string_columns if c in cols}
    try:
        # A native buffer reader: no Python file object, no copy of the bytes.
        table = pacsv.read_csv(
            pa.BufferReader(data.slice(skip, end - skip)),
            parse_options=pacsv.ParseOptions(delimiter=delim),
            convert_options=pacsv.ConvertOptions(column_types=types),
        )
    except pa.ArrowInvalid as e:
        msg = str(e).replace("CSV parse error: ", "")
        _fail(label, path, f"cannot parse as {'TSV' if delim == chr(9) else 'CSV'}: {msg}")
    return _checked(table, label, path)


def _read_parquet(path, label, data, string_columns, header_only):
    import pyarrow.parquet as pq  # imported when needed: keeps start-up fast
    try:
        table = pq.read_table(pa.BufferReader(data))
    except Exception as e:  # pyarrow raises several types for bad files
        _fail(label, path, f"not a readable Parquet file ({e})")
    if header_only:
        table = table.slice(0, 0)
    table = _checked(table, label, path)
    for c in string_columns:
        if c in table.column_names and not pa.types.is_string(table.schema.field(c).type):
            i = table.column_names.index(c)
            table = table.set_column(i, c, table.column(c).cast(pa.string()))
    return table


def _checked(table, label, path):
    names = table.column_names
    dup = sorted({c for c in names if names.count(c) > 1})
    if dup:
        _fail(label, path, f"duplicate column name(s): {', '.join(dup)}")
    blank = [i + 1 for i, c in enumerate(names) if not str(c).strip()]
    if blank:
        _fail(label, path, f"column {blank[0]} has no name in the header")
    return table      # chunked as read: columns are combined one by one when used
