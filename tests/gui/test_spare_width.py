"""The spare width given to a text column does not depend on whether the vertical
scroll bar shows: when it did, filling the room a hidden bar leaves made the bars
toggle each other and the table resized itself forever (a test hung in it)."""
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableView

from kmetric_gui.gui.models.table import ColumnsModel, SpareWidth
from kmetric_gui.tables import Column
import numpy as np


def test_spare_width_is_the_same_with_and_without_the_vertical_bar(qtbot):
    model = ColumnsModel()
    n = 40
    model.set_columns([Column("id", np.array([f"id{i}" for i in range(n)], dtype=object)),
                       Column("count", np.arange(n), align_right=True)], n)
    t = QTableView()
    qtbot.addWidget(t)
    t.setModel(model)
    t.resize(500, 300)
    t.show()
    spare = SpareWidth(t)
    spare.give_to(0)
    widths = []
    for policy in (Qt.ScrollBarAlwaysOn, Qt.ScrollBarAlwaysOff):
        t.setVerticalScrollBarPolicy(policy)
        qtbot.wait(20)
        spare.apply()
        widths.append(t.columnWidth(0))
    assert widths[0] == widths[1]
    assert t.columnWidth(0) + t.columnWidth(1) <= t.viewport().width()   # no horizontal bar


def test_the_usage_column_is_never_the_stretched_one(qtbot, window):
    """With ids, Usage and numbers only, the spare width went to Usage ('Private' 500 px
    wide, seen under Xvfb): it goes to the ids."""
    from conftest import wait_scored
    wait_scored(qtbot, window, lambda: window.open_demo("auc"))     # ids as short as 'Private'
    t, cols = window.table_panel.table, window.table_panel.model.columns
    usage = next(i for i, c in enumerate(cols) if c.name == "Usage")
    assert t.columnWidth(usage) < 120
    assert t.columnWidth(0) > t.columnWidth(usage)
