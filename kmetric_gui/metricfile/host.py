"""The process that holds a metric's workers (kmetric's own code, never the metric's).

kmetric starts it in a session of its own (inside bubblewrap where the sandbox is on),
with three pipes: frames in on stdin, frames out on stdout, the metric's standard error
on stderr (and its standard output on ``--out-fd``; merged into stderr where no extra
pipe can be passed). It imports pandas once, says hello (its versions), then either
forks a worker per request (``server``: a worker starts in a millisecond, pandas already
in memory) or becomes the one worker itself (``single``: Windows, or
KMETRIC_METRIC_START=spawn).

On Linux it is its processes' subreaper: whatever a metric starts, even a daemon that
left its session, stays below it; when kmetric says "end", or its pipe closes (kmetric
gone), it kills every process below it, reaps them and exits.

Runs in any Python 3.8+ with pandas (``--metric-python``): standard library only here.
"""
import io
import os
import signal
import sys

from . import wire

END = ("end",)
_scratch = []                 # the run's scratch folder: kmetric starts the host in it


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    _scratch.append(os.getcwd())      # before any metric could change the folder
    mode = argv[argv.index("--mode") + 1] if "--mode" in argv else "server"
    out_fd = int(argv[argv.index("--out-fd") + 1]) if "--out-fd" in argv else 2
    proto_in, proto_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(out_fd, 1)            # the metric's prints reach kmetric's capture, never its output
    for fd in {null, out_fd} - {0, 1, 2}:
        os.close(fd)
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), write_through=True,
                                  errors="backslashreplace")
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), write_through=True,
                                  errors="backslashreplace")
    _subreaper()
    send = _sender(proto_out)
    send(0, wire.dumps(("hello", _preload())))
    if mode == "single":
        _single(proto_in, send)
    else:
        _serve(proto_in, send)


def _sender(fd):
    def send(channel, payload):
        _write_all(fd, wire.frame(channel, payload))
    return send


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _preload():
    """Import what every worker needs, once; the versions (or what is missing)."""
    info = {"python": sys.version.split()[0], "executable": sys.executable, "pid": os.getpid(),
            "problem": None}
    for name in ("numpy", "pandas", "pyarrow"):
        try:
            module = __import__(name)
            info[name] = getattr(module, "__version__", "?")
        except Exception as e:        # noqa: BLE001 -- said by kmetric in one line
            info[name] = None
            info["problem"] = info["problem"] or f"{name} cannot be imported ({type(e).__name__}: {e})"
    if info["problem"] is None:
        try:
            import pyarrow.compute  # noqa: F401

            # all of the worker's code in memory before any metric runs: a host kept for
            # the next run forks it from here, never from files a metric could have changed
            from . import edits, frames, kaggle_metric_utilities, replicate, worker  # noqa: F401
        except Exception as e:        # noqa: BLE001
            info["problem"] = f"kmetric's worker cannot start there ({type(e).__name__}: {e})"
    return info


