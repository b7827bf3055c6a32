"""Metric files the user has been told about: a metric file is code that runs on
their machine, and they hear so once per file content (its SHA-256 remembered).

The list lives in the user's config folder ($XDG_CONFIG_HOME or ~/.config, or
%APPDATA% on Windows), under kmetric_gui/metric-files.txt; KMETRIC_CONFIG_DIR
overrides the folder (tests). Failing to read or write it never stops a run.
"""
import os
import sys
from pathlib import Path

NOTICE = ("metric file {name} is Python code: it runs on this machine, in a separate process "
          "with the time and memory limits (this note is shown once per file)")


def _folder():
    if os.environ.get("KMETRIC_CONFIG_DIR"):
        return Path(os.environ["KMETRIC_CONFIG_DIR"])
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "kmetric_gui"
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "kmetric_gui"


def known(sha256):
    """Whether the user has been told about a file with this content."""
    path = _folder() / "metric-files.txt"
    try:
        return sha256 in (set(path.read_text(encoding="ascii").split()) if path.exists() else set())
    except (OSError, UnicodeDecodeError):
        return False


def remember(sha256):
    """Note that the user has been told (the app: once they said to run it)."""
    path = _folder() / "metric-files.txt"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="ascii") as f:
            f.write(sha256 + "\n")
    except OSError:
        pass


def first_time(sha256):
    """True the first time a file with this content is run (and remember it)."""
    if known(sha256):
        return False
    remember(sha256)
    return True
