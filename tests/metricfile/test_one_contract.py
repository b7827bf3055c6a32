"""`kmetric score --metric-file` and the app score a metric file through the same
Metric (metric.FileMetric): the command's shake-up and fix first equal what the
statistics layer and the FileMetric's own fix first give for the same seed, and
the score equals a plain call of score() on pandas frames (Kaggle's way)."""
import json
from pathlib import Path

import pytest

from kmetric_gui import metrics
from kmetric_gui.analysis.scoring import Options, load, score_prepared
from kmetric_gui.analysis.stats import ShakeupOptions, shakeup
from kmetric_gui.cli import main
from kmetric_gui.metricfile.metric import file_metric
from kmetric_gui.metrics.base import split_rows

EX = Path(__file__).resolve().parents[2] / "resources" / "metrics"
SOL, SUB, FILE = EX / "kl_solution.csv", EX / "kl_submission.csv", EX / "kl_divergence.py"


@pytest.fixture(scope="module")
def app_report():
    m = file_metric(FILE, paths=(SOL, SUB))
    metrics.register(m)
    o = Options(metric=m.name)
    yield m, score_prepared(load(SOL, SUB, o), o)
    metrics.unregister(m.name)
    m.close()


def cli_json(capsys, *extra):
    code = main(["score", str(SOL), str(SUB), "--metric-file", str(FILE), "--json", *extra])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_shakeup_is_the_statistics_layers(app_report, capsys):
    """The same splits, the same gaps: the app's shake-up (analysis.stats on the
    FileMetric's units) and the command's (before: the app drew other splits)."""
    m, rep = app_report
    sh = shakeup(rep, ShakeupOptions(splits=40, seed=7)).to_dict()
    d = cli_json(capsys, "--shakeup", "--splits", "40", "--seed", "7")["shakeup"]
    for key in ("public_fraction", "splits", "gap_mean", "gap_sd", "gap_p05", "gap_p50",
                "gap_p95", "actual_gap", "actual_gap_percentile"):
        assert d[key] == pytest.approx(sh[key], abs=1e-12), key


def test_fix_first_is_the_file_metrics(app_report, capsys):
    m, rep = app_report
    fl = m.fixes(rep, split_rows(rep.prepared.usage), 4)
    d = cli_json(capsys, "--top-fixes", "4")
    assert [f["score_after"] for f in d["top_fixes"]] == pytest.approx(list(fl.score_after),
                                                                       abs=1e-12)
    assert [f["gain"] for f in d["top_fixes"]] == pytest.approx(list(fl.gains), abs=1e-12)
    ids = rep.prepared.id_array
    rows = split_rows(rep.prepared.usage)
    want = [ids[int(u if rows is None else rows[u])].as_py() for u in fl.units]
    assert [f["id"] for f in d["top_fixes"]] == want


def test_score_is_a_plain_call(app_report, capsys):
    m, rep = app_report
    d = cli_json(capsys)
    o = Options(metric=m.name)
    for split in ("all", "public", "private"):
        want = m.reference(rep.prepared, o, split_rows(rep.prepared.usage, split))
        got = d["score"] if split == "all" else d[split]
        assert got == pytest.approx(want, abs=1e-12)


def test_few_rows_caution_in_the_app_as_in_the_command(tmp_path, capsys):
    """60 rows of a metric file: the command's interval says "too narrow likely" (a
    percentile of re-scored resamples below 100 rows); the app's and the Python API's
    interval (analysis.stats on the FileMetric's units) said nothing before."""
    from kmetric_gui.analysis.stats import StatsOptions, score_intervals
    from kmetric_gui.core.cautions import too_narrow
    sol, sub = tmp_path / "sol.csv", tmp_path / "sub.csv"
    for src, dst in ((SOL, sol), (SUB, sub)):
        dst.write_text("".join(src.read_text().splitlines(keepends=True)[:61]))
    m = file_metric(FILE, paths=(sol, sub))
    metrics.register(m)
    try:
        o = Options(metric=m.name)
        app = score_intervals(score_prepared(load(sol, sub, o), o), StatsOptions(replicates=200))
    finally:
        metrics.unregister(m.name)
        m.close()
    code = main(["score", str(sol), str(sub), "--metric-file", str(FILE), "--ci", "0.95",
                 "--bootstrap", "200", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    cli = json.loads(out)["ci"]["warnings"]
    assert too_narrow(cli) and "60 rows" in cli[0]
    assert list(app["ci"].warnings) == cli
