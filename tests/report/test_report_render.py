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


def test_an_axis_is_as_wide_as_its_tick_labels_when_drawn(qapp, monkeypatch):
    """Small values ("0.0015"), the report's pair plots made together and then drawn:
    when the PNG is drawn, the left axis holds its widest tick label and its title.
    Drawn once (before), pyqtgraph widened the axis only while drawing, and the labels
    ran under the title (52.6 px laid out for 46 px of text and a title)."""
    from PySide6.QtGui import QFontMetrics, QImage
    from PySide6.QtWidgets import QWidget

    from kmetric_gui.gui import report_render
    from kmetric_gui.gui.views.anatomy_plots import pair_plots
    from kmetric_gui.gui.widgets.static_plot import SIZE
    deltas = [0.0021, 0.0019, 0.0018, 0.0017, 0.0015]
    cmp = {"higher_is_better": False, "pairs": [{
        "a": "a.csv", "b": "b.csv",
        "blend": {"alphas": [0.0, 0.5, 1.0], "scores": [0.131, 0.1178, 0.1503], "best_alpha": 0.5},
        "where_they_differ": {"unit": "row", "largest": [{"id": str(i), "delta": d}
                                                         for i, d in enumerate(deltas)]}}]}
    plots = pair_plots(cmp)
    seen = {}
    real = QWidget.render

    def render(widget, device, *a):
        if isinstance(device, QImage) and device.width() == 2 * SIZE[0]:
            axis = widget.getAxis("left")
            seen[id(widget)] = (axis.geometry().width(), axis)   # laid out as drawn
        return real(widget, device, *a)
    monkeypatch.setattr(report_render.QWidget, "render", render)
    for _, _, widget in plots:
        report_render.render_widget(widget)
    width, axis = seen[id(plots[-1][2])]                       # where they differ
    text = QFontMetrics(axis.style.get("tickFont") or plots[-1][2].font()).horizontalAdvance("0.0015")
    assert width >= text + axis.label.boundingRect().height()
