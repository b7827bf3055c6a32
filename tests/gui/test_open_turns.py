"""What the UI thread does in the turn that shows newly scored files is kept small
(the 10,000-image open stall, bench/images_ui.py): counted here, never timed."""
import gc

import pyqtgraph as pg

from conftest import wait_scored
from kmetric_gui.gui.widgets import menus_later
from kmetric_gui.gui.main_window import demo_paths


def test_plots_get_their_menu_a_turn_later(qtbot):
    plots = [pg.PlotWidget(enableMenu=False) for _ in range(3)]
    box = pg.ViewBox(enableMenu=False)
    for p in plots:
        assert p.getViewBox().menu is None          # made without one
        menus_later.later(p)
    menus_later.later(box)
    gone = pg.PlotWidget(enableMenu=False)
    menus_later.later(gone)
    gone.deleteLater()                               # deleted before its turn: no error
    qtbot.waitUntil(lambda: menus_later.pending() == 0, timeout=5000)
    for vb in [p.getViewBox() for p in plots] + [box]:
        assert vb.menuEnabled() and vb.menu is not None


def test_the_views_plots_have_their_menus_once_shown(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_demo("dice"))
    qtbot.waitUntil(lambda: getattr(window.tabs, "fixes", None) is not None, timeout=30000)
    qtbot.waitUntil(lambda: menus_later.pending() == 0, timeout=5000)
    assert window.tabs.view("dice").box.menu is not None
    assert window.tabs.fixes.findChildren(pg.PlotWidget)
    for p in window.tabs.fixes.findChildren(pg.PlotWidget):
        assert p.getViewBox().menu is not None


def test_new_files_ask_for_no_rows_job(qtbot, window, monkeypatch):
    """The table shows every row of new files already: resetting its sort indicator
    asked a worker for them again (a job and a second reset of the model)."""
    kinds, real = [], window.jobs.submit

    def submit(kind, *a, **k):
        kinds.append(kind)
        return real(kind, *a, **k)
    monkeypatch.setattr(window.jobs, "submit", submit)
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    model = window.table_panel.model
    assert "rows" not in kinds and model.rowCount() == model.n_source > 0
    assert list(model.rows[:5]) == [0, 1, 2, 3, 4]


def test_the_fix_first_page_is_made_once_the_window_shows(qtbot, window):
    """Made on the window's first idle turn, not in the turn that shows the first fixes
    (30 ms there) nor when a load starts (its widgets then wait on the reader's GIL)."""
    qtbot.waitUntil(lambda: getattr(window.tabs, "_fixes_made", None) is not None, timeout=5000)
    made = window.tabs._fixes_made
    assert getattr(window.tabs, "fixes", None) is None          # no tab before fixes exist
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    qtbot.waitUntil(lambda: getattr(window.tabs, "fixes", None) is not None, timeout=30000)
    assert window.tabs.fixes is made and window.tabs.indexOf(made) >= 0


def test_what_lives_as_long_as_the_app_is_frozen():
    from kmetric_gui.gui.gc_guard import freeze_long_lived
    try:
        kept = [[] for _ in range(100)]
        for a in kept:
            a.append(a)                                  # alive cycles: frozen, not freed
        freeze_long_lived()
        assert gc.get_freeze_count() >= 100
        tracked = {id(o) for o in gc.get_objects()}
        assert not any(id(a) in tracked for a in kept)   # a full collection skips them
    finally:
        gc.unfreeze()
