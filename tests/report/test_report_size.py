"""A report holds aggregates only: its tables and JSON do not grow with the rows
(the plots are fixed-size pictures; bench/report_size.py measures 10M rows)."""
import json

import numpy as np

from kmetric_gui.report import build_report, folder_size, prepare_folder, score_entry, write_plain
from kmetric_gui.analysis.scoring import score_files
from kmetric_gui.analysis.stats import ShakeupOptions, StatsOptions


def qwk_pair(folder, n, seed=0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 5, n)
    pred = np.clip(truth + rng.integers(-1, 2, n), 0, 4)
    usage = np.where(rng.random(n) < 0.3, "Public", "Private")
    ids = [f"id{i}" for i in range(n)]
    sol, sub = folder / f"sol{n}.csv", folder / f"sub{n}.csv"
    sol.write_text("id,diagnosis,Usage\n" + "".join(f"{i},{t},{u}\n" for i, t, u in zip(ids, truth, usage)))
    sub.write_text("id,diagnosis\n" + "".join(f"{i},{p}\n" for i, p in zip(ids, pred)))
    return sol, sub


def report_bytes(tmp_path, n):
    sol, sub = qwk_pair(tmp_path, n)
    rep = score_files(sol, sub)
    entry = score_entry(sub, rep, StatsOptions(replicates=200), ShakeupOptions(splits=200), 20)
    data = build_report(sol, [entry])
    out = prepare_folder(tmp_path / f"rep{n}")
    write_plain(data, out)
    d = json.loads((out / "report.json").read_text())
    assert d["n_rows"] == n and d["files"][0]["rows"] == n
    return folder_size(out)


def test_tables_and_json_do_not_grow_with_rows(tmp_path):
    small, big = report_bytes(tmp_path, 2_000), report_bytes(tmp_path, 300_000)
    assert big < 60_000
    assert big < small * 1.2          # only wider numbers (counts, ids of the top fixes)
