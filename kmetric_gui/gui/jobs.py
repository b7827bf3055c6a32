"""Background work on one QThread, with typed results and generations.

``submit(kind, fn, on_result)`` runs ``fn(progress, cancel)`` on the worker
and calls ``on_result(value)`` on the GUI thread. A newer job of the same
kind supersedes the older one (its ``cancel()`` turns True, a late result is
dropped); a job bound to a generation is also dropped when the session has
moved on (an edit, an undo, new options, new files) — whatever kind it is.
Widgets a job disables come back when it ends, fails, is cancelled or is
dropped.
"""
import traceback
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QThread, Signal, Slot

from ..errors import Cancelled, InputError


@dataclass(eq=False)
class Job:
    kind: str
    token: int
    fn: object
    on_result: object
    on_error: object = None
    generation: object = None
    disables: list = field(default_factory=list)
    cancellable: bool = True
    done: bool = False
    lane: str = "interactive"


class _Worker(QObject):
    finished = Signal(object, object)
    failed = Signal(object, object)
    progressed = Signal(object, float, str)

    def __init__(self, controller):
        super().__init__()
        self._ctl = controller

    @Slot(object)
    def run(self, job):
        if not self._ctl.is_live(job):
            return                              # superseded before it started

        def cancel():
            return not self._ctl.is_live(job)

        def progress(fraction, message):
            self.progressed.emit(job, float(fraction), str(message))

        try:
            value = job.fn(progress, cancel)
        except Cancelled:
            self.failed.emit(job, Cancelled())
        except InputError as e:
            self.failed.emit(job, e)
        except MemoryError:
            self.failed.emit(job, InputError("not enough memory for this step; close other "
                                             "programs or use smaller files"))
        except Exception as e:  # shown by the window; the app keeps running
            e.details = traceback.format_exc()
            self.failed.emit(job, e)
        else:
            self.finished.emit(job, value)


_STILL_RUNNING = []
LANES = ("interactive", "table", "background")   # scores; table rows; analysis


class _Lane(QObject):
    submit = Signal(object)


class JobController(QObject):
    busy_changed = Signal(bool)
    progress = Signal(str, float, str)          # kind, fraction, message
    error = Signal(str, object)                 # kind, exception (no on_error given)
    delivered = Signal(str)                     # kind: a result was handed over (tests wait on it)

    def __init__(self, current_generation=None, parent=None):
        super().__init__(parent)
        self._current_generation = current_generation or (lambda: None)
        self._latest = {}                       # kind -> token of the newest job
        self._running = {}                      # kind -> Job
        self._token = 0
        # Two lanes: what the user waits for (load, score, rows, save) never queues
        # behind analysis of the same numbers (intervals, fixes, comparison).
        self._threads, self._workers, self._signals = {}, {}, {}
        for lane in LANES:
            thread = QThread()
            thread.setObjectName(f"kmetric-{lane}")
            worker = _Worker(self)
            worker.moveToThread(thread)
            sig = _Lane()
            sig.submit.connect(worker.run)
            worker.finished.connect(self._on_finished)
            worker.failed.connect(self._on_failed)
            worker.progressed.connect(self._on_progress)
            thread.start()
            self._threads[lane], self._workers[lane], self._signals[lane] = thread, worker, sig

    def is_live(self, job):
        """Still wanted: the newest of its kind, and of the session's generation.
        (Called from the worker: reads of a dict and of immutable values.)"""
        if job.done or self._latest.get(job.kind) != job.token:
            return False
        return job.generation is None or job.generation == self._current_generation()

    def submit(self, kind, fn, on_result, *, on_error=None, generation=None, disables=(),
               cancellable=True, lane="interactive"):
        old = self._running.get(kind)
        if old is not None:
            self._finish(old)
        self._token += 1
        # Each widget comes back as it was (an Apply with nothing to apply stays off).
        job = Job(kind, self._token, fn, on_result, on_error, generation,
                  [(w, w.isEnabled()) for w in disables], cancellable, lane=lane)
        for w, _ in job.disables:
            w.setEnabled(False)
        self._latest[kind] = job.token
        self._running[kind] = job
        self.busy_changed.emit(True)
        self._signals[lane].submit.emit(job)
        return job

    def cancel(self, kind=None):
        """Stop cancellable jobs (all, or one kind); what they disabled comes back."""
        for job in list(self._running.values()):
            if (kind is None or job.kind == kind) and job.cancellable:
                self._latest[job.kind] = -job.token
                self._finish(job)

    def running(self, kind):
        return kind in self._running

    @property
    def busy(self):
        return bool(self._running)

    def _finish(self, job):
        job.done = True
        for w, was in job.disables:
            try:
                w.setEnabled(was)
            except RuntimeError:               # the widget is gone
                pass
        if self._running.get(job.kind) is job:
            del self._running[job.kind]
        self.busy_changed.emit(bool(self._running))

    def _deliverable(self, job):
        live = self.is_live(job)
        if not job.done:
            self._finish(job)
        return live

    @Slot(object, object)
    def _on_finished(self, job, value):
        if self._deliverable(job):
            job.on_result(value)
            self.delivered.emit(job.kind)

    @Slot(object, object)
    def _on_failed(self, job, exc):
        if not self._deliverable(job) or isinstance(exc, Cancelled):
            return
        if job.on_error is not None:
            job.on_error(exc)
        else:
            self.error.emit(job.kind, exc)

    @Slot(object, float, str)
    def _on_progress(self, job, fraction, message):
        if self.is_live(job):
            self.progress.emit(job.kind, fraction, message)

    def shutdown(self):
        self.cancel()
        for thread in self._threads.values():
            thread.quit()
        for thread in self._threads.values():
            if not thread.wait(5000):
                # A job still inside a long C call: never destroy a running QThread
                # (Qt aborts the process); it ends with the process.
                _STILL_RUNNING.append((thread, self._workers))
