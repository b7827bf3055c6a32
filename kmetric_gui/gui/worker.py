"""Background work on one QThread: scoring, sorting, saving.

The GUI thread never computes. Each request belongs to a channel ("score",
"sort", ...); a newer request on a channel supersedes the older one: the old
job sees ``cancel()`` turn True at its next checkpoint, and a result that
still arrives late is dropped, never shown.
"""
import traceback

from PySide6.QtCore import QObject, QThread, Signal, Slot

from ..errors import Cancelled, InputError


class _Worker(QObject):
    """Lives in the worker thread; runs one job at a time, in order."""
    finished = Signal(str, int, object)
    failed = Signal(str, int, object)
    progressed = Signal(str, int, float, str)

    def __init__(self, controller):
        super().__init__()
        self._controller = controller

    @Slot(str, int, object)
    def run(self, channel, gen, job):
        ctl = self._controller
        if not ctl.is_current(channel, gen):
            return                              # superseded before it started

        def cancel():
            return not ctl.is_current(channel, gen)

        def progress(fraction, message):
            self.progressed.emit(channel, gen, float(fraction), str(message))

        try:
            result = job(progress, cancel)
        except Cancelled:
            return
        except InputError as e:
            self.failed.emit(channel, gen, e)
        except Exception as e:  # shown in a dialog by the GUI; the app keeps running
            e.details = traceback.format_exc()
            self.failed.emit(channel, gen, e)
        else:
            self.finished.emit(channel, gen, result)


class WorkController(QObject):
    """GUI-thread side: submit jobs, get results for the latest one only.

    ``job(progress, cancel)`` runs in the worker thread. Signals carry the
    channel name; stale generations are filtered out here, in the GUI thread.
    """
    result = Signal(str, object)
    error = Signal(str, object)
    progress = Signal(str, float, str)
    busy_changed = Signal(bool)
    _submit = Signal(str, int, object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._gen = {}
        self._running = set()
        self._thread = QThread()
        self._thread.setObjectName("kmetric-worker")
        self._worker = _Worker(self)
        self._worker.moveToThread(self._thread)
        self._submit.connect(self._worker.run)
        self._worker.finished.connect(self._on_finished)
        self._worker.failed.connect(self._on_failed)
        self._worker.progressed.connect(self._on_progress)
        self._thread.start()

    def is_current(self, channel, gen):
        return self._gen.get(channel) == gen    # a dict read: safe across threads

    def submit(self, channel, job):
        gen = self._gen.get(channel, 0) + 1
        self._gen[channel] = gen
        self._running.add(channel)
        self.busy_changed.emit(True)
        self._submit.emit(channel, gen, job)
        return gen

    def cancel(self, channel=None):
        for ch in ([channel] if channel else list(self._gen)):
            self._gen[ch] = self._gen.get(ch, 0) + 1
            self._running.discard(ch)
        self.busy_changed.emit(bool(self._running))

    @property
    def busy(self):
        return bool(self._running)

    def _done(self, channel):
        self._running.discard(channel)
        self.busy_changed.emit(bool(self._running))

    @Slot(str, int, object)
    def _on_finished(self, channel, gen, result):
        if self.is_current(channel, gen):
            self._done(channel)
            self.result.emit(channel, result)

    @Slot(str, int, object)
    def _on_failed(self, channel, gen, exc):
        if self.is_current(channel, gen):
            self._done(channel)
            self.error.emit(channel, exc)

    @Slot(str, int, float, str)
    def _on_progress(self, channel, gen, fraction, message):
        if self.is_current(channel, gen):
            self.progress.emit(channel, fraction, message)

    def shutdown(self):
        self.cancel()
        self._thread.quit()
        self._thread.wait(5000)
