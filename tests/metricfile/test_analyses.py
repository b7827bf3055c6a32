"""Statistics under a metric file, each against score() called directly on frames
built by plain loops: the bootstrap's resamples, shake-up splits, fixes, blends."""
import importlib.util
import json
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


def fixed_score(mod, sol, sub, rows, cols):
    u = sub.copy()
    for c in cols:
        u[c] = u[c].astype(float)
        u.loc[list(rows), c] = sol.loc[list(rows), c].astype(float)
    return mod.score(sol.drop(columns=["Usage"]).copy(), u, "id")


def test_fix_first_lower_is_better_equals_plain_loop(capsys):
    """KL divergence (lower is better): every single fix re-scored directly, the best five
    by gain, then fixed together: the same ids, gains and exact scores after."""
    m, sol_p, sub_p = EX / "kl_divergence.py", EX / "kl_solution.csv", EX / "kl_submission.csv"
    code, out, err = run_cli(capsys, "score", sol_p, sub_p, "--metric-file", m, "--top-fixes", "5",
                             "--json")
    assert code == 0, err
    d = json.loads(out)
    mod = load_module(m)
    sol, sub = aligned(sol_p, sub_p)
    cols = [c for c in sub.columns if c != "id"]
    base = mod.score(sol.drop(columns=["Usage"]).copy(), sub.copy(), "id")
    gains = {}
    for r in range(len(sol)):
        if (sub.loc[r, cols].to_numpy(float) != sol.loc[r, cols].to_numpy(float)).any():
            gains[r] = base - fixed_score(mod, sol, sub, [r], cols)        # lower is better
    best = sorted(gains, key=lambda r: -gains[r])[:5]
    after = [fixed_score(mod, sol, sub, best[:j + 1], cols) for j in range(5)]
    assert [f["id"] for f in d["top_fixes"]] == [str(sol["id"][r]) for r in best]
    np.testing.assert_allclose([f["score_after"] for f in d["top_fixes"]], after, rtol=1e-12)
    np.testing.assert_allclose([f["gain"] for f in d["top_fixes"]],
                               -np.diff(np.r_[base, after]), rtol=1e-9)
    assert all(f["gain"] > 0 for f in d["top_fixes"])
    assert d["top_fixes_search"] == {"candidates": len(gains), "tried": len(gains), "approximate": False,
                                     "budget_seconds": pytest.approx(60.0),
                                     "order": "each row's own gain"}


def test_fix_first_says_approximate_when_the_budget_ends(capsys):
    m, sol_p, sub_p = EX / "kl_divergence.py", EX / "kl_solution.csv", EX / "kl_submission.csv"
    code, out, err = run_cli(capsys, "score", sol_p, sub_p, "--metric-file", m, "--top-fixes", "3",
                             "--fix-budget", "0.000001")
    assert code == 0, err
    assert "approximate:" in out and "of 300 rows that differ from the truth" in out
    code, out, err = run_cli(capsys, "score", sol_p, sub_p, "--metric-file", m, "--top-fixes", "3",
                             "--fix-budget", "0")
    assert code == 2 and "--fix-budget must be above 0" in err


