"""kmetric's side of a metric's processes: the host process (metricfile/host.py) started
in a session of its own (in the sandbox where there is one), its workers, the
metric's captured output, and the end of all of them.

``Pool`` is an executor (``submit(fn, *args)`` -> a ``concurrent.futures.Future``) of
worker tasks, module functions of ``worker``, like the process pool it replaces:
a worker's death breaks it (``WorkerEnded``, a ``BrokenProcessPool``).
"""
import collections
import itertools
import os
import queue
import signal
import subprocess
import sys
import threading
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool

from . import sandbox, wire

CAPTURE = 64 << 10            # bytes of the metric's output kept (the rest counted, dropped)
GRACE = 3.0                   # seconds the host has to end its processes before they are killed
POSIX = os.name == "posix"


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


class HostFailed(Exception):
    """The host process could not start (one line)."""


def single_mode():
    """One process per worker (no fork): Windows, or KMETRIC_METRIC_START=spawn."""
    return not hasattr(os, "fork") or os.environ.get("KMETRIC_METRIC_START") == "spawn"


def ended_words(status=None, returncode=None):
    """How a process ended, from a raw wait status or a Popen return code."""
    sig = code = None
    if status is not None and POSIX:
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
        elif os.WIFEXITED(status):
            code = os.WEXITSTATUS(status)
    elif returncode is not None:
        sig, code = (-returncode, None) if returncode < 0 else (None, returncode)
    if sig is not None:
        name = {signal.SIGSEGV: "a segmentation fault", getattr(signal, "SIGBUS", -1): "a bus error",
                signal.SIGABRT: "an abort", signal.SIGFPE: "a floating-point fault",
                signal.SIGILL: "an illegal instruction"}.get(sig)
        if sig == getattr(signal, "SIGKILL", -1):
            return "it was killed (signal 9)"
        try:
            label = signal.Signals(sig).name
        except ValueError:
            label = f"signal {sig}"
        return f"it crashed ({name}, {label})" if name else f"it was ended by {label}"
    if code is not None:
        return f"it exited with code {code} (os._exit or a crash in native code)"
    return "it ended"


class Capture:
    """A pipe read to its end in a thread: the first CAPTURE bytes kept, all counted."""

    def __init__(self, fd):
        self.fd, self.head, self.total = fd, bytearray(), 0
        self.thread = threading.Thread(target=self._drain, name="kmetric-capture", daemon=True)
        self.thread.start()

    def _drain(self):
        try:
            while True:
                data = os.read(self.fd, 1 << 16)
                if not data:
                    break
                room = CAPTURE - len(self.head)
                if room > 0:
                    self.head += data[:room]
                self.total += len(data)
        except OSError:
            pass
        finally:
            try:
                os.close(self.fd)
            except OSError:
                pass

    def text(self):
        return bytes(self.head).decode("utf-8", "replace")


def _package_parent():
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# the worker's own code, copied for another Python (which must not see kmetric's packages)
CODE = ("errors.py", "metricfile/worker.py", "metricfile/frames.py", "metricfile/replicate.py",
        "metricfile/edits.py", "metricfile/kaggle_metric_utilities.py", "metricfile/host.py",
        "metricfile/wire.py")
BOOT = "import sys; sys.path.{add}; from kmetric_gui.metricfile.host import main; main()"


