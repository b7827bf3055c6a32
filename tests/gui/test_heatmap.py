"""Heatmap geometry (no pixels): texts never overlap, stay inside the widget, fit their rectangles;
numbers abbreviate or hide; keyboard, hover text, palette and CSV behaviour."""
import itertools
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPalette

from kmetric_gui.gui.widgets import numfmt
from kmetric_gui.gui.widgets.heatmap import Heatmap

SIZES = [(300, 250), (520, 420), (900, 700)]


def confusion(k, n, seed=0):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, k, n)
    p = np.clip(t + rng.integers(-1, 2, n), 0, k - 1)
    m = np.zeros((k, k))
    np.add.at(m, (t, p), 1)
    return m


def huge(k, seed=1):
    """Counts up to 1e8 with every magnitude present (long full texts, short abbreviations)."""
    rng = np.random.default_rng(seed)
    return np.round(10 ** rng.uniform(0, 8, (k, k)))


def overlaps(rects):
    """Pairs of painted texts whose boxes overlap (touching edges do not count)."""
    bad = []
    for (ka, a, ta), (kb, b, tb) in itertools.combinations(rects, 2):
        inter = a.intersected(b)
        if inter.width() > 0.01 and inter.height() > 0.01:
            bad.append((ka, ta, kb, tb))
    return bad


def check_geometry(hm):
    rects = hm.label_rects()
    box = QRectF(0, 0, hm.width(), hm.height()).adjusted(-0.01, -0.01, 0.01, 0.01)
    outside = [(k, t) for k, r, t in rects if not box.contains(r)]
    assert not outside, outside[:5]
    # cells are checked against their own cells and every non-cell text
    cells = [r for r in rects if r[0] == "cell"]
    others = [r for r in rects if r[0] != "cell"]
    assert not overlaps(others)
    m = hm.text_layout().m
    for k, r, t in others:          # labels and totals stay out of the matrix (cells are never covered)
        if k != "axis" and k != "title":
            inter = r.intersected(m)
            assert inter.width() <= 0.01 or inter.height() <= 0.01, (k, t)
    for t in hm.text_layout().texts:  # the text fits its box
        fm = QFontMetricsF(t.font)
        w, h = (t.rect.height(), t.rect.width()) if t.rotated else (t.rect.width(), t.rect.height())
        assert fm.horizontalAdvance(t.text) <= w + 0.01 and fm.height() <= h + 0.01
    for k, r, t in cells:           # each number inside its own cell
        i, j = next(x.cell for x in hm.text_layout().texts if x.kind == "cell" and x.rect == r)
        assert hm.cell_rect(i, j).adjusted(-0.01, -0.01, 0.01, 0.01).contains(r)
    return rects


def make(qtbot, m, w, h, labels=None, **kw):
    hm = Heatmap("O: observed counts", **{k: v for k, v in kw.items() if k in ("diverging", "totals")})
    qtbot.addWidget(hm)
    hm.resize(w, h)
    hm.show()
    hm.set_matrix(m, labels, integer=kw.get("integer", True))
    qtbot.waitExposed(hm)
    return hm


@pytest.mark.parametrize("k", [2, 5, 12, 40])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("data", ["counts", "huge"])
def test_texts_never_overlap_and_stay_inside(qtbot, k, size, data):
    m = confusion(k, 50 * k * k) if data == "counts" else huge(k)
    hm = make(qtbot, m, *size, labels=[f"class number {i}" for i in range(k)])
    rects = check_geometry(hm)
    kinds = {r[0] for r in rects}
    assert {"title", "axis", "row", "col", "total", "scale"} <= kinds
    rows = [t for t in hm.text_layout().texts if t.kind == "row"]
    assert rows and rows[0].cell == 0              # the first class is always named


def test_small_matrix_shows_every_number_and_total(qtbot):
    m = confusion(5, 600)
    hm = make(qtbot, m, 520, 420)
    cells = {t.cell: t.text for t in hm.text_layout().texts if t.kind == "cell"}
    assert len(cells) == 25
    assert all(cells[i, j] == f"{int(m[i, j]):,}" for i, j in cells)
    totals = [t.text for t in hm.text_layout().texts if t.kind == "total"]
    want = [f"{int(v):,}" for v in m.sum(axis=1)] + [f"{int(v):,}" for v in m.sum(axis=0)]
    assert sorted(totals) == sorted(want)


def test_counts_up_to_1e8_abbreviate_instead_of_overlapping(qtbot):
    m = np.full((5, 5), 12_345_678.0)
    m[0, 0] = 98_765_432
    hm = make(qtbot, m, 420, 320)
    cells = {t.cell: t.text for t in hm.text_layout().texts if t.kind == "cell"}
    assert len(cells) == 25
    assert cells[0, 0] in ("98.8M", "99M") and cells[1, 1] in ("12.3M", "12M")
    check_geometry(hm)
    big = make(qtbot, m, 900, 700)
    cells = {t.cell: t.text for t in big.text_layout().texts if t.kind == "cell"}
    assert cells[0, 0] == "98,765,432"           # room enough: the full number


