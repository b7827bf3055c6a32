"""Compare's pair table and "where they differ" read whole at 1280x720; the demos are
named alike. Seen under Xvfb (issue 34): the pair table needed a horizontal scroll bar
(P(order flips), public Δ, private Δ off-screen) and cut A and B to 'rmse_su…(shown)';
the agreement map's axis read 'A: qwk_submis…'; the Open demo menu mixed 'weighted
kappa (APTOS-like)' with 'LwLRAP (FSDKaggle2019-like)'."""
from pathlib import Path

import pytest
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QStyleOptionViewItem

from conftest import wait_scored
from kmetric_gui.gui.views.compare_names import ELLIPSIS, shared_start, short_name, text_margin
from kmetric_gui.paths import resources_dir


def other(metric):
    return str(resources_dir() / "demo" / f"{metric}_submission_b.csv")


def compared(qtbot, window, metric, size):
    window.fit_to(size)
    wait_scored(qtbot, window, lambda: window.open_demo(metric), timeout=30000)
    with qtbot.waitSignal(window.session.compare_changed, timeout=60000,
                          check_params_cb=lambda r: r is not None and r.comparison is not None):
        window.controller.compare_jobs.add([other(metric)])
    window.tabs.setCurrentWidget(window.tabs.compare)
    qtbot.wait(100)
    return window.tabs.compare.view


def painted(table, r, c):
    """The text the cell's delegate paints (the item keeps the whole name)."""
    index = table.model().index(r, c)
    opt = QStyleOptionViewItem()
    opt.rect = table.visualRect(index)
    opt.font = table.font()
    table.itemDelegateForIndex(index).initStyleOption(opt, index)
    return opt.text


def keeps_its_end(shown, name, start):
    """``shown`` is ``name``, or its first characters, '…' and its end: all that follows
    the ``start`` characters it shares with the other name of its pair, or (sharing none)
    at least as much of its end as of its start."""
    if shown == name:
        return True
    head, _, tail = shown.partition(ELLIPSIS)
    return (ELLIPSIS in shown and name.startswith(head) and name.endswith(tail)
            and len(head) + len(tail) < len(name)
            and (len(tail) >= len(name) - start if start else len(tail) >= len(head)))


# higher is better (auc), lower is better (rmse), and the seeds' own differ pages
@pytest.mark.parametrize("metric", ["rmse", "auc", "qwk", "lwlrap", "fbeta"])
def test_pairs_and_names_fit_at_1280x720(qtbot, window, metric):
    view = compared(qtbot, window, metric, (1280, 720))
    t = view.pairs
    assert t.horizontalHeader().length() <= t.viewport().width()      # no scroll bar needed
    assert t.horizontalScrollBar().maximum() == 0
    subs = view.cmp.submissions
    fm = QFontMetricsF(t.font())
    for r, p in enumerate(view.cmp.pairs):
        shown = [painted(t, r, c) for c in (0, 1)]
        assert shown[0] != shown[1]
        start = shared_start([subs[p.a].name, subs[p.b].name])
        for c, k in ((0, p.a), (1, p.b)):
            assert keeps_its_end(shown[c], subs[k].name, start), (shown[c], subs[k].name)
            assert fm.horizontalAdvance(shown[c]) <= t.columnWidth(c) - 2 * text_margin(t) - 1
            assert subs[k].name in t.item(r, c).toolTip()
    # where they differ: which file is A and which is B, whole at this size
    for label, k in ((view.who.a, view.cmp.pairs[0].a), (view.who.b, view.cmp.pairs[0].b)):
        name = subs[k].name
        assert Path(name).stem in label.text(), label.text()
        assert QFontMetricsF(label.font()).horizontalAdvance(label.text()) <= label.contentsRect().width()
        assert name in label.toolTip()


def test_the_agreement_map_and_its_line_name_a_and_b_uncut(qtbot, window):
    """The map's axis titles read 'A: qwk_submis…' at 1280x720: the page must say which
    file is A and which is B in full, on the map or the line above it."""
    view = compared(qtbot, window, "qwk", (1280, 720))
    hm = view.heatmap
    axes = {x.text for x in hm.text_layout().texts if x.kind == "axis"}
    assert axes == {hm.row_axis, hm.col_axis}                  # painted as set: not cut
    page = " ".join([hm.row_axis, hm.col_axis, view.who.a.text(), view.who.b.text()])
    for s in view.cmp.submissions:
        assert s.name in page, (s.name, page)


