"""Unexpected exceptions: a log file in a per-user folder and a dialog; the app keeps running.

Windowed builds on Windows and macOS have no console: sys.stderr is None there, so
nothing here may assume a stream exists.
"""
import os
import sys
import time
import traceback
from pathlib import Path

APP = "kmetric_gui"
_open = []          # dialogs without a parent window would be garbage-collected while shown


def log_dir() -> Path:
    """Per-user folder for crash logs (KMETRIC_LOG_DIR overrides it)."""
    if os.environ.get("KMETRIC_LOG_DIR"):
        return Path(os.environ["KMETRIC_LOG_DIR"])
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local") / APP / "logs"
    if sys.platform == "darwin":
        return home / "Library" / "Logs" / APP
    return Path(os.environ.get("XDG_STATE_HOME") or home / ".local" / "state") / APP / "logs"


def write_log(details: str) -> "Path | None":
    """Append details to crash.log; the path, or None when the folder cannot be written."""
    try:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "crash.log"
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')}\n{details}\n")
        return path
    except OSError:
        return None


def _echo(text: str) -> None:
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(text)
        stream.flush()
    except Exception:       # a closed or broken stream must not hide the dialog
        pass


def show_dialog(parent, message: str, details: str, log: "Path | None"):
    """Error box. Non-blocking (open(), not exec(): never stall a worker result or a test),
    except with no console and no event loop running: an error while the app starts or
    ends would otherwise vanish with the process, unseen."""
    from PySide6.QtCore import QThread
    from PySide6.QtWidgets import QApplication, QMessageBox
    if QApplication.instance() is None:
        return None
    box = QMessageBox(QMessageBox.Critical, "Unexpected error", message, QMessageBox.Ok, parent)
    where = f"Details were saved to {log}." if log else "The details could not be saved to a file."
    box.setInformativeText(f"The app is still running; your data is unchanged. {where}")
    box.setDetailedText(details)
    box.setModal(True)
    if sys.stderr is None and QThread.currentThread().loopLevel() == 0:
        box.exec()
        return box
    _open.append(box)
    box.finished.connect(lambda *_: _open.remove(box) if box in _open else None)
    box.open()
    return box


def install(window_getter=lambda: None) -> None:
    """Route unexpected exceptions to stderr (if any), the log file and a dialog."""
    def hook(etype, value, tb):
        details = "".join(traceback.format_exception(etype, value, tb))
        _echo(details)
        log = write_log(details)
        try:
            show_dialog(window_getter(), f"{etype.__name__}: {value}", details, log)
        except Exception as e:      # the dialog is best effort; the log already has the details
            _echo(f"kmetric-gui: could not show the error dialog ({e})\n")
    sys.excepthook = hook


# -- guards for the methods Qt calls -----------------------------------------------------------
# A Python exception escaping a virtual method called from C++ (closeEvent, data, paint...)
# can take PySide down (a `+` in Min rating, then closing the window: exit 139). Every such
# override is wrapped: the exception goes to the app's hook (log + dialog) and Qt gets a
# harmless answer.

def _fallback(name, args):
    """What Qt gets from a failed override: the neutral answer for its return type."""
    if name in ("rowCount", "columnCount"):
        return 0
    if name in ("setData", "eventFilter", "event", "dropMimeData", "canFetchMore"):
        return False
    if name == "flags":
        from PySide6.QtCore import Qt
        return Qt.NoItemFlags
    if name == "boundingRect":
        from PySide6.QtCore import QRectF
        return QRectF()
    if name in ("sizeHint", "minimumSizeHint"):
        from PySide6.QtCore import QSize
        return QSize()
    if name == "validate":
        from PySide6.QtGui import QValidator
        return QValidator.Invalid, args[1] if len(args) > 1 else "", args[2] if len(args) > 2 else 0
    return None


def report_exception(exc_type, exc, tb):
    """Through the app's hook (crash.install) when there is one, else Python's own."""
    try:
        sys.excepthook(exc_type, exc, tb)
    except Exception:        # a broken hook must not turn into the crash it was to prevent
        _echo("".join(traceback.format_exception(exc_type, exc, tb)))


def guarded(fn):
    """Decorator for a method Qt calls: no exception escapes it (reported, not raised)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception:
            report_exception(*sys.exc_info())
            return _fallback(fn.__name__, args)
    wrapper.guarded = True
    return wrapper