def _subreaper():
    """Orphans of the metric's processes become ours (Linux), so none escapes the end."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)    # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


# -- one worker: the host itself ------------------------------------------------------
def _single(proto_in, send):
    def read(n):
        return os.read(proto_in, n)
    while True:
        got = wire.read_frame(read)
        if got is None:
            _end()
        channel, payload = got
        if channel == 0:
            msg = wire.loads(payload)
            if msg[0] == "fork":
                _work(read, lambda data: send(msg[1], data), msg[2], _end, _waiting(proto_in))
            _end()


def _work(read, write, init, at_end, waiting=None):
    """The worker's loop: one task at a time, every ending said (never raised out).
    ``waiting(seconds)``: whether the next task arrives within that time (worker.idle)."""
    from . import worker
    worker.init(*init)
    while True:
        got = wire.read_frame(read)
        if got is None:
            at_end()
        task_id, name, args = wire.loads(got[1])
        try:
            answer = (task_id, "ok", getattr(worker, name)(*args))
        except BaseException as e:    # noqa: BLE001 -- the metric's SystemExit and kin too
            answer = (task_id, "raised", worker.describe_base(e))
        try:
            data = wire.dumps(answer)
        except Exception as e:        # noqa: BLE001 -- an answer that cannot travel
            data = wire.dumps((task_id, "raised", ("error", f"its answer cannot be sent back "
                                                   f"({type(e).__name__})", None, None)))
        write(data)
        worker.idle(waiting)


def _waiting(source):
    """A function telling whether ``source`` (a socket or a pipe) has input within some
    seconds; None where select cannot wait on it (a pipe on Windows)."""
    import select
    if os.name != "posix" and not hasattr(source, "fileno"):
        return None

    def waiting(seconds):
        try:
            return bool(select.select([source], [], [], seconds)[0])
        except (OSError, ValueError):     # a descriptor select cannot take: as if a task came
            return True
    return waiting


# -- many workers: forked on request ----------------------------------------------------
def _serve(proto_in, send):
    import selectors
    import socket
    sel = selectors.DefaultSelector()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.signal(signal.SIGTERM, lambda *_: _end())
    sel.register(proto_in, selectors.EVENT_READ, "parent")
    sel.register(wake_r, selectors.EVENT_READ, "wake")
    from_parent = wire.Splitter()
    workers = {}                      # channel -> [pid, socket, Splitter]
    by_pid = {}
    while True:
        for key, _ in sel.select():
            if key.data == "parent":
                data = os.read(proto_in, 1 << 20)
                if not data:
                    _end()
                for channel, payload in from_parent.feed(data):
                    if channel == 0:
                        msg = wire.loads(payload)
                        if msg[0] == "fork":
                            a, b = socket.socketpair()
                            pid = os.fork()
                            if pid == 0:
                                _child(b, msg[2])
                            b.close()
                            workers[msg[1]] = [pid, a, wire.Splitter()]
                            by_pid[pid] = msg[1]
                            sel.register(a, selectors.EVENT_READ, msg[1])
                        elif msg[0] == "reset":
                            _reset(sel, workers, by_pid, msg[1])
                            send(0, wire.dumps(("reset",)))
                        else:
                            _end()
                    elif channel in workers:
                        try:
                            workers[channel][1].sendall(wire.frame(0, payload))
                        except OSError:
                            pass              # it died: its end is said when reaped
            elif key.data == "wake":
                try:
                    while os.read(wake_r, 4096):
                        pass
                except OSError:
                    pass
                for pid, status in _reap():
                    channel = by_pid.pop(pid, None)
                    if channel is not None:
                        send(0, wire.dumps(("ended", channel, status)))
            else:
                entry = workers.get(key.data)
                try:
                    data = entry[1].recv(1 << 20)
                except OSError:
                    data = b""
                if not data:
                    sel.unregister(entry[1])
                    entry[1].close()
                    continue
                for _, payload in entry[2].feed(data):
                    send(key.data, payload)


def _reset(sel, workers, by_pid, scratch):
    """The run is over, the host stays for the next (the app): every process below it
    ended and reaped, the scratch folder emptied (its copy of kmetric's code kept), and in
    the sandbox its private /dev/shm too. The next run's workers are forked afresh."""
    for entry in workers.values():
        try:
            sel.unregister(entry[1])
        except (KeyError, ValueError):
            pass
        entry[1].close()
    workers.clear()
    by_pid.clear()
    kill_below(os.getpid())
    _empty(scratch, keep=(".kmetric-worker",))
    if os.environ.get("KMETRIC_SANDBOXED"):
        _empty("/dev/shm")            # the sandbox's own, never the machine's


def _child(sock, init):
    """A forked worker: only its socket and the standard streams stay open."""
    try:
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD, signal.SIGTERM):
            signal.signal(sig, signal.SIG_DFL)
        _close_all_but((0, 1, 2, sock.fileno()))
        _work(sock.recv, lambda data: sock.sendall(wire.frame(0, data)), init, lambda: os._exit(0),
              _waiting(sock))
    finally:
        os._exit(0)


def _close_all_but(keep):
    try:
        fds = [int(n) for n in os.listdir("/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd")]
    except OSError:
        fds = range(3, 1024)
    for fd in fds:
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def _reap():
    """(pid, raw status) of every child that ended, without waiting."""
    out = []
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return out
        if pid == 0:
            return out
        out.append((pid, status))


# -- the end -------------------------------------------------------------------------------
def _end():
    kill_below(os.getpid())
    if _scratch:
        _empty(_scratch[0])           # the run's scratch folder (kmetric removes it too)
    os._exit(0)


def _empty(folder, keep=()):
    """The folder's contents removed; only a scratch folder of kmetric's or the sandbox's
    /dev/shm, whatever a metric did to the paths it was given."""
    import shutil
    if not (os.path.basename(folder).startswith("kmetric-metric-") or folder == "/dev/shm"):
        return
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if name in keep:
            continue
        path = os.path.join(folder, name)
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
        except OSError:
            pass


def descendants(root):
    """Pids below ``root`` (Linux: from /proc), children first."""
    children = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(name))
    out, todo = [], [root]
    while todo:
        for pid in children.get(todo.pop(), ()):
            out.append(pid)
            todo.append(pid)
    return out


def kill_below(root, seconds=10.0):
    """Every process below ``root`` killed and (as their subreaper) reaped."""
    if not sys.platform.startswith("linux"):
        try:
            os.killpg(os.getpgrp(), signal.SIGKILL)     # ourselves too: the end anyway
        except OSError:
            pass
        return
    import time
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pids = descendants(root)                   # zombies too, until reaped
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        reaped = _reap()
        if not pids:
            return
        if not reaped:
            time.sleep(0.002)
