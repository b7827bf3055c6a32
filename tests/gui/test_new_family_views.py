"""The correlation and values views open from their demos and show numbers equal to
independent computations (scipy's ranks, numpy's least squares, a plain edit-distance
loop); a row of their tables selects that row in the app's table."""
import numpy as np
from scipy import stats

from conftest import wait_scored_and
from kmetric_gui.metrics.base import split_rows


def opened(qtbot, win, name, kind):
    rep = wait_scored_and(qtbot, win, kind, lambda: win.open_demo(name))
    view = win.tabs.views[name]
    assert win.tabs.currentWidget() is view and type(view).__name__ != "GenericView"
    rows = split_rows(rep.prepared.usage)
    return rep, view, np.arange(len(rep.prepared.ids)) if rows is None else rows


def drill(qtbot, win, action):
    with qtbot.waitSignal(win.table_panel.rows_shown, timeout=10000):
        action()
    return np.asarray(win.table_panel.model.rows)


def test_spearman_view_draws_rank_shares_and_lists_the_rows_furthest_apart(qtbot, window):
    rep, view, rows = opened(qtbot, window, "spearman", "correlation")
    t, p = rep.prepared.truth[rows, 0], rep.prepared.pred[rows, 0]
    sc = view.data["sc"]
    np.testing.assert_allclose(sc.x, stats.rankdata(t) / t.size)
    np.testing.assert_allclose(sc.y, stats.rankdata(p) / p.size)
    apart = np.abs(stats.rankdata(p) - stats.rankdata(t))
    listed = [view.furthest.item(r, 0).text() for r in range(view.furthest.rowCount())]
    first = [str(rep.prepared.ids[rows[i]]) for i in np.flatnonzero(apart == apart.max())]
    assert listed[0] in first and apart.max() > 0
    shown = drill(qtbot, window, lambda: view.furthest.selectRow(0))
    assert [str(rep.prepared.ids[i]) for i in shown] == [listed[0]]


def test_pearson_view_draws_the_least_squares_line(qtbot, window):
    rep, view, rows = opened(qtbot, window, "pearson", "correlation")
    t, p = rep.prepared.truth[rows], rep.prepared.pred[rows]
    slope, icept = np.polyfit(t, p, 1)
    np.testing.assert_allclose(view.data["sc"].line, (slope, icept), rtol=1e-9)


def test_values_view_lists_the_largest_edit_distances(qtbot, window):
    rep, view, rows = opened(qtbot, window, "levenshtein", "values")

    def edit(a, b):
        prev = list(range(len(b) + 1))
        for i, ca in enumerate(a, 1):
            cur = [i]
            for j, cb in enumerate(b, 1):
                cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
            prev = cur
        return prev[-1]
    d = np.array([edit(rep.prepared.truth[i], rep.prepared.pred[i]) for i in rows])
    counts, _ = view.data["hist"]
    assert counts.sum() == d.size and view.data["right"] == int((d == 0).sum())
    top = float(view.furthest.item(0, 1).text())
    assert top == d.max()
