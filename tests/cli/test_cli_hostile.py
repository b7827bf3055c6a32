"""CLI messages show what files hold, never let a terminal obey it (issue 25)."""
import subprocess
import sys


def test_escape_codes_in_column_names_are_shown_not_obeyed(tmp_path):
    sol = tmp_path / "sol.csv"
    sol.write_text("id,rating\na,1\n")
    sub = tmp_path / "sub.csv"
    sub.write_text("id,\x1b]0;pwned\x07\x1b[31mred\u202e\na,1\n")
    out = subprocess.run([sys.executable, "-m", "kmetric_gui.cli", "score", str(sol), str(sub),
                          "--metric", "qwk"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert "\x1b" not in out.stderr and "\x07" not in out.stderr and "\u202e" not in out.stderr
    assert "'\\x1b]0;pwned\\x07\\x1b[31mred\\u202e'" in out.stderr