def test_hidden_numbers_are_in_the_tooltip(qtbot):
    m = huge(40)
    hm = make(qtbot, m, 300, 250)
    assert not [t for t in hm.text_layout().texts if t.kind == "cell"]
    r = hm.cell_rect(7, 3)
    text, _ = hm.tip_at(r.center())
    assert f"value: {int(m[7, 3]):,}" in text and "np." not in text and "float64" not in text
    assert "truth: 7" in text and "prediction: 3" in text


def test_long_names_elided_with_the_full_name_on_hover(qtbot):
    names = ["a very long class name that cannot fit anywhere " + str(i) for i in range(5)]
    hm = make(qtbot, confusion(5, 600), 520, 420, labels=names)
    rows = [t for t in hm.text_layout().texts if t.kind == "row"]
    assert all(t.text.endswith("…") for t in rows)
    text, _ = hm.tip_at(rows[2].rect.center())
    assert text == names[2]


def test_normalised_tooltip_formats_both_numbers(qtbot):
    m = confusion(5, 600)
    hm = Heatmap("O")
    qtbot.addWidget(hm)
    hm.resize(500, 400)
    hm.show()
    hm.set_matrix(m, scale=m.sum())
    text = hm.cell_tip(0, 0)
    assert f"value: {m[0, 0]:,.0f}" in text
    assert f"normalised: {numfmt.exact(m[0, 0] / m.sum())}" in text and "np.float64" not in text


def test_keyboard_moves_the_current_cell_and_enter_activates(qtbot):
    hm = make(qtbot, confusion(5, 600), 520, 420)
    hm.setFocus()
    qtbot.waitUntil(hm.hasFocus)
    assert hm.current == (0, 0)
    qtbot.keyClick(hm, Qt.Key_Right)
    qtbot.keyClick(hm, Qt.Key_Down)
    qtbot.keyClick(hm, Qt.Key_Down)
    qtbot.keyClick(hm, Qt.Key_Left)
    qtbot.keyClick(hm, Qt.Key_Left)          # stops at the edge
    assert hm.current == (2, 0)
    got = []
    hm.cell_activated.connect(lambda i, j: got.append(("activated", i, j)))
    hm.cell_clicked.connect(lambda i, j: got.append(("clicked", i, j)))
    qtbot.keyClick(hm, Qt.Key_Return)
    assert got == [("activated", 2, 0), ("clicked", 2, 0)]
    qtbot.keyClick(hm, Qt.Key_End, Qt.ControlModifier)
    assert hm.current == (4, 4)


def test_large_matrix_zooms_and_keyboard_pans_to_the_current_cell(qtbot):
    hm = make(qtbot, confusion(40, 20000), 520, 420)
    assert hm.vb.state["mouseEnabled"] == [True, True]
    hm.vb.setRange(xRange=(-0.5, 9.5), yRange=(-0.5, 9.5), padding=0)
    assert hm.zoomed()
    check_geometry(hm)
    cells = [t for t in hm.text_layout().texts if t.kind == "cell"]
    assert cells and all(t.cell[0] < 10 and t.cell[1] < 10 for t in cells)   # only what is in view
    hm.setFocus()
    hm.set_current(30, 35)
    (x0, x1), (y0, y1) = hm.view_range()
    assert x0 <= 34.5 and 35.5 <= x1 and y0 <= 29.5 and 30.5 <= y1
    hm.reset_zoom()
    assert not hm.zoomed()
    small = make(qtbot, confusion(5, 600), 520, 420)
    assert small.vb.state["mouseEnabled"] == [False, False]


def test_click_emits_the_cell(qtbot):
    hm = make(qtbot, confusion(5, 600), 520, 420)
    c = hm.cell_rect(3, 1).center()
    assert hm.cell_at(hm.plot.mapToScene(c.toPoint())) == (3, 1)
    vb = hm.vb
    for i, j in ((0, 0), (3, 1), (4, 4)):
        assert hm.cell_at(vb.mapViewToScene(QPointF(j + 0.2, i - 0.2))) == (i, j)


def dark_palette():
    p = QPalette()
    for role, rgb in ((QPalette.Window, (45, 45, 48)), (QPalette.WindowText, (230, 230, 230)),
                      (QPalette.Base, (30, 30, 32)), (QPalette.Text, (230, 230, 230)),
                      (QPalette.Highlight, (42, 130, 218))):
        p.setColor(role, QColor(*rgb))
    return p


