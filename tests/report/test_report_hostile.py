"""`kmetric report` under a full disk, planted links and earlier reports (issue 25):
the folder ends complete or as it was, never half-written, never written through."""
import sys
from pathlib import Path

import pytest

import kmetric_gui.report.write as write_mod
from kmetric_gui.cli import main
from kmetric_gui.cli.report import PARTIAL      # written without plots (Qt left out here)
from kmetric_gui.io.saving import SaveError

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"
TRUTH, SUB = DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv"


@pytest.fixture(autouse=True)
def no_plots(monkeypatch):
    # The plots need Qt; without them the report is the HTML, JSON and CSV (fast here).
    monkeypatch.setitem(sys.modules, "kmetric_gui.gui.report_render", None)


def _full_disk(monkeypatch, after=0):
    real, calls = write_mod.save_atomic, []

    def save(path, data):
        calls.append(path)
        if len(calls) > after:
            raise SaveError(path, "the disk is full")
        return real(path, data)
    monkeypatch.setattr(write_mod, "save_atomic", save)


def _listing(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_full_disk_exits_2_and_leaves_no_folder(tmp_path, monkeypatch, capsys):
    _full_disk(monkeypatch, after=2)
    out = tmp_path / "new" / "rep"
    assert main(["report", str(TRUTH), str(SUB), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == (f"kmetric: report not written to {out}: the disk is full "
                       "(nothing was changed there)")
    assert not any("internal error" in line for line in err)
    assert list(tmp_path.iterdir()) == []           # no folder, no staging left


def test_full_disk_keeps_the_earlier_report(tmp_path, monkeypatch, capsys):
    out = tmp_path / "rep"
    assert main(["report", str(TRUTH), str(SUB), "--out", str(out)]) == PARTIAL
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    _full_disk(monkeypatch, after=1)
    assert main(["report", str(TRUTH), str(SUB), "--out", str(out), "--force"]) == 2
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]
    assert not any(p.name.startswith(".") for p in out.iterdir())


def test_force_replaces_planted_links_and_stale_files(tmp_path):
    out = tmp_path / "rep"
    assert main(["report", str(TRUTH), str(SUB), "--out", str(out)]) == PARTIAL
    (out / "plots").mkdir(exist_ok=True)
    (out / "plots" / "stale.png").write_bytes(b"old plot")
    (out / "report.pdf").write_bytes(b"old pdf")          # not made this time: removed
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    (out / "index.html").unlink()
    (out / "index.html").symlink_to(outside)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "mine.csv").write_text("mine")
    import shutil
    shutil.rmtree(out / "tables")
    (out / "tables").symlink_to(elsewhere, target_is_directory=True)
    (out / "notes.txt").write_text("user notes")
    assert main(["report", str(TRUTH), str(SUB), "--out", str(out), "--force"]) == PARTIAL
    assert outside.read_text() == "keep me"
    assert sorted(p.name for p in elsewhere.iterdir()) == ["mine.csv"]
    assert (out / "notes.txt").read_text() == "user notes"
    assert not (out / "index.html").is_symlink() and "<!DOCTYPE html>" in (out / "index.html").read_text()
    assert not (out / "tables").is_symlink() and (out / "tables" / "observed.csv").is_file()
    assert not (out / "report.pdf").exists() and not (out / "plots" / "stale.png").exists()
    assert not any(p.name.startswith(".") for p in out.iterdir())


def test_failed_input_leaves_no_folder(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("id_code,diagnosis\nnope,1\n")
    out = tmp_path / "a" / "rep"
    assert main(["report", str(TRUTH), str(bad), "--out", str(out)]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.csv"]


def test_direction_controls_shown_visibly_in_index_html(tmp_path):
    col = "id\u202eLMTH.exe"
    sol = tmp_path / "sol.csv"
    sol.write_text(f"{col},rating\na,1\nb,2\nc,3\n")
    sub = tmp_path / "s\u202eub.csv"
    sub.write_text(f"{col},rating\na,1\nb,2\nc,2\n")
    out = tmp_path / "rep"
    assert main(["report", str(sol), str(sub), "--out", str(out), "--metric", "qwk"]) == PARTIAL
    page = (out / "index.html").read_text()
    assert "\u202e" not in page
    assert "id\\u202eLMTH.exe" in page and "s\\u202eub.csv" in page


def test_prepare_folder_removes_planted_links_and_the_earlier_report(tmp_path):
    # The app writes into the folder prepare_folder gives (report_export.py).
    from kmetric_gui.report import prepare_folder
    from kmetric_gui.io.saving import save_atomic
    out = tmp_path / "rep"
    (out / "plots").mkdir(parents=True)
    (out / "plots" / "stale.png").write_bytes(b"old")
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    (out / "report.json").symlink_to(outside)
    (out / "notes.txt").write_text("mine")
    folder = prepare_folder(out, force=True)
    save_atomic(folder / "report.json", "{}")
    assert outside.read_text() == "keep me" and (out / "report.json").read_text() == "{}"
    assert list((out / "plots").iterdir()) == [] and (out / "notes.txt").read_text() == "mine"


def test_a_report_without_plots_says_so_in_its_exit_status(tmp_path, capsys):
    """No Qt (here: the renderer cannot be imported, as on a machine without libGL): the
    HTML, JSON and tables are written, the exit status says the plots and PDF are not."""
    out = tmp_path / "r"
    assert main(["report", str(TRUTH), str(SUB), "--out", str(out)]) == PARTIAL == 3
    err = capsys.readouterr().err
    assert "plots and PDF not made" in err
    assert (out / "index.html").is_file() and (out / "report.json").is_file()
    assert not (out / "report.pdf").exists()
