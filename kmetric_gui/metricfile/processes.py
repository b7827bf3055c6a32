"""The host process of a metric's workers, seen from kmetric: started in a session of
its own (inside bubblewrap where the sandbox is on), its pipes (frames in and out, the
metric's standard output and error captured and capped), and its end: the host ends
every process below it; whatever is left is killed (its process group and session, or
the sandbox's first process), and all are reaped.
"""
import os
import queue
import signal
import subprocess
import sys
import threading
import time

from . import sandbox, wire

CAPTURE = 64 << 10            # bytes of the metric's output kept (the rest counted, dropped)
GRACE = 3.0                   # seconds the host has to end its processes before they are killed
HELLO = 300.0                 # seconds a host may take to import pandas and say hello
POSIX = os.name == "posix"


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
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._drain, name="kmetric-capture", daemon=True)
        self.thread.start()

    def _drain(self):
        try:
            while True:
                data = os.read(self.fd, 1 << 16)
                if not data:
                    break
                with self.lock:
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

    def settle(self, timeout=0.5):
        """Wait (at most ``timeout`` s) until what was written so far is read: the metric's
        print comes before its result, but this thread may not have read it yet (a loaded
        machine lost a metric's "printed ..." note this way)."""
        if os.name != "posix" or not self.thread.is_alive():
            return
        import select
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                ready, _, _ = select.select([self.fd], [], [], 0)
            except (OSError, ValueError):
                return
            if not ready:
                time.sleep(0.002)     # a chunk read but not yet counted: its lock is next
                return
            time.sleep(0.002)

    def text(self):
        with self.lock:
            return bytes(self.head).decode("utf-8", "replace")

    def mark(self):
        """Count from here (a host kept for the next run)."""
        with self.lock:
            self.head, self.total = bytearray(), 0


def _package_parent():
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# the worker's own code, copied for another Python (which must not see kmetric's packages)
CODE = ("errors.py", "metricfile/worker.py", "metricfile/worker_errors.py", "metricfile/frames.py",
        "metricfile/replicate.py", "metricfile/edits.py", "metricfile/kaggle_metric_utilities.py",
        "metricfile/host.py", "metricfile/wire.py")
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
        self.reset_done = threading.Event()
        self.gone = threading.Event()
        self.stopping = False
        argv = host_argv(python, scratch, single)
        out_r = out_w = None
        if POSIX:
            out_r, out_w = os.pipe()
            argv += ["--out-fd", str(out_w)]
        tmp = {"TMPDIR": scratch, "TEMP": scratch, "TMP": scratch}
        if state.used:
            env = dict(sandbox.environment(python is None), KMETRIC_SANDBOXED="1", **tmp)
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
                elif channel == 0 and wire.loads(payload) == ("reset",):
                    self.reset_done.set()
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
        import time
        end = time.monotonic() + HELLO
        while not self.hello_seen.wait(0.1):
            if check is not None:
                check()
            if time.monotonic() > end:
                self.kill()
                raise HostFailed(f"it did not start within {HELLO:g} s")
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
        for cap in (self.err, self.out):
            if cap is not None:
                cap.settle()
        out = {"stderr": (self.err.text(), self.err.total)}
        if self.out is not None:
            out["stdout"] = (self.out.text(), self.out.total)
        return out

    def reset(self, timeout=GRACE):
        """Its processes ended, its folder emptied, the host kept (Linux, forked workers):
        True once it said so within ``timeout`` seconds."""
        if self.single or not sys.platform.startswith("linux") or self.gone.is_set() \
                or self.info is None or self.stopping:
            return False
        self.reset_done.clear()
        self.send(0, ("reset", self.scratch))
        if not self.reset_done.wait(timeout) or self.gone.is_set():
            return False
        self.on_frame = None
        for cap in (self.err, self.out):
            if cap is not None:
                cap.mark()
        return True

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
