"""The scored column a one-column view shows, for pairs with several target columns: a
chooser in the view's bar (hidden with one column), kept across rescoring, and the
chosen column's own score in words."""
from PySide6.QtWidgets import QComboBox, QLabel

from .family_base import fmt


class ColumnChoice:
    """Mixin of a FamilyView whose numbers are of one target column at a time; the view
    defines ``_compute()`` (what a new column needs)."""

    def add_column_chooser(self):
        self.column_label = QLabel("Column")
        self.chooser = QComboBox()
        self.chooser.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        self.bar.insertWidget(0, self.chooser)
        self.bar.insertWidget(0, self.column_label)
        self.chooser.currentIndexChanged.connect(self._column_changed)

    def set_columns(self, names, many, new_data):
        """The chooser holds ``names`` when ``many``; the choice stays unless the data is new."""
        current = self.chooser.currentIndex()
        self.chooser.blockSignals(True)
        self.chooser.clear()
        self.chooser.addItems(names if many else [])
        self.chooser.setCurrentIndex(0 if new_data or current < 0 else min(current, len(names) - 1))
        self.chooser.blockSignals(False)
        self.chooser.setVisible(many)
        self.column_label.setVisible(many)

    def column(self):
        return max(self.chooser.currentIndex(), 0)

    def _column_changed(self):
        if self.report is not None:
            self._compute()

    def column_words(self, scores):
        """' · column <name>: <its score>' when a column is chosen, else ''. The label is
        the metric's word for one column's score (MCRMSE's columns are RMSEs)."""
        if scores is None or not self.chooser.isVisible():
            return ""
        d = self.report.definition
        label = getattr(d, "column_label", None) or d.label
        return (f" &nbsp;·&nbsp; column <b>{self.chooser.currentText()}</b>: "
                f"{label} {fmt(scores[self.column()], 6)}")
