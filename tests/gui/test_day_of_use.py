"""Rough edges found in a day of use in a real window (issue 24), each pinned offscreen."""
from kmetric_gui.gui.widgets.drop_zone import DropZone


def test_drop_zone_elides_file_name_in_the_middle(qtbot, tmp_path):
    zone = DropZone("Submission")
    qtbot.addWidget(zone)
    path = tmp_path / "qwk_submission_final_blend_v7.csv"
    zone.set_path(str(path))
    zone.resize(300, 40)
    zone.show()
    qtbot.waitExposed(zone)
    label = zone._path
    shown = label.text()
    assert "…" in shown
    assert shown.startswith("qwk_") and shown.endswith(".csv")     # both ends kept
    assert label.fontMetrics().horizontalAdvance(shown) <= label.width()
    assert label.toolTip() == str(path)
    zone.resize(900, 40)                      # room again: the whole name
    qtbot.wait(10)
    assert label.text() == path.name
