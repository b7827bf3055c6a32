"""Background work on worker threads, with typed results and generations.

``submit(kind, fn, on_result)`` runs ``fn(progress, cancel)`` on a worker and
calls ``on_result(value)`` on the GUI thread. The contract is closed: every
job submitted ends exactly once, in one of ``OUTCOMES``, and ``ended(kind,
outcome)`` says so —

- done: its result was handed over;
- failed: it raised (its ``on_error``, or ``error``, heard why);
- cancelled: the user (Esc) or the app stopped it;
- superseded: a newer job of its kind, or the session moved on from the
  generation it was bound to (an edit, an undo, new options, new files).

A result that is no longer current is dropped *and* its job ends. ``busy`` is
whether any job has not ended. Widgets a job disables come back when it ends.
"""
import traceback
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QThread, Signal, Slot

from ..errors import Cancelled, InputError
from . import gc_guard

OUTCOMES = ("done", "failed", "cancelled", "superseded")


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
    done: bool = False               # ended (whatever the outcome): the worker may stop
    lane: str = "interactive"
    outcome: "str | None" = None


class _Worker(QObject):
    finished = Signal(object, object)
    failed = Signal(object, object)
    skipped = Signal(object)
    progressed = Signal(object, float, str)

    def __init__(self, controller):
        super().__init__()
        self._ctl = controller

    @Slot(object)
    def run(self, job):
        if not self._ctl.is_live(job):
            self.skipped.emit(job)              # not wanted any more: it still ends
            return

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


def _gc_release_once(held):
    # A plain closure over a flag, not a bound method: it may run after the controller's
    # C++ side is gone (destroyed), or from shutdown, whichever comes first.
    def release(*_):
        if held[0]:
            held[0] = False
            gc_guard.release()
    return release


class _Lane(QObject):
    submit = Signal(object)


class JobController(QObject):
    busy_changed = Signal(bool)
    progress = Signal(str, float, str)          # kind, fraction, message
    error = Signal(str, object)                 # kind, exception (no on_error given)
    delivered = Signal(str)                     # kind: a result was handed over (tests wait on it)
    ended = Signal(str, str)                    # kind, outcome (one of OUTCOMES): every job, once

    def __init__(self, current_generation=None, parent=None):
        super().__init__(parent)
        self._current_generation = current_generation or (lambda: None)
        self._latest = {}                       # kind -> token of the newest job
        self._running = {}                      # kind -> Job not ended yet
        self._token = 0
        self.counts = dict.fromkeys(OUTCOMES, 0)   # how jobs ended (tests, soak runs)
        self.submitted = 0
        self._closed = False
        gc_guard.hold()                         # no collection on a worker (gc_guard)
        self._release_gc = _gc_release_once([True])
        self.destroyed.connect(self._release_gc)
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
            worker.skipped.connect(self._on_skipped)
            worker.progressed.connect(self._on_progress)
            thread.start()
            self._threads[lane], self._workers[lane], self._signals[lane] = thread, worker, sig

    def is_live(self, job):
        """Still wanted: not ended, the newest of its kind, and of the session's
        generation. (Called from the worker: reads of a dict and of immutable values.)"""
        if job.done or self._latest.get(job.kind) != job.token:
            return False
        return job.generation is None or job.generation == self._current_generation()

    def submit(self, kind, fn, on_result, *, on_error=None, generation=None, disables=(),
               cancellable=True, lane="interactive"):
        self.sweep()
        old = self._running.get(kind)
        self._token += 1
        self.submitted += 1
        # Each widget comes back as it was (an Apply with nothing to apply stays off).
        job = Job(kind, self._token, fn, on_result, on_error, generation,
                  [(w, w.isEnabled()) for w in disables], cancellable, lane=lane)
        for w, _ in job.disables:
            w.setEnabled(False)
        self._latest[kind] = job.token
        self._running[kind] = job
        if old is not None:
            self._end(old, "superseded")
        self.busy_changed.emit(True)
        if self._closed:                         # after shutdown: nothing runs any more
            self._end(job, "cancelled")
            return job
        self._signals[lane].submit.emit(job)
        return job

    def cancel(self, kind=None):
        """Stop cancellable jobs (all, or one kind); what they disabled comes back."""
        for job in list(self._running.values()):
            if (kind is None or job.kind == kind) and job.cancellable:
                self._latest[job.kind] = -job.token
                self._end(job, "cancelled")

    def sweep(self):
        """End the jobs bound to a generation the session has left (they would only be
        dropped later, by the worker). Called when the data or the options change."""
        for job in list(self._running.values()):
            if job.generation is not None and job.generation != self._current_generation():
                self._end(job, "superseded")

    def running(self, kind):
        return kind in self._running

    def in_flight(self):
        """Kinds of the jobs not ended yet."""
        return sorted(self._running)

    @property
    def busy(self):
        return bool(self._running)

    def _settle(self, job, outcome):
        """Mark ``job`` ended (once); returns False when it had ended already."""
        if job.outcome is not None:
            return False
        job.outcome, job.done = outcome, True
        self.counts[outcome] += 1
        for w, was in job.disables:
            try:
                w.setEnabled(was)
            except RuntimeError:               # the widget is gone
                pass
        if self._running.get(job.kind) is job:
            del self._running[job.kind]
        return True

    def _announce(self, job):
        self.ended.emit(job.kind, job.outcome)
        self.busy_changed.emit(bool(self._running))

    def _end(self, job, outcome):
        if self._settle(job, outcome):
            self._announce(job)

    def _stale_outcome(self, job):
        return "cancelled" if self._latest.get(job.kind) == -job.token else "superseded"

    @Slot(object)
    def _on_skipped(self, job):
        self._end(job, self._stale_outcome(job))

    @Slot(object, object)
    def _on_finished(self, job, value):
        if not self.is_live(job):
            self._end(job, self._stale_outcome(job))    # not current: dropped, and ended
            return
        self._settle(job, "done")
        try:
            job.on_result(value)
            self.delivered.emit(job.kind)
        finally:
            self._announce(job)                  # after: busy stays on if it started more

    @Slot(object, object)
    def _on_failed(self, job, exc):
        if job.outcome is not None:
            return                               # ended already (cancelled, superseded)
        if not self.is_live(job):
            self._end(job, self._stale_outcome(job))
            return
        if isinstance(exc, Cancelled):           # stopped itself (e.g. a cancelled read)
            self._end(job, "cancelled")
            return
        self._settle(job, "failed")
        try:
            if job.on_error is not None:
                job.on_error(exc)
            else:
                self.error.emit(job.kind, exc)
        finally:
            self._announce(job)

    @Slot(object, float, str)
    def _on_progress(self, job, fraction, message):
        if self.is_live(job):
            self.progress.emit(job.kind, fraction, message)

    def shutdown(self, timeout_ms=5000):
        """Stop every job and the worker threads; False if a thread did not stop in
        time (a job inside a long C call: it ends with the process)."""
        self._closed = True
        for job in list(self._running.values()):
            self._latest[job.kind] = -job.token
            self._end(job, "cancelled")
        for thread in self._threads.values():
            thread.quit()
        stopped = True
        for thread in self._threads.values():
            if not thread.wait(timeout_ms):
                # Never destroy a running QThread (Qt aborts the process).
                _STILL_RUNNING.append((thread, self._workers))
                stopped = False
        if stopped:
            self._release_gc()
        return stopped
