"""References to a project's files (its folder-relative path, absolute path, size and
hash) and finding them again: shared by the project file and the final-submissions
dialog's part of it."""
import os
from dataclasses import dataclass
from pathlib import Path

from ..report.build import sha256_of


@dataclass
class FileRef:
    role: str
    path: str                 # as written: relative to the project's folder where possible
    absolute: str
    size: int
    sha256: str


def file_ref(path, role, folder, cancel=None):
    p = Path(path).resolve()
    try:
        rel = os.path.relpath(p, Path(folder).resolve())
    except ValueError:        # another drive (Windows)
        rel = str(p)
    return FileRef(role, Path(rel).as_posix(), str(p), p.stat().st_size, sha256_of(p, cancel))


def _ref(role, f):
    return FileRef(role, f["path"], f.get("absolute") or f["path"], f.get("size", 0),
                   f.get("sha256") or "")


def locate(ref, project_path):
    """The file of a reference: relative to the project first, then the absolute path."""
    folder = Path(project_path).resolve().parent
    for candidate in (folder / ref.path, Path(ref.absolute)):
        if candidate.is_file():
            return str(candidate)
    return None
