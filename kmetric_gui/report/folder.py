"""The report folder: refuse a non-empty one unless forced, check it is writable."""
import os
import tempfile
from pathlib import Path

from ..saving import reason_in_words

PLOTS, TABLES = "plots", "tables"


class FolderError(Exception):
    """The report folder cannot be used; the message names it."""


def is_nonempty(path):
    p = Path(path)
    try:
        return p.is_dir() and any(p.iterdir())
    except OSError:
        return False


def prepare_folder(path, force=False):
    """Create (or reuse, with ``force``) the report folder and its sub-folders."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise FolderError(f"report folder {p} is a file, not a folder")
    if p.is_dir():
        try:
            nonempty = any(p.iterdir())
        except OSError as e:
            raise FolderError(f"report folder {p} cannot be read: {reason_in_words(e)}") from None
        if nonempty and not force:
            raise FolderError(f"report folder {p} exists and is not empty; "
                              "add --force to write into it")
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
