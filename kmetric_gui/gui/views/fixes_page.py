"""The "Fix first" tab: the units whose fix gains the most, in greedy order,
with the exact score after each; and the metric's optimiser checked on rows
it was not fitted on (does the tuned gain survive, or is it noise?)."""
import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ..widgets.fix_first import FixFirstPanel


class FixesPage(QWidget):
    rows_requested = Signal(object, str)        # mask_fn(prepared, rows), label
    honest_requested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.panel = FixFirstPanel()
        self.honest_button = QPushButton("Check the optimiser on held-out rows")
        self.honest_button.setToolTip("Fit cut points / the Jaccard threshold on Public and "
                                      "score Private (and the reverse): is the gain real?")
        self.honest_text = QLabel("")
        self.honest_text.setWordWrap(True)
        self.honest_text.setTextInteractionFlags(Qt.TextSelectableByMouse)
        bar = QHBoxLayout()
        bar.addWidget(self.honest_text, 1)
        bar.addWidget(self.honest_button, 0, Qt.AlignTop)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.panel, 1)
        lay.addLayout(bar)
        self.panel.rows_selected.connect(self._rows)
        self.honest_button.clicked.connect(self.honest_requested)

    def show_fixes(self, top_fixes, has_optimiser):
        self.panel.set_top_fixes(top_fixes)
        self.honest_button.setVisible(has_optimiser)
        self.honest_text.setText("")

    def show_honest(self, report):
        if report is None:
            self.honest_text.setText("Nothing to fit here (integer ratings need no cut points).")
            return
        lines = report.lines()
        self.honest_text.setText("<b>" + lines[0] + "</b><br>" + "<br>".join(
            line.strip() for line in lines[1:]))

    def _rows(self, rows):
        rows = np.asarray(rows, dtype=np.int64)
        self.rows_requested.emit(lambda prep, r: np.isin(r, rows),
                                 f"{rows.size} {self.panel.unit}(s) to fix first")