def test_shakeup_equals_plain_loop_over_the_same_splits(tmp_path, capsys):
    from kmetric_gui.core.resample import rng_of
    from kmetric_gui.core.shakeup import public_size, subset_blocks
    sol_p, sub_p = write_pair(tmp_path, n=60)
    m = metric_file(tmp_path, BY_ID)
    code, out, err = run_cli(capsys, "score", sol_p, sub_p, "--metric-file", m, "--lower-is-better",
                             "--shakeup", "--splits", "30", "--seed", "4", "--json")
    assert code == 0, err
    sh = json.loads(out)["shakeup"]
    mod = load_module(m)
    sol, sub = aligned(sol_p, sub_p)
    sol = sol.drop(columns=["Usage"])
    n = len(sol)
    k = public_size(n, 20 / 60)                 # the Usage column's share
    gaps = []
    for _, sel in subset_blocks(rng_of(4), n, 30, k):
        for s in sel:
            pub = np.zeros(n, bool)
            pub[s] = True
            if k > n - k:
                pub = ~pub
            one = [mod.score(sol[m_].reset_index(drop=True), sub[m_].reset_index(drop=True), "id")
                   for m_ in (pub, ~pub)]
            gaps.append(one[1] - one[0])
    gaps = np.array(gaps)
    assert sh["splits"] == 30 and sh["public_fraction"] == pytest.approx(1 / 3)
    assert sh["gap_mean"] == pytest.approx(gaps.mean(), rel=1e-12)
    assert sh["gap_sd"] == pytest.approx(gaps.std(ddof=1), rel=1e-12)
    assert sh["gap_p95"] == pytest.approx(np.quantile(gaps, 0.95), rel=1e-12)
    assert sh["higher_is_better"] is False and sh["actual_gap"] is not None


def test_compare_pairs_lower_is_better_equal_plain_loops(tmp_path, capsys):
    """Balanced log loss (lower is better), A and B, through `kmetric compare
    --metric-file` (the built-in compare with the file as its Metric): the permutation
    p-value, P(order flips), the blend curve and where they differ each equal score() on
    frames built by plain loops."""
    m, sol_p, a_p = EX / "balanced_log_loss.py", EX / "bll_solution.csv", EX / "bll_submission.csv"
    a = pd.read_csv(a_p, dtype={"id": str})
    rng = np.random.default_rng(11)
    p1 = np.clip(a["class_1"].to_numpy() + rng.normal(0, 0.15, len(a)), 0.01, 0.99)
    b = a.assign(class_0=1 - p1, class_1=p1).iloc[::-1]
    b_p = tmp_path / "b.csv"
    b.to_csv(b_p, index=False)
    code, out, err = run_cli(capsys, "compare", sol_p, a_p, b_p, "--metric-file", m, "--bootstrap", "100",
                             "--permutations", "40", "--splits", "25", "--seed", "3", "--json")
    assert code == 0, err
    pair = json.loads(out)["pairs"][0]
    mod = load_module(m)
    sol, sa = aligned(sol_p, a_p)
    _, sb = aligned(sol_p, b_p)
    sol = sol.drop(columns=["Usage"])
    cols = ["class_0", "class_1"]
    n = len(sol)

    def s(rows, u):
        return mod.score(sol[rows].reset_index(drop=True), u[rows].reset_index(drop=True), "id")
    every = np.ones(n, bool)
    delta = s(every, sb) - s(every, sa)
    assert pair["delta"] == pytest.approx(delta, rel=1e-12)
    # permutations: each row's predictions swapped where a uniform draw is below 1/2
    r = np.random.default_rng([3, 1])
    perm = []
    for _ in range(40):
        pick = r.random(n) < 0.5
        a2, b2 = sa.copy(), sb.copy()
        a2.loc[pick, cols] = sb.loc[pick, cols].to_numpy()
        b2.loc[~pick, cols] = sa.loc[~pick, cols].to_numpy()
        perm.append(s(every, b2) - s(every, a2))
    hits = sum(abs(x) >= abs(delta) - 1e-12 for x in perm)
    assert pair["permutations"] == 40 and pair["p_value"] == pytest.approx((1 + hits) / 41, rel=1e-12)
    # order flips: the Usage column's Public share, random splits of that many Public rows
    k = round(148 / 500 * n)
    r = np.random.default_rng([3, 2])
    flips = []
    for _ in range(25):
        pub = np.zeros(n, bool)
        pub[r.choice(n, size=k, replace=False)] = True
        d_pub, d_pri = s(pub, sb) - s(pub, sa), s(~pub, sb) - s(~pub, sa)
        flips.append(d_pub * d_pri < 0)
    assert pair["p_order_flips"] == pytest.approx(np.mean(flips), rel=1e-12)
    # blend: alpha weighs A; the best alpha has the LOWEST loss (21 points: each a call)
    grid = np.linspace(0, 1, 21)
    curve = []
    for al in grid:
        u = sa.copy()
        u[cols] = al * sa[cols].to_numpy() + (1 - al) * sb[cols].to_numpy()
        curve.append(s(every, u))
    bl = pair["blend"]
    np.testing.assert_allclose(bl["scores"], curve, rtol=1e-12)
    assert bl["best_alpha"] == pytest.approx(grid[int(np.argmin(curve))])
    assert bl["best_score"] == pytest.approx(min(curve), rel=1e-12)
    assert bl["best_score"] < max(curve)
    # where they differ: B's score minus B's with A's prediction on that one row
    wd = pair["where_they_differ"]
    assert wd["unit"] == "row" and len(wd["largest"]) >= 3
    ids = sb["id"].astype(str).tolist()
    for row in wd["largest"][:3]:
        k = ids.index(str(row["id"]))
        u = sb.copy()
        u.loc[k, cols] = sa.loc[k, cols].to_numpy()
        assert row["delta"] == pytest.approx(s(every, sb) - s(every, u), rel=1e-9, abs=1e-15)