def test_follows_a_dark_palette_with_readable_numbers(qtbot):
    hm = make(qtbot, confusion(5, 600), 520, 420)
    light_bg = hm.plot.backgroundBrush().color()
    hm.setPalette(dark_palette())
    assert hm.plot.backgroundBrush().color() == QColor(30, 30, 32) != light_bg
    lum = lambda c: 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue()
    from kmetric_gui.gui.widgets import theme
    for t in hm.text_layout().texts:
        if t.kind == "cell":
            bg = QColor(*[int(x) for x in hm.cell_colors[t.cell]])
            fg = theme.contrast(hm.cell_colors[t.cell])
            assert abs(lum(fg) - lum(bg)) > 90, (t.cell, bg.name(), fg.name())


def test_csv_and_clipboard_rows(qtbot):
    m = confusion(3, 90)
    hm = make(qtbot, m, 400, 300, labels=["a", "b, c", "=d"])
    lines = hm.to_csv().splitlines()
    assert lines[0] == ',a,"b, c",=d'
    assert lines[1] == "a," + ",".join(str(int(v)) for v in m[0])
    rows = hm.to_rows(totals=True)
    assert rows[0][-1] == "total" and rows[-1][0] == "total"
    assert rows[-1][-1] == str(int(m.sum())) and rows[1][-1] == str(int(m[0].sum()))
    hm.set_matrix(m, scale=m.sum())
    assert float(hm.to_rows()[1][1]) == m[0, 0] / m.sum()


SCALE_SCRIPT = r"""
import json, sys
import numpy as np
from PySide6.QtWidgets import QApplication
app = QApplication([])
sys.path.insert(0, sys.argv[1])
from test_heatmap import check_geometry, confusion, huge
from kmetric_gui.gui.widgets.heatmap import Heatmap
out = []
for k in (2, 5, 12, 40):
    for (w, h) in ((300, 250), (900, 700)):
        for m in (confusion(k, 50 * k * k), huge(k)):
            hm = Heatmap("O: observed counts")
            hm.resize(w, h)
            hm.show()
            hm.set_matrix(m, [f"class {i}" for i in range(k)], integer=True)
            app.processEvents()
            check_geometry(hm)
            out.append([k, w, h, hm.devicePixelRatioF(), len(hm.label_rects())])
            hm.close()
            hm.deleteLater()
print(json.dumps(out))
"""


def test_geometry_at_scale_factor_2():
    env = dict(os.environ, QT_SCALE_FACTOR="2", QT_QPA_PLATFORM="offscreen")
    here = os.path.dirname(__file__)
    r = subprocess.run([sys.executable, "-c", SCALE_SCRIPT, here], env=env, capture_output=True, text=True,
                       timeout=240)
    assert r.returncode == 0, r.stderr[-3000:]
    runs = json.loads(r.stdout.strip().splitlines()[-1])
    assert len(runs) == 16 and all(dpr == 2 and n > 5 for *_, dpr, n in runs)


@pytest.mark.parametrize("v, integer, full, short, tiny", [
    (0, True, "0", "0", "0"),
    (999, True, "999", "999", "999"),
    (1234, True, "1,234", "1.23k", "1.2k"),
    (12345, True, "12,345", "12.3k", "12k"),
    (999_999, True, "999,999", "1M", "1M"),          # rounds up into the next unit, not "1000k"
    (4_500_000, True, "4,500,000", "4.5M", "4.5M"),
    (98_765_432, True, "98,765,432", "98.8M", "99M"),
    (-12345, True, "-12,345", "-12.3k", "-12k"),
    (0.8234, False, "0.823", "0.823", "0.82"),
    (12.345, False, "12.3", "12.3", "12"),
    (float("nan"), False, "–", "–", "–"),
])
def test_number_formats(v, integer, full, short, tiny):
    assert (numfmt.full(v, integer), numfmt.short(v, integer), numfmt.tiny(v, integer)) == (full, short, tiny)


def test_exact_and_set_formats():
    assert numfmt.exact(np.float64(0.1 + 0.2)) == "0.3" and numfmt.exact(np.float64(1234567.0)) == "1,234,567"
    assert numfmt.exact(2.5e-7) == "2.500000e-07" and numfmt.exact(1234.56789) == "1,234.56789"
    fmt = numfmt.full_for([-45.0, 8.176, 18.0])
    assert [fmt(v) for v in (-45.0, 8.176, 18.0, -0.01)] == ["-45.0", "8.2", "18.0", "0.0"]
    width = len
    assert numfmt.fitting([1234567, 5], True, width, 9) is numfmt.full
    assert numfmt.fitting([1234567, 5], True, width, 5) is numfmt.short
    assert numfmt.fitting([1234567, 5], True, width, 2) is None


