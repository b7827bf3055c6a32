"""The Compare tab: the comparison view, and the best blend as an undoable edit."""
import math
from html import escape

import numpy as np
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from .compare_view import CompareView


class ComparePage(QWidget):
    rows_requested = Signal(object, str)          # mask_fn(prepared, rows), label
    transform_requested = Signal(str, object)     # label, fn(prepared) -> (field, new array)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.view = CompareView()
        self.cmp = None
        self.problems = QLabel("")
        self.problems.setWordWrap(True)
        self.problems.setStyleSheet("color: #b00020")
        self.use_blend = QPushButton("Use the best blend as the shown submission")
        self.use_blend.setToolTip("Replaces the shown predictions by α·shown + (1−α)·other, "
                                  "as the curve scored them (class probabilities renormalised, "
                                  "AUC scores by their ranks); undo with Ctrl+Z, save with "
                                  "File > Save submission as…")
        self.use_blend.setEnabled(False)
        bar = QHBoxLayout()
        bar.addWidget(self.problems, 1)
        bar.addWidget(self.use_blend)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(bar)
        lay.addWidget(self.view, 1)
        self.view.rows_selected.connect(self._rows)
        self.view.pair_changed.connect(self._pair_changed)
        self.use_blend.clicked.connect(self._blend)

    def show_results(self, res):
        self.cmp = res.comparison if res is not None else None
        self.problems.setText("<br>".join(map(escape, map(str, res.problems))) if res is not None else "")
        if self.cmp is None and res is None:
            # Files are listed to compare, but not with the data shown (yet): comparing,
            # or refused (e.g. after an edit of the truth; the reason is in the status bar).
            self.view.clear("Not compared with the data shown: comparing…, or see the status "
                            "bar for why (an edited truth is compared once the edit is undone)")
            self.use_blend.setEnabled(False)
        elif self.cmp is None:
            self.view.clear("Compare: add another valid submission (File > Add submission "
                            "to compare…, or drop files on the Compare zone)")
            self.use_blend.setEnabled(False)
        else:
            self.view.show_comparison(self.cmp)

    def _rows(self, rows):
        if callable(rows):          # a mask redone on each edit (a kappa agreement cell)
            self.rows_requested.emit(rows, f"compared rows, {rows.label}")
            return
        rows = np.asarray(rows, dtype=np.int64)
        self.rows_requested.emit(lambda prep, r: np.isin(r, rows), f"{rows.size} compared rows")

    def _pair_changed(self, k):
        pair = self.cmp.pairs[k] if self.cmp is not None else None
        ok = (pair is not None and pair.a == 0 and pair.blend is not None
              and math.isfinite(pair.blend.best_alpha))
        self.use_blend.setEnabled(ok)
        self._pair = pair

    def _blend(self):
        pair = getattr(self, "_pair", None)
        if pair is None or pair.blend is None:
            return
        alpha = float(pair.blend.best_alpha)
        other = self.cmp.submissions[pair.b].report.prepared.pred   # solution row order
        name = self.cmp.submissions[pair.b].name

        def fn(prep):       # the metric's blend (probabilities renormalised, AUC by ranks)
            from ...metrics import get_metric
            return "pred", get_metric(prep.metric).blend_prediction(prep, other, alpha)
        self.transform_requested.emit(f"Blend with {name} (α = {alpha:.2f})", fn)
