"""kmetric's side of a metric's workers: tasks given to the workers of a host process
(metricfile/processes.py starts it; metricfile/host.py is what runs there), one task
at a time each, their answers, a worker's death, the end of them all.

``Pool`` is an executor (``submit(fn, *args)`` -> a ``concurrent.futures.Future``) of
worker tasks, module functions of ``worker``, like the process pool it replaces:
a worker's death breaks it (``WorkerEnded``, a ``BrokenProcessPool``).
"""
import collections
import subprocess
import itertools
import threading
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool

from . import sandbox, wire
from .processes import CAPTURE, GRACE, Host, HostFailed, ended_words, single_mode

__all__ = ["Pool", "WorkerEnded", "TaskRaised", "HostFailed", "Host", "single_mode"]


class WorkerEnded(BrokenProcessPool):
    """A worker process ended before answering; ``why`` in words."""

    def __init__(self, why):
        super().__init__(why)
        self.why = why


class TaskRaised(Exception):
    """A task raised past every handler of the worker: ``result`` is its result tuple."""

    def __init__(self, result):
        super().__init__(result[1])
        self.result = result


class _Slot:
    def __init__(self, host, channel):
        self.host, self.channel = host, channel
        self.future = None


class Pool:
    """An executor of ``worker`` tasks on ``workers`` processes of one place (Python,
    sandbox); ``init`` the workers' (folder, memory bytes, nice)."""

    def __init__(self, workers, python, state, scratch, init, spare=None):
        self.workers, self.python, self.state, self.scratch = workers, python, state, scratch
        self.init = init
        self.single = single_mode()
        self.lock = threading.Lock()
        self.slots, self.hosts = [], []
        self.backlog = collections.deque()
        self.broken = None
        self.closing = False
        self.info = None
        self._ids = itertools.count(1)
        self._spare = spare

    def start(self, check=None):
        """The first host up (the sandbox tried first where planned): its hello. A host
        is joined to the pool once it said hello (a sandbox that failed breaks nothing)."""
        host = self._spare if self._spare is not None else self._new_host()
        self._spare = None
        try:
            self.info = host.hello(check)
        except HostFailed as e:
            host.kill()
            if not host.state.used or sandbox.works():
                raise
            sandbox.failed(str(e))
            self.state = sandbox.plan(self.state.mode)
            sandbox.check(self.state)
            host = self._new_host()
            try:
                self.info = host.hello(check)
            except BaseException:
                host.kill()
                raise
        except BaseException:
            host.kill()
            raise
        host.on_frame = self._on_frame
        self.hosts.append(host)
        if host.gone.is_set():
            self._on_frame(host, None, None)
        self.state = host.state
        return self.info

    def _new_host(self, on_frame=None):
        return Host(self.python, self.state, self.scratch, self.single, on_frame)

    # -- tasks ---------------------------------------------------------------------------
    def submit(self, fn, *args):
        fut = Future()
        with self.lock:
            if self.broken is not None:
                fut.set_exception(WorkerEnded(self.broken))
                return fut
            slot = next((s for s in self.slots if s.future is None), None)
            if slot is None and len(self.slots) < self.workers:
                slot = self._new_slot()
            if slot is None:
                self.backlog.append((fut, fn.__name__, args))
            else:
                self._give(slot, fut, fn.__name__, args)
        return fut

    def _new_slot(self):
        if self.single:
            host = self.hosts[0] if not self.slots else self._new_host(self._on_frame)
            if host not in self.hosts:
                self.hosts.append(host)
            slot = _Slot(host, 1)
        else:
            slot = _Slot(self.hosts[0], len(self.slots) + 1)
        slot.host.send(0, ("fork", slot.channel, self.init))
        self.slots.append(slot)
        return slot

    def _give(self, slot, fut, name, args):
        slot.future = fut
        slot.host.send(slot.channel, (next(self._ids), name, args))

    def _on_frame(self, host, channel, payload):
        if channel is None:                     # the host's output ended: it is gone
            self._broke(host, None, ended_words(returncode=_returncode(host)))
            return
        msg = wire.loads(payload)
        if channel == 0:
            if msg[0] == "ended":
                self._broke(host, msg[1], ended_words(status=msg[2]))
            return
        _, kind, value = msg
        with self.lock:
            slot = next((s for s in self.slots if s.host is host and s.channel == channel), None)
            fut, slot.future = (slot.future, None) if slot is not None else (None, None)
            if slot is not None and self.backlog and self.broken is None:
                self._give(slot, *self.backlog.popleft())
        if fut is not None and not fut.done():
            if kind == "ok":
                fut.set_result(value)
            else:
                fut.set_exception(TaskRaised(value))

    def _broke(self, host, channel, why):
        with self.lock:
            if self.closing or self.broken is not None:
                return
            self.broken = why
            futures = [s.future for s in self.slots if s.future is not None]
            futures += [f for f, _, _ in self.backlog]
            for s in self.slots:
                s.future = None
            self.backlog.clear()
        for fut in futures:
            if not fut.done():
                fut.set_exception(WorkerEnded(why))

    # -- output and the end ----------------------------------------------------------------
    def output(self):
        """The metric's standard output and error over every host: (first text, bytes)."""
        if getattr(self, "final_output", None) is not None:
            return self.final_output
        out = {}
        for host in self.hosts:
            for name, (text, total) in host.output().items():
                t, n = out.get(name, ("", 0))
                out[name] = ((t + text)[:CAPTURE], n + total)
        return out

    def shutdown(self, wait=True, cancel_futures=True, keep=False):
        """Every process ended and reaped: the host ends them (it answers while a worker
        runs the metric), what is left is killed after a grace (shorter unless ``wait``).
        ``keep``: the host stays for the next run if it can (returned; else None)."""
        with self.lock:
            self.closing = True
            futures = [s.future for s in self.slots if s.future is not None]
            futures += [f for f, _, _ in self.backlog]
            self.backlog.clear()
        for fut in futures:
            fut.cancel()
        self.final_output = self.output()
        kept = None
        if keep and len(self.hosts) == 1 and self.hosts[0].reset():
            kept = self.hosts.pop()
        for host in self.hosts:
            host.stop(GRACE if wait else 1.0)
        return kept


def _returncode(host):
    try:
        return host.proc.wait(5)
    except subprocess.TimeoutExpired:
        return None
