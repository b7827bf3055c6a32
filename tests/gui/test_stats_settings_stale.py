"""New interval settings: the intervals of the old ones go at once, the panel says the
new ones compute, and Esc leaves "not computed" (it left a blank line and the old
Public / Private intervals, found by hand under Xvfb, issue 24)."""
import threading

from conftest import wait_scored
from kmetric_gui.gui.main_window import demo_paths
from test_lifecycle_app import idle, until_cancelled


def test_esc_while_new_interval_settings_compute(qtbot, window, monkeypatch):
    import kmetric_gui.analysis.stats as stats
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    panel = window.score_panel
    qtbot.waitUntil(lambda: window.session.stats is not None, timeout=20000)
    idle(qtbot, window)
    assert "[" in panel.public.text() and "CI" in panel.interval.text()
    started = threading.Event()
    monkeypatch.setattr(stats, "analyze", lambda report, ci, shake, cancel=None, strict=False:
                        until_cancelled(started)(cancel))
    window.options_panel.replicates.setValue(3000)
    qtbot.waitUntil(started.is_set, timeout=10000)
    assert "computing" in panel.interval.text()
    assert "[" not in panel.public.text() and "[" not in panel.private.text()
    assert "Public LB" in panel.public.text()            # the score itself stays
    window.controller.cancel()                           # Esc
    idle(qtbot, window)
    qtbot.waitUntil(lambda: "not computed" in panel.interval.text(), timeout=5000)
    assert "[" not in panel.public.text()


def test_statistics_switched_off_drop_the_old_intervals(qtbot, window):
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    qtbot.waitUntil(lambda: window.session.stats is not None, timeout=20000)
    idle(qtbot, window)
    window.controller.stats_settings_changed(None)
    idle(qtbot, window)
    panel = window.score_panel
    assert "[" not in panel.public.text() and "computing" not in panel.interval.text()


def test_out_of_date_marks_grey_the_watched_change_too(qtbot, window):
    """Esc after a watched reload left 'change -0.0013' in red beside the struck score."""
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    panel = window.score_panel
    panel.show_change(0.7710, 0.7780)
    assert "color:#1a7f37" in panel.change.text()
    panel.mark_stale("the data changed since this score, which was stopped")
    assert "#1a7f37" not in panel.change.text() and "+0.0070" in panel.change.text()
    assert "8a8f98" in panel.change.styleSheet()
    wait_scored(qtbot, window, window.controller.rescore)
    assert panel.stale is None and panel.change.styleSheet() == ""
