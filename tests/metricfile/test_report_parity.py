"""`kmetric report --metric-file` and parity: a built-in beside the metric file, the
difference said (JSON "parity"), checked against hand computations."""
import csv
import json

import numpy as np
import pandas as pd
import pytest

from kmetric_gui.cli import main
from kmetric_gui.paths import resources_dir

from .test_metric_files import direct

EX = resources_dir() / "metrics"
RMSE = """import numpy as np
HIGHER_IS_BETTER = False
def score(solution, submission, row_id_column_name):
    d = solution["target"].to_numpy() - submission["target"].to_numpy()
    return float(np.sqrt(np.mean(d ** 2)))
"""


def run_cli(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def regression(tmp_path):
    rng = np.random.default_rng(3)
    y = rng.normal(size=200)
    p = y + rng.normal(size=200) * 0.5
    sol, sub, metric = tmp_path / "sol.csv", tmp_path / "sub.csv", tmp_path / "rmse.py"
    sol.write_text("id,target,Usage\n" + "".join(
        f"{i},{float(y[i])!r},{'Public' if i % 3 else 'Private'}\n" for i in range(200)))
    sub.write_text("id,target\n" + "".join(f"{i},{float(p[i])!r}\n" for i in range(200)))
    metric.write_text(RMSE)
    return sol, sub, metric, y, p


def test_detection_proposal_that_agrees_is_the_parity(capsys, regression):
    sol, sub, metric, y, p = regression
    code, out, _ = run_cli(capsys, "score", sol, sub, "--metric-file", metric, "--json")
    assert code == 0
    d = json.loads(out)
    rmse = float(np.sqrt(np.mean((y - p) ** 2)))
    assert d["score"] == pytest.approx(rmse, rel=1e-12)
    assert d["parity"]["metric"] == "rmse"              # of rmse, mae, qwk that fit: the one that agrees
    assert d["parity"]["score"] == pytest.approx(rmse, rel=1e-12)
    assert abs(d["parity"]["difference"]) < 1e-12
    code, out, _ = run_cli(capsys, "score", sol, sub, "--metric-file", metric)
    assert "parity:  the built-in rmse gives the same score" in out and "--metric rmse" in out


def test_named_built_in_runs_beside_and_the_difference_is_said(capsys, regression):
    sol, sub, metric, y, p = regression
    code, out, _ = run_cli(capsys, "score", sol, sub, "--metric-file", metric, "--metric", "mae",
                           "--json")
    d = json.loads(out)
    mae = float(np.mean(np.abs(y - p)))
    assert d["parity"]["metric"] == "mae"
    assert d["parity"]["score"] == pytest.approx(mae, rel=1e-12)
    assert d["parity"]["difference"] == pytest.approx(d["score"] - mae, rel=1e-12)


def test_no_parity_when_detection_proposes_another_computation(capsys):
    code, out, _ = run_cli(capsys, "score", EX / "kl_solution.csv", EX / "kl_submission.csv",
                           "--metric-file", EX / "kl_divergence.py", "--json")
    assert code == 0 and "parity" not in json.loads(out)


def test_named_built_in_that_cannot_score_is_a_note(capsys):
    code, out, _ = run_cli(capsys, "score", EX / "kl_solution.csv", EX / "kl_submission.csv",
                           "--metric-file", EX / "kl_divergence.py", "--metric", "mapk")
    assert code == 0 and "parity:  the built-in mapk cannot score these files" in out


def test_report_folder_of_a_metric_file(capsys, tmp_path):
    sol, sub = EX / "kl_solution.csv", EX / "kl_submission.csv"
    other = tmp_path / "other.csv"
    rows = list(csv.reader(open(sub)))
    other.write_text("\n".join([",".join(rows[0])] + [
        ",".join([r[0]] + [repr(0.8 * float(x) + 0.05) for x in r[1:]]) for r in rows[1:]]) + "\n")
    out_dir = tmp_path / "rep"
    code, out, err = run_cli(capsys, "report", sol, sub, other, "--metric-file", EX / "kl_divergence.py",
                             "--out", out_dir, "--ci", "0.9", "--bootstrap", "200")
    assert code == 0, err
    d = json.loads((out_dir / "report.json").read_text())
    ref = direct(EX / "kl_divergence.py", sol, sub)
    ref2 = direct(EX / "kl_divergence.py", sol, other)
    assert d["metric"] == "file:kl_divergence.py" and d["score"] == ref["score"]
    assert (d["public"], d["private"]) == (ref["public"], ref["private"])
    assert d["ci"]["level"] == 0.9 and d["ci"]["low"] <= ref["score"] <= d["ci"]["high"]
    assert [s["score"] for s in d["submissions"]] == [ref["score"], ref2["score"]]
    pair = d["comparison"]["pairs"][0]
    assert pair["delta"] == pytest.approx(ref2["score"] - ref["score"], rel=1e-12)
    table = list(csv.reader(open(out_dir / "tables" / "scores.csv")))
    assert table[1][0] == "kl_submission.csv" and float(table[1][1]) == ref["score"]
    assert (out_dir / "index.html").read_text().count("kl_divergence.py") >= 1
    assert [f["role"] for f in d["files"]] == ["solution", "submission", "submission"]


def test_report_of_a_metric_file_is_the_built_in_report(capsys, tmp_path):
    """The file as the report's metric: fix first, shake-up and the plots of the
    built-in report (before: refused, and no plot drawn); its fix list is the one
    `score --metric-file --top-fixes` gives, each score after it a plain call."""
    sol, sub = EX / "kl_solution.csv", EX / "kl_submission.csv"
    out_dir = tmp_path / "r"
    code, _, err = run_cli(capsys, "report", sol, sub, EX / "kl_submission_b.csv",
                           "--metric-file", EX / "kl_divergence.py", "--out", out_dir,
                           "--top-fixes", "3", "--shakeup", "--splits", "50", "--bootstrap", "100")
    assert code == 0, err
    d = json.loads((out_dir / "report.json").read_text())
    assert d["metric_file"]["sha256"] and d["metric_file"]["function"] == "score"
    code, out, err = run_cli(capsys, "score", sol, sub, "--metric-file", EX / "kl_divergence.py",
                             "--top-fixes", "3", "--json")
    assert code == 0, err
    fixes = json.loads(out)["top_fixes"]
    assert [f["id"] for f in d["top_fixes"]] == [f["id"] for f in fixes]
    assert [f["score_after"] for f in d["top_fixes"]] == pytest.approx(
        [f["score_after"] for f in fixes], rel=1e-12)
    # the first fix by hand: that row's prediction set to its truth, the file called
    truth = pd.read_csv(sol, dtype={"id": str})
    fixed = pd.read_csv(sub, dtype={"id": str})
    k = fixed.index[fixed["id"] == str(fixes[0]["id"])][0]
    cols = [c for c in fixed.columns if c != "id"]
    fixed.loc[k, cols] = truth.set_index("id").loc[str(fixes[0]["id"]), cols].to_numpy()
    fixed.to_csv(tmp_path / "fixed.csv", index=False)
    assert direct(EX / "kl_divergence.py", sol, tmp_path / "fixed.csv")["score"] == pytest.approx(
        fixes[0]["score_after"], rel=1e-12)
    assert "shakeup" in d and d["comparison"]["pairs"][0]["where_they_differ"]["largest"]
    plots = sorted(p.name for p in (out_dir / "plots").glob("*.png"))
    assert {"top_fixes.png", "shakeup.png", "pair1_differ.png", "pair1_blend.png"} <= set(plots)
    assert (out_dir / "report.pdf").stat().st_size > 0
