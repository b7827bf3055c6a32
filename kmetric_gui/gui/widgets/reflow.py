"""A set of panels laid out 3 x 2, 2 x 3 or as tabs, whichever the width allows.

Heatmaps stay readable on a small screen: fewer at once, never squeezed.
"""
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QGridLayout, QStackedWidget, QTabWidget, QWidget

from ..crash import guarded

LAYOUTS = ((3, 900), (2, 560))      # columns, smallest width that fits them
ROW_HEIGHT = 190                     # smallest height of one row of panels


class ReflowGrid(QStackedWidget):
    def __init__(self, parent=None, layouts=LAYOUTS, row_height=ROW_HEIGHT):
        super().__init__(parent)
        self.layouts, self.row_height = layouts, row_height
        self.items = []                  # (widget, title)
        self.grid_page = QWidget()
        self.grid = QGridLayout(self.grid_page)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.tabs = QTabWidget()
        self.addWidget(self.grid_page)
        self.addWidget(self.tabs)
        self.columns = None
        self._pending = False

    def add(self, widget, title):
        self.items.append((widget, title))
        self._arrange(self._columns_for(self.width(), self.height()), force=True)

    @guarded
    def minimumSizeHint(self):
        hint = super().minimumSizeHint()
        hint.setWidth(min(hint.width(), 240))
        hint.setHeight(min(hint.height(), 220))
        return hint

    def _columns_for(self, width, height):
        n = max(len(self.items), 1)
        return next((c for c, need in self.layouts
                     if width >= need and height >= -(-n // c) * self.row_height), 0)

    @guarded
    def resizeEvent(self, event):
        super().resizeEvent(event)
        # Re-laying out changes sizes, which resizes us again: decide once the
        # resizing is over, never from inside it.
        if not self._pending:
            self._pending = True
            QTimer.singleShot(0, self, self._settle)

    def _settle(self):
        self._pending = False
        self._arrange(self._columns_for(self.width(), self.height()))

    def _arrange(self, columns, force=False):
        if columns == self.columns and not force:
            return
        self.columns = columns
        for w, _ in self.items:              # take every panel out of both pages
            self.grid.removeWidget(w)
        while self.tabs.count():
            self.tabs.removeTab(0)
        if columns:
            for n, (w, _) in enumerate(self.items):
                self.grid.addWidget(w, n // columns, n % columns)
                w.show()
            self.setCurrentWidget(self.grid_page)
        else:
            for w, title in self.items:
                self.tabs.addTab(w, title)
            self.setCurrentWidget(self.tabs)
