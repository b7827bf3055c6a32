"""The options panel's "Competition" picker: a searchable list of the competition catalog
(analysis/competitions.py). Picking one puts its metric, options and columns in the
panel, as `--competition SLUG` does on the command line; the panel's fields stay
editable afterwards (an edit wins, as a flag does)."""
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QCompleter

from .option_widgets import WheelSafeCombo

NONE = "none (choose the metric below)"


class CompetitionPicker(WheelSafeCombo):
    picked = Signal(object)          # the catalog's Competition
    shown = Signal(object)           # a slug (or None) shown without being picked (a project's)

    def __init__(self, parent=None):
        from ...analysis.competitions import catalog
        super().__init__(parent)
        self.setEditable(True)
        self.setInsertPolicy(QComboBox.NoInsert)
        # A long title must not widen the dock.
        self.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(16)
        self.addItem(NONE, None)
        for c in sorted(catalog(), key=lambda c: c.slug.lower()):
            self.addItem(f"{c.slug} — {c.title}", c.slug)
        done = self.completer()
        done.setFilterMode(Qt.MatchContains)           # "blindness" finds APTOS
        done.setCaseSensitivity(Qt.CaseInsensitive)
        done.setCompletionMode(QCompleter.PopupCompletion)
        self.lineEdit().setPlaceholderText("type a name or a word of its title")
        self.setToolTip("a Kaggle competition: sets the metric, its options and the columns "
                        "as the competition scores them")
        self.activated.connect(self._activated)

    def slug(self):
        return self.currentData()

    def _activated(self, index):
        from ...analysis.competitions import resolve
        slug = self.itemData(index)
        self.lineEdit().setCursorPosition(0)        # the slug shown, not the title's end
        if slug is not None:
            self.picked.emit(resolve(slug))

    def choose(self, slug):
        """Pick a competition as the user does from the list (the note that proposes the
        competition whose files the pair looks like): ``picked`` follows."""
        index = self.findData(slug)
        if index > 0:
            self.setCurrentIndex(index)
            self._activated(index)

    def show_slug(self, slug):
        """Show a competition (a project's) without emitting ``picked``."""
        self.blockSignals(True)
        try:
            found = self.findData(slug) if slug else 0
            self.setCurrentIndex(max(0, found))
        finally:
            self.blockSignals(False)
        self.shown.emit(self.slug())