def test_blend_left_out_when_predictions_are_not_numbers(tmp_path, capsys):
    sol = pd.DataFrame({"id": [f"i{k}" for k in range(30)], "y": ["a", "b", "c"] * 10})
    sol.to_csv(tmp_path / "sol.csv", index=False)
    for name, shift in (("a.csv", 0), ("b.csv", 1)):
        sol.assign(y=np.roll(sol["y"].to_numpy(), shift)).to_csv(tmp_path / name, index=False)
    m = metric_file(tmp_path, """
    def score(solution, submission, row_id_column_name):
        return float((solution['y'] == submission['y']).mean())
    """)
    code, out, err = run_cli(capsys, "compare", tmp_path / "sol.csv", tmp_path / "a.csv", tmp_path / "b.csv",
                             "--metric-file", m, "--higher-is-better", "--bootstrap", "50",
                             "--permutations", "20", "--splits", "5", "--json")
    assert code == 0, err
    pair = json.loads(out)["pairs"][0]
    assert "blend" not in pair and pair["permutations"] == 20
    assert pair["delta"] == pytest.approx(0.0 - 1.0)


def test_progress_estimate_first_then_time_left(monkeypatch):
    import io

    from kmetric_gui.cli import metricfile_stats as ms
    clock = [100.0]
    monkeypatch.setattr(ms.time, "monotonic", lambda: clock[0])
    out = io.StringIO()
    p = ms.Progress("bootstrap", 40.0, "200 replicates on 2 processes", stream=out)
    clock[0] += 11.0
    p(50, 200)                       # 11 s for 50 calls: 33 s for the other 150
    clock[0] += 1.0
    p(60, 200)                       # within 10 s of the last line: quiet
    lines = out.getvalue().splitlines()
    assert lines == ["kmetric: bootstrap: about 40 s for 200 replicates on 2 processes",
                     "kmetric: bootstrap: 50 of 200 calls, about 33 s left"]
    quiet = io.StringIO()
    q = ms.Progress("bootstrap", 2.0, "short", stream=quiet)
    clock[0] += 60.0
    q(1, 2)
    assert quiet.getvalue() == ""


