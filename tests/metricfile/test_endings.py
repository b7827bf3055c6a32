"""Every way a metric can end is one line and exit 2: any exception (its message cut to
280 characters), SystemExit, KeyboardInterrupt, another BaseException, a hard crash
(os._exit, a segmentation fault), the time limit. Never a traceback, never exit 3."""
import json
import sys

import pytest

from kmetric_gui.cli import main
from metricrun import PAIR, kmetric, problem_lines, write

BODIES = {
    "huge message": ('raise ValueError("B" * 10_000_000)', "ValueError: BBBB", True),
    "html message": ('raise RuntimeError("<h1>big</h1><img src=file:///etc/passwd>")',
                     "RuntimeError: <h1>big</h1><img src=file:///etc/passwd>", False),
    "sys.exit": ("sys.exit(3)", "it called sys.exit(3) (SystemExit)", False),
    "SystemExit no code": ("raise SystemExit", "it called sys.exit(None) (SystemExit)", False),
    "KeyboardInterrupt": ("raise KeyboardInterrupt", "it raised KeyboardInterrupt", False),
    "BaseException": ("raise Odd('strange')", "Odd: strange", False),
    "GeneratorExit": ("raise GeneratorExit('gen')", "GeneratorExit: gen", False),
    "os._exit": ("os._exit(7)", "ended abruptly: it exited with code 7", False),
    "segfault": ("ctypes.string_at(0)", "ended abruptly: it crashed (a segmentation fault, SIGSEGV)",
                 False),
    "abort": ("os.abort()", "ended abruptly: it crashed (an abort, SIGABRT)", False),
    "bad __str__": ("raise Unprintable()", "Unprintable: (its message cannot be shown", False),
}

HEAD = """
    import ctypes, os, sys
    HIGHER_IS_BETTER = True

    class Odd(BaseException):
        pass

    class Unprintable(Exception):
        def __str__(self):
            raise RuntimeError("no")

    def score(solution, submission, row_id_column_name):
        {body}
    """


@pytest.mark.skipif(sys.platform == "win32", reason="os._exit and signals as POSIX has them")
@pytest.mark.parametrize("case", list(BODIES))
def test_each_ending_is_one_line_exit_2(tmp_path, capsys, case):
    body, words, cut = BODIES[case]
    m = write(tmp_path, HEAD.format(body=body))
    code = main([*PAIR, "--metric-file", str(m), "--metric-sandbox", "off"])
    err = capsys.readouterr().err
    assert code == 2, err[:500]
    (line,) = problem_lines(err)
    assert line.startswith("kmetric: metric file m.py") and words in line, line[:500]
    assert "Traceback" not in err
    if cut:
        assert len(line) < 400 and "(cut; 10,000,012 characters in all)" in line


def test_the_time_limit_is_one_line(tmp_path, capsys):
    m = write(tmp_path, HEAD.format(body="while True: pass"))
    code = main([*PAIR, "--metric-file", str(m), "--metric-timeout", "3"])
    (line,) = problem_lines(capsys.readouterr().err)
    assert code == 2 and line == ("kmetric: metric file m.py: stopped after 3 s, the time limit "
                                  "(--metric-timeout)")


def test_a_failed_replicate_is_counted_not_fatal(tmp_path):
    """An ending in some bootstrap replicates only (SystemExit included): the interval
    says how many failed; the run ends normally (installed script)."""
    m = write(tmp_path, """
        import sys
        HIGHER_IS_BETTER = True
        calls = [0]
        def score(solution, submission, row_id_column_name):
            calls[0] += 1
            if calls[0] % 5 == 0:
                sys.exit("a fifth of the calls")
            return float(len(solution))
        """)
    r = kmetric(tmp_path, *PAIR, "--metric-file", m, "--ci", "0.9", "--bootstrap", "40", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["score"] == 300.0
