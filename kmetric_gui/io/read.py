"""Read Kaggle tables: CSV, TSV, .gz, .zip (one table), Parquet.

pyarrow's multi-threaded CSV reader parses a stream of the file: a plain
file is read in blocks (not memory-mapped, so the page cache never counts in
the process's memory), a .gz or .zip is inflated once, block by block, as
the parser asks for it. The inflated size is capped (``max_inflated``; the
default comes from the memory available), and a file that inflates more than
200 times past 64 MB is refused as a likely compressed bomb, within a
fraction of a second. Every fault ends in an InputError naming the file and
the reason in words.
"""
import io
import os
import re
import stat
import zipfile
import zlib
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv

from ..errors import InputError

PARQUET = (".parquet", ".pq")
GB = 1e9
_SNIFF = 64 * 1024
_CHUNK = 256 << 10               # bytes read at a time (small: the ratio check stays exact)
BOMB_RATIO = 200                 # inflated / compressed past which a big file is a likely bomb
BOMB_FLOOR = 64 * 2 ** 20        # files inflating to less are never called bombs
NEED_PER_BYTE = 3                # peak memory per byte of table text (measured: 2-3.7)
_BLOCKS = (1 << 20, 64 << 20, 1 << 30)   # parser block sizes: bigger ones for huge lines


def _fail(label, path, why):
    raise InputError(f"{label} {Path(path).name}: {why}")


_OS_REASONS = {"EACCES": "permission denied", "EPERM": "permission denied",
               "ENOENT": "file not found", "ENOTDIR": "file not found (part of the path is "
               "not a folder)", "EISDIR": "is a directory, not a table file",
               "ELOOP": "too many symbolic links", "EIO": "the disk reported a read error"}


def os_reason(err):
    import errno
    name = errno.errorcode.get(err.errno or 0, "")
    return _OS_REASONS.get(name) or (err.strerror or "cannot be read").lower()


# ---- memory ----------------------------------------------------------------------------------

def available_memory():
    """Bytes this process can still use: MemAvailable, lowered by an address-space limit."""
    avail = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
                    break
    except OSError:
        pass
    if avail is None:
        try:
            avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            avail = None
    try:
        import resource
        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        if soft != resource.RLIM_INFINITY:
            used = 0
            with open("/proc/self/status") as f:
                for line in f:
                    if line.startswith("VmSize:"):
                        used = int(line.split()[1]) * 1024
            room = max(0, soft - used)
            avail = room if avail is None else min(avail, room)
    except (ImportError, OSError, ValueError):
        pass
    return avail


def default_max_inflated():
    """The default cap on a compressed file's inflated size: what memory can hold."""
    avail = available_memory()
    return int(avail / NEED_PER_BYTE * 1.5) if avail else int(64 * GB)


