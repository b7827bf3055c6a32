"""A statistics job (intervals and shake-up, on the background lane) that newer work
made obsolete stops at its next cancel check instead of running to the end.

The job here is a stand-in for ``stats.analyze`` that only polls its cancel
callback (a bounded number of times): it ends "cancelled" if the app told it to
stop, "finished" if nothing did. Counters and events, no timing.
"""
import threading
import time

import pytest

from conftest import column, set_cell
from kmetric_gui.errors import Cancelled
from kmetric_gui.gui.main_window import demo_paths

POLLS = 3000          # ~6 s of polling: the bound of a job nobody stops


class SlowStats:
    """The first statistics job polls cancel() until told to stop; later ones are real."""

    def __init__(self, real):
        self.real, self.calls, self.ends = real, 0, []
        self.started, self.ended = threading.Event(), threading.Event()

    def __call__(self, report, ci=None, shake=None, cancel=None, strict=False):
        self.calls += 1
        if self.calls > 1:
            return self.real(report, ci, shake, cancel, strict)
        self.started.set()
        try:
            for _ in range(POLLS):
                if cancel():
                    self.ends.append("cancelled")
                    raise Cancelled("statistics")
                time.sleep(0.002)
            self.ends.append("finished")
            return self.real(report, ci, shake, cancel, strict)
        finally:
            self.ended.set()


@pytest.fixture
def slow_stats(monkeypatch):
    import kmetric_gui.analysis.stats as stats
    slow = SlowStats(stats.analyze)
    monkeypatch.setattr(stats, "analyze", slow)
    return slow


def opened(qtbot, window, slow):
    with qtbot.waitSignal(window.scored, timeout=20000):
        window.open_files(*demo_paths("qwk"))
    qtbot.waitUntil(slow.started.is_set, timeout=10000)


def test_an_edit_stops_the_statistics_of_the_numbers_before(qtbot, window, slow_stats):
    opened(qtbot, window, slow_stats)
    c = column(window, "pred")
    new = str((int(window.table_panel.model.data(window.table_panel.model.index(0, c))) + 1) % 5)
    set_cell(window, 0, c, new)
    qtbot.waitUntil(slow_stats.ended.is_set, timeout=20000)
    assert slow_stats.ends == ["cancelled"]


def test_new_settings_stop_the_statistics_of_the_old_ones(qtbot, window, slow_stats):
    opened(qtbot, window, slow_stats)
    window.options_panel.ci_level.setValue(0.8)
    qtbot.waitUntil(slow_stats.ended.is_set, timeout=20000)
    assert slow_stats.ends == ["cancelled"]


def test_statistics_switched_off_stop(qtbot, window, slow_stats):
    opened(qtbot, window, slow_stats)
    window.controller.stats_settings_changed(None)
    qtbot.waitUntil(slow_stats.ended.is_set, timeout=20000)
    assert slow_stats.ends == ["cancelled"]
    assert not window.jobs.running("stats")


def test_opening_files_stops_the_statistics_of_the_data_it_replaces(qtbot, window, slow_stats,
                                                                   monkeypatch):
    """The old data's intervals are obsolete as soon as new files are asked for: the
    load does not run beside them (its read waits here until they ended: a job that
    only stopped once the new data landed would poll to its bound, "finished")."""
    opened(qtbot, window, slow_stats)
    import kmetric_gui.gui.controller as ctl
    real = ctl.load
    monkeypatch.setattr(ctl, "load", lambda *a, **k: slow_stats.ended.wait(30) and real(*a, **k))
    with qtbot.waitSignal(window.scored, timeout=30000):
        window.open_files(*demo_paths("lwlrap"))
    assert slow_stats.ends == ["cancelled"]
