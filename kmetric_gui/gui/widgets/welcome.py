"""What the window shows before any file: how to start, and the demos."""
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

PER_ROW = 4          # demo buttons a row at most: twelve in one row made the window 1,350 px wide
WIDTH = 560          # the grid's widest: fewer a row when the widest labels of each column exceed it


def _demos():
    from ...metrics import REGISTRY
    return [(m.name, f"{m.label} demo") for m in REGISTRY.values() if m.demo_paths()]


class Welcome(QWidget):
    demo_requested = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.addStretch(1)
        title = QLabel("<h2>Drop a solution and a submission here, or open a demo</h2>")
        title.setAlignment(Qt.AlignCenter)
        title.setWordWrap(True)
        from ...metrics import REGISTRY
        names = [m.label for m in REGISTRY.values()]
        listed = ", ".join(names[:-1]) + (f" or {names[-1]}" if len(names) > 1 else names[0])
        hint = QLabel("CSV, TSV, .gz, .zip or Parquet files as Kaggle gives them. kmetric finds the "
                      f"metric from the columns ({listed}), lists "
                      "every problem of an invalid file, and shows what the score is made of.")
        hint.setAlignment(Qt.AlignCenter)
        hint.setWordWrap(True)
        hint.setObjectName("reason")
        grid = QGridLayout()
        buttons = []
        for name, label in _demos():
            b = QPushButton(label)
            b.clicked.connect(lambda _=False, n=name: self.demo_requested.emit(n))
            buttons.append(b)
        per_row = columns_that_fit([b.sizeHint().width() for b in buttons])
        for k, b in enumerate(buttons):
            grid.addWidget(b, k // per_row, k % per_row)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addLayout(grid)
        row.addStretch(1)
        lay.addWidget(title)
        lay.addWidget(hint)
        lay.addLayout(row)
        lay.addStretch(2)


def columns_that_fit(widths, most=PER_ROW, width=WIDTH):
    """Buttons a row: the most (up to ``most``) whose columns, each as wide as its widest
    button, stay within ``width`` (the more demos, the longer some labels)."""
    for per_row in range(most, 1, -1):
        cols = [max(widths[c::per_row], default=0) for c in range(per_row)]
        if sum(cols) <= width:
            return per_row
    return 1
