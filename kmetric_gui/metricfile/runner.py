"""The parent's side of a metric worker: its processes (metricfile/pool.py) with the
time and memory limits, in the sandbox where there is one, in a scratch folder; every
process of the run ended and reaped on the time limit, cancel, failure and the end.

The pool is a ``concurrent.futures`` executor; tasks are module functions of
``worker`` taking plain data, so any executor would do (a Dask cluster's too).
"""
import os
import shutil
import tempfile
import time
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool

from ..errors import Cancelled, InputError
from . import sandbox, start, worker
from .pool import HostFailed, Pool, TaskRaised
from .source import where

ONE_TRIP = 8                  # a single worker's sets sent as one task up to this many (a score's splits)


class MetricFailed(Exception):
    """The metric's code failed (not the user's data): one line, exit 2; ``details``: the
    full text (traceback, the whole message) where there is more than the line."""

    def __init__(self, message, details=None):
        super().__init__(message)
        self.details = details


from .limits import (DEFAULT_TIMEOUT, MEMORY_SHARE, Limits, _limits_memory,  # noqa: E402,F401
                     physical_memory)                                     # (where they were)


def split_positions(usage):
    """{split name: its rows} as the worker names them (frames.split_rows reads the same)."""
    from .frames import split_rows
    if usage is None:
        return {}
    return {name: split_rows(usage, name) for name in ("scored", "public", "private")}


def _same(rows, pos):
    import numpy as np
    return (isinstance(rows, np.ndarray) and pos is not None and rows.shape == pos.shape
            and rows.dtype.kind in "iu" and np.array_equal(rows, pos))