def test_replicates_capped_by_the_time_limit_with_a_note(tmp_path, capsys):
    sol_p, sub_p = write_pair(tmp_path, n=20, usage=False)
    m = metric_file(tmp_path, """
    import time

    def score(solution, submission, row_id_column_name):
        time.sleep(0.3)
        return float(solution['y'].mean())
    """)
    code, out, err = run_cli(capsys, "score", sol_p, sub_p, "--metric-file", m, "--higher-is-better",
                             "--bootstrap", "1000", "--metric-timeout", "12", "--json")
    assert code == 0, err
    ci = json.loads(out)["ci"]
    assert 2 <= ci["replicates"] < 1000
    assert "about" in err and f"{ci['replicates']} replicates" in err
    code, out, err = run_cli(capsys, "score", sol_p, sub_p, "--metric-file", m, "--higher-is-better",
                             "--bootstrap", "1000", "--metric-timeout", "12")
    assert code == 0, err
    assert "replicates, as many as fit in the time limit" in out


def test_fix_first_without_shared_columns_says_why(tmp_path, capsys):
    sol = pd.DataFrame({"id": [f"i{k}" for k in range(20)], "target": [0, 1] * 10})
    sol.to_csv(tmp_path / "sol.csv", index=False)
    sol.rename(columns={"target": "pred"}).assign(pred=0.5).to_csv(tmp_path / "sub.csv", index=False)
    m = metric_file(tmp_path, """
    def score(solution, submission, row_id_column_name):
        return float(((solution['target'] - submission['pred']) ** 2).mean())
    """)
    code, out, err = run_cli(capsys, "score", tmp_path / "sol.csv", tmp_path / "sub.csv", "--metric-file", m,
                             "--lower-is-better", "--top-fixes", "3", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["top_fixes"] == [] and "no column of the solution's" in d["top_fixes_reason"]


def test_compare_counts_capped_by_the_time_limit_with_a_note(tmp_path, capsys):
    """A slow metric file (0.1 s a call) and 15 s: compare's bootstrap, swaps and splits
    are cut to what fits, said in `warnings`, and the run ends within its time limit."""
    import time
    sol_p, sub_p = write_pair(tmp_path, n=20, usage=False)
    sub = pd.read_csv(sub_p)
    sub.assign(y=1 - sub["y"]).to_csv(tmp_path / "b.csv", index=False)
    m = metric_file(tmp_path, """
    import time

    def score(solution, submission, row_id_column_name):
        time.sleep(0.1)
        return float((solution['y'] - submission['y']).abs().mean())
    """)
    t0 = time.monotonic()
    code, out, err = run_cli(capsys, "compare", sol_p, sub_p, tmp_path / "b.csv", "--metric-file", m,
                             "--lower-is-better", "--metric-timeout", "15", "--json")
    assert code == 0, err
    assert time.monotonic() - t0 < 60
    d = json.loads(out)
    assert 2 <= d["replicates"] < 1000
    assert any("as many as fit in the time limit" in w for w in d["warnings"])
    assert "about" in err


def test_compare_skips_an_invalid_file_and_names_it(tmp_path, capsys):
    """Three files, one with an id the solution lacks: the two valid ones are compared,
    the third's problem is one line naming it, and the exit code is 2."""
    sol_p, sub_p = write_pair(tmp_path, n=30, usage=False)
    sub = pd.read_csv(sub_p)
    sub.assign(y=sub["y"] * 0.5).to_csv(tmp_path / "b.csv", index=False)
    bad = sub.copy()
    bad.loc[3, "id"] = "nope"
    bad.to_csv(tmp_path / "bad.csv", index=False)
    m = metric_file(tmp_path, """
    def score(solution, submission, row_id_column_name):
        return float((solution['y'] - submission['y']).abs().mean())
    """)
    code, out, err = run_cli(capsys, "compare", sol_p, sub_p, tmp_path / "b.csv", tmp_path / "bad.csv",
                             "--metric-file", m, "--lower-is-better", "--bootstrap", "30",
                             "--permutations", "10", "--splits", "5", "--json")
    assert code == 2
    d = json.loads(out)
    assert [s["name"] for s in d["submissions"]] == ["sub.csv", "b.csv"]
    assert "bad.csv" in err and "nope" in err and "Traceback" not in err
