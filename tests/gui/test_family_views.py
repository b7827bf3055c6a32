"""The families' anatomy views open from their demos, show numbers equal to independent
references (scikit-learn, plain loops and sorts) and their drill-downs select the right rows."""
import numpy as np
import pytest
from sklearn.calibration import calibration_curve
from sklearn.metrics import confusion_matrix, roc_curve

from conftest import wait_scored_and
from kmetric_gui.metrics.base import split_rows

JOB = {"accuracy": "confusion", "f1": "confusion", "auc": "roc", "logloss": "roc",
       "rmse": "residuals", "rmsle": "residuals", "mae": "residuals", "mcrmse": "residuals",
       "mapk": "ranking"}


def open_demo(qtbot, win, name):
    rep = wait_scored_and(qtbot, win, JOB[name], lambda: win.open_demo(name))
    view = win.tabs.views[name]
    assert win.tabs.currentWidget() is view and type(view).__name__ != "GenericView"
    return rep, view


def scored_pairs(rep):
    prep = rep.prepared
    rows = split_rows(prep.usage)
    rows = np.arange(len(prep.ids)) if rows is None else rows
    return rows, prep.truth[rows] if not isinstance(prep.truth, list) else \
        [prep.truth[i] for i in rows], prep.pred[rows] if not isinstance(prep.pred, list) else \
        [prep.pred[i] for i in rows]


def drill(qtbot, win, action):
    with qtbot.waitSignal(win.table_panel.rows_shown, timeout=10000):
        action()
    return np.asarray(win.table_panel.model.rows)


@pytest.mark.parametrize("name", ["accuracy", "f1"])
def test_confusion_view_equals_sklearn_and_a_cell_lists_its_rows(qtbot, window, name):
    rep, view = open_demo(qtbot, window, name)
    rows, t, p = scored_pairs(rep)
    labels = np.unique(np.r_[t, p])
    np.testing.assert_array_equal(view.labels, labels)
    np.testing.assert_array_equal(view.matrix, confusion_matrix(t, p, labels=labels))
    assert view.heat.values.sum() == len(rows)
    i, j = 1, 0                                   # an error cell of every demo
    assert view.matrix[i, j] > 0
    with qtbot.waitSignal(view.rows_requested) as got:
        shown = drill(qtbot, window, lambda: view.heat.cell_clicked.emit(i, j))
    prep = rep.prepared
    want = rows[(t == labels[i]) & (p == labels[j])]
    assert sorted(shown.tolist()) == sorted(want.tolist()) and len(shown) == view.matrix[i, j]
    # The drill-down is a filter on the data as it stands: a row edited into the cell joins it.
    mask_fn = got.args[0]
    other = int(rows[(t == labels[i]) & (p == labels[i])][0])
    pred = prep.pred.copy()
    pred[other] = labels[j]
    edited = type("P", (), {"truth": prep.truth, "pred": pred, "usage": prep.usage})()
    every = np.arange(len(prep.ids))
    assert set(every[mask_fn(edited, every)].tolist()) == set(want.tolist()) | {other}


def test_a_class_lists_its_errors(qtbot, window):
    rep, view = open_demo(qtbot, window, "accuracy")
    rows, t, p = scored_pairs(rep)
    shown = drill(qtbot, window, lambda: view.classes.selectRow(2))
    c = view.labels[2]
    want = rows[(t == c) != (p == c)]
    assert sorted(shown.tolist()) == sorted(want.tolist())
    m = view.matrix
    assert len(shown) == m[2].sum() + m[:, 2].sum() - 2 * m[2, 2]


def test_roc_view_binary_equals_sklearn(qtbot, window):
    rep, view = open_demo(qtbot, window, "auc")
    rows, t, p = scored_pairs(rep)
    fpr, tpr, _ = roc_curve(t, p, drop_intermediate=False)
    d = view.data
    np.testing.assert_allclose(d["fpr"], fpr)         # 400 rows: every point drawn
    np.testing.assert_allclose(d["tpr"], tpr)
    assert d["auc"] == pytest.approx(rep.score)
    cal = d["cal"]
    prob_true, prob_pred = calibration_curve(t, p, n_bins=10)
    full = cal.counts > 0
    np.testing.assert_allclose(cal.observed[full], prob_true)
    np.testing.assert_allclose(cal.mean_predicted[full], prob_pred)
    edges = np.linspace(0, 1, 11)
    assert cal.counts.tolist() == [sum(1 for v in p if edges[b] < v <= edges[b + 1]
                                       or (b == 0 and v == 0)) for b in range(10)]
    assert not view.chooser.isVisible()
    # An operating point lists the rows it calls positive.
    k = 4
    thr = d["ops"].thresholds[k]
    shown = drill(qtbot, window, lambda: view.ops.selectRow(k))
    assert sorted(shown.tolist()) == rows[p >= thr].tolist()
    assert len(shown) == d["ops"].predicted[k] == int(view.ops.item(k, 4).text().replace(",", ""))


