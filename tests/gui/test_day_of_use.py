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


def _rendered(label):
    """The words a rich-text label shows."""
    from PySide6.QtGui import QTextDocument
    doc = QTextDocument()
    doc.setHtml(label.text())
    return doc.toPlainText()


def test_honest_check_text_is_shown_whole(qtbot):
    from kmetric_gui.gui.views.fixes_page import FixesPage
    page = FixesPage()
    qtbot.addWidget(page)

    class Report:
        curve = None

        @staticmethod
        def lines():
            return ["Cut points fitted on Public, scored on Private",
                    "  gain +0.0041; standard error 0.0050 (|gain| < 2 SE): noise",
                    "  ids <a&b> kept"]
    page.show_honest(Report())
    shown = _rendered(page.honest_text)
    assert "(|gain| < 2 SE): noise" in shown
    assert "ids <a&b> kept" in shown
    assert shown.startswith("Cut points fitted on Public")


def test_rich_labels_escape_user_text(qtbot):
    from types import SimpleNamespace

    from kmetric_gui.gui.views.compare_page import ComparePage
    page = ComparePage()
    qtbot.addWidget(page)
    page.show_results(SimpleNamespace(comparison=None,
                                      problems=["submission <b>x.csv: id 'a<b' twice"]))
    assert _rendered(page.problems) == "submission <b>x.csv: id 'a<b' twice"
