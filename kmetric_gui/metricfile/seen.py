"""What a user agreed to about metric files, one list per place, never shared:

- the app's trust list: file contents (SHA-256) the user said "Run it" to in the app;
  the app runs such a content without asking again, and nothing else writes here;
- the CLI's notes: contents (with where they ran) the CLI has told the user about
  once. A `kmetric` command is itself the user's explicit request to run the file,
  and it records nothing the app trusts.

The lists live in the user's config folder ($XDG_CONFIG_HOME or ~/.config, or
%APPDATA% on Windows), under kmetric_gui/; KMETRIC_CONFIG_DIR overrides the folder
(tests). Failing to read or write them never stops a run (the app then asks again).
An older single list (metric-files.txt, written by both) is no longer read.
"""
import os
import sys
from pathlib import Path

APP_TRUST = "app-trusted-metric-files.txt"
CLI_NOTES = "cli-told-metric-files.txt"


def _folder():
    if os.environ.get("KMETRIC_CONFIG_DIR"):
        return Path(os.environ["KMETRIC_CONFIG_DIR"])
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "kmetric_gui"
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "kmetric_gui"


def _has(name, key):
    path = _folder() / name
    try:
        return key in (set(path.read_text(encoding="utf-8").split()) if path.exists() else set())
    except (OSError, UnicodeDecodeError):
        return False


def _add(name, key):
    path = _folder() / name
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as f:
            f.write(key + "\n")
    except OSError:
        pass


def trusted(sha256):
    """Whether the user said "Run it" to this content in the app."""
    return _has(APP_TRUST, sha256)


def trust(sha256):
    """The app's "Run it": this content runs in the app without asking again."""
    _add(APP_TRUST, sha256)


def first_note(key):
    """True the first time the CLI tells about ``key`` (a content and where it runs)."""
    key = "".join(key.split())
    if _has(CLI_NOTES, key):
        return False
    _add(CLI_NOTES, key)
    return True
