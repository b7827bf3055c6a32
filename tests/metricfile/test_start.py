"""How metric workers start: forked from a clean host process started early (its own
session), one process each where asked; killed at the limit; the host ends with its
caller; a spare host the run did not take is ended; a sandbox that fails falls back."""
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
from kmetric_gui.metricfile import pool, start

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "resources" / "metrics"
FORKS = hasattr(os, "fork")


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
    (["score", "s.csv", "u.csv", "--metric-file", "m.py", "--metric-sandbox", "bogus"], False),
    (["score", "s.csv", "u.csv", "--metric-file", "m.py", "--metric-python", "/no/such/python"], False),
    ([], False),
])
def test_started_early_only_for_a_metric_file_command(monkeypatch, args, starts):
    calls = []
    monkeypatch.setattr(start, "warm_up", lambda python, mode: calls.append((python, mode)))
    start_early(args)
    assert calls == ([(None, "auto")] if starts else [])


def test_started_early_for_its_python_and_sandbox(monkeypatch):
    calls = []
    monkeypatch.setattr(start, "warm_up", lambda python, mode: calls.append((python, mode)))
    start_early(["score", "s", "u", "--metric-file", "m.py", f"--metric-python={sys.executable}",
                 "--metric-sandbox", "off"])
    assert calls == [(os.path.abspath(sys.executable), "off")]


def test_main_starts_the_workers_early_and_importing_does_not(monkeypatch):
    """The server starts from main() for a metric-file command; importing the CLI with such
    arguments in sys.argv starts nothing (the server imports the `kmetric` script again)."""
    calls = []
    monkeypatch.setattr(start, "warm_up", lambda python, mode: calls.append(1))
    monkeypatch.setattr(sys, "argv", ["kmetric", "score", "s.csv", "u.csv", "--metric-file", "m.py"])
    import importlib
    import kmetric_gui.cli as cli
    importlib.reload(cli)
    assert calls == []
    assert cli.main(["score", "missing_s.csv", "missing_u.csv", "--metric-file", "m.py"]) == 2
    assert calls == [1]


def test_one_process_per_worker_when_asked(monkeypatch):
    monkeypatch.setenv("KMETRIC_METRIC_START", "spawn")
    assert pool.single_mode()
    monkeypatch.delenv("KMETRIC_METRIC_START")
    assert pool.single_mode() is not FORKS


@pytest.mark.skipif(sys.platform != "linux", reason="/proc")
def test_a_spare_host_the_run_did_not_take_is_ended(capsys):
    """A command refused before its run (a missing file) ends the host started early."""
    hosts = []
    real = start.warm_up

    def warm_up(python, mode):
        real(python, mode)
        hosts.append(start._spare["host"])
    import kmetric_gui.metricfile.start as st
    try:
        st.warm_up = warm_up
        assert main(["score", "missing_s.csv", "missing_u.csv", "--metric-file", "m.py"]) == 2
    finally:
        st.warm_up = real
    (host,) = hosts
    assert host.proc.returncode is not None and _wait_gone(host.proc.pid)
    assert not Path(host.scratch).exists()


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
                 "--metric-file", str(m), "--metric-timeout", "4", "--metric-sandbox", "off"])
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


@pytest.mark.skipif(not FORKS or sys.platform != "linux", reason="fork, /proc")
def test_host_ends_with_its_caller(tmp_path):
    """The workers' parent is the host; it is gone once the command has ended, and
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
                        str(EX / "bll_submission.csv"), "--metric-file", str(m), "--metric-sandbox", "off"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300,
                       env=dict(os.environ, KMETRIC_CONFIG_DIR=str(tmp_path)))
    assert r.returncode == 0, r.stderr
    host = int(ppid_file.read_text())
    assert host != os.getpid()
    assert _wait_gone(host)


@pytest.mark.skipif(sys.platform != "linux", reason="bubblewrap is Linux's")
@pytest.mark.parametrize("mode, code", [("auto", 0), ("require", 2)])
def test_a_sandbox_that_cannot_start_is_said(tmp_path, mode, code):
    """A bwrap that fails here (a kernel without user namespaces): auto runs without it
    and says why (note and JSON); require refuses in one line."""
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "bwrap").write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\n"
                                "exit 1\n")
    (fake / "bwrap").chmod(0o755)
    m = _metric(tmp_path, """
        HIGHER_IS_BETTER = True
        def score(solution, submission, row_id_column_name):
            return 1.0
        """)
    env = dict(os.environ, KMETRIC_CONFIG_DIR=str(tmp_path), PATH=f"{fake}{os.pathsep}{os.environ['PATH']}")
    r = subprocess.run([str(Path(sys.executable).with_name("kmetric")), "score", str(EX / "bll_solution.csv"),
                        str(EX / "bll_submission.csv"), "--metric-file", str(m), "--metric-sandbox", mode,
                        "--json"], capture_output=True, text=True, cwd=tmp_path, timeout=300, env=env)
    assert r.returncode == code, r.stderr
    why = "bubblewrap cannot run here: bwrap: No permissions to create new namespace"
    if code == 0:
        sb = json.loads(r.stdout)["metric_file"]["sandbox"]
        assert sb["used"] is False and sb["reason"] == why
        assert f"No sandbox is used: {why}" in r.stderr
    else:
        assert r.stderr.strip().splitlines() == [f"kmetric: --metric-sandbox require: {why}"]


@pytest.mark.skipif(sys.platform != "linux", reason="bubblewrap is Linux's")
def test_a_host_that_fails_for_another_reason_keeps_the_sandbox(tmp_path, monkeypatch):
    """A sandboxed host that dies while it starts (killed, its folder gone) while bwrap
    itself works: the run fails, and later runs are still sandboxed. Before, the first such
    failure turned the sandbox off for the rest of the process, with the dead host's
    traceback as the reason (seen after the app's tests in one pytest run)."""
    from kmetric_gui.metricfile import pool, sandbox
    from kmetric_gui.metricfile.processes import HostFailed
    state = sandbox.plan("auto")
    if not state.used or not sandbox.works():
        pytest.skip("no working bubblewrap here")

    def dies(self, check=None):
        raise HostFailed("it ended at once")
    monkeypatch.setattr(pool.Host, "hello", dies)
    p = pool.Pool(1, None, state, str(tmp_path), (str(tmp_path), None, 0), None)
    with pytest.raises(HostFailed):
        p.start()
    assert sandbox.plan("auto").used
