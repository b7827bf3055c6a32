"""Where the shipped resources (demo files, icons) are.

An installed package and the PyInstaller bundle carry them as package data in
kmetric_gui/resources; a source checkout reads the top-level resources/ folder,
which is their source (the wheel build copies it, see setup.py).
"""
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def resources_dir() -> Path:
    """The folder holding demo/ and the icons."""
    candidates = [PACKAGE / "resources", PACKAGE.parent / "resources"]
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        candidates.insert(0, Path(frozen) / "kmetric_gui" / "resources")
    for folder in candidates:
        if (folder / "demo").is_dir():
            return folder
    return candidates[0]


def in_app_files(folder) -> bool:
    """Whether ``folder`` is inside the app's own files (the demos): never a place to
    save into or to start the next file dialog from (read-only once installed)."""
    try:
        Path(folder).resolve().relative_to(resources_dir().resolve())
        return True
    except ValueError:
        return False
