"""A submission without the solution's id column is blamed on the submission (issue 24)."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _files(tmp_path):
    sol = tmp_path / "qwk_solution.csv"
    sol.write_text("id_code,diagnosis,Usage\n" + "".join(
        f"r{i},{i % 5},Public\n" for i in range(20)))
    sub = tmp_path / "qwk_submission.csv"
    sub.write_text("foo,diagnosis\n" + "".join(f"r{i},{(i + 1) % 5}\n" for i in range(20)))
    return sol, sub


def test_cli_blames_the_submission(tmp_path):
    sol, sub = _files(tmp_path)
    env = dict(os.environ)
    env.pop("KMETRIC_DEBUG", None)
    r = subprocess.run([sys.executable, "-m", "kmetric_gui.cli", "score", str(sol), str(sub)],
                       capture_output=True, text=True, env=env, cwd=ROOT)
    assert r.returncode == 2
    lines = [ln for ln in r.stderr.splitlines() if "id column" in ln]
    assert lines, r.stderr
    assert all("qwk_submission.csv" in ln and "qwk_solution.csv" not in ln for ln in lines), lines
    assert "'id_code'" in lines[0] and "foo" in lines[0]


def test_load_blames_the_submission(tmp_path):
    from kmetric_gui.errors import InputError
    from kmetric_gui.analysis.scoring import load
    sol, sub = _files(tmp_path)
    try:
        load(sol, sub)
    except InputError as e:
        text = "\n".join(map(str, getattr(e, "problems", [e])))
    else:
        raise AssertionError("no error")
    assert "submission qwk_submission.csv" in text and "solution qwk_solution.csv" not in text
