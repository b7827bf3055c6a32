"""Kaggle metric files run as Kaggle runs them: equal to calling score() on the
aligned pandas frames per split, and every bad file is one clear line, exit 2."""
import importlib.util
import json
import math
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kmetric_gui.cli import main
from kmetric_gui.metricfile import kaggle_metric_utilities

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "resources" / "metrics"
EXAMPLES = [("kl_divergence", "kl"), ("mean_column_auc", "auc"), ("balanced_log_loss", "bll")]


def direct(metric_py, sol_path, sub_path, **kw):
    """The reference: import the file here and call score() on pandas frames per split."""
    sys.modules.setdefault("kaggle_metric_utilities", kaggle_metric_utilities)
    spec = importlib.util.spec_from_file_location(f"ref_{Path(metric_py).stem}", metric_py)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    sol = pd.read_csv(sol_path, dtype={"id": str})
    sub = pd.read_csv(sub_path, dtype={"id": str})
    sub = sol[["id"]].merge(sub, on="id", how="left")
    out = {}
    masks = {"score": sol["Usage"] != "Ignored", "public": sol["Usage"] == "Public",
             "private": sol["Usage"] == "Private"} if "Usage" in sol else {"score": sol["id"].notna()}
    for name, m in masks.items():
        s = sol[m].drop(columns=["Usage"], errors="ignore").reset_index(drop=True)
        out[name] = mod.score(s.copy(), sub[m.to_numpy()].reset_index(drop=True).copy(), "id", **kw)
    return out


