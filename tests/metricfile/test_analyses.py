"""Statistics under a metric file, each against score() called directly on frames
built by plain loops: the bootstrap's resamples, shake-up splits, fixes, blends."""
import importlib.util
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from kmetric_gui.cli import main
from kmetric_gui.metricfile import kaggle_metric_utilities

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "resources" / "metrics"

# depends on the id text: rows weighed by their id's rank in sorted order
BY_ID = """
import numpy as np

def score(solution, submission, row_id_column_name):
    s = solution.sort_values(row_id_column_name)
    u = submission.set_index(row_id_column_name).loc[s[row_id_column_name]]
    w = np.arange(1, len(s) + 1)
    return float(np.sum(w * (s['y'].to_numpy() - u['y'].to_numpy()) ** 2) / w.sum())
"""


def load_module(path):
    sys.modules.setdefault("kaggle_metric_utilities", kaggle_metric_utilities)
    spec = importlib.util.spec_from_file_location(f"ref_{Path(path).stem}_{abs(hash(str(path)))}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def aligned(sol_path, sub_path):
    sol = pd.read_csv(sol_path, dtype={"id": str})
    sub = pd.read_csv(sub_path, dtype={"id": str})
    sub = sol[["id"]].merge(sub, on="id", how="left")
    return sol, sub


def resample(sol, sub, rows):
    """iloc on both frames; the k-th repeat of a row (in draw order) gets id '<id>#k'."""
    s = sol.iloc[rows].reset_index(drop=True)
    u = sub.iloc[rows].reset_index(drop=True)
    seen, ids = {}, []
    for r in rows:
        k = seen.get(r, 0)
        seen[r] = k + 1
        ids.append(sol["id"].iloc[r] if k == 0 else f"{sol['id'].iloc[r]}#{k}")
    s["id"] = ids
    u["id"] = ids
    return s, u


def write_pair(tmp_path, n=60, seed=0, usage=True):
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


def run_cli(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_bootstrap_replicates_equal_direct_calls_on_plain_resamples(tmp_path):
    """Every replicate's score equals score() on a resample built by a plain loop from
    the same generator (seed 5), for a metric whose value depends on the id text."""
    from kmetric_gui.metricfile.kaggle import bootstrap, open_worker, score_file
    sol_p, sub_p = write_pair(tmp_path, usage=False)
    m = metric_file(tmp_path, BY_ID)
    with open_worker(m, (sol_p, sub_p), workers=2) as w:
        fs, usage = score_file(w, (), False)
        values, failed = bootstrap(w, fs, usage, replicates=40, seed=5)
    assert not failed
    mod = load_module(m)
    sol, sub = aligned(sol_p, sub_p)
    rng = np.random.default_rng(5)
    expect = [mod.score(*resample(sol, sub, rng.integers(0, len(sol), size=len(sol))), "id")
              for _ in range(40)]
    np.testing.assert_array_equal(values, expect)
