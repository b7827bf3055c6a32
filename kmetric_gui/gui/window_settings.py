"""What the window keeps between runs: geometry, docks, splitters, options,
recent files; and the default layout it can go back to."""
import json
from pathlib import Path

from PySide6.QtCore import Qt

from ..analysis.scoring import Options

MAX_RECENT = 8


class WindowSettings:
    def __init__(self, win):
        self.win = win

    def remember_recent(self):
        s = self.win.session
        if not (s.truth_path and s.sub_path):
            return
        pair = [s.truth_path, s.sub_path]
        recent = [p for p in self.recent() if p != pair]
        recent.insert(0, pair)
        self.win.settings.setValue("recent", json.dumps(recent[:MAX_RECENT]))
        self.fill_recent()

    def recent(self):
        try:
            return [list(p) for p in json.loads(self.win.settings.value("recent", "[]"))]
        except (TypeError, ValueError):
            return []

    def fill_recent(self):
        self.win.recent_menu.clear()
        for truth, sub in self.recent():
            self.win.recent_menu.addAction(f"{Path(sub).name}  ←  {Path(truth).name}",
                                       lambda t=truth, s=sub: self.win.open_files(t, s))
        self.win.recent_menu.setEnabled(bool(self.recent()))

    def restore(self):
        self.win._default_state = self.win.saveState()
        geo = self.win.settings.value("geometry")
        if geo is not None:
            self.win.restoreGeometry(geo)
        state = self.win.settings.value("window_state")
        if state is not None:
            self.win.restoreState(state)
        else:
            self.reset_layout()
        for key, split in (("split_main", self.win.splitter), ("split_top", self.win.top_split)):
            sizes = self.win.settings.value(key)
            if sizes and len(sizes) == split.count():     # a layout of another version: skip
                split.setSizes([int(x) for x in sizes])
        try:
            saved = json.loads(self.win.settings.value("options", "{}"))
            self.win.options_panel.set_options(Options.from_dict(saved, strict=False))
            self.win.session.set_options(self.win.options_panel.options())
        except (TypeError, ValueError):
            pass
        group = self.win.settings.value("group_column", "")
        self.win.options_panel.set_group_column(group if isinstance(group, str) else None)
        self.fill_recent()

    def save(self):
        self.win.settings.setValue("geometry", self.win.saveGeometry())
        self.win.settings.setValue("window_state", self.win.saveState())
        self.win.settings.setValue("split_main", self.win.splitter.sizes())
        self.win.settings.setValue("split_top", self.win.top_split.sizes())
        self.win.settings.setValue("options", json.dumps(self.win.options_panel.options().to_dict()))
        self.win.settings.setValue("group_column", self.win.options_panel.group_column.currentData() or "")
        self.win.settings.sync()

    def reset_layout(self):
        if self.win._default_state is not None:
            self.win.restoreState(self.win._default_state)
        for d in self.win.docks:
            d.show()
        self.win.splitter.setSizes([600, 260])
        self.win.top_split.setSizes([230, 900, 900])      # score | welcome or anatomy tabs
        self.win.resizeDocks(self.win.docks[:1], [320], Qt.Horizontal)
        self.win.resizeDocks(self.win.docks[:2], [300, 260], Qt.Vertical)

