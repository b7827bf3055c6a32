"""What a view shows after a new sample, an edit or a new file belongs to the data now shown."""
import numpy as np

from conftest import column, open_view, set_cell, wait_scored
from kmetric_gui.gui.main_window import demo_paths


def open_lwlrap(qtbot, window, action=None):
    return open_view(qtbot, window, "lwlrap", action)


def edit_lwlrap_score(qtbot, window, view_row=0, class_index=0, value="0.5"):
    col = column(window, "pred", class_index)
    return open_lwlrap(qtbot, window, lambda: set_cell(window, view_row, col, value))


def rank_axis_ticks(qtbot, view):
    """The ranking chart's left axis: its value scale and the numbers it draws."""
    qtbot.wait(50)                      # the view box's auto range reaches the axis
    ax = view.rank_plot.getAxis("left")
    lo, hi = ax.range
    values = [v for _, vs in ax.tickValues(lo, hi, 200) for v in vs]
    return ax.autoSIPrefixScale * ax.scale, ax.tickStrings(values, ax.autoSIPrefixScale * ax.scale, 0.1)


def test_ranking_axis_reads_scores_after_another_sample_and_an_edit(qtbot, window):
    rep = open_lwlrap(qtbot, window)
    view = window.tabs.view("lwlrap")
    view.tabs.setCurrentIndex(1)
    view.samples.selectRow(0)
    for row in (3, 7):                  # after the first sample the range is the scores'
        view.samples.selectRow(row)
        i = view.current_sample
        scale, ticks = rank_axis_ticks(qtbot, view)
        assert scale == 1.0
        top = float(np.max(rep.prepared.pred[i]))
        assert max(float(t) for t in ticks) <= top * 1.2 + 0.2       # scores, not thousandths
    edit_lwlrap_score(qtbot, window)
    scale, ticks = rank_axis_ticks(qtbot, view)
    assert scale == 1.0
    assert max(float(t) for t in ticks) <= 1.2


def test_sample_selection_is_kept_across_an_edit(qtbot, window):
    open_lwlrap(qtbot, window)
    view = window.tabs.view("lwlrap")
    view.samples.selectRow(5)
    chosen = view.current_sample
    chosen_id = str(view.prep.ids[chosen])
    # edit another sample's score: the one picked stays picked (and drawn from the new data)
    other = next(r for r in range(window.table_panel.model.rowCount())
                 if int(window.table_panel.model.rows[r]) != chosen)
    rep = edit_lwlrap_score(qtbot, window, view_row=other)
    assert str(view.prep.ids[view.current_sample]) == chosen_id
    row = view.samples.selectionModel().currentIndex().row()
    assert int(view.samples_model.rows[row]) == view.current_sample
    assert f"{rep.result.sample_scores[view.current_sample]:.4f}" in view.sample_title.text()
    # the ties switch rescoring keeps it too
    open_lwlrap(qtbot, window, lambda: view.ties.setCurrentIndex(1))
    assert str(view.prep.ids[view.current_sample]) == chosen_id


def open_fbeta(qtbot, window, action=None):
    return open_view(qtbot, window, "fbeta", action)


def pair_line_is_current(view, t, p):
    """The word-pair line describes cell (t, p) of the document shown now, or nothing."""
    text, d = view.pair.text(), view.doc_match
    if f"t{t + 1} × p{p + 1}:" not in text:
        return "shared words:" not in text
    return (t < d.jaccard.shape[0] and p < d.jaccard.shape[1]
            and f"Jaccard {d.jaccard[t, p]:.4f}" in text
            and text.endswith("matched") == bool(d.match[t, p]))


def test_fbeta_pair_line_follows_an_edit_and_a_new_beta(qtbot, window):
    open_fbeta(qtbot, window)
    view = window.tabs.view("fbeta")
    per = view.result.per_document
    # a document with a matched pair and one more prediction than its matches
    i = next(int(r) for r in view.docs_model.rows if per[r, 0] > 0 and per[r, 1] > 0)
    view.select_document(i)
    t, p = map(int, np.argwhere(view.doc_match.match)[-1])
    view.jac_map.cell_clicked.emit(t, p)
    assert "matched" in view.pair.text()
    # predict exactly its ground truths: the sorted predictions move, so (t, p) changes
    tm = window.table_panel.model
    row = tm.view_row(i)
    truths = tm.data(tm.index(row, column(window, "truth")))
    open_fbeta(qtbot, window, lambda: set_cell(window, row, column(window, "pred"), truths))
    assert view.doc == i
    assert view.doc_match.fp == 0
    assert pair_line_is_current(view, t, p), view.pair.text()
    open_fbeta(qtbot, window, lambda: view.beta.setValue(100))
    assert pair_line_is_current(view, t, p), view.pair.text()
    # another document: the pair of the first is not described as this one's
    other = next(int(r) for r in view.docs_model.rows if int(r) != i)
    view.select_document(other)
    assert "shared words:" not in view.pair.text()


