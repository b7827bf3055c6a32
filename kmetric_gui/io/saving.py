"""Saving files safely, and CSV exports that a spreadsheet cannot run.

No Qt (standard library and numbers.py): the GUI, the CLI and the tests share it.

Two rules:
- a saved *submission* goes back to Kaggle, so its ids and values are
  written byte-exact (``save_atomic`` writes what it is given);
- a CSV *export* meant for a spreadsheet (tables, matrices, drill-down
  lists) quote-prefixes text cells that start with ``= + - @``, tab or
  carriage return, as OWASP recommends against formula injection
  (``spreadsheet_safe``, ``csv_text``).
"""
import csv
import errno
import os
import re
import stat
import tempfile

from ..numbers import NUMBER_PATTERN

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# Plain decimal numbers (as numbers.py reads them) stay numbers in a spreadsheet.
_NUMBER = re.compile(NUMBER_PATTERN)


class SaveError(OSError):
    """A file could not be saved; the message names the target and the reason in words."""

    def __init__(self, path, reason):
        self.path, self.reason = str(path), reason
        super().__init__(f"cannot save {self.path}: {reason}")

    def __str__(self):
        return f"cannot save {self.path}: {self.reason}"


_REASONS = {
    errno.EACCES: "permission denied (the folder or the file is read-only)",
    errno.EPERM: "permission denied (the folder or the file is read-only)",
    errno.EROFS: "the disk is read-only",
    errno.ENOSPC: "the disk is full",
    errno.ENOENT: "the folder does not exist",
    errno.ENOTDIR: "part of the path is not a folder",
    errno.EISDIR: "it is a folder",
    errno.ENAMETOOLONG: "the file name is too long",
    errno.EDQUOT: "the disk quota is exceeded",
}


def reason_in_words(err):
    """A short reason for an OSError, without the temporary file's name."""
    return _REASONS.get(err.errno) or (err.strerror or "the system refused").lower()


def save_atomic(path, data):
    """Write ``data`` (str as UTF-8, or bytes) to ``path`` in one step.

    The bytes go to a temporary file in the target's folder, are fsynced, and
    replace the target; the folder is fsynced after the replace. A symlink is
    written through (its target is replaced, the link stays); an existing
    file keeps its permission bits (a new one gets the usual 0666 less umask).
    Refused with a reason (SaveError), the target untouched: a read-only file
    (no write bit, even for root), anything but a regular file (a device such
    as /dev/null, a pipe, a socket, a folder), and a file with other hard links
    (replacing it would split them). Never leaves the temporary file behind;
    temporary files of saves killed half-way (ours by name, their process gone
    or over an hour old) are removed from the folder on the next save there.
    """
    target = os.path.realpath(os.fspath(path))
    folder, name = os.path.split(target)
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    try:
        st = os.stat(target)
        mode, owner = stat.S_IMODE(st.st_mode), (st.st_uid, st.st_gid)
    except FileNotFoundError:
        mode, owner = 0o666 & ~current_umask(), None
    except OSError as e:
        raise SaveError(path, reason_in_words(e)) from None
    if owner is not None:
        why = _refusal(st, target)
        if why:
            raise SaveError(path, why)
    _remove_stale_temps(folder)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.{_TEMP_TAG}{os.getpid()}-", suffix=".tmp",
                                   dir=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fchmod(f.fileno(), mode) if hasattr(os, "fchmod") else None
            if owner is not None and hasattr(os, "fchown"):
                try:
                    os.fchown(f.fileno(), *owner)
                except OSError:
                    pass              # not ours to give away: keep the mode at least
            os.fsync(f.fileno())
        os.replace(tmp, target)
        tmp = None
        _fsync_folder(folder)
    except OSError as e:
        raise SaveError(path, reason_in_words(e)) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _refusal(st, target):
    """Why an existing ``target`` must not be replaced, or None."""
    if stat.S_ISDIR(st.st_mode):
        return "it is a folder"
    if not stat.S_ISREG(st.st_mode):
        what = ("a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "a pipe (FIFO)" if stat.S_ISFIFO(st.st_mode)
                else "a socket" if stat.S_ISSOCK(st.st_mode) else "a special file")
        return f"it is {what}, not a regular file"
    # Mode bits, not access(): root may write anything, yet a read-only file stays so.
    root = hasattr(os, "geteuid") and os.geteuid() == 0      # Windows has no user ids
    if not st.st_mode & 0o222 or (not root and not os.access(target, os.W_OK)):
        return "the file is read-only"
    if st.st_nlink > 1:
        return (f"the file has {st.st_nlink - 1} other hard link(s), which a save would split "
                "from it; save under another name")
    return None


_TEMP_TAG = "kmsave-"          # our temporary files: .NAME.kmsave-PID-XXXXXXXX.tmp
_OUR_TEMP = re.compile(r"^\..+\.kmsave-(\d+)-[A-Za-z0-9_]+\.tmp$")
STALE_SECONDS = 3600


