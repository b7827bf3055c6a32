"""What the window shows before any file: how to start, and the demos."""
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

DEMOS = (("qwk", "Weighted kappa demo"), ("lwlrap", "LwLRAP demo"), ("fbeta", "Jaccard F-beta demo"))


class Welcome(QWidget):
    demo_requested = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.addStretch(1)
        title = QLabel("<h2>Drop a solution and a submission here, or open a demo</h2>")
        title.setAlignment(Qt.AlignCenter)
        title.setWordWrap(True)
        hint = QLabel("CSV, TSV, .gz, .zip or Parquet files as Kaggle gives them. kmetric finds the "
                      "metric from the columns (weighted kappa, LwLRAP or Jaccard F-beta), lists "
                      "every problem of an invalid file, and shows what the score is made of.")
        hint.setAlignment(Qt.AlignCenter)
        hint.setWordWrap(True)
        hint.setObjectName("reason")
        row = QHBoxLayout()
        row.addStretch(1)
        for name, label in DEMOS:
            b = QPushButton(label)
            b.clicked.connect(lambda _=False, n=name: self.demo_requested.emit(n))
            row.addWidget(b)
        row.addStretch(1)
        lay.addWidget(title)
        lay.addWidget(hint)
        lay.addLayout(row)
        lay.addStretch(2)