def test_roc_view_multiclass_follows_the_class_chooser(qtbot, window):
    rep, view = open_demo(qtbot, window, "logloss")
    rows, t, p = scored_pairs(rep)
    assert view.chooser.isVisible() and view.chooser.count() == p.shape[1]
    with qtbot.waitSignal(window.jobs.delivered, timeout=10000,
                          check_params_cb=lambda k: k == "roc"):
        view.chooser.setCurrentIndex(2)
    fpr, tpr, _ = roc_curve(t == 2, p[:, 2], drop_intermediate=False)
    np.testing.assert_allclose(view.data["fpr"], fpr)
    np.testing.assert_allclose(view.data["tpr"], tpr)
    prob_true, _ = calibration_curve(t == 2, p[:, 2], n_bins=10)
    cal = view.data["cal"]
    np.testing.assert_allclose(cal.observed[cal.counts > 0], prob_true)


@pytest.mark.parametrize("name", ["rmse", "rmsle", "mae", "mcrmse"])
def test_residual_view_lists_the_largest_errors_first(qtbot, window, name):
    rep, view = open_demo(qtbot, window, name)
    rows, t, p = scored_pairs(rep)
    if t.ndim == 2:
        assert view.chooser.isVisible()
        with qtbot.waitSignal(window.jobs.delivered, timeout=10000,
                              check_params_cb=lambda k: k == "residuals"):
            view.chooser.setCurrentIndex(1)
        t, p = t[:, 1], p[:, 1]
    err = np.log1p(p) - np.log1p(t) if name == "rmsle" else p - t
    order = sorted(range(t.size), key=lambda i: -abs(err[i]))
    ids = [str(rep.prepared.ids[rows[i]]) for i in order]
    table = view.largest
    assert [table.item(r, 0).text() for r in range(table.rowCount())] == ids[:table.rowCount()]
    assert table.rowCount() == min(500, t.size)
    # the metric's own error gets a column only where it is not the residual or its size
    heads = [table.horizontalHeaderItem(k).text() for k in range(table.columnCount())]
    assert heads == ["id", "truth", "prediction", "residual"] + (["error"] if name == "rmsle" else [])
    if name == "rmsle":
        np.testing.assert_allclose(float(table.item(0, 4).text()), err[order[0]], rtol=1e-3)
    np.testing.assert_allclose(view.data["res"].residual, p - t)
    assert view.data["res"].sample.size == t.size          # few rows: every point drawn
    shown = drill(qtbot, window, lambda: table.selectRow(3))
    assert shown.tolist() == [rows[order[3]]]


def test_ranking_view_lists_the_costliest_queries(qtbot, window):
    rep, view = open_demo(qtbot, window, "mapk")
    rows, truth, pred = scored_pairs(rep)
    k = rep.result.k

    def apk(actual, predicted):                 # Kaggle's public apk
        predicted = predicted[:k]
        score = hits = 0.0
        for i, x in enumerate(predicted):
            if x in actual and x not in predicted[:i]:
                hits += 1
                score += hits / (i + 1)
        return score / min(len(actual), k) if actual else 0.0
    ap = [apk(list(a), list(q)) for a, q in zip(truth, pred)]
    cost = [(1.0 if len(a) else 0.0) - v for a, v in zip(truth, ap)]
    order = sorted(range(len(ap)), key=lambda i: -cost[i])
    table = view.costly
    got = [table.item(r, 0).text() for r in range(table.rowCount())]
    assert got == [str(rep.prepared.ids[rows[i]]) for i in order][:len(got)]
    counts, edges = view.data["qc"].hist
    assert counts.sum() == len(ap)
    assert counts[0] == sum(1 for v in ap if v < edges[1])
    shown = drill(qtbot, window, lambda: table.selectRow(0))
    assert shown.tolist() == [rows[order[0]]]