def copy_code(folder):
    """kmetric's worker modules in ``folder`` (a package of their own): another Python
    imports them without seeing kmetric's environment."""
    src = os.path.join(_package_parent(), "kmetric_gui")
    dest = os.path.join(folder, ".kmetric-worker")
    for rel in CODE:
        path = os.path.join(src, *rel.split("/"))
        if not os.path.isfile(path):
            raise HostFailed("--metric-python needs kmetric's worker code as source files, and this "
                             "copy of kmetric has none (install it with pip to use another Python)")
        target = os.path.join(dest, "kmetric_gui", *rel.split("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(path, "rb") as f, open(target, "wb") as g:
            g.write(f.read())
    for pkg in ("kmetric_gui", "kmetric_gui/metricfile"):
        with open(os.path.join(dest, *pkg.split("/"), "__init__.py"), "w") as f:
            f.write("")
    return dest


def host_argv(python, scratch, single):
    """The host's command line: kmetric's own Python (or frozen executable), or another."""
    if python is None and getattr(sys, "frozen", False):
        argv = [sys.executable, "--kmetric-metric-host"]
    elif python is None:
        # appended: a checkout's package is found, the installed one still comes first
        argv = [sys.executable, "-c", BOOT.format(add=f"append({_package_parent()!r})")]
    else:
        argv = [python, "-I", "-c", BOOT.format(add=f"insert(0, {copy_code(scratch)!r})")]
    return argv + ["--mode", "single" if single else "server"]


class Host:
    """One host process: its pipes, its reader, writer and capture threads."""

    def __init__(self, python, state, scratch, single, on_frame=None):
        self.python, self.state, self.scratch, self.single = python, state, scratch, single
        self.on_frame = on_frame
        self.info = None
        self.hello_seen = threading.Event()
        self.gone = threading.Event()
        self.stopping = False
        argv = host_argv(python, scratch, single)
        out_r = out_w = None
        if POSIX:
            out_r, out_w = os.pipe()
            argv += ["--out-fd", str(out_w)]
        tmp = {"TMPDIR": scratch, "TEMP": scratch, "TMP": scratch}
        if state.used:
            env = dict(sandbox.environment(python is None), **tmp)
            cmd = sandbox.command(argv, scratch, env)
        else:
            env, cmd = dict(os.environ, **tmp), argv
        kw = ({"start_new_session": True, "pass_fds": (out_w,)} if POSIX else
              {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)})
        try:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, bufsize=0, cwd=scratch, env=env, **kw)
        except OSError as e:
            for fd in (out_r, out_w):
                if fd is not None:
                    os.close(fd)
            raise HostFailed(f"cannot be run ({e.strerror or e})") from None
        finally:
            if out_w is not None:
                try:
                    os.close(out_w)
                except OSError:
                    pass
        self.err = Capture(os.dup(self.proc.stderr.fileno()))
        self.proc.stderr.close()
        self.out = Capture(out_r) if out_r is not None else None
        self._in_fd = os.dup(self.proc.stdin.fileno())
        self.proc.stdin.close()
        self._queue = queue.Queue()
        threading.Thread(target=self._write, name="kmetric-host-writer", daemon=True).start()
        threading.Thread(target=self._read, name="kmetric-host-reader", daemon=True).start()

    # -- the pipes -----------------------------------------------------------------------
    def send(self, channel, obj):
        self._queue.put(wire.frame(channel, wire.dumps(obj)))

    def _write(self):
        fd = self._in_fd
        try:
            while True:
                data = self._queue.get()
                if data is None or self.stopping:
                    break
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
        except OSError:
            pass
        finally:
            os.close(fd)                  # the host hears the end of its input: it ends all

    def _read(self):
        fd = self.proc.stdout.fileno()

        def read(n):
            return os.read(fd, min(n, 1 << 20))
        try:
            while True:
                got = wire.read_frame(read)
                if got is None:
                    break
                channel, payload = got
                if channel == 0 and self.info is None:
                    self.info = wire.loads(payload)[1]
                    self.hello_seen.set()
                elif self.on_frame is not None:
                    self.on_frame(self, channel, payload)
        except Exception:             # noqa: BLE001 -- a broken stream: the host is lost
            pass
        finally:
            self.gone.set()
            self.hello_seen.set()
            if self.on_frame is not None:
                self.on_frame(self, None, None)

    def hello(self, check=None):
        """The host's versions once it imported pandas; HostFailed if it ended before."""
        while not self.hello_seen.wait(0.1):
            if check is not None:
                check()
        if self.info is None:
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                pass
            self.err.thread.join(2)
            said = " ".join(self.err.text().split())[-300:]
            raise HostFailed(said or ended_words(returncode=self.proc.returncode))
        return self.info

    def output(self):
        """{"stdout"|"stderr": (first bytes as text, total bytes)} of the metric's output."""
        out = {"stderr": (self.err.text(), self.err.total)}
        if self.out is not None:
            out["stdout"] = (self.out.text(), self.out.total)
        return out

    # -- the end -------------------------------------------------------------------------
    def stop(self, grace=GRACE):
        """The host ends every process below it (its input closes); what is left after
        ``grace`` seconds is killed; all reaped."""
        self.stopping = True
        self._queue.put(None)
        try:
            self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def kill(self):
        self.stopping = True
        self._queue.put(None)
        pid = self.proc.pid
        if not POSIX:
            subprocess.run(["taskkill", "/F", "/T", "/PID", str(pid)], capture_output=True)
        elif self.state.used:
            for child in _children(pid):          # the sandbox's first process: all of it ends
                _kill(child)
        else:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
            for other in _in_session(pid):          # left its group, not its session
                _kill(other)
        if self.proc.poll() is None:
            try:
                self.proc.kill()
            except OSError:
                pass
        self.proc.wait()
        self.gone.wait(5)
        for cap in (self.err, self.out):
            if cap is not None:
                cap.thread.join(2)
        self.proc.stdout.close()


def _kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def _children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except (OSError, ValueError):
        return []


def _in_session(sid):
    """Pids whose session is ``sid`` (Linux /proc; elsewhere none found)."""
    out = []
    if not os.path.isdir("/proc"):
        return out
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
            fields = stat[stat.rindex(b")") + 2:].split()
        except (OSError, ValueError):
            continue
        if int(fields[3]) == sid:
            out.append(int(name))
    return out


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
            if not host.state.used:
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
        out = {}
        for host in self.hosts:
            for name, (text, total) in host.output().items():
                t, n = out.get(name, ("", 0))
                out[name] = ((t + text)[:CAPTURE], n + total)
        return out

    def shutdown(self, wait=True, cancel_futures=True):
        """Every process ended and reaped: the host ends them (it answers while a worker
        runs the metric), what is left is killed after a grace (shorter unless ``wait``)."""
        with self.lock:
            self.closing = True
            futures = [s.future for s in self.slots if s.future is not None]
            futures += [f for f, _, _ in self.backlog]
            self.backlog.clear()
        for fut in futures:
            fut.cancel()
        for host in self.hosts:
            host.stop(GRACE if wait else 1.0)


def _returncode(host):
    try:
        return host.proc.wait(5)
    except subprocess.TimeoutExpired:
        return None
