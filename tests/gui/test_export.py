"""Export button: PNG at 2x with a header, SVG, plain default names in the last folder, clipboard TSV
with totals, formula-safe CSV, and a menu that lists only what the view has."""
import csv
import xml.etree.ElementTree as ET

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from kmetric_gui.gui.widgets import render
from kmetric_gui.gui.widgets.export import ExportButton, plain_name, tsv
from kmetric_gui.gui.widgets.heatmap import Heatmap

CONTEXT = {"title": "Quadratic weighted kappa", "files": ["solution.csv", "my submission (2).csv"],
           "score_text": "score 0.8123 (Public 0.80, Private 0.82)"}


@pytest.fixture
def button(qtbot, tmp_path):
    b = ExportButton(settings=QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat))
    qtbot.addWidget(b)
    return b


@pytest.fixture
def heat(qtbot):
    h = Heatmap("O: observed counts")
    qtbot.addWidget(h)
    h.resize(400, 320)
    h.show()
    h.set_matrix(np.array([[5, 1, 0], [2, 7, 1], [0, 3, 9]], float), ["a", "b, c", "=d"], integer=True)
    return h


def test_png_is_2x_with_a_header_and_remembers_the_folder(button, heat, tmp_path):
    out = tmp_path / "pics"
    out.mkdir()
    assert button.save_png(heat, "O", str(out / "plain.png"))
    plain = QImage(str(out / "plain.png"))
    assert round(plain.dotsPerMeterX() * 0.0254) == 192      # 2 x 96: prints at its size on screen
    assert (plain.width(), plain.height()) == (800, 640 + 2 * round(render._header_height(
        render.header_lines({"title": "O"}), heat.font(), 400)))
    button.set_context(lambda: CONTEXT)
    assert button.save_png(heat, "O", str(out / "o.png"), dpi=300)
    img = QImage(str(out / "o.png"))
    assert img.width() == 800 and img.height() > plain.height()          # three header lines, not one
    assert round(img.dotsPerMeterX() * 0.0254) == 300
    assert button.settings().value("last_export_folder") == str(out)
    want = out / "my-submission-2-o-observed-counts.png"
    assert button.default_path("O: observed counts", "png") == str(want)


def test_header_lines_from_the_context():
    assert render.header_lines(CONTEXT) == [
        ("Quadratic weighted kappa", True), ("Files: solution.csv, my submission (2).csv", False),
        ("score 0.8123 (Public 0.80, Private 0.82)", False)]
    assert render.header_lines({}) == [] and render.header_lines(None) == []


def test_svg_of_a_heatmap_and_of_a_plot(qtbot, button, heat, tmp_path):
    if not render.svg_available():
        pytest.skip("QtSvg is not installed")
    button.set_context(lambda: CONTEXT)
    assert button.save_svg(heat, "O", str(tmp_path / "o.svg"))
    root = ET.parse(tmp_path / "o.svg").getroot()
    texts = " ".join("".join(t.itertext()) for t in root.iter() if t.tag.endswith("text"))
    assert "Quadratic weighted kappa — O" in texts and "Files: solution.csv" in texts
    assert "observed counts" in texts and "9" in texts.split()           # the title and a cell number
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.resize(300, 200)
    plot.plot([0, 1, 2], [3, 1, 2])
    assert button.save_svg(plot, "curve", str(tmp_path / "p.svg"))
    root = ET.parse(tmp_path / "p.svg").getroot()                          # well-formed
    assert "score 0.8123" in "".join(root.itertext())
    assert any(e.tag.endswith(("path", "polyline")) for e in root.iter())  # the curve, as a vector


def test_clipboard_is_tab_separated_with_totals_and_integers(button, heat):
    button.add_table("O", heat.to_csv)
    title, kind, (to_csv, rows), ok = button.entries[0]
    button.copy_table(to_csv, rows)
    lines = QApplication.clipboard().text().splitlines()
    cells = [ln.split("\t") for ln in lines]
    assert cells[0] == ["", "a", "b, c", "'=d", "total"]       # the comma survives, the formula is defused
    assert cells[1] == ["a", "5", "1", "0", "6"]
    assert cells[-1] == ["total", "7", "11", "10", "28"]