def test_names_whole_at_1920x1080(qtbot, window):
    view = compared(qtbot, window, "rmse", (1920, 1080))
    t = view.pairs
    assert t.horizontalHeader().length() <= t.viewport().width()
    subs = view.cmp.submissions
    assert [painted(t, 0, c) for c in (0, 1)] == [subs[0].name, subs[1].name]


def test_short_name_keeps_what_tells_the_names_apart(qtbot):
    from PySide6.QtWidgets import QLabel
    label = QLabel()
    qtbot.addWidget(label)
    fm = QFontMetricsF(label.font())
    a, b = "rmse_submission.csv (shown)", "rmse_submission_b.csv"
    start = shared_start([a, b, a])
    assert start == len("rmse_submission")
    assert short_name(fm, b, fm.horizontalAdvance(b), start) == b           # fits: whole
    assert short_name(fm, b, fm.horizontalAdvance("rmse…_b.csv"), start) == "rmse…_b.csv"
    assert short_name(fm, b, fm.horizontalAdvance("…_b.csv"), start) == "…_b.csv"
    c = "lgbm_fold_average_v3.csv"      # shares no start with b: the middle goes, a third
    twelve = "lgbm" + ELLIPSIS + "e_v3.csv"    # of the 12 characters kept from the start
    assert short_name(fm, c, fm.horizontalAdvance(twelve), 0) == twelve
    assert short_name(fm, c, fm.horizontalAdvance(twelve) - 0.5, 0) == "lgb…e_v3.csv"
    assert shared_start([a]) == 0 and shared_start([a, a]) == 0


def first_word_cased(text):
    """'Log loss (…)', 'mAP (boxes)': the first word starts upper case or is a mixed-case
    name; not 'log loss' beside 'ROC AUC'."""
    word = text.split()[0]
    return word[0].isupper() or word[0].isdigit() or any(ch.isupper() for ch in word)


def test_demo_names_are_cased_alike(qtbot, window):
    from PySide6.QtWidgets import QPushButton
    from kmetric_gui.gui.widgets.welcome import Welcome
    menu = next(a.menu() for a in window.menuBar().actions()[0].menu().actions()
                if a.menu() is not None and "demo" in a.text().lower())
    items = [a.text() for a in menu.actions() if a.text()]
    assert len(items) >= 12
    bad = [x for x in items if not first_word_cased(x)]
    assert bad == []
    page = Welcome()
    qtbot.addWidget(page)
    buttons = page.findChildren(QPushButton)
    assert len(buttons) == len(items)
    for btn, item in zip(buttons, items):
        assert first_word_cased(btn.text()) and ELLIPSIS not in btn.text(), btn.text()
        assert btn.toolTip().endswith(item)         # the menu's words, the same demo


def test_names_follow_a_rename_of_the_shown_file(qtbot):
    """Saved under another name, the shown file's row and the A line say the new name;
    sharing no start with B any more, both are cut in the middle, their ends kept."""
    from kmetric_gui.analysis.comparison import CompareOptions, compare_files
    from kmetric_gui.analysis.scoring import Options
    from kmetric_gui.gui.views.compare_view import CompareView
    demo = resources_dir() / "demo"
    cmp = compare_files(demo / "rmse_solution.csv", [str(demo / "rmse_submission.csv"), other("rmse")],
                        Options(metric="rmse"),
                        CompareOptions(replicates=100, permutations=100, splits=100))
    view = CompareView()
    qtbot.addWidget(view)
    view.resize(640, 600)            # the room it has at 1280x720
    view.show()
    view.show_comparison(cmp)
    t = view.pairs
    assert t.horizontalHeader().length() <= t.viewport().width()
    assert painted(t, 0, 1) in ("…_b.csv", "rmse…_b.csv")     # what tells it from A
    view.rename_shown("final_lgbm_average.csv")
    name = "final_lgbm_average.csv (shown)"
    assert t.item(0, 0).text() == name
    shown = [painted(t, 0, c) for c in (0, 1)]          # they share no start any more
    assert keeps_its_end(shown[0], name, 0), shown
    assert keeps_its_end(shown[1], "rmse_submission_b.csv", 0), shown
    assert not shown[0].startswith(ELLIPSIS) and not shown[1].startswith(ELLIPSIS)
    assert view.who.a.text() == f"A: {name}"
    assert str(demo / "rmse_submission.csv") in view.who.a.toolTip()
    assert t.horizontalHeader().length() <= t.viewport().width()