def _remove_stale_temps(folder, now=None):
    """Remove temporary files of earlier saves that were killed before the end."""
    import time
    now = time.time() if now is None else now
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for e in entries:
        m = _OUR_TEMP.match(e.name)    # only ours: never a user's file that looks alike
        if not m:
            continue
        try:
            st = e.stat(follow_symlinks=False)
            if not stat.S_ISREG(st.st_mode):
                continue
            old = now - st.st_mtime > STALE_SECONDS
            if old or not _alive(int(m.group(1))):
                os.unlink(e.path)
        except OSError:
            pass


def _alive(pid):
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def _umask_at_import():
    # Read once, while the module is imported: setting and restoring the umask
    # later would race with files made by other threads meanwhile.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _umask_at_import()


def current_umask():
    """The process's umask, read without changing it (Linux: /proc/self/status)."""
    try:
        with open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(b"Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return _UMASK


def _fsync_folder(folder):
    if os.name != "posix":
        return                      # Windows cannot open a folder for fsync
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# A line of a multi-line cell that starts like a formula: a reader that splits
# rows at every line break (some importers do) would run it.
_LATER_LINE = re.compile(r"([\r\n])(?=[=+\-@\t\r])")


def is_formula(cell):
    """True for text a spreadsheet would run as a formula (numbers are not), or text
    with a line after a line break that starts like one."""
    if not isinstance(cell, str):
        return False
    return ((cell.startswith(FORMULA_START) and not _NUMBER.fullmatch(cell))
            or _LATER_LINE.search(cell) is not None)


def spreadsheet_safe(cell):
    """The cell for a spreadsheet export: formula-leading text gets a leading quote,
    and so does each later line of it that starts like a formula.

    Non-text values (numbers) and plain decimal numbers written as text
    (``-0.5``) are returned unchanged.
    """
    if not is_formula(cell):
        return cell
    lead = "'" if cell.startswith(FORMULA_START) and not _NUMBER.fullmatch(cell) else ""
    return lead + _LATER_LINE.sub(r"\1'", cell)


class _Rows:
    """Collects what csv.writer writes: one string per row."""

    def __init__(self):
        self.lines = []

    def write(self, text):
        self.lines.append(text)


def csv_text(rows, spreadsheet=True, end="\n", delimiter=","):
    """CSV text of rows (sequences of cells), each line ending in ``end``.

    ``spreadsheet=True`` (exports) escapes formula-leading text cells;
    ``spreadsheet=False`` writes them byte-exact (submissions for Kaggle).
    Every field holding a quote, the delimiter, \\r or \\n is quoted: Python's
    writer quotes only the characters of its line terminator, so with '\\n'
    alone a bare \\r stayed unquoted and started a new row in any reader.
    """
    sink = _Rows()
    w = csv.writer(sink, lineterminator="\r\n", delimiter=delimiter)
    for row in rows:
        w.writerow([spreadsheet_safe(c) for c in row] if spreadsheet else row)
    # writerow writes each row in one call, ending in the terminator given.
    return "".join(line[:-2] + end for line in sink.lines)


def formula_ids(ids, show=5):
    """(count, first few) of ids a spreadsheet would run as formulas.

    ``ids``: any iterable of str, or a pyarrow string array (checked
    vectorised). The app warns once when saving a submission with such ids;
    the saved file still keeps them byte-exact.
    """
    try:
        import pyarrow as pa
    except ImportError:               # pragma: no cover - pyarrow is a dependency
        pa = None
    if pa is not None and isinstance(ids, (pa.Array, pa.ChunkedArray)):
        import pyarrow.compute as pc
        text = ids.cast(pa.string())
        lead = pc.match_substring_regex(text, r"^[=+\-@\t\r]")
        num = pc.match_substring_regex(text, f"^{NUMBER_PATTERN}$")
        hit = pc.and_(pc.fill_null(lead, False), pc.invert(pc.fill_null(num, False)))
        count = pc.sum(hit).as_py() or 0
        examples = pc.filter(text, hit).slice(0, show).to_pylist() if count else []
        return int(count), examples
    count, examples = 0, []
    for v in ids:
        if is_formula(v):
            count += 1
            if len(examples) < show:
                examples.append(v)
    return count, examples


__all__ = ["SaveError", "save_atomic", "current_umask", "reason_in_words", "FORMULA_START", "is_formula",
           "spreadsheet_safe", "csv_text", "formula_ids"]


def tsv(rows):
    """Tab-separated text (what spreadsheets paste): one line per row, no quoting, formula-safe."""
    clean = lambda c: spreadsheet_safe(c).replace("\t", " ").replace("\r", " ").replace("\n", " ")
    return "".join("\t".join(clean(c) for c in row) + "\n" for row in rows)
