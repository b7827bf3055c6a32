"""A metric file's processes are contained: all of them end with the run (normal end,
failure, time limit), a pipeline reading kmetric ends with it, the metric's output is
captured and capped, nothing is left in the temp folder, memory is limited by default,
and on Linux with bubblewrap the metric has no network, cannot change files outside its
scratch folder nor read the home folder's secrets."""
import json
import os
import socket
import subprocess
import sys
import time

import pytest

from metricrun import (PAIR, children_metric, env_for, kmetric, problem_lines, sandbox_or_skip,
                       sleepers, token, wait_none, write)

LINUX = sys.platform.startswith("linux")
pytestmark = pytest.mark.skipif(not LINUX, reason="processes are counted in /proc (Linux)")


def _sandbox(mode):
    if mode == "auto":
        sandbox_or_skip()
    return mode


def _leftovers(tmp_path):
    return sorted(p.name for p in (tmp_path / "tmp").iterdir())


@pytest.mark.parametrize("mode", ["off", "auto"])
@pytest.mark.parametrize("ending, code, words", [
    ("return", 0, None), ("raise", 2, "ValueError: after starting children"),
    ("loop", 2, "stopped after 6 s")])
def test_every_process_a_metric_starts_ends_with_the_run(tmp_path, mode, ending, code, words):
    """200 children (plain, in sessions of their own, daemons whose parent left): none
    left after a normal end, a failure or the time limit; the temp folder empty."""
    _sandbox(mode)
    tok = token()
    m = children_metric(tmp_path, tok, ending)
    try:
        r = kmetric(tmp_path, *PAIR, "--metric-file", m, "--metric-sandbox", mode,
                    "--metric-timeout", "6" if ending == "loop" else "200")
        assert r.returncode == code, r.stderr
        if words:
            assert words in r.stderr
        assert wait_none(tok, 2.0) == []
        assert _leftovers(tmp_path) == []
    finally:
        for pid in sleepers(tok):
            os.kill(pid, 9)


def test_a_pipeline_reading_kmetric_ends_with_it(tmp_path):
    """`kmetric ... 2>&1 | tee`: the metric's children never hold kmetric's output."""
    tok = token()
    m = write(tmp_path, f"""
        import subprocess
        HIGHER_IS_BETTER = True
        def score(solution, submission, row_id_column_name):
            subprocess.Popen(["sleep", "{tok}"], start_new_session=True)
            subprocess.Popen(["sh", "-c", "sleep {tok} &"]).wait()
            return 1.0
        """)
    from metricrun import KMETRIC
    t0 = time.monotonic()
    p = subprocess.Popen([str(KMETRIC), *PAIR, "--metric-file", str(m)], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, env=env_for(tmp_path), cwd=tmp_path)
    try:
        out, _ = p.communicate(timeout=120)        # the reader's end of the pipe: EOF
        assert p.returncode == 0, out
        assert time.monotonic() - t0 < 60
        assert wait_none(tok, 2.0) == []
    finally:
        p.kill()
        for pid in sleepers(tok):
            os.kill(pid, 9)


def test_a_flood_of_output_is_captured_cut_and_counted(tmp_path):
    m = write(tmp_path, """
        import os, sys
        HIGHER_IS_BETTER = True
        def score(solution, submission, row_id_column_name):
            block = b"x" * (1 << 20)
            for _ in range(100):
                os.write(2, block)
                sys.stdout.write("y" * (1 << 20))
            return 1.0
        """)
    r = kmetric(tmp_path, *PAIR, "--metric-file", m, "--json")
    assert r.returncode == 0, r.stderr[:2000]
    assert len(r.stderr) < 4000
    d = json.loads(r.stdout)
    # score() runs three times: every row, Public, Private
    assert d["metric_file"]["output"] == {"stdout_bytes": 300 << 20, "stderr_bytes": 300 << 20}
    assert "wrote 300.0 MB to standard error" in r.stderr
    assert "printed 300.0 MB to standard output" in r.stderr