@pytest.mark.parametrize("size", SIZES)
def test_non_square_without_totals_keeps_every_scale_tick(qtbot, size):
    rng = np.random.default_rng(3)
    m = np.where(rng.random((60, 41)) < 0.06, rng.random((60, 41)), -0.25)
    hm = Heatmap("Precision of each positive label", totals=False, row_axis="sample", col_axis="class")
    qtbot.addWidget(hm)
    hm.resize(*size)
    hm.show()
    cols = [f"Class_{j}_Acoustic_guitar" for j in range(41)]
    hm.set_matrix(m, [f"{i:08x}.wav" for i in range(60)], col_labels=cols, levels=(-0.25, 1.0))
    rects = check_geometry(hm)
    assert [t for k, _, t in rects if k == "scale"] == ["-0.25", "0.375", "1"]   # the low end was dropped
    assert not [k for k, _, _ in rects if k in ("total", "head")]


def test_tooltip_is_shown_once_per_cell_and_stays(qtbot, monkeypatch):
    from kmetric_gui.gui.widgets import heatmap as mod
    shown = []
    monkeypatch.setattr(mod.QToolTip, "showText", lambda *a: shown.append(a))
    monkeypatch.setattr(mod.QToolTip, "hideText", lambda *a: shown.append("hide"))
    hm = make(qtbot, confusion(5, 600), 520, 420)
    r = hm.cell_rect(1, 2)
    for dx in (-3, 0, 3):                      # the pointer rests in one cell
        hm._hover(hm.plot.mapToScene(r.center().toPoint() + QPointF(dx, 0).toPoint()))
    assert len(shown) == 1 and "value: " in shown[0][1]
    assert shown[0][-1] >= 10000                # not the default few seconds
    hm._hover(hm.plot.mapToScene(hm.cell_rect(3, 3).center().toPoint()))
    assert len(shown) == 2
    hm._hover(QPointF(1, 1))                   # off the matrix: hidden
    assert shown[-1] == "hide"


def test_reset_button_shows_only_when_zoomed(qtbot):
    hm = make(qtbot, confusion(40, 20000), 600, 500)
    assert not hm.reset_button.isVisibleTo(hm)
    hm.vb.setRange(xRange=(4.5, 14.5), yRange=(4.5, 14.5), padding=0)
    assert hm.reset_button.isVisibleTo(hm)
    rects = check_geometry(hm)                 # the button overlaps no text
    assert "button" in [k for k, _, _ in rects]
    qtbot.mouseClick(hm.reset_button, Qt.LeftButton)
    assert not hm.zoomed() and not hm.reset_button.isVisibleTo(hm)


def test_style_plot_takes_the_palette(qtbot):
    import pyqtgraph as pg
    from kmetric_gui.gui.widgets import theme
    plot = pg.PlotWidget(title="t")
    qtbot.addWidget(plot)
    pal = dark_palette()
    theme.style_plot(plot, pal)
    assert plot.backgroundBrush().color() == QColor(30, 30, 32)
    assert plot.getPlotItem().getAxis("left").textPen().color() == QColor(230, 230, 230)
    assert theme.is_dark(pal) and not theme.is_dark(QPalette(QColor(240, 240, 240)))


@pytest.mark.parametrize("k", [2, 5, 40])
@pytest.mark.parametrize("size", [(120, 90), (200, 120), (420, 140)])
def test_cramped_sizes_still_keep_texts_apart_and_inside(qtbot, k, size):
    hm = make(qtbot, huge(k), *size, labels=[f"class number {i}" for i in range(k)])
    check_geometry(hm)
    assert hm.text_layout().m.height() > 0 and hm.text_layout().m.width() > 0


def test_follows_a_live_switch_of_the_application_palette(qtbot):
    from PySide6.QtWidgets import QApplication
    hm = make(qtbot, confusion(5, 600), 520, 420)
    before = hm.cell_colors.copy()
    app = QApplication.instance()
    old = app.palette()
    try:
        app.setPalette(dark_palette())
        qtbot.waitUntil(lambda: hm.plot.backgroundBrush().color() == QColor(30, 30, 32))
        assert not np.array_equal(before, hm.cell_colors)        # the dark colour map
    finally:
        app.setPalette(old)
    qtbot.waitUntil(lambda: np.array_equal(before, hm.cell_colors))


def test_colour_bar_ticks_of_a_narrow_range_read_differently(qtbot):
    # Expected counts of a balanced 5M-row pair: every cell near 200,000 (a tester saw
    # the bar read 200k, 200k, 200k).
    m = np.array([[199812.4, 200010.0], [200187.0, 199990.5]])
    hm = Heatmap("E: expected counts")
    qtbot.addWidget(hm)
    hm.set_matrix(m, ["0", "1"], integer=False)
    texts = [t for _, t in hm.scale_ticks()]
    assert len(set(texts)) == 3
    assert [float(t.rstrip("k")) * 1000 for t in texts] == pytest.approx(
        [m.min(), (m.min() + m.max()) / 2, m.max()], abs=60)
