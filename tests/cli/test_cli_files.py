"""`kmetric score` on hostile and odd files: exit 2, one line per problem in words."""
import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"


def run(*args, stdin=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("KMETRIC_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "kmetric_gui.cli", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=ROOT)


def pair(tmp_path, sol_rows, sub_rows, header="id,rating"):
    sol, sub = tmp_path / "sol.csv", tmp_path / "sub.csv"
    sol.write_text(header + "\n" + "".join(r + "\n" for r in sol_rows))
    sub.write_text(header + "\n" + "".join(r + "\n" for r in sub_rows))
    return sol, sub


def lines(r):
    return [x for x in r.stderr.splitlines() if x]


@pytest.mark.parametrize("flag,value", [("--min-rating", "0x3"), ("--min-rating", "1_0"),
                                        ("--max-rating", "\uff13"), ("--beta", "nan"),
                                        ("--threshold", "0x1p-1"), ("--min-rating", "2.5")])
def test_flags_follow_the_number_grammar(tmp_path, flag, value):
    sol, sub = pair(tmp_path, ["a,1", "b,2"], ["a,1", "b,2"])
    r = run("score", sol, sub, flag, value)
    assert r.returncode == 2
    assert flag in r.stderr and "Traceback" not in r.stderr


def test_flag_decimal_forms_accepted(tmp_path):
    sol, sub = pair(tmp_path, ["a,1", "b,2", "c,0"], ["a,1", "b,2", "c,1"])
    r = run("score", sol, sub, "--min-rating", "+0", "--max-rating", "2.0", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["labels"] == [0, 1, 2]


@pytest.mark.parametrize("value,why", [
    ("1e9", "span 0..1000000000"), ("9007199254740993", "too large"),
    ("9223372036854775807", "too large"), ("1e308", "too large"),
    ("18446744073709551616", "too large"), ("0x3", "hexadecimal"), ("3.5", "non-integer"),
    ("three", "not a decimal number"), ("nan", "not a finite number"), ("", "empty")])
def test_rating_problems_name_file_column_row_id(tmp_path, value, why):
    sol, sub = pair(tmp_path, ["a,1", "b,0", "c,2"], ["a,1", f"b,{value}", "c,2"])
    r = run("score", sol, sub)
    assert r.returncode == 2, r.stdout
    out = lines(r)
    assert any(x.startswith("kmetric: submission sub.csv: column 'rating'") and "row 2 (id 'b')" in x
               and why in x for x in out), out
    assert "Warning" not in r.stderr and "np." not in r.stderr and "Traceback" not in r.stderr


def test_timestamps_in_parquet_are_not_ratings(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq
    sol, _ = pair(tmp_path, ["a,1", "b,2"], [])
    sub = tmp_path / "sub.parquet"
    pq.write_table(pa.table({"id": ["a", "b"], "rating": pa.array([0, 1], pa.timestamp("s"))}), sub)
    r = run("score", sol, sub)
    assert r.returncode == 2
    assert "submission sub.parquet: column 'rating': 2 value(s) are not ratings: row 1 (id 'a')" in r.stderr
    assert "a date or a time" in r.stderr


def test_empty_ids_reported_with_rows(tmp_path):
    sol, sub = pair(tmp_path, ["a,1", ",2", "c,0"], ["a,1", '"",2', "c,0"])
    r = run("score", sol, sub)
    assert r.returncode == 2
    assert lines(r) == ["kmetric: solution sol.csv: 1 empty id(s) in column 'id': rows 2",
                        "kmetric: submission sub.csv: 1 empty id(s) in column 'id': rows 2"]


def test_both_files_missing_or_empty(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    r = run("score", tmp_path / "nope.csv", empty)
    assert r.returncode == 2
    assert lines(r) == ["kmetric: solution nope.csv: file not found",
                        "kmetric: submission empty.csv: file is empty"]


def test_headerless_submission_blamed_on_the_submission(tmp_path):
    sol, _ = pair(tmp_path, ["a,1", "b,2"], [])
    sub = tmp_path / "sub.csv"
    sub.write_text("a,1\nb,2\n")
    r = run("score", sol, sub)
    assert r.returncode == 2
    out = lines(r)
    assert out and all(x.startswith("kmetric: submission sub.csv:") for x in out), out
    assert "header" in out[0]


def test_bomb_flag_and_cap(tmp_path):
    sol, _ = pair(tmp_path, [f"{i},{i % 3}" for i in range(50_000)], [])
    sub = tmp_path / "sub.csv.gz"
    sub.write_bytes(gzip.compress(sol.read_bytes()))
    r = run("score", sol, sub, "--max-inflated-gb", "0.0001")
    assert r.returncode == 2
    assert lines(r) == ["kmetric: submission sub.csv.gz: inflates past 0.1 MB — a compressed bomb? "
                        "(allow more with --max-inflated-gb)"]
    r = run("score", sol, sub, "--max-inflated-gb", "1", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["score"] == 1.0
    assert run("score", sol, sub, "--max-inflated-gb", "-1").returncode == 2


@pytest.mark.skipif(os.name == "nt", reason="a POSIX shell pipe and SIGPIPE")
def test_broken_pipe_ends_quietly():
    cmd = (f"{sys.executable} -m kmetric_gui.cli score {DEMO / 'qwk_solution.csv'} "
           f"{DEMO / 'qwk_submission.csv'} | head -c 1")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True,
                       env=env, cwd=ROOT)
    assert r.stdout == "m"
    assert r.stderr == ""
    assert r.returncode == 0


def test_memory_error_is_a_clear_exit_2(tmp_path, monkeypatch, capsys):
    from kmetric_gui import cli
    from kmetric_gui.analysis import scoring
    sol, sub = pair(tmp_path, ["a,1"], ["a,1"])

    def boom(*a, **k):
        raise MemoryError()
    monkeypatch.setattr(scoring, "score_prepared", boom)
    assert cli.main(["score", str(sol), str(sub), "--metric", "qwk"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not enough memory: needs about" in err[0] and "available" in err[0]


def test_memory_estimate_refuses_early(tmp_path):
    sol, sub = pair(tmp_path, ["a,1"] * 10, ["a,1"] * 10)
    code = ("import sys; from kmetric_gui.io import memory; memory.available_memory = lambda: 10; "
            "from kmetric_gui import cli; sys.exit(cli.main(sys.argv[1:]))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", code, "score", str(sol), str(sub)],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 2
    assert "kmetric: these files: not enough memory: needs about" in r.stderr
    assert "MB available" in r.stderr


def test_unreadable_folder_exit_2(tmp_path):
    sol, sub = pair(tmp_path, ["a,1"], ["a,1"])
    r = run("score", sol, tmp_path)
    assert r.returncode == 2
    assert lines(r) == [f"kmetric: submission {tmp_path.name}: is a directory, not a table file"]