def test_no_warnings_of_multiprocessing_and_no_temp_folders_left(tmp_path):
    """A metric using multiprocessing, stopped at the time limit: its semaphores and
    folders die with it, silently; nothing of kmetric's own in the temp folder either."""
    m = write(tmp_path, """
        import multiprocessing, time
        HIGHER_IS_BETTER = True
        def score(solution, submission, row_id_column_name):
            ctx = multiprocessing.get_context("spawn")
            lock, pool = ctx.Lock(), ctx.Pool(2)
            while True:
                time.sleep(0.05)
        """)
    r = kmetric(tmp_path, *PAIR, "--metric-file", m, "--metric-timeout", "8", "--metric-sandbox", "off")
    assert r.returncode == 2
    assert problem_lines(r.stderr) == ["kmetric: metric file m.py: stopped after 8 s, the time limit "
                                       "(--metric-timeout)"]
    assert "resource_tracker" not in r.stderr and "leaked" not in r.stderr
    assert _leftovers(tmp_path) == []


def test_memory_is_limited_by_default_and_said(tmp_path):
    """Without --metric-memory-gb a process has half the RAM: an allocation of three
    quarters of it fails (nothing is touched: the address space alone is refused)."""
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    m = write(tmp_path, f"""
        import numpy as np
        HIGHER_IS_BETTER = True
        def score(solution, submission, row_id_column_name):
            block = np.empty({int(0.75 * ram)}, dtype=np.uint8)
            return 1.0
        """)
    r = kmetric(tmp_path, *PAIR, "--metric-file", m)
    assert r.returncode == 2
    (line,) = problem_lines(r.stderr)
    assert "ran out of memory" in line and "half of this machine's memory" in line
    assert "GB of memory a process (half of this machine's memory" in r.stderr   # the note


def test_require_without_a_sandbox_is_one_line(tmp_path):
    env = env_for(tmp_path, PATH=str(tmp_path))               # no bwrap to be found
    r = kmetric(tmp_path, *PAIR, "--metric-file", write(tmp_path, """
        HIGHER_IS_BETTER = True
        def score(solution, submission, row_id_column_name):
            return 1.0
        """), "--metric-sandbox", "require", env=env)
    assert r.returncode == 2
    (line,) = problem_lines(r.stderr)
    assert line.startswith("kmetric: --metric-sandbox require: ")


REACH = """
    import os, socket
    HIGHER_IS_BETTER = True
    def score(solution, submission, row_id_column_name):
        got = 0
        try:
            open(os.path.expanduser("~/.ssh/id_rsa")).read()
            got += 1
        except OSError:
            pass
        try:
            open({outside!r}, "w").write("changed")
            got += 2
        except OSError:
            pass
        try:
            socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
            got += 4
        except OSError:
            pass
        got += 8 * ("KMETRIC_TEST_SECRET" in os.environ)
        open("scratch.txt", "w").write("its own folder")
        return float(got + 16)
    """


@pytest.mark.parametrize("mode", ["auto", "off"])
def test_the_sandbox_hides_secrets_network_and_files(tmp_path, mode):
    """In the sandbox the metric reads no ~/.ssh key, changes no file outside its scratch
    folder, reaches no port, sees no secret variable (all of them without it)."""
    state = sandbox_or_skip() if mode == "auto" else None
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("PRIVATE KEY")
    outside = tmp_path / "outside.txt"
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)
    m = write(tmp_path, REACH.format(outside=str(outside), port=listener.getsockname()[1]))
    env = env_for(tmp_path, HOME=str(home), KMETRIC_TEST_SECRET="s3cret")
    try:
        r = kmetric(tmp_path, *PAIR, "--metric-file", m, "--metric-sandbox", mode, "--json", env=env)
    finally:
        listener.close()
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    sb = d["metric_file"]["sandbox"]
    if mode == "auto":
        assert d["score"] == 16.0 and not outside.exists()
        assert sb["used"] is True and sb["tool"] == state.tool
        assert "inside a sandbox (bubblewrap)" in r.stderr
    else:
        assert d["score"] == 31.0 and outside.read_text() == "changed"
        assert sb == {"mode": "off", "used": False, "tool": None, "limits": None,
                      "reason": "--metric-sandbox off"}
        assert "No sandbox is used: --metric-sandbox off" in r.stderr
        assert "can read, change and delete your files" in r.stderr