def test_status_bar_drops_the_previous_files_problem(qtbot, window, tmp_path):
    from pathlib import Path
    truth, sub = demo_paths("qwk")
    lines = Path(sub).read_text().splitlines()
    bad = tmp_path / "bad_dup.csv"
    bad.write_text("\n".join(lines + [lines[1]]) + "\n")        # one id twice
    with qtbot.waitSignal(window.failed, timeout=10000) as b:
        window.open_files(truth, str(bad))
    assert "bad_dup.csv" in window.statusBar().currentMessage()
    wait_scored(qtbot, window, lambda: window.open_files(truth, sub))
    assert b.args[0] not in window.statusBar().currentMessage()
    assert "bad_dup.csv" not in window.statusBar().currentMessage()


def test_main_table_fits_numbers_and_gives_the_rest_to_text(qtbot, window):
    window.fit_to((1280, 720))
    open_fbeta(qtbot, window)
    t = window.table_panel.table
    cols = window.table_panel.model.columns
    qtbot.wait(50)
    fm = t.fontMetrics()
    widths = [t.columnWidth(c) for c in range(len(cols))]
    for c, col in enumerate(cols):
        if col.align_right:         # counts: their header or a few digits, plus the margins
            assert widths[c] <= max(fm.horizontalAdvance(col.name), fm.horizontalAdvance("0000")) + 40
    assert sum(widths) <= t.viewport().width() + 1         # every count on screen
    text = [c for c, col in enumerate(cols) if not col.align_right]
    assert max(widths[c] for c in text) >= 150
    open_lwlrap(qtbot, window)
    cols = window.table_panel.model.columns
    for c, col in enumerate(cols):
        if col.spec is not None and col.spec.name == "pred":
            assert t.columnWidth(c) <= max(fm.horizontalAdvance(col.name),
                                           fm.horizontalAdvance("0.0000")) + 40


def test_fbeta_maps_keep_a_readable_height_at_1280x720(qtbot, window):
    window.fit_to((1280, 720))
    open_fbeta(qtbot, window)
    view = window.tabs.view("fbeta")
    qtbot.wait(50)
    # three ground-truth rows of ~30 px each, with the axes around them
    assert view.jac_map.height() >= 120, view.jac_map.height()


def test_lwlrap_class_table_shows_whole_values_at_1280x720(qtbot, window):
    """Equal stretched columns elided every value ('0.5...', 'wlrap') at 1280 px: each
    column is now as wide as its header and values (the table scrolls sideways)."""
    window.fit_to((1280, 720))
    open_lwlrap(qtbot, window)
    view = window.tabs.view("lwlrap")
    t, m = view.class_table, view.class_table.model()
    qtbot.wait(50)
    fm = t.fontMetrics()
    for c in range(m.columnCount()):
        texts = [str(m.headerData(c, 1))] + [str(m.data(m.index(r, c)) or "")
                                             for r in range(m.rowCount())]
        assert t.columnWidth(c) >= max(fm.horizontalAdvance(x) for x in texts), (c, texts)


def test_lwlrap_overview_says_which_cells_are_no_positive_label(qtbot, window):
    """Cells that are no positive label hold no value ('–'), the colour bar's bottom
    says 'none' and its values start at 0 (it read -0.25 with no word of why)."""
    open_lwlrap(qtbot, window)
    view = window.tabs.view("lwlrap")
    r, ov = view.result, view.overview
    ticks = ov.scale_ticks()
    assert ticks[0] == (0.0, "none") and ticks[1] == (0.2, "0") and ticks[2][0] == 1.0
    rows = view.overview_rows
    want = np.full((len(rows), ov.values.shape[1]), np.nan)
    for s, c, v in zip(r.positive_rows, r.positive_classes, r.precisions):
        if int(s) in rows:
            want[rows.index(int(s)), c] = v
    assert np.array_equal(np.isnan(ov.values), np.isnan(want))
    assert np.allclose(ov.values[~np.isnan(want)], want[~np.isnan(want)])


def test_a_failed_rescore_leaves_no_old_number_on_screen(qtbot, window):
    """An edit the score refuses (a rating 1000: more classes than kappa takes) keeps the
    data but not its numbers: 'Not scored', views hidden, problems as errors; a good
    edit after it scores and shows the load's notes again (found in review)."""
    from kmetric_gui.gui.main_window import demo_paths
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    col = column(window, "pred")
    with qtbot.waitSignal(window.controller.failed, timeout=20000):
        set_cell(window, 0, col, "1000")
    assert window.session.data is not None and window.problems.list.count() == 1
    assert "note" not in window.problems.header.text()
    assert "Not scored" in window.score_panel.metric_label.text()
    assert window.score_panel.score_label.text() == "—"
    assert not window.tabs.isVisible()
    wait_scored(qtbot, window, lambda: set_cell(window, 0, col, "1"))
    assert window.problems.list.count() == 0 and window.problems.header.text() == "No problems"
    assert window.tabs.isVisible() and window.score_panel.score_label.text() != "—"