def run_cli(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("metric,data", EXAMPLES)
def test_examples_equal_direct_call_per_split(capsys, metric, data):
    ref = direct(EX / f"{metric}.py", EX / f"{data}_solution.csv", EX / f"{data}_submission.csv")
    code, out, err = run_cli(capsys, "score", EX / f"{data}_solution.csv", EX / f"{data}_submission.csv",
                             "--metric-file", EX / f"{metric}.py", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["metric"] == f"file:{metric}.py"
    for key in ("score", "public", "private"):
        assert d[key] == ref[key]          # exactly: the same code on the same frames
    assert d["metric_file"]["sha256"] and d["metric_file"]["function"] == "score"
    assert d["higher_is_better"] is (metric == "mean_column_auc")


def test_metric_arg_typed_and_passed(capsys):
    ref = direct(EX / "kl_divergence.py", EX / "kl_solution.csv", EX / "kl_submission.csv",
                 micro_average=False, epsilon=1e-3)
    code, out, err = run_cli(capsys, "score", EX / "kl_solution.csv", EX / "kl_submission.csv",
                             "--metric-file", EX / "kl_divergence.py", "--metric-arg", "micro_average=false",
                             "--metric-arg", "epsilon=0.001", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["score"] == ref["score"] and d["metric_file"]["args"] == {"micro_average": False,
                                                                       "epsilon": 0.001}


def test_unknown_metric_arg_lists_known(capsys):
    code, _, err = run_cli(capsys, "score", EX / "kl_solution.csv", EX / "kl_submission.csv",
                           "--metric-file", EX / "kl_divergence.py", "--metric-arg", "beta=2")
    assert code == 2
    assert "no such argument" in err and "epsilon, micro_average" in err


def write_pair(tmp_path, n=40, seed=0, usage=True):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    sol = pd.DataFrame({"id": [f"i{k}" for k in range(n)], "y": y})
    if usage:
        sol["Usage"] = np.where(np.arange(n) % 3 == 0, "Public", "Private")
    sub = pd.DataFrame({"id": sol["id"][::-1].to_numpy(), "y": rng.random(n)})
    sol.to_csv(tmp_path / "sol.csv", index=False)
    sub.to_csv(tmp_path / "sub.csv", index=False)
    return tmp_path / "sol.csv", tmp_path / "sub.csv"


def metric_file(tmp_path, body, name="m.py"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(body))
    return p


GOOD = """
def score(solution, submission, row_id_column_name, power: int = 1):
    return float(((solution['y'] - submission['y']).abs() ** power).mean())
"""


def test_lower_is_better_needs_a_direction(tmp_path, capsys):
    sol, sub = write_pair(tmp_path)
    m = metric_file(tmp_path, GOOD)
    code, _, err = run_cli(capsys, "score", sol, sub, "--metric-file", m)
    assert code == 2 and "--higher-is-better or --lower-is-better" in err
    code, out, err = run_cli(capsys, "score", sol, sub, "--metric-file", m, "--lower-is-better", "--json")
    assert code == 0, err
    d = json.loads(out)
    s, u = pd.read_csv(sol), pd.read_csv(sub).set_index("id").loc[pd.read_csv(sol)["id"]]
    assert d["score"] == pytest.approx(float((s["y"].to_numpy() - u["y"].to_numpy()).__abs__().mean()),
                                       rel=1e-15)
    assert d["higher_is_better"] is False


BAD = [
    ("no_score.py", "def scor(a, b, c):\n    return 1.0\n", "defines no function 'score'"),
    ("signature.py", "def score(solution, submission):\n    return 1.0\n", "must take (solution, submission"),
    ("syntax.py", "x = 1\n\ndef score(a, b, c):\n    return (1.0\n", "line 4"),
    ("imports.py", "import not_a_real_pkg_xyz\n\ndef score(a, b, c):\n    return 1.0\n",
     "pip install not_a_real_pkg_xyz"),
    ("nan.py", "def score(a, b, c):\n    return float('nan')\n", "not a finite number"),
    ("inf.py", "def score(a, b, c):\n    return float('inf')\n", "not a finite number"),
    ("string.py", "def score(a, b, c):\n    return 'high'\n", "returned str, not a number"),
    ("raises.py", "def score(a, b, c):\n    x = 1\n    raise ValueError('bad things')\n",
     "raises.py, line 3: ValueError: bad things"),
    ("visible.py", "class ParticipantVisibleError(Exception):\n    pass\n\n"
     "def score(a, b, c):\n    raise ParticipantVisibleError('x' * 500)\n", "x" * 280),
]


@pytest.mark.parametrize("name,body,needle", BAD, ids=[b[0] for b in BAD])
def test_bad_metric_files_one_line_exit_2(tmp_path, capsys, name, body, needle):
    sol, sub = write_pair(tmp_path)
    m = metric_file(tmp_path, body, name)
    code, out, err = run_cli(capsys, "score", sol, sub, "--metric-file", m, "--higher-is-better")
    assert code == 2, (out, err)
    lines = [x for x in err.strip().splitlines() if not x.startswith("kmetric: note:")]
    assert len(lines) == 1 and needle in lines[0], err
    assert "Traceback" not in err and name in lines[0]
    if name == "visible.py":
        assert "x" * 281 not in err


def test_printed_output_kept_out_of_json(tmp_path, capsys):
    sol, sub = write_pair(tmp_path)
    m = metric_file(tmp_path, "def score(a, b, c):\n    print('hello from metric')\n    return 0.5\n")
    code, out, err = run_cli(capsys, "score", sol, sub, "--metric-file", m, "--higher-is-better", "--json")
    assert code == 0
    assert json.loads(out)["score"] == 0.5
    assert "hello from metric" in err and "printed 54 bytes to standard output" in err


def test_endless_loop_stopped_at_time_limit(tmp_path, capsys):
    sol, sub = write_pair(tmp_path)
    m = metric_file(tmp_path, "def score(a, b, c):\n    while True:\n        pass\n")
    code, _, err = run_cli(capsys, "score", sol, sub, "--metric-file", m, "--higher-is-better",
                           "--metric-timeout", "3")
    assert code == 2 and "stopped after 3 s" in err


@pytest.mark.skipif(sys.platform != "linux", reason="the memory limit uses RLIMIT_AS (Linux)")
def test_memory_blowup_stopped_at_limit(tmp_path, capsys):
    sol, sub = write_pair(tmp_path)
    m = metric_file(tmp_path, "import numpy as np\n\ndef score(a, b, c):\n"
                              "    x = np.ones((1 << 34,), dtype=np.uint8)\n    return float(x[0])\n")
    code, _, err = run_cli(capsys, "score", sol, sub, "--metric-file", m, "--higher-is-better",
                           "--metric-memory-gb", "2")
    assert code == 2 and "memory" in err
    assert len([x for x in err.strip().splitlines() if "note:" not in x]) == 1


def test_notebook_cells_joined_magics_dropped(tmp_path, capsys):
    sol, sub = write_pair(tmp_path)
    cells = [{"cell_type": "markdown", "source": ["# metric"]},
             {"cell_type": "code", "source": ["%load_ext autoreload\n", "!pip install foo\n", "K = 2\n"]},
             {"cell_type": "code", "source": "def score(solution, submission, row_id_column_name):\n"
                                             "    return float(K)\n"}]
    nb = tmp_path / "m.ipynb"
    nb.write_text(json.dumps({"cells": cells, "nbformat": 4}))
    code, out, err = run_cli(capsys, "score", sol, sub, "--metric-file", nb, "--higher-is-better", "--json")
    assert code == 0, err
    assert json.loads(out)["score"] == 2.0
    bad = tmp_path / "bad.ipynb"
    bad.write_text("{not json")
    code, _, err = run_cli(capsys, "score", sol, sub, "--metric-file", bad, "--higher-is-better")
    assert code == 2 and "not valid JSON" in err


def test_ids_checked_before_the_metric_runs(tmp_path, capsys):
    sol, sub = write_pair(tmp_path)
    df = pd.read_csv(sub)
    df.iloc[:-2].to_csv(sub, index=False)
    m = metric_file(tmp_path, GOOD)
    code, _, err = run_cli(capsys, "score", sol, sub, "--metric-file", m, "--higher-is-better")
    assert code == 2
    assert "submission sub.csv, column 'id': ids of the solution missing" in err


def test_metrics_get_copies_and_duplicates_made_unique_in_bootstrap(tmp_path, capsys):
    """A metric that deletes the id column and requires unique ids still scores each replicate."""
    sol, sub = write_pair(tmp_path, n=30)
    m = metric_file(tmp_path, """
    def score(solution, submission, row_id_column_name):
        assert solution[row_id_column_name].is_unique
        assert (solution[row_id_column_name] == submission[row_id_column_name]).all()
        del solution[row_id_column_name]
        return float(solution['y'].mean())
    """)
    code, out, err = run_cli(capsys, "score", sol, sub, "--metric-file", m, "--higher-is-better",
                             "--ci", "0.9", "--bootstrap", "50", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["ci"]["undefined_replicates"] == 0 and d["ci"]["replicates"] == 50
    # the same draws as a plain loop over rng.integers, scored directly
    y = pd.read_csv(sol)["y"].to_numpy(dtype=float)
    rng = np.random.default_rng(0)
    reps = np.array([y[rng.integers(0, len(y), size=len(y))].mean() for _ in range(50)])
    assert d["ci"]["low"] == pytest.approx(np.quantile(reps, 0.05), rel=1e-12)
    assert d["ci"]["high"] == pytest.approx(np.quantile(reps, 0.95), rel=1e-12)


def test_failing_replicates_counted_as_undefined(tmp_path, capsys):
    sol, sub = write_pair(tmp_path, n=12, usage=False)
    m = metric_file(tmp_path, """
    def score(solution, submission, row_id_column_name):
        if solution['y'].sum() == 0:
            raise ValueError('no positive row')
        return float(solution['y'].mean())
    """)
    code, out, err = run_cli(capsys, "score", sol, sub, "--metric-file", m, "--higher-is-better",
                             "--bootstrap", "300", "--json")
    assert code == 0, err
    ci = json.loads(out)["ci"]
    y = pd.read_csv(sol)["y"].to_numpy()
    rng = np.random.default_rng(0)
    expect = sum(y[rng.integers(0, len(y), size=len(y))].sum() == 0 for _ in range(300))
    assert ci["undefined_replicates"] == expect
    assert math.isfinite(ci["low"])


def test_kaggle_helpers_as_documented():
    h = kaggle_metric_utilities
    num = pd.DataFrame({"a": [0.1, 0.9]})
    assert h.treat_as_participant_error("bad shape", num)
    assert not h.treat_as_participant_error("bad row 3", num)
    assert not h.treat_as_participant_error("bad", pd.DataFrame({"a": ["x"]}))
    assert not h.treat_as_participant_error("value True", pd.DataFrame({"a": [True]}))
    h.verify_valid_probabilities(pd.DataFrame({"a": [0.2, 0.5], "b": [0.8, 0.5]}), "sub")
    with pytest.raises(h.ParticipantVisibleError, match="add to one"):
        h.verify_valid_probabilities(pd.DataFrame({"a": [0.2], "b": [0.7]}), "sub")
    with pytest.raises(h.ParticipantVisibleError, match="at least zero"):
        h.verify_valid_probabilities(pd.DataFrame({"a": [-0.2], "b": [1.2]}), "sub")

    class ParticipantVisibleError(Exception):      # a metric's own class: matched by name
        pass

    def fn(sol, sub):
        raise ParticipantVisibleError("shown")
    with pytest.raises(h.ParticipantVisibleError, match="shown"):
        h.safe_call_score(fn, num, num)


@pytest.mark.parametrize("lower", [False, True])
def test_compare_same_draws_and_direction(tmp_path, capsys, lower):
    """B is closer to the truth than A: with a lower-is-better error B must be the better one,
    and with the negated (higher-is-better) metric too; the paired deltas are those of a plain
    loop over the same draws."""
    sol, sub_a = write_pair(tmp_path, n=50, usage=False)
    y = pd.read_csv(sol)
    a = pd.read_csv(sub_a)
    b = a.copy()
    truth = y.set_index("id").loc[b["id"], "y"].to_numpy()
    b["y"] = 0.5 * b["y"] + 0.5 * truth
    sub_b = tmp_path / "b.csv"
    b.to_csv(sub_b, index=False)
    body = ("def score(solution, submission, row_id_column_name):\n"
            f"    e = float((solution['y'] - submission['y']).abs().mean())\n"
            f"    return {'e' if lower else '-e'}\n")
    m = metric_file(tmp_path, body)
    code, out, err = run_cli(capsys, "compare", sol, sub_a, sub_b, "--metric-file", m,
                             "--lower-is-better" if lower else "--higher-is-better",
                             "--bootstrap", "40", "--permutations", "0", "--splits", "1", "--json")
    assert code == 0, err
    d = json.loads(out)
    pair = d["pairs"][0]
    assert pair["p_b_better"] == 1.0 and pair["p_a_better"] == 0.0
    assert d["higher_is_better"] is (not lower)
    ya = a.set_index("id").loc[y["id"], "y"].to_numpy()
    yb = b.set_index("id").loc[y["id"], "y"].to_numpy()
    t = y["y"].to_numpy()
    rng = np.random.default_rng(0)
    deltas = []
    for _ in range(40):
        r = rng.integers(0, len(t), size=len(t))
        ea, eb = np.abs(t[r] - ya[r]).mean(), np.abs(t[r] - yb[r]).mean()
        deltas.append((eb - ea) if lower else (ea - eb))
    assert pair["delta_ci"]["low"] == pytest.approx(np.quantile(deltas, 0.025), rel=1e-9)


def test_check_metric_runs_doctests(tmp_path, capsys):
    code, out, _ = run_cli(capsys, "check-metric", EX / "kl_divergence.py")
    assert code == 0 and "all 4 doctest examples passed" in out
    m = metric_file(tmp_path, '''
    def score(solution, submission, row_id_column_name):
        """Always one half.

        >>> score(None, None, "id")
        0.25
        """
        return 0.5
    ''')
    code, out, _ = run_cli(capsys, "check-metric", m)
    assert code == 2 and "1 of 1 doctest examples failed" in out and "Expected" in out


@pytest.mark.parametrize("dtype", ["str", object])
def test_resample_frames_match_a_plain_loop(dtype):
    """Each resample's frames equal iloc on both frames with the k-th repeat of a row
    given id '<id>#k' (draw order), column by column, dtypes kept."""
    from kmetric_gui.metricfile.replicate import Columns, occurrences
    rng = np.random.default_rng(3)
    n = 40
    sol = pd.DataFrame({"id": pd.Series([f"x{i}" for i in range(n)], dtype=dtype),
                        "y": rng.integers(0, 2, n), "w": rng.random(n),
                        "lab": pd.Series(rng.choice(["a", "b"], n), dtype="str")})
    sub = pd.DataFrame({"id": sol["id"].copy(), "p": rng.random(n)})
    cols = Columns(sol, sub, "id")
    for _ in range(5):
        rows = rng.integers(0, n, size=n)
        seen, expect, ks = {}, [], []
        for r in rows:
            k = seen.get(r, 0)
            seen[r] = k + 1
            ks.append(k)
            expect.append(sol["id"][r] if k == 0 else f"{sol['id'][r]}#{k}")
        assert occurrences(rows).tolist() == ks
        s, u = cols.frames(rows)
        assert s["id"].tolist() == expect and u["id"].tolist() == expect and s["id"].is_unique
        assert s["id"].dtype == sol["id"].dtype
        ref_s, ref_u = sol.iloc[rows].reset_index(drop=True), sub.iloc[rows].reset_index(drop=True)
        for c in ("y", "w", "lab"):
            pd.testing.assert_series_equal(s[c], ref_s[c])
        pd.testing.assert_series_equal(u["p"], ref_u["p"])
        s.loc[0, "y"] = 99                    # a metric's edit never reaches the next call
    assert (cols.frames(None)[0]["y"] != 99).all()


@pytest.mark.parametrize("case,needle", [
    ("dup_sub", "submission sub.csv, column 'id': repeated id: 'i37' (row 5)"),
    ("extra_sub", "submission sub.csv, column 'id': ids not in the solution: 'zz' (row 42)"),
    ("dup_sol", "solution sol.csv, column 'id': repeated id: 'i0' (row 3)"),
    ("usage", "solution sol.csv, column 'Usage': expected Public, Private or Ignored: row 2 ('Maybe')"),
])
def test_id_and_usage_problems_named(tmp_path, capsys, case, needle):
    sol, sub = write_pair(tmp_path)
    s, u = pd.read_csv(sol), pd.read_csv(sub)
    if case == "dup_sub":
        u.loc[3, "id"] = u.loc[2, "id"]              # 'i37' twice, 'i36' missing
    elif case == "extra_sub":
        u = pd.concat([u, pd.DataFrame({"id": ["zz"], "y": [0.1]})])
    elif case == "dup_sol":
        s.loc[1, "id"] = "i0"
    else:
        s.loc[0, "Usage"] = "Maybe"
    s.to_csv(sol, index=False)
    u.to_csv(sub, index=False)
    code, _, err = run_cli(capsys, "score", sol, sub, "--metric-file", metric_file(tmp_path, GOOD),
                           "--higher-is-better")
    assert code == 2 and needle in err, err


def test_without_pandas_says_how_to_install(tmp_path, capsys, monkeypatch):
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pandas" else real(name, *a))
    sol, sub = write_pair(tmp_path)
    code, _, err = run_cli(capsys, "score", sol, sub, "--metric-file", metric_file(tmp_path, GOOD),
                           "--higher-is-better")
    assert code == 2 and "pip install 'kmetric_gui[metricfile]'" in err


def test_dask_cluster_gives_the_local_numbers(tmp_path, capsys):
    distributed = pytest.importorskip("distributed")
    sol, sub = write_pair(tmp_path, n=60)
    m = metric_file(tmp_path, GOOD)
    args = ["score", sol, sub, "--metric-file", m, "--lower-is-better", "--bootstrap", "40", "--json"]
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    local = json.loads(out)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        code, out, err = run_cli(capsys, *args, "--executor", f"dask:{cluster.scheduler_address}")
        with distributed.Client(cluster) as client:      # the cluster's workers did the scoring
            used = client.run(lambda: "kmetric_gui.metricfile.worker" in sys.modules)
    assert code == 0, err
    assert any(used.values())
    remote = json.loads(out)
    assert remote["ci"] == local["ci"] and remote["score"] == local["score"]


def test_told_once_per_file_that_it_runs_as_code(tmp_path, capsys):
    sol, sub = write_pair(tmp_path)
    m = metric_file(tmp_path, GOOD)
    args = ("score", sol, sub, "--metric-file", m, "--higher-is-better")
    _, _, err = run_cli(capsys, *args)
    assert "is Python code. It runs with your user's rights" in err
    _, _, err = run_cli(capsys, *args)
    assert "is Python code" not in err
    m.write_text(GOOD + "\n# changed\n")          # new content: told again
    _, _, err = run_cli(capsys, *args)
    assert "is Python code" in err
    _, _, err = run_cli(capsys, *args, "--metric-sandbox", "off")    # another place: told again
    assert "No sandbox is used: --metric-sandbox off" in err
    from kmetric_gui.metricfile import seen
    from kmetric_gui.metricfile.source import load_source
    assert not seen.trusted(load_source(m).sha256)      # the CLI's runs: nothing the app trusts
