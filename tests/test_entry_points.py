"""The commands as users run them: the installed console scripts, and nothing started on
import. A metric file through the `kmetric` script once failed while `python -m
kmetric_gui.cli` (the form the other tests use) passed: the workers' server imports the
script again, and importing the CLI started the server."""
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "resources" / "metrics"


def _script(name):
    """The installed console script next to this interpreter (the README's .venv/bin)."""
    here = Path(sys.executable).parent
    for cand in (here / name, here / f"{name}.exe"):
        if cand.is_file():
            return cand
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"the {name} script is not installed beside {sys.executable}")
    return Path(found)


def _env(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env.update(KMETRIC_CONFIG_DIR=str(tmp_path / "config"), QT_QPA_PLATFORM="offscreen")
    return env


def test_installed_kmetric_runs_a_metric_file(tmp_path):
    r = subprocess.run([str(_script("kmetric")), "score", str(EX / "kl_solution.csv"),
                        str(EX / "kl_submission.csv"), "--metric-file", str(EX / "kl_divergence.py")],
                       capture_output=True, text=True, cwd=tmp_path, env=_env(tmp_path), timeout=120)
    assert r.returncode == 0, r.stderr
    assert "score:" in r.stdout and "Traceback" not in r.stderr
    assert "ended abruptly" not in r.stderr


def test_importing_every_module_starts_no_process_or_thread(tmp_path):
    """Each module of the package imported in a fresh interpreter whose argv asks for a
    metric file: no child process and no thread besides the main one afterwards."""
    code = textwrap.dedent("""
        import importlib, pkgutil, sys, threading
        import psutil
        sys.argv = ["kmetric", "score", "s.csv", "u.csv", "--metric-file", "m.py"]
        import kmetric_gui
        names = [m.name for m in pkgutil.walk_packages(kmetric_gui.__path__, "kmetric_gui.")
                 if ".gui" not in m.name and not m.name.endswith("__main__")]
        for n in names:
            importlib.import_module(n)
        kids = psutil.Process().children(recursive=True)
        print(len(names), threading.active_count(), len(kids))
        """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=tmp_path, env=_env(tmp_path), timeout=120)
    assert r.returncode == 0, r.stderr
    n, threads, kids = map(int, r.stdout.split())
    assert n > 50
    assert (threads, kids) == (1, 0)
