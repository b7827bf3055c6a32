"""The Compare view draws what the comparison computed, and selects the right rows."""
from pathlib import Path

import numpy as np
import pytest

from kmetric_gui.analysis.comparison import CompareOptions, compare_files
from kmetric_gui.gui.views.compare_view import CompareView, interval, num
from kmetric_gui.analysis.scoring import Options

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"
FAST = CompareOptions(replicates=200, permutations=200, splits=200)


def comparison(metric, extra=()):
    subs = [DEMO / f"{metric}_submission.csv", DEMO / f"{metric}_submission_b.csv", *extra]
    return compare_files(DEMO / f"{metric}_solution.csv", [str(s) for s in subs], Options(), FAST)


@pytest.fixture
def view(qtbot):
    v = CompareView()
    qtbot.addWidget(v)
    v.resize(1280, 720)
    v.show()
    return v


def texts(table, row):
    return [table.item(row, c).text() for c in range(table.columnCount())]


def test_leaderboard_and_pairs_show_the_numbers(view):
    cmp = comparison("qwk", [DEMO / "qwk_submission.csv"])
    view.show_comparison(cmp)
    assert view.leaderboard.rowCount() == 3 and view.pairs.rowCount() == 3
    for i, s in enumerate(cmp.submissions):
        row = texts(view.leaderboard, i)
        assert row[0].endswith(s.name)
        assert row[1:] == [num(s.score), interval(s.intervals["ci"]), num(s.split_score("public")),
                           num(s.split_score("private"))]
    best = int(np.argmax([s.score for s in cmp.submissions]))
    assert texts(view.leaderboard, best)[0].startswith("★")
    for k, p in enumerate(cmp.pairs):
        row = texts(view.pairs, k)
        assert row[:4] == [cmp.submissions[p.a].name, cmp.submissions[p.b].name,
                           num(p.stats.delta, sign=True), interval(p.stats.delta_ci, sign=True)]
        assert row[7] == num(p.split_stats["public"].delta, sign=True)
    assert "same file" in view.title.text()
    view.pairs.selectRow(1)                      # A = first, B = its copy: all on the diagonal
    assert view.pair is cmp.pairs[1]
    agreement = view.heatmap.values
    assert agreement.sum() == cmp.n_units and np.trace(agreement) == cmp.n_units


def test_kappa_agreement_cell_selects_its_rows(view, qtbot):
    cmp = comparison("qwk")
    view.show_comparison(cmp)
    prep_a = cmp.submissions[0].report.prepared
    prep_b = cmp.submissions[1].report.prepared
    a, b = prep_a.pred, prep_b.pred
    counts = np.zeros((5, 5), int)
    np.add.at(counts, (a, b), 1)
    assert (view.heatmap.values == counts).all()
    with qtbot.waitSignal(view.rows_selected) as got:
        view.heatmap.cell_clicked.emit(2, 1)
    mask = got.args[0]          # a mask on the data shown (redone after an edit)
    rows = np.flatnonzero(mask(prep_a, np.arange(len(a))))
    assert list(rows) == list(np.flatnonzero((a == 2) & (b == 1)))
    assert f"{counts[2, 1]} rows" in view.differ_note.text()
    t = cmp.submissions[0].report.prepared.truth
    tip = view.heatmap.cell_tip(2, 1)
    assert f"truth is A's rating on {np.sum((a == 2) & (b == 1) & (t == 2))} of them" in tip
    assert f"B's on {np.sum((a == 2) & (b == 1) & (t == 1))}" in tip
    assert "whole ratings already" in view.blend_note.text()     # integer ratings: no blend
    assert not view.blend_plot.isVisibleTo(view)               # and no empty axes


def test_lwlrap_bars_and_blend_curve(view):
    cmp = comparison("lwlrap")
    view.show_comparison(cmp)
    ra, rb = (s.report.result for s in cmp.submissions)
    assert view.bars.opts["height"] == pytest.approx(rb.per_class - ra.per_class)
    pair = cmp.pairs[0]
    x, y = view.blend_curve.getData()
    assert x == pytest.approx(pair.blend.alphas) and y == pytest.approx(pair.blend.scores)
    assert view.best_line.value() == pytest.approx(pair.blend.best_alpha)
    assert f"Best α = {pair.blend.best_alpha:.2f}" in view.blend_note.text()
    assert y[0] == pytest.approx(rb.score) and y[-1] == pytest.approx(ra.score)


def test_fbeta_documents_table_selects_the_document(view, qtbot):
    cmp = comparison("fbeta")
    view.show_comparison(cmp)
    d = cmp.pairs[0].differ
    differ = (d.counts_a != d.counts_b).any(axis=1)
    assert view.docs.rowCount() == differ.sum()
    first = texts(view.docs, 0)
    k = int(np.argmax(np.where(differ, np.abs(d.doc_delta), -1)))
    assert first[1] == num(d.doc_delta[k], sign=True)
    with qtbot.waitSignal(view.rows_selected) as got:
        view.docs.selectRow(0)
    (row,) = got.args[0]
    assert cmp.submissions[0].report.prepared.ids[row] == first[0]


def test_clear_and_grab_at_two_sizes(view, tmp_path):
    view.show_comparison(comparison("lwlrap"))
    for w, h in ((1280, 720), (1920, 1080)):
        view.resize(w, h)
        img = view.grab()
        assert (img.width(), img.height()) == (w, h)
        assert img.save(str(tmp_path / f"compare_{w}.png"))
    view.clear()
    assert view.leaderboard.rowCount() == 0 and view.pairs.rowCount() == 0
    assert view.stack.currentWidget() is view.empty