def text_size(path):
    """Bytes of table text a file holds, as far as known before reading (0: unknown)."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return 0
    name = str(path).lower()
    if name.endswith(".zip"):
        try:
            with zipfile.ZipFile(path) as zf:
                return sum(m.file_size for m in zf.infolist() if not m.is_dir())
        except (OSError, zipfile.BadZipFile, ValueError):
            return 0
    if name.endswith(".gz"):
        return 0                  # the size field wraps at 4 GiB: not a guide
    return size


def memory_need(paths):
    """(bytes needed, bytes available or None) for scoring the given files."""
    need = sum(text_size(p) for p in paths) * NEED_PER_BYTE
    return need, available_memory()


def check_memory(paths, label="these files"):
    """InputError before reading when the files cannot fit in memory."""
    need, avail = memory_need(paths)
    if avail is not None and need > avail:
        raise InputError(memory_message(need, avail, label))


def memory_message(need, avail, label="these files"):
    return (f"{label}: not enough memory: needs about {size_words(need)}, "
            f"{size_words(avail or 0)} available")


def size_words(n):
    return f"{n / GB:.1f} GB" if n >= 0.1 * GB else f"{n / 1e6:.1f} MB"


# ---- inflating streams -----------------------------------------------------------------------

class Bomb(Exception):
    """Raised inside a stream when the inflated size passes its cap."""

    def __init__(self, message):
        super().__init__(message)


class _Inflated(io.RawIOBase):
    """A file-like stream of inflated bytes with a cap; ``source`` yields chunks."""

    def __init__(self, chunks, consumed, cap, ratio_check, files=()):
        self._chunks, self._consumed, self._files = chunks, consumed, files
        self._cap, self._ratio = cap, ratio_check
        self._buf, self._pos, self.total = b"", 0, 0
        self.error = None        # the fault that ended the stream (raised by the caller)
        self.saw_hex, self._last = False, b""   # "0x" seen: Arrow reads 0x3 as an integer

    def readable(self):
        return True

    def close(self):
        for f in self._files:
            f.close()
        self._files = ()
        super().close()

    def _more(self):
        # A fault ends the stream quietly and is kept: raising inside Arrow's reader
        # thread can leave that thread running at exit (and the process aborts).
        if self.error is not None:
            return b""
        try:
            for chunk in self._chunks:
                if chunk:
                    self.total += len(chunk)
                    self._check()
                    if not self.saw_hex:
                        edge = self._last + chunk[:1]
                        self.saw_hex = any(x in chunk or x in edge for x in (b"0x", b"0X"))
                        self._last = chunk[-1:]
                    return chunk
        except Exception as e:
            self.error = e
        return b""

    def _check(self):
        if self.total > self._cap:
            raise Bomb(f"inflates past {size_words(self._cap)} — a compressed bomb? "
                       "(allow more with --max-inflated-gb)")
        comp = self._consumed()
        if self._ratio and self.total > BOMB_FLOOR and self.total > BOMB_RATIO * comp:
            raise Bomb(f"inflates past {size_words(self.total)} from {size_words(comp)} "
                       f"(over {BOMB_RATIO} times) — a compressed bomb? "
                       "(allow it with --max-inflated-gb)")

    def read(self, n=-1):
        if n is None or n < 0:
            parts = [self._buf[self._pos:]]
            self._buf, self._pos = b"", 0
            while True:
                c = self._more()
                if not c:
                    return b"".join(parts)
                parts.append(c)
        parts, want = [], n     # full reads: Arrow takes each read as one parser block
        while want > 0:
            if self._pos >= len(self._buf):
                self._buf, self._pos = self._more(), 0
                if not self._buf:
                    break
            piece = self._buf[self._pos:self._pos + want]
            self._pos += len(piece)
            want -= len(piece)
            parts.append(piece)
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def readinto(self, b):
        data = self.read(len(b))
        b[:len(data)] = data
        return len(data)


def _gzip_chunks(f, counter):
    """Inflated chunks of a (multi-member) gzip file; errors raise zlib.error/EOFError."""
    d = zlib.decompressobj(31)
    pending = b""
    while True:
        if not pending:
            pending = f.read(_CHUNK)
            counter[0] += len(pending)
            if not pending:
                if not d.eof:
                    raise EOFError("the compressed data ends early")
                return
        if d.eof:                       # another member, or zero padding
            if not pending.strip(b"\x00"):
                pending = b""
                continue
            if not pending.startswith(b"\x1f\x8b"):
                raise zlib.error("data after the end of the compressed stream")
            d = zlib.decompressobj(31)
        out = d.decompress(pending, _CHUNK)
        # At the end of a member zlib leaves a stale unconsumed_tail: the rest is unused_data.
        pending = d.unused_data if d.eof else d.unconsumed_tail
        if out:
            yield out


def _zip_chunks(ext):
    while True:
        c = ext.read(_CHUNK)
        if not c:
            return
        yield c


class _Counting(io.RawIOBase):
    """Counts the bytes read from a file (compressed bytes consumed by zipfile)."""

    def __init__(self, f, counter):
        self._f, self._n = f, counter

    def readable(self):
        return True

    def seekable(self):
        return True

    def seek(self, *a):
        return self._f.seek(*a)

    def tell(self):
        return self._f.tell()

    def read(self, n=-1):
        b = self._f.read(n)
        self._n[0] += len(b)
        return b

    def readinto(self, b):
        n = self._f.readinto(b)
        self._n[0] += n or 0
        return n

    def close(self):
        self._f.close()
        super().close()


def _members(zf):
    return [m for m in zf.infolist() if not m.is_dir()
            and not m.filename.startswith("__MACOSX/")
            and not Path(m.filename).name.startswith(".")]


_ZIP_METHODS = {9: "Deflate64", 6: "Implode", 98: "PPMd", 99: "AES encryption", 93: "Zstandard"}


def _open_source(path, label, max_inflated):
    """(name for format detection, opener) where opener() gives a fresh stream or path."""
    p = Path(path)
    try:
        st = os.stat(p)
    except OSError as e:
        _fail(label, path, os_reason(e))
    if stat.S_ISDIR(st.st_mode):
        _fail(label, path, "is a directory, not a table file")
    if st.st_size == 0:
        _fail(label, path, "file is empty")
    try:
        with open(p, "rb"):
            pass
    except OSError as e:
        _fail(label, path, os_reason(e))
    name = p.name.lower()
    user_cap = max_inflated is not None
    cap = max_inflated if user_cap else default_max_inflated()
    if name.endswith(".zip"):
        try:
            with zipfile.ZipFile(p) as zf:
                members = _members(zf)
        except (zipfile.BadZipFile, EOFError, ValueError):
            _fail(label, path, "not a valid zip archive")
        if len(members) != 1:
            names = ", ".join(m.filename for m in members[:5]) or "nothing"
            _fail(label, path, f"zip holds {len(members)} files ({names}); expected exactly one table")
        m = members[0]
        if m.flag_bits & 0x1:
            _fail(label, path, f"'{m.filename}' in the zip is encrypted (password-protected); "
                  "unzip it first")
        if m.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2,
                                   zipfile.ZIP_LZMA):
            how = _ZIP_METHODS.get(m.compress_type, f"method {m.compress_type}")
            _fail(label, path, f"'{m.filename}' in the zip is compressed with {how}, which cannot "
                  "be read here; re-zip it with the usual Deflate method")

        def opener():
            counter = [0]
            raw = _Counting(open(p, "rb"), counter)
            zf = zipfile.ZipFile(raw)
            ext = zf.open(m)
            return _Inflated(_zip_chunks(ext), lambda: counter[0], cap, not user_cap, (ext, zf, raw))
        return m.filename.lower(), opener
    if name.endswith(".gz"):
        def opener():
            counter = [0]
            f = open(p, "rb")
            return _Inflated(_gzip_chunks(f, counter), lambda: counter[0], cap, not user_cap, (f,))
        return name[:-3], opener
    return name, lambda: str(p)


def _stream_fault(label, path, e):
    """An InputError for a failure while inflating or reading, or None if not one."""
    if isinstance(e, Bomb):
        _fail(label, path, str(e))
    if isinstance(e, zlib.error):
        _fail(label, path, "the compressed data is corrupt (it cannot be inflated)")
    if isinstance(e, EOFError):
        _fail(label, path, "the compressed data ends early (truncated file)")
    if isinstance(e, zipfile.BadZipFile):
        why = ("the checksum does not match (corrupt data)" if "CRC" in str(e)
               else "the file inside the zip is unreadable (damaged archive)")
        _fail(label, path, why)
    if isinstance(e, RuntimeError) and "encrypted" in str(e):
        _fail(label, path, "the zip is encrypted (password-protected); unzip it first")
    if isinstance(e, NotImplementedError):
        _fail(label, path, "the zip uses a compression method that cannot be read here")
    if isinstance(e, MemoryError):
        _fail(label, path, f"not enough memory to read it ({(available_memory() or 0) / GB:.1f} GB "
              "available)")
    if isinstance(e, OSError) and not isinstance(e, pa.ArrowException):
        _fail(label, path, f"cannot be read: {os_reason(e)}")


def _head(opener):
    src = opener()
    if isinstance(src, str):
        with open(src, "rb") as f:
            return f.read(_SNIFF)
    try:
        out = bytearray()
        while len(out) < _SNIFF:
            c = src.read(_SNIFF - len(out))
            if not c:
                break
            out += c
        if src.error is not None:
            raise src.error
        return bytes(out)
    finally:
        src.close()


def _saw_hex(src):
    if not isinstance(src, str):
        return src.saw_hex
    buf, last = bytearray(16 << 20), b""     # read in blocks: a mapping would count as memory
    with open(src, "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                return False
            # One-byte finds run at memchr speed; the two-byte check only where an x is.
            if buf.find(b"x", 0, n) >= 0 or buf.find(b"X", 0, n) >= 0:
                if buf.find(b"0x", 0, n) >= 0 or buf.find(b"0X", 0, n) >= 0:
                    return True
            if last + bytes(buf[:1]) in (b"0x", b"0X"):
                return True
            last = bytes(buf[n - 1:n])


def _raise_stream_error(src):
    if not isinstance(src, str) and src.error is not None:
        raise src.error


def _delimiter(name, header):
    if name.endswith((".tsv", ".tab")):
        return "\t"
    if "," not in header and "\t" in header:
        return "\t"
    return ","


def read_header(path, label="file", max_inflated=None):
    """Column names of a table without reading its rows."""
    name, opener = _open_source(path, label, max_inflated)
    if not str(path).lower().endswith(PARQUET + (".zip", ".gz")):
        head = _head(opener)          # a plain CSV whose header fits the sniff: read it here
        body = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
        if b"\n" in body and not body.startswith(b"PAR1") and b"\x00" not in body:
            import csv
            try:
                first = body.split(b"\n", 1)[0].decode("utf-8").rstrip("\r")
            except UnicodeDecodeError:
                first = ""
            if first.strip() and '"' not in first:
                return next(csv.reader([first], delimiter=_delimiter(name, first)))
    return read_table(path, label, header_only=True, max_inflated=max_inflated).column_names


def read_table(path, label="file", *, string_columns=(), header_only=False, max_inflated=None):
    """Read a table into a pyarrow Table; InputError names the file and the fault.

    ``string_columns`` are kept as text (ids like '007' or hex codes). Empty
    cells of text columns stay "" (never null), and no word ("NA", "nan",
    "true") is read as a missing value or a boolean: numbers.py judges them.
    ``max_inflated``: bytes a .gz/.zip may inflate to (None: from memory).
    """
    name, opener = _open_source(path, label, max_inflated)
    try:
        return _read(path, label, name, opener, string_columns, header_only)
    except InputError:
        raise
    except Exception as e:   # inflating faults surface from inside the parser
        _stream_fault(label, path, e)
        raise


def _read(path, label, name, opener, string_columns, header_only):
    head = _head(opener)
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
    # A header longer than the sniff window needs big parser blocks from the start.
    blocks = _BLOCKS[1:] if b"\n" not in body else _BLOCKS
    types = {c: pa.string() for c in string_columns}
    convert = pacsv.ConvertOptions(column_types=types, null_values=[], true_values=[],
                                   false_values=[], strings_can_be_null=False,
                                   quoted_strings_can_be_null=False)
    parse = pacsv.ParseOptions(delimiter=delim)
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
            _raise_stream_error(src)
            ints = [f.name for f in table.schema if pa.types.is_integer(f.type)]
            if ints and _saw_hex(src):
                # Arrow's integer parser takes 0x3 as 3: read those columns as text so
                # the number grammar names the rows.
                convert.column_types = dict(types, **{c: pa.string() for c in ints})
                src2 = opener()
                try:
                    table = pacsv.read_csv(src2, read_options=opts, parse_options=parse,
                                           convert_options=convert)
                    _raise_stream_error(src2)
                finally:
                    if not isinstance(src2, str):
                        src2.close()
            return _checked(table, label, path)
        except pa.ArrowInvalid as e:
            _raise_stream_error(src)
            msg = str(e)
            if "straddling" in msg or "straddles" in msg:
                if i + 1 < len(blocks):
                    continue
                _fail(label, path, f"cannot parse as {kind}: a line or a field is longer than "
                      f"{block >> 20} MB")
            _fail(label, path, f"cannot parse as {kind}: {_words(msg)}")
        finally:
            if not isinstance(src, str):
                src.close()


def _empty(schema):
    """An empty table of a schema (Schema.empty_table imports pandas: slow start)."""
    return pa.Table.from_batches([], schema=schema)


def _words(msg):
    """Arrow's CSV messages in plain words."""
    msg = re.sub(r"^(CSV parse error|In CSV column #\d+): ", "", msg)
    m = re.match(r"Expected (\d+) columns?, got (\d+): ?(.*)", msg, re.S)
    if m:
        line = m.group(3).strip()
        line = line if len(line) <= 60 else line[:57] + "..."
        return f"a line has {m.group(2)} fields where the header has {m.group(1)}: '{line}'"
    if "invalid UTF8" in msg:
        return "not UTF-8 text (a value holds bytes that are not UTF-8)"
    if "Empty CSV file" in msg:
        return "the file has no header line"
    return msg.split("\n")[0]


_TYPE_WORDS = (("list", "lists of values"), ("struct", "records"), ("map", "key-value maps"),
               ("binary", "binary data"), ("dictionary", "categories"))


def _read_parquet(path, label, opener, string_columns, header_only):
    import pyarrow.parquet as pq  # imported when needed: keeps start-up fast
    src = opener()
    try:
        data = src if isinstance(src, str) else pa.py_buffer(src.read())
        _raise_stream_error(src)
    finally:
        if not isinstance(src, str):
            src.close()
    try:
        if header_only:
            table = _empty(pq.read_schema(data if isinstance(data, str) else pa.BufferReader(data)))
        else:
            table = pq.read_table(data if isinstance(data, str) else pa.BufferReader(data))
    except (pa.ArrowException, OSError, ValueError):
        _fail(label, path, "not a readable Parquet file (damaged, or not Parquet)")
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
    dup = sorted({c for c in names if names.count(c) > 1})
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
            _open_source(p, label, max_inflated)
        except InputError as e:
            errors.extend(e.problems)
    if errors:
        raise InputError(errors[0], errors)
    check_memory([truth_path, submission_path])
    keep = [id_column] if id_column else []
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