class MetricWorker:
    """One metric file and one pair of files, scored in worker processes."""

    def __init__(self, source, paths, id_col=None, limits=None, workers=1, function="score",
                 executor="local"):
        self.source, self.id_col = source, id_col
        self.paths = tuple(os.path.abspath(p) for p in paths)   # the worker runs in its own folder
        self.limits, self.function, self.workers = limits or Limits(), function, max(1, workers)
        self.started = time.monotonic()
        self.dir = None              # the scratch folder, made with the pool
        self._pool = self._ended = None
        self.executor_name = executor
        self._client = None
        self.cancel_check = None     # the app's job: its Cancel kills the pool at the next check
        self.nice = 0                # the app's workers: niced below its window (worker.init)
        self.environment = None      # the workers' Python, libraries and sandbox (place())
        self.keep_host = self.limits.keep   # the app: the host stays for its next run (start.py)
        self._splits = {}            # split name -> rows, once prepare() read the Usage codes

    # -- the pool ----------------------------------------------------------------
    def _executor(self):
        if self._pool is None and self.executor_name.startswith("dask:"):
            self._pool = self._dask(self.executor_name[5:])
        if self._pool is None:
            self._start_pool()
        return self._pool

    def start(self):
        """Start the run's processes now (else the first task does): the environment they
        report (Python, pandas, numpy, the sandbox State), or None on a cluster."""
        pool = self._executor()
        return None if self._client is not None or pool is None else self.environment

    def _start_pool(self):
        """The workers' host up (a spare one started early when it fits): a clean
        interpreter, never a fork of this process, so none of our state reaches the metric."""
        lim = self.limits
        spare = start.take(lim.python, lim.sandbox) if lim.take_spare else None
        state = spare.state if spare is not None else sandbox.plan(lim.sandbox)
        try:
            sandbox.check(state)
        except sandbox.SandboxMissing as e:
            if spare is not None:
                start.drop(spare)
            raise InputError(str(e)) from None
        self.dir = spare.scratch if spare is not None else tempfile.mkdtemp(prefix="kmetric-metric-")
        pool = Pool(self.workers, lim.python, state, self.dir,
                    (self.dir, lim.memory_bytes, self.nice), spare)
        self._pool = self._ended = pool
        try:
            info = pool.start(check=lambda: self._time_left(None))
        except sandbox.SandboxMissing as e:
            self.kill()
            raise InputError(str(e)) from None
        except HostFailed as e:
            self.kill()
            raise self._host_failed(str(e)) from None
        if info.get("problem"):
            self.kill()
            raise self._host_failed(info["problem"])
        self.environment = dict(info, sandbox=pool.state)

    def _host_failed(self, why):
        py = self.limits.python
        if py is not None:
            hint = (f"; install them there: {py} -m pip install pandas pyarrow"
                    if "cannot be imported" in why else "")
            return InputError(f"--metric-python {py}: {why}{hint}")
        return MetricFailed(f"metric file {self.source.name}: its worker process could not start ({why})")

    def place(self):
        """JSON of where the metric ran: its Python and libraries, the sandbox, the limits."""
        env = self.environment or {}
        state = env.get("sandbox") or sandbox.plan(self.limits.sandbox)
        return {"python": {"path": self.limits.python or env.get("executable"), "version": env.get("python"),
                           "pandas": env.get("pandas"), "numpy": env.get("numpy"),
                           "pyarrow": env.get("pyarrow"), "own": self.limits.python is None},
                "sandbox": state.to_json(),
                "memory_limit_gb": None if self.limits.memory_bytes is None
                else round(self.limits.memory_bytes / (1 << 30), 2),
                "timeout": self.limits.timeout}

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
        """Every process of the run ended at once (the time limit, Cancel, a failure)."""
        pool, self._pool = self._pool, None
        if self._client is not None:
            client, self._client = self._client, None
            if pool is not None:
                pool.shutdown(wait=False)
            client.close()
            return
        if pool is not None:
            self._end(pool, wait=False)

    def close(self):
        """The end of the run: every process ended and reaped, the scratch folder removed
        (the app's: emptied, with the host kept for its next run)."""
        if self._client is not None:
            self.kill()
        pool, self._pool = self._pool, None
        if pool is not None:
            self._end(pool, wait=True)
        if self.dir and not getattr(self, "_kept", False):
            shutil.rmtree(self.dir, ignore_errors=True)

    def _end(self, pool, wait):
        kept = pool.shutdown(wait=wait, cancel_futures=True, keep=self.keep_host)
        if kept is not None:
            self._kept = True
            lim = self.limits
            start.give_back(kept, lim.python, lim.sandbox)

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
                except BrokenProcessPool as e:
                    self.kill()
                    raise MetricFailed(self._died(e)) from None
                except TaskRaised as e:
                    self.kill()
                    self._raise(e.result)
            if progress is not None:
                progress(k + 1, len(futures))
        return out

    def _died(self, err=None):
        """One line for a worker process that ended without answering (os._exit, a crash,
        a kill), with the memory limit where it may be the cause."""
        why = getattr(err, "why", None) or "it crashed or was killed"
        text = f"metric file {self.source.name}: the process running it ended abruptly: {why}"
        if self.limits.memory_bytes and ("killed" in why or "abort" in why):
            text += f"; it may have passed the memory limit ({self.limits.memory_words()})"
        said = self.output().get("stderr", ("", 0))[0].strip().splitlines()
        if said:
            text += f"; its last words: {worker.cut(' '.join(said[-1].split()), 160)}"
        return text

    def output(self):
        """{"stdout"|"stderr": (first text, bytes in all)}: what the metric wrote (captured,
        never passed on), also after the run ended."""
        pool = self._ended
        return pool.output() if pool is not None and hasattr(pool, "output") else {}

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
        self._splits = split_positions(r[1][1])
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
        if chunk is None and self.workers == 1 and count <= ONE_TRIP:
            chunk = count                        # one process: the few sets in one round trip
        chunk = chunk or max(1, min(50, -(-count // (self.workers * 4))))
        it = iter(row_sets)
        pending, results, done_sets = {}, {}, 0
        submitted = 0
        while submitted < count or pending:
            if until is not None and submitted and time.monotonic() > until:
                count = submitted                # the budget is spent: finish what runs
            while submitted < count and len(pending) < self.workers * 2:
                part = [next(it) for _ in range(min(chunk, count - submitted))]
                pending[self._submit(kwargs, part)] = (submitted, part, self._pool)
                submitted += len(part)
            left = self._time_left(cancel)
            finished, _ = wait(list(pending), timeout=min(left, 0.1), return_when=FIRST_COMPLETED)
            for fut in [f for f, (_, _, pool) in pending.items() if pool is not self._pool
                        and (f not in finished or f.cancelled() or f.exception() is not None)]:
                # Another caller of this worker (the app's job that was cancelled) killed
                # the pool this part ran in: it runs again in a new one.
                finished.discard(fut)
                start, part, _ = pending.pop(fut)
                pending[self._submit(kwargs, part)] = (start, part, self._pool)
            for fut in finished:
                start = pending.pop(fut)[0]
                try:
                    part = fut.result()
                except BrokenProcessPool as e:
                    self.kill()
                    raise MetricFailed(self._died(e)) from None
                except TaskRaised as e:
                    self.kill()
                    self._raise(e.result)
                if part and part[0][0] in ("syntax", "import", "nofunction"):
                    self.kill()
                    self._raise(part[0])
                results[start] = part
                done_sets += len(part)
                if progress is not None:
                    progress(done_sets, count)
        return [r for start in sorted(results) for r in results[start]]

    def _submit(self, kwargs, part):
        part = [self._named(rows) for rows in part]
        return self._executor().submit(worker.score_rows, *self._args(), self.paths, self.id_col,
                                       kwargs, part)

    def _named(self, rows):
        """A row set whose rows are exactly a split's sent as the split's name: the worker
        knows them (and keeps that split's columns), so 8 bytes a row never travel."""
        spec = rows if isinstance(rows, dict) else {"rows": rows}
        got = spec.get("rows")
        for name, pos in self._splits.items():
            if _same(got, pos):
                return dict(spec, rows=name) if isinstance(rows, dict) else name
        return rows

    def score_one(self, kwargs, rows=None):
        (r,) = self.score_sets(kwargs, [rows])
        self._raise(r)
        return r[1]

    def printed(self):
        """What the metric wrote to standard output (its first 2000 characters), or ''."""
        return self.output().get("stdout", ("", 0))[0][:2000]

    def _raise(self, r):
        kind = r[0]
        name = self.source.name
        if kind == "ok":
            return
        details = r[4] if len(r) > 4 else None
        if kind == "visible":
            raise InputError(f"metric file {name}: {r[1]}")
        if kind == "syntax":
            raise MetricFailed(f"metric file {name}, {where(self.source, r[2])}: {r[1]}")
        if kind == "import":
            py = self.limits.python
            how = f"{py} -m pip install" if py else "pip install"
            place = f"the Python at {py}" if py else "this environment"
            raise MetricFailed(f"metric file {name} imports '{r[1]}', which is not installed in {place}; "
                               f"install it there ({how} {r[1].split('.')[0]})")
        if kind == "nofunction":
            raise MetricFailed(f"metric file {name} defines no function '{r[1]}'")
        if kind == "memory":
            raise MetricFailed(f"metric file {name}: {r[1]} ({self.limits.memory_words()})")
        line = r[2] if len(r) > 2 else None
        at = f", {where(self.source, line)}" if line else ""
        raise MetricFailed(f"metric file {name}{at}: {r[1]}", details)
