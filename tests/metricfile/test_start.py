"""How metric workers start: forked from a clean server started early (forkserver),
spawned where asked; killed at the limit; the server ends with its caller."""
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from kmetric_gui.cli import main
from kmetric_gui.cli.metricfile_start import start_early
from kmetric_gui.metricfile import start

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "resources" / "metrics"
FORKSERVER = sys.platform != "win32" and not getattr(sys, "frozen", False)


def _gone(pid):
    """Ended (or a zombie its parent has not reaped yet), on every platform (psutil)."""
    import psutil
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def _wait_gone(pid, seconds=15):
    end = time.monotonic() + seconds
    while time.monotonic() < end and not _gone(pid):
        time.sleep(0.05)
    return _gone(pid)


@pytest.mark.parametrize("args,starts", [
    (["score", "s.csv", "u.csv", "--metric-file", "m.py"], True),
    (["score", "s.csv", "u.csv", "--metric-file=m.py"], True),
    (["compare", "s.csv", "a.csv", "b.csv", "--metric-file", "m.py"], True),
    (["score", "s.csv", "u.csv"], False),                      # no metric file
    (["score", "s.csv", "u.csv", "--metric-file", "m.py", "--executor", "dask:h:8786"], False),
    ([], False),
])
def test_started_early_only_for_a_metric_file_command(monkeypatch, args, starts):
    calls = []
    monkeypatch.setattr(start, "warm_up", lambda: calls.append(1))
    start_early(args)
    assert calls == ([1] if starts else [])


def test_main_starts_the_workers_early_and_importing_does_not(monkeypatch):
    """The server starts from main() for a metric-file command; importing the CLI with such
    arguments in sys.argv starts nothing (the server imports the `kmetric` script again)."""
    calls = []
    monkeypatch.setattr(start, "warm_up", lambda: calls.append(1))
    monkeypatch.setattr(sys, "argv", ["kmetric", "score", "s.csv", "u.csv", "--metric-file", "m.py"])
    import importlib
    import kmetric_gui.cli as cli
    importlib.reload(cli)
    assert calls == []
    assert cli.main(["score", "missing_s.csv", "missing_u.csv", "--metric-file", "m.py"]) == 2
    assert calls == [1]


def test_spawn_when_asked(monkeypatch):
    monkeypatch.setenv("KMETRIC_METRIC_START", "spawn")
    assert start.context().get_start_method() == "spawn"
    monkeypatch.delenv("KMETRIC_METRIC_START")
    assert start.context().get_start_method() == ("forkserver" if FORKSERVER else "spawn")


def _metric(tmp_path, body):
    p = tmp_path / "m.py"
    p.write_text(textwrap.dedent(body))
    return p


def test_worker_holds_nothing_of_the_caller(tmp_path, capsys):
    """The worker is a fork of a fresh server, not of this process: none of the
    caller's modules (pytest, the CLI) nor its changed state are there."""
    import kmetric_gui.metricfile.worker as w
    w._state["planted"] = True                          # in this process only
    try:
        m = _metric(tmp_path, """
            import sys
            HIGHER_IS_BETTER = True
            def score(solution, submission, row_id_column_name):
                from kmetric_gui.metricfile import worker
                seen = [m for m in ("pytest", "kmetric_gui.cli", "PySide6") if m in sys.modules]
                return float(len(seen) + ("planted" in worker._state))
            """)
        code = main(["score", str(EX / "bll_solution.csv"), str(EX / "bll_submission.csv"),
                     "--metric-file", str(m), "--json"])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert json.loads(out)["score"] == 0.0
    finally:
        w._state.pop("planted", None)


def test_worker_killed_at_the_time_limit(tmp_path, capsys):
    pid_file = tmp_path / "pid"
    m = _metric(tmp_path, f"""
        import os
        HIGHER_IS_BETTER = True
        def score(solution, submission, row_id_column_name):
            open({str(pid_file)!r}, "w").write(str(os.getpid()))
            while True:
                pass
        """)
    code = main(["score", str(EX / "bll_solution.csv"), str(EX / "bll_submission.csv"),
                 "--metric-file", str(m), "--metric-timeout", "4"])
    _, err = capsys.readouterr()
    assert code == 2 and "stopped after 4 s" in err
    assert _wait_gone(int(pid_file.read_text()))


def test_same_numbers_spawned_or_forked(tmp_path):
    args = [sys.executable, "-m", "kmetric_gui.cli", "score", str(EX / "kl_solution.csv"),
            str(EX / "kl_submission.csv"), "--metric-file", str(EX / "kl_divergence.py"), "--json",
            "--ci", "0.9", "--bootstrap", "60"]
    env = dict(os.environ, KMETRIC_CONFIG_DIR=str(tmp_path))
    forked = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    spawned = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=300,
                             env=dict(env, KMETRIC_METRIC_START="spawn"))
    assert forked.returncode == 0 and spawned.returncode == 0, forked.stderr + spawned.stderr
    f, s = json.loads(forked.stdout), json.loads(spawned.stdout)
    assert f["score"] == s["score"] and f["ci"] == s["ci"]


@pytest.mark.skipif(not FORKSERVER, reason="no forkserver: Windows and frozen bundles spawn")
def test_server_ends_with_its_caller(tmp_path):
    """The workers' parent is the server; it is gone once the command has ended, and
    the command's output pipe is closed by then (a pipeline does not wait for it)."""
    ppid_file = tmp_path / "ppid"
    m = _metric(tmp_path, f"""
        import os
        HIGHER_IS_BETTER = True
        def score(solution, submission, row_id_column_name):
            open({str(ppid_file)!r}, "w").write(str(os.getppid()))
            return 1.0
        """)
    r = subprocess.run([sys.executable, "-m", "kmetric_gui.cli", "score", str(EX / "bll_solution.csv"),
                        str(EX / "bll_submission.csv"), "--metric-file", str(m)],
                       capture_output=True, text=True, cwd=ROOT, timeout=300,
                       env=dict(os.environ, KMETRIC_CONFIG_DIR=str(tmp_path)))
    assert r.returncode == 0, r.stderr
    server = int(ppid_file.read_text())
    assert server != os.getpid()
    assert _wait_gone(server)


@pytest.mark.skipif(not FORKSERVER, reason="forkserver")
def test_spawn_when_the_server_cannot_start(monkeypatch):
    from multiprocessing import forkserver

    def fail():
        raise OSError("no sockets here")
    monkeypatch.setattr(forkserver, "ensure_running", fail)
    assert start.context().get_start_method() == "spawn"
