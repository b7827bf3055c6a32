"""Fitted columns never elide the texts they were fitted to: Qt's size hint measures
text in whole pixels, so 'd44d87e01619' (91.2 px) got 91 px of room and showed
'd44d87e016…' in the Fix first list (seen under Xvfb, issue 24)."""
import random

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QStyle, QTableView


class _Texts(QAbstractTableModel):
    def __init__(self, columns):
        super().__init__()
        self.columns = columns

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self.columns[0])

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index, role=Qt.DisplayRole):
        if role == Qt.DisplayRole:
            return self.columns[index.column()][index.row()]
        return None

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        return "c" if role == Qt.DisplayRole else None


def room(table, c):
    """The width Qt's item painter leaves for text in column ``c`` (it elides beyond)."""
    margin = table.style().pixelMetric(QStyle.PM_FocusFrameHMargin, None, table) + 1
    return table.columnWidth(c) - (1 if table.showGrid() else 0) - 2 * margin


def test_fitted_columns_leave_room_for_every_texts_full_width(qtbot):
    from kmetric_gui.gui.models.table import fit_columns
    rng = random.Random(3)
    ids = ["d44d87e01619"] + ["".join(rng.choice("0123456789abcdef") for _ in range(12))
                              for _ in range(29)]
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz.il") for _ in range(rng.randint(3, 15)))
             for _ in range(30)]
    table = QTableView()
    qtbot.addWidget(table)
    table.setModel(_Texts([[str(k) for k in range(30)], ids, words]))
    table.show()
    fit_columns(table)
    fm = QFontMetricsF(table.font())
    for c, texts in ((1, ids), (2, words)):
        need = max(fm.horizontalAdvance(t) for t in texts)
        assert need <= room(table, c), (c, need, room(table, c))


def test_fix_first_ids_are_not_cut(qtbot, window):
    from conftest import wait_scored
    from kmetric_gui.gui.main_window import demo_paths
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    qtbot.waitUntil(lambda: getattr(window.tabs, "fixes", None) is not None, timeout=20000)
    panel = window.tabs.fixes.panel
    qtbot.waitUntil(lambda: panel.model.rowCount() > 0, timeout=20000)
    window.tabs.setCurrentWidget(window.tabs.fixes)
    fm = QFontMetricsF(panel.table.font())
    ids = [str(i) for i in panel.model.ids[:30]]
    assert max(fm.horizontalAdvance(i) for i in ids) <= room(panel.table, 1)


def test_fix_first_shows_whole_uuids_and_a_tooltip(qtbot, window):
    """F-beta's ids are UUIDs: the list cut them at 24 characters ('85ffa073-497c-e74d…')
    while the error column had hundreds of pixels to spare, with no tooltip."""
    from PySide6.QtCore import Qt

    from conftest import open_view
    window.fit_to((1280, 720))
    open_view(qtbot, window, "fbeta")
    qtbot.waitUntil(lambda: getattr(window.tabs, "fixes", None) is not None, timeout=30000)
    panel = window.tabs.fixes.panel
    qtbot.waitUntil(lambda: panel.model.rowCount() > 0, timeout=30000)
    ids = [str(i) for i in panel.model.ids[:30]]
    assert max(map(len, ids)) == 36
    fm = QFontMetricsF(panel.table.font())
    assert max(fm.horizontalAdvance(i) for i in ids) <= room(panel.table, 1)
    m = panel.model
    assert m.data(m.index(0, 1), Qt.ToolTipRole) == ids[0]


def test_a_compared_submissions_column_is_on_screen_with_its_header(qtbot, window):
    """The compared file's column came at a default width past the table's right edge
    ('diagnosis) — qwk_submi', seen under Xvfb at 1280x720 and 1920x1080): the id
    column kept the spare width it had before."""
    from conftest import wait_scored
    from kmetric_gui.gui.main_window import demo_paths
    window.fit_to((1280, 720))
    sol, sub = demo_paths("qwk")
    wait_scored(qtbot, window, lambda: window.open_files(sol, sub))
    with qtbot.waitSignal(window.session.compare_changed, timeout=60000,
                          check_params_cb=lambda r: r is not None and r.comparison is not None):
        window.controller.compare_jobs.add([sub.replace("qwk_submission", "qwk_submission_b")])
    qtbot.wait(100)
    t = window.table_panel.table
    m, head = t.model(), t.horizontalHeader()
    last = m.columnCount() - 1
    assert "qwk_submission_b" in m.headerData(last, Qt.Horizontal)
    assert head.sectionSizeHint(last) <= t.viewport().width() // 2      # so it must fit:
    assert head.sectionSizeHint(last) <= t.columnWidth(last)        # its header whole
    assert head.sectionViewportPosition(last) + t.columnWidth(last) <= t.viewport().width()


def test_a_compared_text_column_fits_beside_the_others(qtbot, window):
    """F-beta's compared PredictionString column made the table wider than its view."""
    from conftest import open_view
    from kmetric_gui.gui.main_window import demo_paths
    window.fit_to((1920, 1080))
    open_view(qtbot, window, "fbeta")
    sub = demo_paths("fbeta")[1]
    with qtbot.waitSignal(window.session.compare_changed, timeout=60000,
                          check_params_cb=lambda r: r is not None and r.comparison is not None):
        window.controller.compare_jobs.add([sub.replace("fbeta_submission", "fbeta_submission_b")])
    qtbot.wait(100)
    t = window.table_panel.table
    assert "fbeta_submission_b" in t.model().headerData(t.model().columnCount() - 1, Qt.Horizontal)
    assert t.horizontalHeader().length() <= t.viewport().width()