def test_clipboard_of_a_plain_table_keeps_quoted_commas(button):
    text = 'name,score\n"Smith, J",-0.5\n@SUM(A1),3\n'
    button.copy_table(lambda: text)
    assert QApplication.clipboard().text() == "name\tscore\nSmith, J\t-0.5\n'@SUM(A1)\t3\n"


def test_csv_is_formula_safe_and_numbers_stay_numbers(button, heat, tmp_path):
    assert button.save_csv(heat.to_csv, "O", str(tmp_path / "o.csv"))
    rows = list(csv.reader(open(tmp_path / "o.csv", encoding="utf-8")))
    assert rows[0] == ["", "a", "b, c", "'=d"] and rows[3][0] == "'=d"
    assert rows[1] == ["a", "5", "1", "0"]
    assert tsv([["a\tb", "c\nd"]]) == "a b\tc d\n"


def test_plain_default_names():
    assert plain_name("my submission (2)", "O: observed counts") == "my-submission-2-o-observed-counts"
    assert plain_name("résumé/../x", "Σ") == "r-sum-x"
    assert plain_name("", "∑") == "export"


def test_menu_lists_only_what_the_view_has(qtbot, button):
    empty = Heatmap("E")
    plot, blank = pg.PlotWidget(), pg.PlotWidget()
    for w in (empty, plot, blank):
        qtbot.addWidget(w)
    button.add_heatmap("E matrix", empty).add_plot("curve", plot).add_plot("cut points", blank)
    button.rebuild_menu()
    assert [a.text() for a in button.menu().actions()] == ["Nothing to export yet"]
    plot.plot([0, 1], [1, 0])
    empty.set_matrix(np.eye(3))
    assert button.available_titles() == ["E matrix", "curve"]
    button.rebuild_menu()
    subs = {a.text(): [x.text() for x in a.menu().actions()] for a in button.menu().actions()}
    assert set(subs) == {"E matrix", "curve"}
    assert "Save CSV…" in subs["E matrix"] and "Save PNG (2x)…" in subs["E matrix"]
    assert "Save CSV…" not in subs["curve"]
    assert ("Save SVG…" in subs["curve"]) == render.svg_available()


def test_a_failed_save_is_reported_not_raised(qtbot, button, heat, tmp_path):
    with qtbot.waitSignal(button.export_failed) as blocker:
        assert not button.save_csv(heat.to_csv, "O", str(tmp_path / "missing" / "o.csv"))
    assert "O" in blocker.args[0] and "missing" in blocker.args[0]
    assert button.settings().value("last_export_folder") is None


def test_header_goes_above_a_pyqtgraph_svg(qtbot):
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.resize(300, 200)
    body = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<svg xmlns="http://www.w3.org/2000/svg" '
            'width="300" height="200" viewBox="0 0 300 200"><g><path d="M0,0 L10,10"/></g></svg>\n')
    out = render.svg_with_header(body, plot, {"title": "A & B", "score_text": "score 1"})
    root = ET.fromstring(out)
    inner = [e for e in root if e.tag.endswith("svg")]
    assert len(inner) == 1 and float(inner[0].get("y")) > 0           # moved below the header
    assert float(root.get("height")) == pytest.approx(200 + float(inner[0].get("y")), abs=1)
    assert [t.text for t in root if t.tag.endswith("text")] == ["A & B", "score 1"]


def test_svg_without_qtsvg_is_reported(qtbot, button, heat, tmp_path, monkeypatch):
    monkeypatch.setattr(render, "svg_available", lambda: False)
    with qtbot.waitSignal(button.export_failed) as blocker:
        assert not button.save_svg(heat, "O", str(tmp_path / "o.svg"))
    assert "QtSvg" in blocker.args[0] and not (tmp_path / "o.svg").exists()
    button.add_plot("O", heat)
    button.rebuild_menu()
    assert "Save SVG…" not in [a.text() for a in button.menu().actions()[0].menu().actions()]
