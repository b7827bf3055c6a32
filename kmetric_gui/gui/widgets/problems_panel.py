"""Every validation problem, one per line; activating one selects its rows."""
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget


class ProblemsPanel(QWidget):
    problem_activated = Signal(object)      # io.Problem (or None for a plain message)

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.header = QLabel("No problems")
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.list.setAlternatingRowColors(True)
        lay.addWidget(self.header)
        lay.addWidget(self.list)
        self.list.itemActivated.connect(self._activated)
        self.list.itemClicked.connect(self._activated)

    def set_problems(self, problems, title=None):
        self.list.clear()
        for p in problems:
            item = QListWidgetItem(str(p))
            item.setData(Qt.UserRole, p)
            item.setToolTip(str(p))
            self.list.addItem(item)
        n = len(problems)
        self.header.setText(title or (f"<b style='color:#b00020'>{n} problem(s): "
                                      "nothing was scored</b>" if n else "No problems"))

    def _activated(self, item):
        self.problem_activated.emit(item.data(Qt.UserRole))
