"""`--metric-python PATH`: a metric written for older pandas runs in another Python
(a venv with pandas 1.5.3, made here) through the same contract, limits, sandbox and
statistics, its versions said; kmetric's own packages are not seen there; a bad PATH
is one line, exit 2."""
import json
import subprocess
import sys

import pytest

from metricrun import PAIR, kmetric, old_pandas_python, problem_lines, write

# pandas 2 removed DataFrame.iteritems: a metric of pandas 1's era
OLD_METRIC = """
    import importlib.util
    import pandas as pd
    HIGHER_IS_BETTER = False

    def score(solution, submission, row_id_column_name):
        total = 0.0
        for name, column in submission.iteritems():
            if name != row_id_column_name:
                total += float((column - solution[name]).abs().mean())
        assert importlib.util.find_spec("kmetric_gui.cli") is None, "kmetric's own packages seen"
        return total
    """


@pytest.fixture(scope="module")
def old_python(request, tmp_path_factory):
    return old_pandas_python(request, tmp_path_factory)


@pytest.mark.slow
def test_a_metric_of_older_pandas_runs_in_its_python(tmp_path, old_python):
    m = write(tmp_path, OLD_METRIC)
    r = kmetric(tmp_path, *PAIR, "--metric-file", m, "--metric-python", old_python, "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    py = d["metric_file"]["python"]
    assert py["pandas"] == "1.5.3" and py["numpy"].startswith("1.") and py["own"] is False
    assert py["path"] == old_python
    assert f"It runs in Python {py['version']} at {old_python} (pandas 1.5.3, numpy {py['numpy']})" \
        in r.stderr
    # the reference: the same sum computed here with this environment's pandas
    import pandas as pd
    sol = pd.read_csv(PAIR[1], dtype={"id": str}).drop(columns=["Usage"])
    sub = sol[["id"]].merge(pd.read_csv(PAIR[2], dtype={"id": str}), on="id")
    ref = sum(float((sub[c] - sol[c]).abs().mean()) for c in sub.columns if c != "id")
    assert d["score"] == pytest.approx(ref, rel=1e-12)
    own = kmetric(tmp_path, *PAIR, "--metric-file", m)      # this environment's pandas: no iteritems
    assert own.returncode == 2 and "iteritems" in problem_lines(own.stderr)[0]


@pytest.mark.slow
@pytest.mark.parametrize("sandbox", ["auto", "off"])
def test_the_same_statistics_in_either_python(tmp_path, old_python, sandbox):
    """A version-neutral metric: score and bootstrap interval equal in both Pythons (the
    draws are made from the same generator states), up to rounding in the last bits."""
    from metricrun import EX
    args = [*PAIR, "--metric-file", EX / "kl_divergence.py", "--ci", "0.9", "--bootstrap", "60",
            "--metric-sandbox", sandbox, "--json"]
    other = kmetric(tmp_path, *args, "--metric-python", old_python)
    own = kmetric(tmp_path, *args)
    assert other.returncode == 0 and own.returncode == 0, other.stderr + own.stderr
    a, b = json.loads(other.stdout), json.loads(own.stdout)
    # Equal to the last bits or so: numpy 1.x and 2.x may round a sum differently.
    for key in ("score", "public"):
        assert a[key] == pytest.approx(b[key], rel=1e-12)
    assert a["ci"]["level"] == b["ci"]["level"]
    assert [a["ci"]["low"], a["ci"]["high"]] == pytest.approx([b["ci"]["low"], b["ci"]["high"]], rel=1e-12)
    assert a["metric_file"]["python"]["pandas"] == "1.5.3" != b["metric_file"]["python"]["pandas"]


def test_a_bad_python_is_one_line(tmp_path):
    empty = tmp_path / "empty"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(empty)], check=True, timeout=120)
    not_exec = tmp_path / "python"
    not_exec.write_text("")
    m = write(tmp_path, """
        HIGHER_IS_BETTER = True
        def score(solution, submission, row_id_column_name):
            return 1.0
        """)
    bin_python = empty / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    cases = [(tmp_path / "nope", "no such file"),
             (tmp_path, "a folder, not a Python interpreter (give e.g. VENV/bin/python)"),
             (not_exec, "not an executable file"),
             (bin_python, "numpy cannot be imported (ModuleNotFoundError: No module named 'numpy'); "
                          f"install them there: {bin_python} -m pip install pandas pyarrow")]
    for path, words in cases:
        r = kmetric(tmp_path, *PAIR, "--metric-file", m, "--metric-python", path)
        assert r.returncode == 2
        assert problem_lines(r.stderr) == [f"kmetric: --metric-python {path}: {words}"]
