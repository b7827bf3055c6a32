"""Rough edges found in a day of use in a real window (issue 24), each pinned offscreen."""
import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeySequence

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


def _demo_copy(tmp_path, name="qwk"):
    import shutil

    from kmetric_gui.gui.file_actions import demo_paths
    out = []
    for p in demo_paths(name):
        out.append(str(shutil.copy(p, tmp_path)))
    return out


class _X11LineEditKeys(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.ShortcutOverride and \
                QKeySequence(event.keyCombination()) == QKeySequence("Ctrl+E"):
            event.accept()
            return True
        return False


def test_ctrl_e_exports_from_the_filter_box(qtbot, window, tmp_path):
    from PySide6.QtCore import Qt

    from conftest import wait_scored
    wait_scored(qtbot, window, lambda: window.open_files(*_demo_copy(tmp_path)))
    asked = []
    window.reports.ask_folder = lambda: asked.append(1) or ""
    window.activateWindow()
    box = window.table_panel.filter
    x11 = _X11LineEditKeys()              # offscreen has no emacs keys: the box takes
    box.installEventFilter(x11)           # Ctrl+E as QLineEdit does under X11
    keys = getattr(window, "window_keys", None)
    if keys is not None:                  # the app's filter, as installed at start: first
        box.removeEventFilter(keys)
        box.installEventFilter(keys)
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    box.setText("abc")
    box.setCursorPosition(0)
    qtbot.keyClick(box, Qt.Key_E, Qt.ControlModifier)
    assert asked == [1]                   # the export dialog was asked for
    assert box.cursorPosition() == 0      # and the box did not take the key
    qtbot.keyClick(box, Qt.Key_A, Qt.ControlModifier)     # editing keys stay with the box
    assert box.selectedText() == "abc" and asked == [1]


def test_ctrl_s_saves_the_submission_in_place(qtbot, window, tmp_path):
    from PySide6.QtCore import Qt

    from conftest import wait_scored
    sol, sub = _demo_copy(tmp_path)
    wait_scored(qtbot, window, lambda: window.open_files(sol, sub))
    before = open(sub).read()
    window.activateWindow()
    window.table_panel.setFocus()
    with qtbot.waitSignal(window.controller.saved, timeout=10000) as saved:
        qtbot.keyClick(window.table_panel, Qt.Key_S, Qt.ControlModifier)
    assert saved.args[0] == sub
    import csv
    rows = list(csv.reader(open(sub)))
    assert rows[0] == ["id_code", "diagnosis"]
    assert sorted(rows[1:]) == sorted(list(csv.reader(before.splitlines()))[1:])


def test_save_as_refuses_the_solution_in_the_dialog(qtbot, tmp_path):
    from kmetric_gui.gui.dialogs import SaveSubmissionDialog
    sol = tmp_path / "qwk_solution.csv"
    sol.write_text("id,y\n1,0\n")
    dlg = SaveSubmissionDialog(None, str(tmp_path / "sub_edited.csv"), str(sol))
    qtbot.addWidget(dlg)
    refused = []
    dlg.refuse = refused.append          # Qt's own "Replace?" would block here: it must not come
    dlg.show()
    dlg.selectFile(str(sol))
    dlg.accept()
    assert refused and "solution" in refused[0]
    assert dlg.isVisible() and dlg.result() != 1
    dlg.selectFile(str(tmp_path / "other.csv"))
    dlg.accept()
    assert dlg.result() == 1 and dlg.selectedFiles()[0] == str(tmp_path / "other.csv")


def test_compare_cell_drill_down_follows_an_edit(qtbot, window):
    """Cell says 58 after the edit: the table must say 58 too (it kept '59 of 600')."""
    import numpy as np

    from conftest import column, prep, set_cell, wait_scored
    from kmetric_gui.gui.file_actions import demo_paths
    from kmetric_gui.paths import resources_dir
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    with qtbot.waitSignal(window.session.compare_changed, timeout=60000,
                          check_params_cb=lambda r: r is not None and r.comparison is not None):
        window.controller.compare_jobs.add([str(resources_dir() / "demo" / "qwk_submission_b.csv")])
    view = window.tabs.compare.view
    n = int(view.pair.differ.agreement[2, 1])
    model = window.table_panel.model
    with qtbot.waitSignal(window.table_panel.rows_shown, timeout=10000):
        view.heatmap.cell_clicked.emit(2, 1)
    assert model.rowCount() == n > 1
    with qtbot.waitSignal(window.session.compare_changed, timeout=60000,
                          check_params_cb=lambda r: r is not None and r.comparison is not None):
        set_cell(window, 0, column(window, "pred"), "4")      # A's 2 becomes 4: leaves the cell
    qtbot.waitUntil(lambda: int(view.pair.differ.agreement[2, 1]) == n - 1, timeout=10000)
    qtbot.waitUntil(lambda: model.rowCount() == n - 1, timeout=10000)
    assert np.all(prep(window).pred[model.rows] == 2)
    assert f"{n - 1:,} of 600 rows" in window.table_panel.label.text()


def _compare_at(qtbot, window, size):
    from conftest import wait_scored
    from kmetric_gui.gui.file_actions import demo_paths
    from kmetric_gui.paths import resources_dir
    window.fit_to(size)
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    with qtbot.waitSignal(window.session.compare_changed, timeout=60000,
                          check_params_cb=lambda r: r is not None and r.comparison is not None):
        window.controller.compare_jobs.add([str(resources_dir() / "demo" / "qwk_submission_b.csv")])
    window.tabs.setCurrentWidget(window.tabs.compare)
    qtbot.wait(100)
    return window.tabs.compare.view


@pytest.mark.parametrize("size", [(1280, 720), (1366, 768)])
def test_compare_heatmap_has_room_for_its_numbers(qtbot, window, size):
    view = _compare_at(qtbot, window, size)
    hm = view.heatmap
    assert hm.isVisible()
    cell = hm.cell_rect(0, 0)
    assert cell.height() >= 18, (cell.height(), hm.height())
    numbers = [t for k, _, t in hm.label_rects() if k == "cell"]
    assert len(numbers) == 25          # every count of the 5 x 5 agreement matrix shown


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_fix_first_gain_column_is_whole(qtbot, window, size):
    from conftest import wait_scored
    from kmetric_gui.gui.file_actions import demo_paths
    window.fit_to(size)
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    qtbot.waitUntil(lambda: getattr(window.tabs, "fixes", None) is not None
                    and window.tabs.fixes.panel.model.rowCount() > 0,
                    timeout=20000)
    window.tabs.setCurrentWidget(window.tabs.fixes)
    qtbot.wait(100)
    table = window.tabs.fixes.panel.table
    model, head, fm = table.model(), table.horizontalHeader(), table.fontMetrics()
    for c in (2, 3):        # gain, score after: never elided
        widest = max(fm.horizontalAdvance(model.data(model.index(r, c))) for r in range(model.rowCount()))
        assert head.sectionSize(c) >= widest + 12, (c, head.sectionSize(c), widest)
        assert head.sectionViewportPosition(c) + head.sectionSize(c) <= table.viewport().width()
    ids = max(fm.horizontalAdvance(model.data(model.index(r, 1))) for r in range(model.rowCount()))
    assert head.sectionSize(1) <= ids + 40          # the id column does not take the width
    assert head.sectionSize(4) >= fm.horizontalAdvance("truth 4, predicted 2")


def test_an_edit_keeps_the_fix_first_tab(qtbot, window):
    from conftest import column, set_cell, wait_scored
    from kmetric_gui.gui.file_actions import demo_paths
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    qtbot.waitUntil(lambda: getattr(window.tabs, "fixes", None) is not None, timeout=20000)
    window.tabs.setCurrentWidget(window.tabs.fixes)
    wait_scored(qtbot, window, lambda: set_cell(window, 0, column(window, "pred"), "4"))
    qtbot.wait(50)
    assert window.tabs.currentWidget() is window.tabs.fixes
    wait_scored(qtbot, window, window.session.undo)
    assert window.tabs.currentWidget() is window.tabs.fixes


def test_class_names_are_kept_per_dataset(qtbot, window, tmp_path):
    import shutil

    from conftest import wait_scored
    from kmetric_gui.gui.file_actions import demo_paths
    sol, sub = demo_paths("qwk")
    other = tmp_path / "other_solution.csv"
    shutil.copy(sol, other)
    wait_scored(qtbot, window, lambda: window.open_files(sol, sub))
    names = window.tabs.view("qwk").names
    names.setText("none, mild, moderate, severe, proliferative")
    names.editingFinished.emit()
    wait_scored(qtbot, window, lambda: window.open_files(str(other), sub))
    assert names.text() == ""                    # another dataset: not its names
    names.setText("a, b, c, d, e")
    names.editingFinished.emit()
    wait_scored(qtbot, window, lambda: window.open_files(sol, sub))
    assert names.text() == "none, mild, moderate, severe, proliferative"
    wait_scored(qtbot, window, lambda: window.open_files(str(other), sub))
    assert names.text() == "a, b, c, d, e"


def test_fix_first_keyboard_flow(qtbot, window):
    from PySide6.QtCore import Qt

    from conftest import prep, wait_scored
    from kmetric_gui.gui.file_actions import demo_paths
    rep = wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    qtbot.waitUntil(lambda: getattr(window.tabs, "fixes", None) is not None
                    and window.tabs.fixes.panel.model.rowCount() > 0, timeout=20000)
    window.tabs.setCurrentWidget(window.tabs.fixes)
    panel = window.tabs.fixes.panel
    first_id, gain = panel.model.ids[0], float(panel.model.gains[0])
    row = int(panel.rows[0])
    table = panel.table
    table.setFocus()
    rep2 = wait_scored(qtbot, window, lambda: qtbot.keyClick(table, Qt.Key_F))
    p = prep(window)
    assert p.pred[row] == p.truth[row]                                     # that unit fixed
    assert rep2.score == pytest.approx(rep.score + gain)                   # by the listed gain
    assert window.session.can_undo and window.tabs.currentWidget() is window.tabs.fixes
    qtbot.waitUntil(lambda: panel.model.ids and panel.model.ids[0] != first_id, timeout=20000)
    assert panel.current_row() == 0                                        # the next one, ready
    qtbot.keyClick(table, Qt.Key_N)
    assert panel.current_row() == 1


def test_apply_as_ratings_then_ctrl_z_and_the_note_follows(qtbot, window, tmp_path):
    import numpy as np
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QLineEdit

    from conftest import wait_scored
    rng = np.random.default_rng(5)
    n = 300
    t = rng.choice(5, n, p=[.4, .2, .2, .1, .1])
    x = np.round(t + rng.normal(0.45, 0.7, n), 3)
    ids = [f"r{i:04d}" for i in range(n)]
    (tmp_path / "sol.csv").write_text("id,y\n" + "".join(f"{a},{b}\n" for a, b in zip(ids, t)))
    (tmp_path / "sub.csv").write_text("id,y\n" + "".join(f"{a},{b}\n" for a, b in zip(ids, x)))
    wait_scored(qtbot, window, lambda: window.open_files(tmp_path / "sol.csv", tmp_path / "sub.csv"))

    def note():
        return any("non-integer rating" in p.message for p in window.session.problems)
    assert note()
    view = window.tabs.view("qwk")
    view.tabs.setCurrentIndex(view.cuts_tab)
    with qtbot.waitSignal(window.jobs.delivered, timeout=20000,
                          check_params_cb=lambda kind: kind == "kappa-cuts"):
        view.optimise_button.click()
    window.activateWindow()
    view.apply_button.setFocus()
    rep = wait_scored(qtbot, window, lambda: qtbot.mouseClick(view.apply_button, Qt.LeftButton))
    assert rep.cuts is None
    qtbot.wait(50)
    focus = QApplication.focusWidget()
    assert not isinstance(focus, (QAbstractSpinBox, QLineEdit)), focus
    assert not isinstance(getattr(focus, "parentWidget", lambda: None)(), QAbstractSpinBox)
    assert not note()                       # integer ratings now: no cut points in use
    rep2 = wait_scored(qtbot, window, lambda: qtbot.keyClick(focus or window, Qt.Key_Z,
                                                             Qt.ControlModifier))
    assert rep2.cuts is not None            # Ctrl+Z undid the apply
    qtbot.waitUntil(note, timeout=5000)     # and the note is back with the fractions


def test_compare_messages_follow_a_truth_edit_and_its_undo(qtbot, window):
    from conftest import column, set_cell, wait_scored
    from kmetric_gui.gui.file_actions import demo_paths
    from kmetric_gui.paths import resources_dir
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    with qtbot.waitSignal(window.session.compare_changed, timeout=60000,
                          check_params_cb=lambda r: r is not None and r.comparison is not None):
        window.controller.compare_jobs.add([str(resources_dir() / "demo" / "qwk_submission_b.csv")])
    page = window.tabs.compare
    truth = int(window.session.data.prepared().truth[int(window.table_panel.model.rows[0])])
    wait_scored(qtbot, window, lambda: set_cell(window, 0, column(window, "truth"),
                                                str((truth + 1) % 5)))
    bar = window.statusBar()
    qtbot.waitUntil(lambda: not window.jobs.busy, timeout=30000)
    qtbot.wait(100)
    assert "add another valid submission" not in page.view.title.text()
    with qtbot.waitSignal(window.session.compare_changed, timeout=60000,
                          check_params_cb=lambda r: r is not None and r.comparison is not None):
        window.session.undo()
    qtbot.waitUntil(lambda: not window.jobs.busy, timeout=30000)
    assert not bar.currentMessage().startswith("Not compared")
    assert page.view.leaderboard.rowCount() == 2


def test_leaderboard_follows_save_as(qtbot, window, tmp_path):
    from conftest import wait_scored
    from kmetric_gui.paths import resources_dir
    sol, sub = _demo_copy(tmp_path)
    wait_scored(qtbot, window, lambda: window.open_files(sol, sub))
    with qtbot.waitSignal(window.session.compare_changed, timeout=60000,
                          check_params_cb=lambda r: r is not None and r.comparison is not None):
        window.controller.compare_jobs.add([str(resources_dir() / "demo" / "qwk_submission_b.csv")])
    view = window.tabs.compare.view
    texts = lambda: [view.leaderboard.item(r, 0).text() for r in range(view.leaderboard.rowCount())]  # noqa: E731
    assert any("qwk_submission.csv (shown)" in t for t in texts())
    for name in ("renamed_v2.csv", "renamed_v3.csv"):
        with qtbot.waitSignal(window.controller.saved, timeout=10000):
            window.save_to(str(tmp_path / name))
        qtbot.wait(50)
        assert any(f"{name} (shown)" in t for t in texts()), texts()
        assert not any("qwk_submission.csv (shown)" in t for t in texts())
        assert view.pairs.item(0, 0).text().startswith(name)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_held_out_curves_get_room(qtbot, window, size):
    from conftest import open_view
    window.fit_to(size)
    open_view(qtbot, window, "fbeta")
    qtbot.waitUntil(lambda: getattr(window.tabs, "fixes", None) is not None, timeout=20000)
    page = window.tabs.fixes
    window.tabs.setCurrentWidget(page)
    with qtbot.waitSignal(window.controller.honest_ready, timeout=60000):
        page.honest_button.click()
    qtbot.wait(100)
    plot = page.curves.threshold
    assert plot.isVisible() and plot.height() >= (100 if size[1] < 1000 else 150), plot.height()
    assert window.height() == size[1]          # the window did not grow for them


def test_prediction_axis_names_across_wide_columns(qtbot):
    """Each column has ~80 px: names read across the cell ("0 - Proliferative…"), not rotated
    into a short band as "0 - …"."""
    import numpy as np

    from kmetric_gui.gui.widgets.heatmap import Heatmap
    names = ["0 - No DR", "1 - Mild", "2 - Moderate", "3 - Severe", "4 - Proliferative DR"]
    hm = Heatmap("O")
    qtbot.addWidget(hm)
    hm.resize(640, 300)
    hm.show()
    hm.set_matrix(np.arange(25.0).reshape(5, 5), names, integer=True)
    qtbot.waitExposed(hm)
    cols = [t for t in hm.text_layout().texts if t.kind == "col"]
    assert len(cols) == 5
    assert 70 <= hm.text_layout().cw
    assert not any(t.rotated for t in cols)
    shown = {t.cell: t.text for t in cols}
    assert shown[0] == "0 - No DR" and shown[1] == "1 - Mild"
    assert shown[4].startswith("4 - Prolif")


def _axis_texts(axis):
    from PySide6.QtGui import QImage, QPainter
    img = QImage(10, 10, QImage.Format_ARGB32)
    painter = QPainter(img)
    try:
        return [(r, t) for r, _, t in axis.generateDrawSpecs(painter)[2]]
    finally:
        painter.end()


def test_balance_and_cost_names_do_not_run_together(qtbot, window):
    from conftest import wait_scored
    from kmetric_gui.gui.file_actions import demo_paths
    window.fit_to((1280, 720))
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    v = window.tabs.view("qwk")
    window.tabs.setCurrentWidget(v)
    v.names.setText("0 - No DR, 1 - Mild, 2 - Moderate, 3 - Severe, 4 - Proliferative DR")
    v.names.editingFinished.emit()
    v.tabs.setCurrentIndex(1)
    qtbot.wait(200)
    for plot in (v.balance, v.cost):
        texts = _axis_texts(plot.getAxis("bottom"))
        assert len(texts) == 5, [t for _, t in texts]                   # every class named
        assert [t[:1] for _, t in texts] == list("01234")
        rects = sorted((r.left(), r.right()) for r, _ in texts)
        assert all(a[1] <= b[0] for a, b in zip(rects, rects[1:])), rects   # none overlap
    title = v.balance.getPlotItem().titleLabel
    assert title.item.boundingRect().width() <= v.balance.width()


def test_cut_points_legend_leaves_the_curves_clear(qtbot, window, tmp_path):
    import numpy as np
    from PySide6.QtCore import QPointF

    from conftest import wait_scored
    window.fit_to((1280, 720))
    rng = np.random.default_rng(7)
    n = 600
    t = rng.choice(5, n, p=[.4, .2, .2, .1, .1])
    x = np.round(t + rng.normal(0.3, 0.6, n), 3)
    ids = [f"r{i:04d}" for i in range(n)]
    (tmp_path / "sol.csv").write_text("id,y\n" + "".join(f"{a},{b}\n" for a, b in zip(ids, t)))
    (tmp_path / "sub.csv").write_text("id,y\n" + "".join(f"{a},{b}\n" for a, b in zip(ids, x)))
    wait_scored(qtbot, window, lambda: window.open_files(tmp_path / "sol.csv", tmp_path / "sub.csv"))
    v = window.tabs.view("qwk")
    window.tabs.setCurrentWidget(v)
    v.tabs.setCurrentIndex(v.cuts_tab)
    qtbot.waitUntil(lambda: v.cuts.drawn is not None, timeout=20000)
    qtbot.wait(200)
    plot = v.cuts.dist.getPlotItem()
    legend = plot.legend.sceneBoundingRect()
    vb = plot.vb
    covered = 0
    for item in plot.listDataItems():
        xs, ys = item.getData()
        for a, b in zip(xs, ys):
            if b > 0 and legend.contains(vb.mapViewToScene(QPointF(float(a), float(b)))):
                covered += 1
    assert covered == 0


def test_lwlrap_labels_fit_at_1280x720(qtbot, window):
    from conftest import open_view
    window.fit_to((1280, 720))
    open_view(qtbot, window, "lwlrap")
    v = window.tabs.view("lwlrap")
    window.tabs.setCurrentWidget(v)
    qtbot.wait(200)
    plot = v.class_plot.getPlotItem()
    line = next(i for i in plot.items if hasattr(i, "label") and i.label is not None)
    label = line.label.mapRectToScene(line.label.boundingRect())
    assert plot.vb.sceneBoundingRect().contains(label), (label, plot.vb.sceneBoundingRect())
    v.tabs.setCurrentIndex(1)
    v.show_sample(1)
    qtbot.wait(200)
    for axis, n in ((plot.getAxis("bottom"), len(v.prep.classes)),
                    (v._rank_plot.getPlotItem().getAxis("bottom"), len(v.prep.classes))):
        texts = _axis_texts(axis)
        assert len(texts) == n, [t for _, t in texts]                 # every class named
        spans = sorted((r.left(), r.right()) for r, _ in texts)
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans   # none overlap


def test_ctrl_s_never_writes_over_a_demo_file(qtbot, window):
    from conftest import wait_scored
    from kmetric_gui.gui.file_actions import demo_paths
    from kmetric_gui.gui.menus import save_submission
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    asked, written = [], []
    window.save_as = lambda: asked.append(1)
    window.save_to = lambda *a, **k: written.append(a)
    save_submission(window)
    assert asked == [1] and written == []


def test_watched_change_shows_every_digit(qtbot, window):
    from conftest import wait_scored
    from kmetric_gui.gui.file_actions import demo_paths
    window.fit_to((1280, 720))
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    panel = window.score_panel
    total = sum(window.top_split.sizes())
    window.top_split.setSizes([200, 0, total - 200])
    panel.show_change(0.7710, 0.7780)           # as narrow as seen by hand: "+0.007"
    qtbot.wait(100)
    label = panel.change
    shown = _rendered(label)
    assert shown.endswith("+0.0070")
    if label.wordWrap():        # wrapped: tall enough for its lines
        assert label.height() >= label.heightForWidth(label.width())
    else:                       # one line: wide enough for it
        assert label.fontMetrics().horizontalAdvance(shown) <= label.contentsRect().width()
