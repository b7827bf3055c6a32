import numpy as np
import pytest
from PySide6.QtCore import QPointF

from conftest import prep, wait_scored
from kmetric_gui.metrics.kernels import apply_cuts, kappa_from_confusion, weighted_kappa
from kmetric_gui.gui.main_window import demo_paths
from kmetric_gui.gui.views.kappa_presets import PRESETS, agreement_band
from kmetric_gui.gui.views.kappa_view import MATRICES, matrix_of
from kmetric_gui.analysis.scoring import score_files


def test_view_shows_the_cores_matrices(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    view = window.tabs.view("qwk")
    assert window.tabs.isVisible() and window.tabs.currentWidget() is view
    want = score_files(*demo_paths("qwk")).result
    for key, _, _ in MATRICES:
        assert np.allclose(view.maps[key].values, matrix_of(want, key))
    assert f"{want.score:.6f}" in view.summary.text()
    assert f"{want.numerator:.4f}" in view.summary.text()
    # normalised toggle divides by N (weights stay 0..1)
    view.normalised.setChecked(True)
    assert np.allclose(view.maps["observed"].display, want.observed / want.n)
    assert np.allclose(view.maps["weights"].display, want.weights)
    assert view.maps["observed"].to_csv().splitlines()[0] == ",0,1,2,3,4"


def test_clicking_an_o_cell_filters_the_table(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    heat = window.tabs.view("qwk").maps["observed"]
    heat.resize(400, 400)
    with qtbot.waitSignal(window.table_panel.rows_shown, timeout=10000):
        heat.cell_clicked.emit(2, 1)          # truth 2, prediction 1
    rows = window.table_panel.model.rows
    o = window.session.results.report.result.observed
    assert len(rows) == o[2, 1] > 0
    assert np.all(prep(window).truth[rows] == 2) and np.all(prep(window).pred[rows] == 1)
    assert window.table_panel.show_all.isVisible()
    with qtbot.waitSignal(window.table_panel.rows_shown, timeout=10000):
        window.table_panel.show_all.click()
    assert len(window.table_panel.model.rows) == 600


def test_cell_hit_testing_maps_scene_to_cell(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    heat = window.tabs.view("qwk").maps["observed"]
    vb = heat.vb
    for i, j in ((0, 0), (3, 1), (4, 4)):
        assert heat.cell_at(vb.mapViewToScene(QPointF(j + 0.2, i - 0.2))) == (i, j)


@pytest.mark.parametrize("n", [0, 6, 12])
def test_presets_load_and_match_core(qtbot, window, n):
    view = window.tabs.view("qwk")
    view.source.setCurrentIndex(view.source.findData(f"preset-{n}"))
    title, m = PRESETS[n]
    want = kappa_from_confusion(m)
    assert view.result.score == pytest.approx(want.score, nan_ok=True)
    assert np.array_equal(view.maps["observed"].values, np.array(m, float))


def test_whatif_edit_updates_every_matrix(qtbot, window):
    view = window.tabs.view("qwk")
    view.source.setCurrentIndex(view.source.findData("preset-0"))
    assert view.result.score == pytest.approx(1.0)
    view.set_whatif_cell(0, 3, 50)
    m = np.array(PRESETS[0][1], float)
    m[0, 3] = 50
    want = kappa_from_confusion(m)
    assert view.result.score == pytest.approx(want.score)
    assert np.allclose(view.maps["expected"].values, want.expected)
    view.weights.setCurrentText("linear")
    assert view.result.score == pytest.approx(kappa_from_confusion(m, weights="linear").score)
    view.set_whatif_cell(1, 1, "abc")
    assert "not a count" in view.whatif_hint.text()


def test_empty_matrix_is_undefined_not_a_crash(qtbot, window):
    view = window.tabs.view("qwk")
    view.source.setCurrentIndex(view.source.findData("whatif-empty"))
    assert np.isnan(view.result.score) and "undefined" in view.summary.text()
    view.k_spin.setValue(30)
    view.set_whatif_cell(0, 29, 3)
    view.set_whatif_cell(29, 0, 1)
    assert view.maps["observed"].k == 30


def test_view_weights_switch_rescores_the_files(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    rep = wait_scored(qtbot, window, lambda: window.tabs.view("qwk").weights.setCurrentText("none"))
    assert rep.result.weighting == "none"
    assert window.options_panel.weights.currentText() == "none"
    assert np.allclose(window.tabs.view("qwk").maps["weights"].values, 1 - np.eye(5))


def test_agreement_bands():
    assert agreement_band(0.1) == "poor agreement"
    assert agreement_band(0.7) == "very good agreement"
    assert agreement_band(1.0) == "complete agreement"
    assert agreement_band(-0.3) == "less than chance agreement"


def test_continuous_predictions_optimise_and_apply(qtbot, window, tmp_path):
    rng = np.random.default_rng(5)
    n = 400
    t = rng.choice(5, n, p=[.4, .2, .2, .1, .1])
    x = np.round(t + rng.normal(0.45, 0.7, n), 3)
    ids = [f"r{i:04d}" for i in range(n)]
    (tmp_path / "sol.csv").write_text("id,y\n" + "".join(f"{a},{b}\n" for a, b in zip(ids, t)))
    (tmp_path / "sub.csv").write_text("id,y\n" + "".join(f"{a},{b}\n" for a, b in zip(ids, x)))
    rep = wait_scored(qtbot, window, lambda: window.open_files(tmp_path / "sol.csv",
                                                               tmp_path / "sub.csv"))
    rounded = weighted_kappa(t, apply_cuts(x, [0.5, 1.5, 2.5, 3.5]), min_rating=0, max_rating=4)
    assert rep.cuts is not None and rep.score == pytest.approx(rounded.score)
    view = window.tabs.view("qwk")
    assert window.tabs.view("qwk").tabs.isTabVisible(view.cuts_tab)
    with qtbot.waitSignal(window.jobs.delivered, timeout=20000,
                          check_params_cb=lambda kind: kind == "kappa-cuts"):
        view.optimise_button.click()
    after = view.cut_result
    assert after.kappa >= rounded.score
    assert after.kappa == pytest.approx(weighted_kappa(
        t, apply_cuts(x, after.cuts), min_rating=0, max_rating=4).score)
    rep2 = wait_scored(qtbot, window, view.apply_button.click)
    assert rep2.cuts is None and rep2.score == pytest.approx(after.kappa)
    assert np.all(prep(window).pred == np.floor(prep(window).pred))
    rep3 = wait_scored(qtbot, window, window.session.undo)      # undoable
    assert rep3.cuts is not None and rep3.score == pytest.approx(rounded.score)


def test_cut_points_chart_is_not_offered_for_integer_ratings(qtbot, window, tmp_path):
    """After continuous predictions, a file of whole ratings has no cut-points chart to
    export (the old histogram stayed exportable: found in review)."""
    from pathlib import Path
    truth, sub = demo_paths("qwk")
    lines = Path(sub).read_text().splitlines()
    lines[1:] = [f"{x.split(',')[0]},{float(x.split(',')[1]) + 0.3}" for x in lines[1:]]
    cont = tmp_path / "continuous.csv"
    cont.write_text("\n".join(lines) + "\n")
    view = window.tabs.view("qwk")
    with qtbot.waitSignal(window.jobs.delivered, timeout=20000,
                          check_params_cb=lambda kind: kind == "kappa-dist"):
        wait_scored(qtbot, window, lambda: window.open_files(truth, str(cont)))
    assert "cut points" in view.export.available_titles()
    wait_scored(qtbot, window, lambda: window.open_files(truth, sub))
    assert "cut points" not in view.export.available_titles()
