"""Helpers of the metric-file containment tests (CLI and app): hostile metric files,
the installed `kmetric` run in a folder of its own, processes counted by a token."""
import os
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "resources" / "metrics"
KMETRIC = Path(sys.executable).with_name("kmetric")
PAIR = ("score", str(EX / "kl_solution.csv"), str(EX / "kl_submission.csv"))


def token():
    """A `sleep` argument no other process on the machine uses."""
    return f"{4000 + uuid.uuid4().int % 5000}.{os.getpid() % 10000:04d}"


def sleepers(tok):
    """Pids of live processes running `sleep TOKEN` (zombies excluded)."""
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        if args[:2] == [b"sleep", tok.encode()] and stat[stat.rindex(b")") + 2:][:1] != b"Z":
            out.append(int(name))
    return out


def wait_none(tok, seconds=10.0):
    """Live sleepers after waiting up to ``seconds`` for them to be gone."""
    end = time.monotonic() + seconds
    while time.monotonic() < end and sleepers(tok):
        time.sleep(0.05)
    return sleepers(tok)


def children_metric(folder, tok, ending, n=200):
    """A metric starting ``n`` children (some in a session of their own, some daemons whose
    parent is gone), then ending as ``ending`` says: return, raise, loop (never returns)."""
    body = f"""
        import os, subprocess, sys, time
        HIGHER_IS_BETTER = True

        def score(solution, submission, row_id_column_name):
            for i in range({n}):
                if i % 8 == 0:
                    subprocess.Popen(["sleep", "{tok}"], start_new_session=True)
                elif i % 8 == 1:
                    subprocess.Popen(["sh", "-c", "sleep {tok} &"]).wait()
                else:
                    subprocess.Popen(["sleep", "{tok}"])
            {ENDINGS[ending]}
        """
    return write(folder, body, f"children_{ending}.py")


ENDINGS = {"return": "return 1.0",
           "raise": "raise ValueError('after starting children')",
           "loop": "while True: time.sleep(0.05)"}


def write(folder, body, name="m.py"):
    p = Path(folder) / name
    p.write_text(textwrap.dedent(body))
    return p


def env_for(tmp_path, **extra):
    """An environment of the test's own: config folder, temp folder (to see what is left)."""
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    env = dict(os.environ, KMETRIC_CONFIG_DIR=str(tmp_path / "config"), TMPDIR=str(tmp))
    env.update(extra)
    return env


def kmetric(tmp_path, *args, env=None, timeout=300, **kw):
    """The installed `kmetric` script, run in its own temp folder."""
    return subprocess.run([str(KMETRIC), *map(str, args)], capture_output=True, text=True,
                          env=env or env_for(tmp_path), timeout=timeout, cwd=tmp_path, **kw)


def problem_lines(stderr):
    """stderr lines that are not notes."""
    return [line for line in stderr.splitlines() if line and not line.startswith("kmetric: note:")]


def sandbox_or_skip():
    from kmetric_gui.metricfile import sandbox
    state = sandbox.probe("auto")
    if not state.used:
        pytest.skip(f"no sandbox on this machine: {state.reason}")
    return state


OLD_PANDAS = ("pandas==1.5.3", "numpy<2", "pyarrow<15")


def old_pandas_python(request, tmp_path_factory):
    """A Python with pandas 1.5.3 (a venv made here, pip-installed from PyPI; kept in
    pytest's cache folder so later runs take seconds); skips where PyPI cannot be reached."""
    cache = getattr(request.config, "cache", None)
    folder = (Path(cache.mkdir("metric-python-pandas1")) if cache is not None
              else tmp_path_factory.mktemp("metric-python-pandas1"))
    python = folder / "venv" / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    marker = folder / "ready.txt"
    if marker.exists() and python.exists():
        return str(python)
    import shutil
    shutil.rmtree(folder / "venv", ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(folder / "venv")], check=True, timeout=300)
    r = subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        *OLD_PANDAS], capture_output=True, text=True, timeout=900)
    if r.returncode:
        pytest.skip("pandas 1.5.3 could not be installed from PyPI here: "
                    + " ".join(r.stderr.split())[-300:])
    marker.write_text(" ".join(OLD_PANDAS))
    return str(python)