def test_each_family_names_its_view_and_an_unknown_kind_gets_the_generic_one():
    from kmetric_gui.gui.views import VIEW_KINDS, view_entry
    from kmetric_gui.gui.views.generic_view import GenericView
    from kmetric_gui.metrics import get_metric, register, unregister
    from kmetric_gui.metrics.rmse import Rmse
    from kmetric_gui.metrics import REGISTRY
    kinds = {name: m.view for name, m in REGISTRY.items() if m.view in VIEW_KINDS}
    assert set(JOB) <= set(kinds) and set(kinds.values()) == set(VIEW_KINDS)   # each kind used
    for name, kind in kinds.items():
        title, cls = view_entry(name)
        assert cls.__name__ == VIEW_KINDS[kind][1] and title == f"{get_metric(name).label} anatomy"

    class Odd(Rmse):
        name, label, view = "odd_rmse", "Odd", "no such view"
    try:
        register(Odd())
        assert view_entry("odd_rmse") == ("Odd anatomy", GenericView)
    finally:
        unregister("odd_rmse")


def test_views_of_one_class_or_nan_scores_draw_without_error(qtbot):
    """A column holding one class (no ROC) and an undefined score draw and say so."""
    from types import SimpleNamespace as NS
    from kmetric_gui.gui.views.roc_view import RocView, roc_data
    from kmetric_gui.metrics import get_metric
    prep = NS(truth=np.zeros(5, np.int8), pred=np.linspace(0, 1, 5), usage=None,
              classes=["target"], target_columns=["target"])
    view = RocView()
    qtbot.addWidget(view)
    view.report = NS(score=float("nan"), n_rows=5, definition=get_metric("auc"), prepared=prep)
    view.prep = prep
    view._show(roc_data(prep, 0))
    assert "undefined" in view.summary.text() and "one class only" in view.summary.text()
    assert view.ops.rowCount() == 0 and view.data["cal"].counts.sum() == 5


@pytest.mark.parametrize("name,titles", [
    ("accuracy", ["confusion matrix", "per class"]),
    ("auc", ["ROC curve", "operating points", "calibration", "rows per bin"]),
    ("rmse", ["truth vs prediction", "residuals", "largest errors"]),
    ("mapk", ["AP per query", "costliest queries"])])
def test_each_view_exports_what_it_draws(qtbot, window, name, titles):
    rep, view = open_demo(qtbot, window, name)
    assert view.export.available_titles() == titles
    table = {"accuracy": "classes", "auc": "ops", "rmse": "largest", "mapk": "costly"}[name]
    lines = getattr(view, table).to_csv().strip().splitlines()
    assert len(lines) == 1 + getattr(view, table).rowCount() > 1


def test_a_chosen_column_is_named_with_its_own_score_in_the_metric_s_words(qtbot, window):
    """MCRMSE's columns are RMSEs; MAE over the same two columns gives each column's MAE
    (the view said "RMSE" for every metric before)."""
    import re
    from sklearn.metrics import mean_absolute_error, mean_squared_error
    from kmetric_gui.gui.file_actions import demo_paths

    def chosen(view, col):
        with qtbot.waitSignal(window.jobs.delivered, timeout=10000,
                              check_params_cb=lambda k: k == "residuals"):
            view.chooser.setCurrentIndex(col)
        m = re.search(r"column <b>([^<]+)</b>: (\w+) ([-\d.e]+)", view.summary.text())
        return m.group(1), m.group(2), float(m.group(3))

    rep, view = open_demo(qtbot, window, "mcrmse")
    rows, t, p = scored_pairs(rep)
    name, word, value = chosen(view, 1)
    assert (name, word) == (rep.prepared.target_columns[1], "RMSE")
    assert value == pytest.approx(np.sqrt(mean_squared_error(t[:, 1], p[:, 1])), rel=1e-5)
    combo = window.options_panel.metric_combo
    combo.setCurrentIndex(combo.findData("mae"))
    sol, sub = demo_paths("mcrmse")
    rep = wait_scored_and(qtbot, window, "residuals", lambda: window.open_files(sol, sub))
    assert rep.metric == "mae"
    view = window.tabs.views["mae"]
    name, word, value = chosen(view, 1)
    assert word == "MAE"
    assert value == pytest.approx(mean_absolute_error(t[:, 1], p[:, 1]), rel=1e-5)
