"""The row-group column in a project file: kept through save and open, and hostile
values refused in words naming the field before anything is applied."""
import json

import pytest

from conftest import wait_scored
from test_project_hostile import files, fresh, refused, saved, write  # noqa: F401 (fixtures)
from test_stats_controls import pick_groups, write_pairs


def test_group_column_survives_save_and_open(qtbot, window, fresh, tmp_path):  # noqa: F811
    window.projects.show_problem = lambda text: None
    sol, sub = write_pairs(tmp_path)
    wait_scored(qtbot, window, lambda: window.open_files(sol, sub))
    pick_groups(qtbot, window, "patient")
    proj = tmp_path / "grouped.kmetric"
    with qtbot.waitSignal(window.projects.saved, timeout=20000):
        window.projects.save(str(proj))
    assert json.loads(proj.read_text())["statistics"] == {"group_column": "patient"}
    with qtbot.waitSignal(fresh.projects.opened, timeout=30000):
        fresh.projects.open(str(proj))
    assert fresh.options_panel.group_column.currentData() == "patient"
    qtbot.waitUntil(lambda: fresh.session.stats is not None
                    and fresh.session.stats.stats.intervals["ci"].groups == 100, timeout=30000)


def test_no_group_column_writes_no_statistics(qtbot, saved):  # noqa: F811
    assert "statistics" not in saved              # projects of before read the same


@pytest.mark.parametrize("stats, words", [
    ({"group_column": 7}, "'statistics.group_column' must be empty or a column name"),
    ({"group_column": ["a"]}, "'statistics.group_column' must be empty or a column name"),
    ({"group_column": "x" * 5000}, "'statistics.group_column' must be empty or a column name"),
    ({"groups": "a"}, "'statistics.groups' is not a field of the statistics"),
    (["patient"], "'statistics' must be an object"),
    ("patient", "'statistics' must be an object"),
])
def test_hostile_statistics_are_refused(qtbot, fresh, saved, tmp_path, stats, words):  # noqa: F811
    saved["statistics"] = stats
    assert words in refused(qtbot, fresh, write(tmp_path, saved))
    assert fresh.session.data is None
    assert fresh.options_panel.group_column.currentData() is None


def test_empty_group_column_is_none(qtbot, fresh, saved, tmp_path):  # noqa: F811
    saved["statistics"] = {"group_column": None}
    with qtbot.waitSignal(fresh.projects.opened, timeout=30000):
        fresh.projects.open(write(tmp_path, saved))
    assert fresh.options_panel.group_column.currentData() is None
