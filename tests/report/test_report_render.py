"""The Qt part in-process: without Qt's SVG module (the bundle leaves it out) the
report still stands, says so, and links only what exists."""
import json

from kmetric_gui.paths import resources_dir
from kmetric_gui.report import build_report, prepare_folder, score_entry, write_index, write_tables
from kmetric_gui.analysis.scoring import score_files
from report_helpers import parse_page, pdf_pages


def demo_data(metric="lwlrap"):
    d = resources_dir() / "demo"
    truth, sub = d / f"{metric}_solution.csv", d / f"{metric}_submission.csv"
    return build_report(truth, [score_entry(sub, score_files(truth, sub))])


def test_without_svg(qapp, tmp_path, monkeypatch):
    from kmetric_gui.gui import report_render
    monkeypatch.setattr(report_render, "QSvgGenerator", None)
    data = demo_data()
    out = prepare_folder(tmp_path / "rep")
    write_tables(data, out)
    report_render.render_report(data, out)
    write_index(data, out)
    d = json.loads((out / "report.json").read_text())
    assert d["plots"] and all(p.endswith(".png") for p in d["plots"])
    assert any("SVG" in n for n in d["notes"])
    assert not list((out / "plots").glob("*.svg"))
    page = parse_page(out / "index.html")
    assert all((out / ref).is_file() for ref in page.refs)
    assert pdf_pages(out / "report.pdf") == d["pdf_pages"] >= 2 + len(d["plots"])
