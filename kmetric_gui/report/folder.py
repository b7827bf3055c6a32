"""The report folder: refuse a non-empty one unless forced, check it is writable."""
import os
import tempfile
from pathlib import Path

from ..io.saving import reason_in_words

PLOTS, TABLES = "plots", "tables"
REPORT_ENTRIES = ("index.html", "report.json", "report.pdf", PLOTS, TABLES)


class FolderError(Exception):
    """The report folder cannot be used; the message names it."""


def is_nonempty(path):
    p = Path(path)
    try:
        return p.is_dir() and any(p.iterdir())
    except OSError:
        return False


def _clear_report(p):
    """Remove an earlier report's entries (and links planted under their names: a save
    writes through a link) before writing into ``p``; other files stay."""
    import shutil
    for name in REPORT_ENTRIES:
        old = p / name
        try:
            if old.is_symlink() or (os.path.lexists(old) and not old.is_dir()):
                old.unlink()
            elif old.is_dir():
                shutil.rmtree(old)
        except OSError as e:
            raise FolderError(f"report folder {p}: cannot remove the earlier {name}: "
                              f"{reason_in_words(e)}") from None


def _usable(p, force):
    """Whether the existing folder ``p`` holds anything (None if it does not exist);
    FolderError if it is a file, unreadable, or not empty without ``force``."""
    if p.exists() and not p.is_dir():
        raise FolderError(f"report folder {p} is a file, not a folder")
    if not p.is_dir():
        return None
    try:
        nonempty = any(p.iterdir())
    except OSError as e:
        raise FolderError(f"report folder {p} cannot be read: {reason_in_words(e)}") from None
    if nonempty and not force:
        raise FolderError(f"report folder {p} exists and is not empty; "
                          "add --force to write into it")
    return nonempty


def prepare_folder(path, force=False):
    """Create (or reuse, with ``force``) the report folder and its sub-folders."""
    p = Path(path)
    nonempty = _usable(p, force)
    if nonempty is not None:
        if nonempty:
            _clear_report(p)
    else:
        try:
            p.mkdir(parents=True)
        except OSError as e:
            raise FolderError(f"cannot create report folder {p}: {reason_in_words(e)}") from None
    try:
        fd, probe = tempfile.mkstemp(prefix=".kmetric-", dir=p)
        os.close(fd)
        os.unlink(probe)
        for sub in (PLOTS, TABLES):
            (p / sub).mkdir(exist_ok=True)
    except OSError as e:
        raise FolderError(f"report folder {p} is not writable: {reason_in_words(e)}") from None
    return p


# -- written aside, then moved into place ------------------------------------------------
# A report is written into a hidden staging folder and moved into place only once
# complete: a full disk or a failure leaves nothing half-written, links planted
# in the folder are replaced (never written through), an earlier report's files
# are replaced as a whole (no stale plot stays), and other files are kept.

def check_folder(path, force=False):
    """Raise FolderError if a report cannot go to ``path``; creates nothing."""
    p = Path(path)
    if _usable(p, force) is not None:
        anchor = p
    else:
        anchor = _existing_ancestor(p)
        if not anchor.is_dir():
            raise FolderError(f"cannot create report folder {p}: part of the path is not a folder")
    try:
        fd, probe = tempfile.mkstemp(prefix=".kmetric-", dir=anchor)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        what = "is not writable" if anchor == p else f"cannot be created ({anchor} is not writable)"
        raise FolderError(f"report folder {p} {what}: {reason_in_words(e)}") from None
    return p


def _existing_ancestor(p):
    q = p.absolute()
    while not os.path.lexists(q) and q.parent != q:
        q = q.parent
    return q


def stage(path):
    """A new hidden folder to write the report into (with its sub-folders)."""
    p = Path(path)
    anchor = p if p.is_dir() else _existing_ancestor(p)
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{p.name or 'report'}.kmreport-", dir=anchor))
        for sub in (PLOTS, TABLES):
            (staging / sub).mkdir()
    except OSError as e:
        raise FolderError(f"report folder {p} is not writable: {reason_in_words(e)}") from None
    return staging


def publish(staging, path):
    """Move the complete report from ``staging`` into ``path``."""
    p = Path(path)
    if not p.is_dir():
        p.parent.mkdir(parents=True, exist_ok=True)
        os.rename(staging, p)
        return p
    _clear_report(p)                        # the earlier report's, or links under its names
    for entry in os.listdir(staging):
        os.rename(Path(staging) / entry, p / entry)
    os.rmdir(staging)
    return p


def discard(staging):
    import shutil
    shutil.rmtree(staging, ignore_errors=True)
