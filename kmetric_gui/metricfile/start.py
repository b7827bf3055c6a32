"""A spare host process, started early: a metric-file command starts its workers' host
(metricfile/host.py, which imports pandas, half a second) first of all, so that import
overlaps the command's own; the run then takes it if it fits (same Python, same
sandbox plan). The app keeps the host of its last run for the next (MetricWorker.keep_host).
The host is a fresh interpreter, started from nothing of the caller's, so no state of
the app or the CLI reaches a metric's code. Nothing starts on import.
"""
import shutil
import tempfile
import threading

_spare = {}            # "host": the spare Host, "key": what it was started for
_lock = threading.Lock()


def _key(python, mode):
    from .pool import single_mode
    return (python, mode, single_mode())


def warm_up(python=None, mode="auto"):
    """Start a spare host now (no-op when one runs already or none can start)."""
    from . import sandbox
    from .pool import Host, HostFailed, single_mode
    with _lock:
        if _spare:
            return
        state = sandbox.plan(mode)
        if mode == "require" and not state.used:
            return                       # the run says why, in one line
        scratch = tempfile.mkdtemp(prefix="kmetric-metric-")
        try:
            host = Host(python, state, scratch, single_mode())
        except HostFailed:
            shutil.rmtree(scratch, ignore_errors=True)
            return
        _spare.update(host=host, key=_key(python, mode))


def take(python, mode):
    """The spare host when it was started for this Python and sandbox mode, else None (a
    spare for another place is ended)."""
    with _lock:
        if not _spare:
            return None
        host, key = _spare.pop("host"), _spare.pop("key")
    if key != _key(python, mode) or host.gone.is_set():
        drop(host)
        return None
    return host


def give_back(host, python, mode):
    """A host whose run ended (processes ended, folder emptied): the next run takes it."""
    with _lock:
        old = _spare.pop("host", None)
        _spare.clear()
        _spare.update(host=host, key=_key(python, mode))
    if old is not None:
        drop(old)


def drop(host):
    host.kill()
    shutil.rmtree(host.scratch, ignore_errors=True)


def discard():
    """End a spare host nobody took (a command that failed before its run; the app's end)."""
    with _lock:
        host = _spare.pop("host", None)
        _spare.clear()
    if host is not None:
        drop(host)
