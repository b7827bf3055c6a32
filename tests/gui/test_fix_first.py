"""The fix-first panel: list, slider, curve and the rows it hands to the table."""
from pathlib import Path

import numpy as np
import pytest

from kmetric_gui.analysis.fixes import top_fixes
from kmetric_gui.analysis.scoring import score_files

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"


@pytest.fixture
def panel(qtbot):
    from kmetric_gui.gui.widgets.fix_first import FixFirstPanel
    w = FixFirstPanel()
    qtbot.addWidget(w)
    w.resize(520, 640)
    w.show()
    return w


def _report(metric):
    return score_files(DEMO / f"{metric}_solution.csv", DEMO / f"{metric}_submission.csv")


@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta"])
def test_list_curve_and_slider_show_the_greedy_fixes(panel, qtbot, metric):
    rep = _report(metric)
    tf = top_fixes(rep, 40)
    panel.set_top_fixes(tf)
    m = panel.model
    assert m.rowCount() == len(tf.fixes) == 40
    assert [m.data(m.index(r, 1)) for r in range(3)] == [str(i) for i in tf.ids[:3]]
    assert m.data(m.index(0, 3)) == f"{tf.fixes.score_after[0]:.6f}"
    assert m.data(m.index(0, 4)) == tf.details[0] and tf.details[0]
    x, y = panel.curve.getData()
    assert np.array_equal(y, np.concatenate(([rep.score], tf.fixes.score_after)))
    assert panel.slider.maximum() == 40 and panel.slider.value() == 10
    assert f"{tf.fixes.score_after[9]:.6f}" in panel.summary.text()
    with qtbot.waitSignal(panel.rows_selected) as blocker:
        panel.set_top(5)
    assert blocker.args[0] == tf.rows[:5].tolist()
    assert panel.marker.value() == 5 and panel.spin.value() == 5
    # the rows handed out are the listed ids' rows in the solution
    assert [rep.prepared.ids[r] for r in blocker.args[0]] == list(tf.ids[:5])
    assert m.data(m.index(4, 0), 8) is not None and m.data(m.index(5, 0), 8) is None  # 8: background


def test_picking_rows_in_the_list_selects_those_units(panel, qtbot):
    tf = top_fixes(_report("qwk"), 20)
    panel.set_top_fixes(tf)
    with qtbot.waitSignal(panel.rows_selected) as blocker:
        panel.table.selectRow(7)
    assert blocker.args[0] == [int(tf.rows[7])]


def test_dragging_the_marker_moves_the_slider(panel):
    panel.set_top_fixes(top_fixes(_report("fbeta"), 30))
    panel.marker.setValue(17.4)
    panel.marker.sigPositionChangeFinished.emit(panel.marker)
    assert panel.slider.value() == 17


def test_no_gains_shows_the_reason(panel, tmp_path):
    from filemaker import write
    sol = write(tmp_path / "s.csv", "id,y\na,2\nb,2\n")
    sub = write(tmp_path / "p.csv", "id,y\na,1\nb,2\n")
    panel.set_top_fixes(top_fixes(score_files(sol, sub), 5))
    assert panel.model.rowCount() == 0 and panel.slider.maximum() == 0
    assert panel.summary.text().startswith("No gains: every truth is rating 2")


def test_clear_empties_the_list_and_says_so(panel):
    panel.set_top_fixes(top_fixes(_report("qwk"), 10))
    panel.clear("Open two files to see what to fix first")
    assert panel.model.rowCount() == 0 and panel.slider.maximum() == 0
    assert panel.summary.text() == "Open two files to see what to fix first"
