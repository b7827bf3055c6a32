"""What the window shows before any file: how to start, and the demos."""
from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ..crash import guarded

PER_ROW = 4          # demo buttons a row: twelve in one row made the window 1,350 px wide at least
MIN_WIDTH = 480      # the narrowest the page asks for (the buttons squeeze below it)
LONGEST = 28         # characters of a button's label (a metric file's name can be any length;
                     # 24 cut 'Laplace log likelihood demo')


def _demos():
    """(name, button text, tooltip): the button says the metric as the options panel does,
    the tooltip the words of File > Open demo (both start upper case)."""
    from ...metrics import REGISTRY
    from ..views import demos, sentence
    words = dict(demos())
    return [(m.name, sentence(f"{m.label} demo"), f"Open the demo: {words[m.name]}")
            for m in REGISTRY.values() if m.name in words]


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
        for k, (name, label, tip) in enumerate(_demos()):
            b = QPushButton(label if len(label) <= LONGEST else label[:LONGEST - 1] + "…")
            b.setToolTip(tip)
            b.clicked.connect(lambda _=False, n=name: self.demo_requested.emit(n))
            grid.addWidget(b, k // PER_ROW, k % PER_ROW)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addLayout(grid)
        row.addStretch(1)
        lay.addWidget(title)
        lay.addWidget(hint)
        lay.addLayout(row)
        lay.addStretch(2)

    @guarded
    def minimumSizeHint(self):
        # The demo grid may be squeezed rather than widen the window: with every metric's
        # demo (34 with a test's two) its four columns made the window 1,292 px at least.
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), MIN_WIDTH), hint.height())
