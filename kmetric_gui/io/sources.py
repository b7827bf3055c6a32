"""Opening a table file: plain, .gz or .zip, inflated once as a capped stream.

A .gz/.zip is inflated block by block as the parser asks for it; the inflated
size is capped (``max_inflated``; by default what memory can hold) and a file
inflating more than 200 times past 64 MB is refused as a likely bomb. Every
fault becomes an InputError naming the file and the reason in words.
"""
import io
import os
import stat
import zipfile
import zlib
from pathlib import Path

import pyarrow as pa

from ..errors import InputError
from .memory import GB, available_memory, default_max_inflated, size_words

PARQUET = (".parquet", ".pq")
_SNIFF = 64 * 1024
_CHUNK = 256 << 10               # bytes read at a time (small: the ratio check stays exact)
BOMB_RATIO = 200                 # inflated / compressed past which a big file is a likely bomb
BOMB_FLOOR = 64 * 2 ** 20        # files inflating to less are never called bombs


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


def open_source(path, label, max_inflated):
    """(name for format detection, opener) where opener() gives a fresh stream or path."""
    p = Path(path)
    try:
        st = os.stat(p)
    except OSError as e:
        _fail(label, path, os_reason(e))
    if stat.S_ISDIR(st.st_mode):
        _fail(label, path, "is a directory, not a table file")
    if not stat.S_ISREG(st.st_mode):     # /dev/zero never ends, a pipe reads once
        _fail(label, path, "not a regular file (a device, a pipe or a socket); save the table "
              "to a file first")
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


def fingerprint(path):
    """(size, modification time, inode) of a file: a change between two reads of it
    means another program wrote it meanwhile."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ino


CHANGED = ("changed while it was read (another program is writing it?); "
           "read it again once it is complete")


def stream_fault(label, path, e):
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


def head_bytes(opener):
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


def saw_hex(src):
    if not isinstance(src, str):
        return src.saw_hex
    last = b""
    with open(src, "rb") as f:
        # Read in blocks (a mapping would count as memory); no bigger than the file: a zeroed
        # 16 MB block cost each small file 2 ms (200 candidates of `kmetric select`). 1 MB: the
        # block stays in cache (75 MB: 17 -> 13 ms warm; a fresh process faults 256 pages, not 4,096).
        buf = bytearray(max(1, min(1 << 20, os.fstat(f.fileno()).st_size + 1)))
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


def raise_stream_error(src):
    if not isinstance(src, str) and src.error is not None:
        raise src.error
