import numpy as np
import pytest

from conftest import open_view, wait_scored
from kmetric_gui.metrics.kernels import document_matrices, sample_ranking
from kmetric_gui.gui.main_window import demo_paths
from kmetric_gui.analysis.scoring import Options, score_files


def open_lwlrap(qtbot, window):
    return open_view(qtbot, window, "lwlrap")


def open_fbeta(qtbot, window, action=None):
    return open_view(qtbot, window, "fbeta", action)


def test_lwlrap_view_numbers_equal_core(qtbot, window):
    rep = open_lwlrap(qtbot, window)
    view = window.tabs.view("lwlrap")
    assert window.tabs.currentWidget() is view
    want = score_files(*demo_paths("lwlrap")).result
    assert f"{want.score:.6f}" in view.summary.text()
    cm = view.class_model
    shown = {cm.columns[0].values[r]: cm.columns[1].values[r] for r in cm.rows}
    assert shown == pytest.approx(dict(zip(rep.prepared.classes, want.per_class)))
    # worst classes first
    vals = [cm.columns[1].values[r] for r in cm.rows]
    assert vals == sorted(vals)
    # samples table: worst first
    sm = view.samples_model
    s = [want.sample_scores[r] for r in sm.rows if not np.isnan(want.sample_scores[r])]
    assert s == sorted(s)


def test_selecting_a_sample_drives_the_detail(qtbot, window):
    rep = open_lwlrap(qtbot, window)
    view = window.tabs.view("lwlrap")
    view.samples.selectRow(5)
    i = int(view.samples_model.rows[5])
    assert view.current_sample == i
    prep = rep.prepared
    _, _, _, prec = sample_ranking(prep.truth[i], prep.pred[i])
    np.testing.assert_allclose(view.sample_precisions, prec)
    core = rep.result
    mine = core.precisions[core.positive_rows == i]
    assert np.nanmean(view.sample_precisions) == pytest.approx(mine.mean())
    # overview click selects a sample too
    view.overview.cell_clicked.emit(0, 0)
    assert view.current_sample == view.overview_rows[0]


def test_lwlrap_ties_switch_rescores(qtbot, window):
    open_lwlrap(qtbot, window)
    view = window.tabs.view("lwlrap")
    rep = wait_scored(qtbot, window, lambda: view.ties.setCurrentIndex(1))
    assert rep.result.ties == "original"
    assert rep.score == pytest.approx(score_files(*demo_paths("lwlrap"), Options(ties="original")).score)


def test_fbeta_view_documents_and_matrices(qtbot, window):
    rep = open_fbeta(qtbot, window)
    view = window.tabs.view("fbeta")
    assert window.tabs.currentWidget() is view
    per = rep.result.per_document
    errors = [per[r, 1] + per[r, 2] for r in view.docs_model.rows]
    assert errors == sorted(errors, reverse=True)
    view.has_fp.setChecked(True)
    assert len(view.docs_model.rows) == int((per[:, 1] > 0).sum())
    assert all(per[r, 1] > 0 for r in view.docs_model.rows)
    view.has_fp.setChecked(False)
    view.empty_pred.setChecked(True)
    assert all(len(rep.prepared.pred[r]) == 0 for r in view.docs_model.rows)
    view.empty_pred.setChecked(False)
    view.docs.selectRow(2)
    i = int(view.docs_model.rows[2])
    d = document_matrices(rep.prepared.truth[i], rep.prepared.pred[i])
    np.testing.assert_allclose(view.jac_map.values, d.jaccard)
    np.testing.assert_array_equal(view.match_map.values, d.match.astype(float))
    assert [d.tp, d.fp, d.fn] == per[i].tolist()


def test_fbeta_pair_shows_shared_words(qtbot, window):
    open_fbeta(qtbot, window)
    view = window.tabs.view("fbeta")
    i = next(r for r in view.docs_model.rows if view.result.per_document[r, 0] > 0)
    view.select_document(int(i))
    d = view.doc_match
    t, p = map(int, np.argwhere(d.match)[0])
    view.jac_map.cell_clicked.emit(t, p)
    assert "shared words" in view.pair.text() and "matched" in view.pair.text()


@pytest.mark.parametrize("control,value,opts", [
    ("matching", "many-to-one", Options(matching="many-to-one")),
    ("threshold", 30, Options(threshold=0.3)),
    ("beta", 100, Options(beta=1.0)),
    ("clean", True, Options(clean=True)),
])
def test_fbeta_controls_rescore(qtbot, window, control, value, opts):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("fbeta")))
    view = window.tabs.view("fbeta")
    w = getattr(view, control)
    setter = {"matching": lambda: w.setCurrentText(value), "clean": lambda: w.setChecked(value)}.get(
        control, lambda: w.setValue(value))
    rep = wait_scored(qtbot, window, setter)
    want = score_files(*demo_paths("fbeta"), opts).result
    assert (rep.result.tp, rep.result.fp, rep.result.fn) == (want.tp, want.fp, want.fn)
    assert rep.score == pytest.approx(want.score)


def test_exports_write_png_and_csv(qtbot, window, tmp_path):
    import csv
    from PySide6.QtGui import QImage
    rep = wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    kv = window.tabs.view("qwk")
    heat = kv.maps["observed"]
    assert kv.export.save_png(heat, "O", str(tmp_path / "o.png"))
    assert not QImage(str(tmp_path / "o.png")).isNull()
    assert kv.export.save_csv(heat.to_csv, "O", str(tmp_path / "o.csv"))
    rows = list(csv.reader(open(tmp_path / "o.csv")))
    assert np.allclose(np.array([r[1:] for r in rows[1:]], float), rep.result.observed)
    rep = open_fbeta(qtbot, window)
    fv = window.tabs.view("fbeta")
    from kmetric_gui.gui.widgets.export import columns_csv
    fv.export.save_csv(lambda: columns_csv(fv.docs_model), "docs", str(tmp_path / "d.csv"))
    rows = list(csv.reader(open(tmp_path / "d.csv")))
    assert rows[0][:4] == ["Id", "TP", "FP", "FN"] and len(rows) == 121
    assert sum(int(r[1]) for r in rows[1:]) == rep.result.tp


def test_fbeta_documents_table_follows_a_rescore(qtbot, window):
    open_fbeta(qtbot, window)
    view = window.tabs.view("fbeta")
    rep = open_fbeta(qtbot, window, lambda: view.matching.setCurrentText("many-to-one"))
    assert rep.result.matching == "many-to-one"
    tp = view.docs_model.columns[1].values
    assert tp.tolist() == rep.result.per_document[:, 0].tolist()
    want = score_files(*demo_paths("fbeta"), Options(matching="many-to-one")).result
    assert int(tp.sum()) == want.tp
    # a stale table (from an older score) is dropped, not shown
    old_cols = view.docs_model.columns
    view._docs_ready((object(), [], np.zeros(0, int)))
    assert view.docs_model.columns is old_cols
