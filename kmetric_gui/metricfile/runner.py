"""The parent's side of a metric worker: a process pool with the time and memory
limits, a temporary working folder, killed on timeout or cancel.

The pool is a ``concurrent.futures`` executor of local processes; tasks are
module functions of ``worker`` taking plain data, so any executor would do.
"""
import os
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool

from ..errors import Cancelled, InputError
from . import start, worker
from .source import where

DEFAULT_TIMEOUT = 1800.0      # Kaggle's 30 minutes for Public and Private together


class MetricFailed(Exception):
    """The metric's code failed (not the user's data): one line, exit 2."""


class Limits:
    def __init__(self, timeout=DEFAULT_TIMEOUT, memory_gb=None):
        self.timeout = float(timeout)
        self.memory_bytes = int(memory_gb * (1 << 30)) if memory_gb else None


class MetricWorker:
    """One metric file and one pair of files, scored in worker processes."""

    def __init__(self, source, paths, id_col=None, limits=None, workers=1, function="score",
                 executor="local"):
        self.source, self.id_col = source, id_col
        self.paths = tuple(os.path.abspath(p) for p in paths)   # the worker runs in its own folder
        self.limits, self.function, self.workers = limits or Limits(), function, max(1, workers)
        self.started = time.monotonic()
        self.dir = tempfile.mkdtemp(prefix="kmetric-metric-")
        self.out_path = os.path.join(self.dir, ".stdout")
        self._pool = None
        self.executor_name = executor
        self._client = None
        self.cancel_check = None     # the app's job: its Cancel kills the pool at the next check
        self.nice = 0                # the app's workers: niced below its window (worker.init)

    # -- the pool ----------------------------------------------------------------
    def _executor(self):
        if self._pool is None and self.executor_name.startswith("dask:"):
            self._pool = self._dask(self.executor_name[5:])
        if self._pool is None:
            self._pool = ProcessPoolExecutor(      # a clean interpreter's fork, never our state
                self.workers, mp_context=start.context(), initializer=worker.init,
                initargs=(self.dir, self.limits.memory_bytes, self.out_path, self.nice))
        return self._pool

    def _dask(self, address):
        """A dask.distributed cluster's executor (the optional 'cluster' extra). Its workers
        read the files by the same paths, so they must see this machine's folders; limits
        and isolation are the cluster's own."""
        try:
            from distributed import Client
        except ImportError:
            raise InputError("--executor dask: needs dask.distributed: "
                             "pip install 'kmetric_gui[cluster]'") from None
        try:
            self._client = Client(address, timeout="10s", set_as_default=False)
        except OSError as e:
            raise InputError(f"--executor dask:{address}: cannot reach the cluster ({e})") from None
        self.workers = max(1, sum(self._client.nthreads().values()))
        return self._client.get_executor(pure=False)

    def remaining(self):
        return self.limits.timeout - (time.monotonic() - self.started)

    def kill(self):
        pool, self._pool = self._pool, None
        if self._client is not None:
            client, self._client = self._client, None
            if pool is not None:
                pool.shutdown(wait=False)
            client.close()
            return
        if pool is None:
            return
        for p in list(getattr(pool, "_processes", {}).values()):
            try:
                p.kill()
            except (OSError, AttributeError):
                pass
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self):
        if self._client is not None:
            self.kill()
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _args(self):
        return (self.source.code, self.source.name, self.function)

    def _time_left(self, cancel):
        """Seconds left of the time limit; past it, or on cancel, the pool is killed."""
        left = self.remaining()
        cancel = cancel or self.cancel_check
        if left <= 0:
            self.kill()
            raise MetricFailed(f"metric file {self.source.name}: stopped after "
                               f"{self.limits.timeout:g} s, the time limit (--metric-timeout)")
        if cancel is not None and cancel():
            self.kill()
            raise Cancelled()
        return left

    def _wait(self, futures, cancel=None, progress=None):
        """Results of futures in order, within the time left; kills the pool on overrun."""
        out = []
        for k, fut in enumerate(futures):
            while True:
                left = self._time_left(cancel)
                try:
                    out.append(fut.result(timeout=min(left, 0.1)))
                    break
                except FutureTimeout:
                    continue
                except BrokenProcessPool:
                    self.kill()
                    raise MetricFailed(self._died()) from None
            if progress is not None:
                progress(k + 1, len(futures))
        return out

    def _died(self):
        mem = self.limits.memory_bytes
        why = (f"it may have passed the memory limit of {mem / (1 << 30):g} GB (--metric-memory-gb)"
               if mem else "it crashed or was killed")
        return f"metric file {self.source.name}: the worker process running it ended abruptly; {why}"

    # -- what the callers ask ----------------------------------------------------
    def inspect(self):
        (r,) = self._wait([self._executor().submit(worker.inspect_metric, *self._args())])
        self._raise(r)
        return r[1]

    def doctests(self):
        (r,) = self._wait([self._executor().submit(worker.run_doctests, *self._args())])
        self._raise(r)
        return r[1]

    def prepare(self):
        (r,) = self._wait([self._executor().submit(worker.prepare, *self._args(), self.paths, self.id_col)])
        if r[0] == "problem":
            raise InputError(r[1][0], r[1])
        self._raise(r)
        return r[1]

    def ask(self, task, *extra):
        """One worker task's answer (a module function of ``worker``), raised if not ok."""
        (r,) = self._wait([self._executor().submit(task, *self._args(), self.paths, self.id_col, *extra)])
        self._raise(r)
        return r[1]

    def score_sets(self, kwargs, row_sets, cancel=None, progress=None, chunk=None, count=None,
                   until=None):
        """Result tuples (kind, value or message, line, seconds) of each row set, spread over
        the pool in chunks; ``row_sets`` may be a generator (``count`` items): at most a few
        chunks are drawn ahead, so a long bootstrap never holds every draw at once.
        ``until`` (a time.monotonic() deadline): no chunk starts after it; the results of
        the sets started are returned (a prefix of them; the first chunk always runs)."""
        from concurrent.futures import FIRST_COMPLETED, wait
        if count is None:
            row_sets = list(row_sets)
            count = len(row_sets)
        chunk = chunk or max(1, min(50, -(-count // (self.workers * 4))))
        it = iter(row_sets)
        pending, results, done_sets = {}, {}, 0
        submitted = 0
        while submitted < count or pending:
            if until is not None and submitted and time.monotonic() > until:
                count = submitted                # the budget is spent: finish what runs
            while submitted < count and len(pending) < self.workers * 2:
                part = [next(it) for _ in range(min(chunk, count - submitted))]
                fut = self._executor().submit(worker.score_rows, *self._args(), self.paths, self.id_col,
                                              kwargs, part)
                pending[fut] = submitted
                submitted += len(part)
            left = self._time_left(cancel)
            finished, _ = wait(list(pending), timeout=min(left, 0.1), return_when=FIRST_COMPLETED)
            for fut in finished:
                start = pending.pop(fut)
                try:
                    part = fut.result()
                except BrokenProcessPool:
                    self.kill()
                    raise MetricFailed(self._died()) from None
                if part and part[0][0] in ("syntax", "import", "nofunction"):
                    self.kill()
                    self._raise(part[0])
                results[start] = part
                done_sets += len(part)
                if progress is not None:
                    progress(done_sets, count)
        return [r for start in sorted(results) for r in results[start]]

    def score_one(self, kwargs, rows=None):
        (r,) = self.score_sets(kwargs, [rows])
        self._raise(r)
        return r[1]

    def printed(self):
        """What the metric wrote to standard output (first lines), or ''."""
        try:
            with open(self.out_path, encoding="utf-8", errors="replace") as f:
                return f.read(2000)
        except OSError:
            return ""

    def _raise(self, r):
        kind = r[0]
        name = self.source.name
        if kind == "ok":
            return
        if kind == "visible":
            raise InputError(f"metric file {name}: {r[1]}")
        if kind == "syntax":
            raise MetricFailed(f"metric file {name}, {where(self.source, r[2])}: {r[1]}")
        if kind == "import":
            raise MetricFailed(f"metric file {name} imports '{r[1]}', which is not installed here; "
                               f"install it into this environment (pip install {r[1].split('.')[0]})")
        if kind == "nofunction":
            raise MetricFailed(f"metric file {name} defines no function '{r[1]}'")
        if kind == "memory":
            raise MetricFailed(f"metric file {name}: {r[1]}"
                               + (" (the --metric-memory-gb limit)" if self.limits.memory_bytes else ""))
        line = r[2] if len(r) > 2 else None
        at = f", {where(self.source, line)}" if line else ""
        raise MetricFailed(f"metric file {name}{at}: {r[1]}")
