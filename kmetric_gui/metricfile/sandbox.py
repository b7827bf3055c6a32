"""Where a metric file's code may reach: on Linux with bubblewrap (`bwrap`, Debian's
package `bubblewrap`), a sandbox with no network, the filesystem read-only but for
the run's scratch folder, the home folder's secrets and the desktop's sockets hidden,
and a short environment. Elsewhere, or without bwrap, no sandbox (said, never implied).

``--metric-sandbox auto`` (the default) uses it where it works, ``off`` never,
``require`` refuses to run without it.
"""
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass

MODES = ("auto", "off", "require")
# What a sandboxed metric does not see of the home folder: keys, tokens, browser profiles.
SECRET_DIRS = (".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".config/gcloud", ".kaggle",
               ".password-store", ".local/share/keyrings", ".mozilla", ".thunderbird",
               ".config/google-chrome", ".config/chromium", ".config/gh", ".config/hub")
SECRET_FILES = (".netrc", ".pypirc", ".git-credentials", ".pgpass", ".npmrc", ".bash_history",
                ".python_history", ".zsh_history")
# Local sockets reach past a network namespace (the X server, the session bus, docker).
SOCKET_PLACES = ("/tmp/.X11-unix", "/tmp/.ICE-unix", "/run/user", "/run/dbus", "/var/run/dbus",
                 "/run/docker.sock", "/var/run/docker.sock", "/run/containerd", "/run/podman")
# The environment a sandboxed metric gets (the rest, tokens and keys included, is left out).
KEPT_ENV = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TERM",
            "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMEXPR_MAX_THREADS",
            "LD_LIBRARY_PATH", "PYTHONIOENCODING")
LIMITS = "no network, files read-only except its scratch folder, ~/.ssh and other secrets hidden, " \
         "a short environment"


@dataclass(frozen=True)
class State:
    """The sandbox a run gets: ``tool`` "bubblewrap" or None, and why not."""
    mode: str
    tool: "str | None"
    reason: str = ""

    @property
    def used(self):
        return self.tool is not None

    def words(self):
        if self.used:
            return f"in a sandbox ({self.tool}): {LIMITS}"
        return f"no sandbox ({self.reason})"

    def to_json(self):
        return {"mode": self.mode, "used": self.used, "tool": self.tool,
                "limits": LIMITS if self.used else None, "reason": self.reason or None}


class SandboxMissing(Exception):
    """``require`` where no sandbox can run (one line)."""


_broken = {}                 # bwrap path -> why it failed here (probed or seen failing)


def bwrap_path():
    return shutil.which("bwrap")


def plan(mode):
    """The State a run in ``mode`` would get, from what is installed (not yet tried)."""
    if mode == "off":
        return State(mode, None, "--metric-sandbox off")
    if not sys.platform.startswith("linux"):
        return State(mode, None, f"none is available on {_platform()}")
    path = bwrap_path()
    if path is None:
        return State(mode, None, "bubblewrap (bwrap) is not installed; on Debian/Ubuntu: "
                                 "apt-get install bubblewrap")
    if path in _broken:
        return State(mode, None, _broken[path])
    return State(mode, "bubblewrap")


def probe(mode):
    """``plan`` after running bwrap once (cached): whether it can make its namespaces here."""
    state = plan(mode)
    if not state.used:
        return state
    ok, why = _try_bwrap()
    if not ok:
        failed(why)
        return plan(mode)
    return state


def _try_bwrap():
    """(works, its message): bwrap run once with the namespaces a run asks for."""
    try:
        r = subprocess.run([bwrap_path(), "--unshare-net", "--unshare-pid", "--ro-bind", "/", "/",
                            "--dev", "/dev", "--proc", "/proc", "--", "true"], capture_output=True,
                           timeout=20, stdin=subprocess.DEVNULL, cwd="/")
        return r.returncode == 0, r.stderr.decode(errors="replace").strip()
    except (OSError, subprocess.SubprocessError) as e:
        return False, str(e)


def works():
    """True when bwrap itself runs here now: a sandboxed host that failed for another
    reason (killed while it started, its folder gone) must not turn the sandbox off for
    every later run of the process (it did: the app went on unsandboxed, saying why with
    the failed host's traceback)."""
    return bool(bwrap_path()) and _try_bwrap()[0]


def failed(message):
    """bwrap failed here (its message): later runs go without it."""
    path = bwrap_path()
    if path:
        first = (message.strip().splitlines() or ["it ended at once"])[0][:200]
        _broken[path] = f"bubblewrap cannot run here: {first}"


def check(state):
    """SandboxMissing for ``require`` without a sandbox."""
    if state.mode == "require" and not state.used:
        raise SandboxMissing(f"--metric-sandbox require: {state.reason}")


def _platform():
    return {"darwin": "macOS", "win32": "Windows"}.get(sys.platform, sys.platform)


def environment(own_python):
    """The sandbox's environment (kept names only); PYTHONPATH too for kmetric's own Python."""
    keep = set(KEPT_ENV) | ({"PYTHONPATH"} if own_python else set())
    return {k: v for k, v in os.environ.items() if k in keep or k.startswith("LC_")}


def _hidden(home):
    """(folders, files) to hide, as real paths (bwrap mounts on resolved paths)."""
    dirs, files = [], []
    places = list(SOCKET_PLACES)
    if home and os.path.isdir(home):
        places += [os.path.join(home, rel) for rel in SECRET_DIRS + SECRET_FILES]
    for p in places:
        real = os.path.realpath(p)
        if real in dirs or real in files or not os.path.exists(real):
            continue
        (dirs if os.path.isdir(real) else files).append(real)
    return dirs, files


def command(argv, scratch, env, extra_binds=()):
    """bwrap's command line running ``argv`` in the sandbox, ``scratch`` its only writable
    folder; ``env`` its whole environment."""
    cmd = [bwrap_path(), "--new-session", "--unshare-net", "--unshare-ipc", "--unshare-pid",
           "--unshare-uts", "--unshare-cgroup-try", "--ro-bind", "/", "/", "--dev", "/dev",
           "--proc", "/proc"]
    dirs, files = _hidden(env.get("HOME") or os.path.expanduser("~"))
    for d in dirs:
        if not _inside(scratch, d):
            cmd += ["--tmpfs", d]
    for f in files:
        cmd += ["--ro-bind", "/dev/null", f]
    for path in (scratch, *extra_binds):
        cmd += ["--bind", path, path]
    cmd += ["--chdir", scratch, "--clearenv"]
    for k, v in sorted(env.items()):
        cmd += ["--setenv", k, v]
    return cmd + ["--", *argv]


def _inside(path, folder):
    """Whether ``path`` is ``folder`` or inside it (a scratch folder in a hidden place stays)."""
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)
