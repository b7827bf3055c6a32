"""km.report writes `kmetric report`'s folder: the same report.json from the same files
and flags; from frames, the score object of km.score and the frames listed by name."""
import json

import pandas as pd

import kmetric_gui as km
from helpers import demo, json_round, same


def test_report_from_paths_and_frames(tmp_path):
    from kmetric_gui.cli import main
    sol, a, b = demo("rmse")
    flags = ["--metric", "rmse", "--ci", "0.9", "--bootstrap", "200", "--top-fixes", "3"]
    assert main(["report", str(sol), str(a), str(b), "--out", str(tmp_path / "cli"), *flags]) == 0
    want = json.loads((tmp_path / "cli" / "report.json").read_text())
    index = km.report(sol, a, b, out=tmp_path / "api", metric="rmse", ci=0.9, bootstrap=200, top_fixes=3)
    assert index == tmp_path / "api" / "index.html" and index.is_file()
    got = json.loads((tmp_path / "api" / "report.json").read_text())
    same(got, want)
    frames = [pd.read_csv(p) for p in (sol, a)]
    km.report(*frames, out=tmp_path / "frames", metric="rmse", ci=0.9, bootstrap=200, top_fixes=3)
    got = json.loads((tmp_path / "frames" / "report.json").read_text())
    score = json_round(km.score(*frames, metric="rmse", ci=0.9, bootstrap=200, top_fixes=3).to_dict())
    same({k: got[k] for k in score}, score)
    assert [f["name"] for f in got["files"]] == ["(DataFrame)", "(DataFrame)"]
    assert all(len(f["sha256"]) == 64 and f["rows"] == 400 for f in got["files"])
    page = (tmp_path / "frames" / "index.html").read_text()
    assert "(DataFrame)" in page


def test_report_refuses_a_folder_in_use(tmp_path):
    sol, a, _ = demo("rmse")
    (tmp_path / "keep.txt").write_text("mine")
    try:
        km.report(sol, a, out=tmp_path, metric="rmse")
    except km.InvalidInput as e:
        assert "not empty" in str(e) or "force" in str(e)
    else:
        raise AssertionError("a folder holding other files was written into")
    assert (tmp_path / "keep.txt").read_text() == "mine"
