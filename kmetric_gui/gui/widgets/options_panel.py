"""Scoring options, mirroring the CLI flags. Emits ``changed`` on any edit."""
from PySide6.QtCore import Signal
from PySide6.QtGui import QIntValidator
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout,
                               QGroupBox, QLineEdit, QSpinBox, QVBoxLayout, QWidget)

from ...scoring import Options

METRIC_LABELS = [("auto (from the layout)", None), ("weighted kappa (QWK)", "qwk"),
                 ("LwLRAP", "lwlrap"), ("Jaccard F-beta", "fbeta")]


class OptionsPanel(QWidget):
    changed = Signal(str)        # "reload" (metric/columns) or "rescore"
    stats_changed = Signal()     # interval or shake-up settings

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        general = QGroupBox("Files")
        f = QFormLayout(general)
        self.metric_combo = QComboBox()
        for label, value in METRIC_LABELS:
            self.metric_combo.addItem(label, value)
        self.id_column = QLineEdit()
        self.id_column.setPlaceholderText("first column of the submission")
        self.target_column = QLineEdit()
        self.target_column.setPlaceholderText("detected")
        f.addRow("Metric", self.metric_combo)
        f.addRow("Id column", self.id_column)
        f.addRow("Target column", self.target_column)

        self.kappa_box = QGroupBox("Weighted kappa")
        f = QFormLayout(self.kappa_box)
        self.weights = QComboBox()
        self.weights.addItems(["quadratic", "linear", "none"])
        self.min_rating = QLineEdit()
        self.max_rating = QLineEdit()
        for w in (self.min_rating, self.max_rating):
            w.setValidator(QIntValidator(-10 ** 6, 10 ** 6, w))
            w.setPlaceholderText("auto")
        f.addRow("Weights", self.weights)
        f.addRow("Min rating", self.min_rating)
        f.addRow("Max rating", self.max_rating)

        self.lwlrap_box = QGroupBox("LwLRAP")
        f = QFormLayout(self.lwlrap_box)
        self.ties = QComboBox()
        self.ties.addItem("worst rank (scikit-learn)", "worst")
        self.ties.addItem("original order", "original")
        f.addRow("Ties", self.ties)

        self.fbeta_box = QGroupBox("Jaccard F-beta")
        f = QFormLayout(self.fbeta_box)
        self.beta = QDoubleSpinBox(decimals=2, minimum=0.05, maximum=10, singleStep=0.25, value=0.5)
        self.threshold = QDoubleSpinBox(decimals=2, minimum=0, maximum=1, singleStep=0.05, value=0.5)
        self.matching = QComboBox()
        self.matching.addItems(["one-to-one", "many-to-one"])
        self.clean = QCheckBox("clean text (competition rule)")
        f.addRow("Beta", self.beta)
        f.addRow("Threshold", self.threshold)
        f.addRow("Matching", self.matching)
        f.addRow("", self.clean)

        self.stats_box = QGroupBox("Uncertainty")
        f = QFormLayout(self.stats_box)
        self.ci_level = QDoubleSpinBox(decimals=3, minimum=0.5, maximum=0.999, singleStep=0.01,
                                       value=0.95)
        self.replicates = QSpinBox(minimum=100, maximum=100_000, singleStep=500, value=2000)
        self.seed = QSpinBox(minimum=0, maximum=2 ** 31 - 1, value=0)
        self.ci_method = QComboBox()
        self.ci_method.addItem("percentile", "percentile")
        self.ci_method.addItem("BCa (bias-corrected)", "bca")
        self.splits = QSpinBox(minimum=100, maximum=100_000, singleStep=500, value=2000)
        self.public_fraction = QDoubleSpinBox(decimals=2, minimum=0.0, maximum=0.95,
                                              singleStep=0.05, value=0.0)
        self.public_fraction.setSpecialValueText("from Usage (else 0.30)")
        f.addRow("Confidence", self.ci_level)
        f.addRow("Replicates", self.replicates)
        f.addRow("Interval", self.ci_method)
        f.addRow("Shake-up splits", self.splits)
        f.addRow("Public share", self.public_fraction)
        f.addRow("Seed", self.seed)
        for w in (self.ci_level, self.replicates, self.seed, self.splits, self.public_fraction):
            w.valueChanged.connect(lambda *_: self.stats_changed.emit())
        self.ci_method.currentIndexChanged.connect(lambda *_: self.stats_changed.emit())

        for w in (general, self.kappa_box, self.lwlrap_box, self.fbeta_box, self.stats_box):
            lay.addWidget(w)
        lay.addStretch(1)

        self.metric_combo.currentIndexChanged.connect(lambda: self.changed.emit("reload"))
        for w in (self.id_column, self.target_column):
            w.editingFinished.connect(self._columns_edited)
        self._last_columns = ("", "")
        for w in (self.weights, self.ties, self.matching):
            w.currentIndexChanged.connect(lambda: self.changed.emit("rescore"))
        for w in (self.min_rating, self.max_rating):
            w.editingFinished.connect(self._range_edited)
        self._last_range = ("", "")
        self.refused_text = ""
        self.beta.valueChanged.connect(lambda: self.changed.emit("rescore"))
        self.threshold.valueChanged.connect(lambda: self.changed.emit("rescore"))
        self.clean.toggled.connect(lambda: self.changed.emit("rescore"))
        self.show_metric(None)
        self.changed.connect(self.mark_changed)
        self.mark_changed()

    def mark_changed(self, *_):
        """Options kept from an earlier file or session stand out from the defaults."""
        now, default = self.options(), Options(allow_continuous=True)
        for name, widget in (("weights", self.weights), ("min_rating", self.min_rating),
                             ("max_rating", self.max_rating), ("ties", self.ties),
                             ("beta", self.beta), ("threshold", self.threshold),
                             ("matching", self.matching), ("clean", self.clean),
                             ("id_column", self.id_column), ("target_column", self.target_column)):
            changed = getattr(now, name) != getattr(default, name)
            font = widget.font()
            font.setBold(changed)
            widget.setFont(font)
            widget.setToolTip(f"changed from the default ({getattr(default, name)})" if changed else "")

    def _columns_edited(self):
        now = (self.id_column.text(), self.target_column.text())
        if now != self._last_columns:
            self._last_columns = now
            self.changed.emit("reload")

    def _range_edited(self):
        for k, w in enumerate((self.min_rating, self.max_rating)):
            why = rating_problem(w.text())
            if why:                      # refused: say so, and show the value in force again
                kept = self._last_range[k] or "auto"
                self.refused_text = f"{('Min', 'Max')[k]} rating refused: {why}; it stays {kept}"
                w.setText(self._last_range[k])
                refuse(w, self.refused_text)
        now = (self.min_rating.text(), self.max_rating.text())
        if now != self._last_range:
            self._last_range = now
            self.changed.emit("rescore")

    def show_metric(self, metric):
        """Show the option groups that matter for the metric in use."""
        for name, box in (("qwk", self.kappa_box), ("lwlrap", self.lwlrap_box),
                          ("fbeta", self.fbeta_box)):
            box.setVisible(metric in (None, name))

    def set_option(self, name, value):
        """One option changed from a view (a rescore follows through ``changed``)."""
        widget = {"weights": self.weights, "ties": self.ties, "matching": self.matching,
                  "beta": self.beta, "threshold": self.threshold, "clean": self.clean}[name]
        if isinstance(widget, QComboBox):
            i = widget.findData(value)
            widget.setCurrentIndex(i if i >= 0 else widget.findText(str(value)))
        elif isinstance(widget, QCheckBox):
            widget.setChecked(bool(value))
        else:
            widget.setValue(float(value))

    def stats_settings(self):
        """(StatsOptions, ShakeupOptions) for kmetric_gui.stats.analyze."""
        from ...stats import ShakeupOptions, StatsOptions
        frac = self.public_fraction.value()
        return (StatsOptions(level=round(self.ci_level.value(), 3),
                             replicates=self.replicates.value(), seed=self.seed.value(),
                             method=self.ci_method.currentData()),
                ShakeupOptions(fraction=frac if frac > 0 else None, splits=self.splits.value(),
                               seed=self.seed.value()))

    def options(self):
        def num(w):     # a text not (yet) a rating counts as the value in force
            k = 0 if w is self.min_rating else 1
            ok = [t for t in (w.text(), self._last_range[k]) if not rating_problem(t)]
            return rating_or_none(ok[0]) if ok else None
        return Options(
            metric=self.metric_combo.currentData(), weights=self.weights.currentText(),
            min_rating=num(self.min_rating), max_rating=num(self.max_rating),
            id_column=self.id_column.text().strip() or None,
            target_column=self.target_column.text().strip() or None,
            ties=self.ties.currentData(), beta=self.beta.value(),
            threshold=self.threshold.value(), matching=self.matching.currentText(),
            clean=self.clean.isChecked(), allow_continuous=True)

    def set_options(self, o):
        o = o if isinstance(o, Options) else Options(**o)
        """Restore saved options without emitting a burst of changes."""
        widgets = [self.metric_combo, self.weights, self.ties, self.matching, self.beta,
                   self.threshold, self.clean, self.min_rating, self.max_rating,
                   self.id_column, self.target_column]
        for w in widgets:
            w.blockSignals(True)
        try:
            self.metric_combo.setCurrentIndex(max(0, self.metric_combo.findData(o.metric)))
            self.weights.setCurrentText(o.weights)
            self.ties.setCurrentIndex(max(0, self.ties.findData(o.ties)))
            self.matching.setCurrentText(o.matching)
            self.beta.setValue(o.beta)
            self.threshold.setValue(o.threshold)
            self.clean.setChecked(o.clean)
            self.min_rating.setText("" if o.min_rating is None else str(o.min_rating))
            self.max_rating.setText("" if o.max_rating is None else str(o.max_rating))
            self.id_column.setText(o.id_column or "")
            self.target_column.setText(o.target_column or "")
        finally:
            for w in widgets:
                w.blockSignals(False)
        self._last_columns = (self.id_column.text(), self.target_column.text())
        self._last_range = (self.min_rating.text(), self.max_rating.text())
        self.mark_changed()


def rating_problem(text):
    """Why a min/max rating field's text is refused (the one number grammar), or None."""
    from ...numbers import parse_rating
    if not text.strip():
        return None
    try:
        parse_rating(text)
    except ValueError as e:
        return str(e)
    return None


def rating_or_none(text):
    from ...numbers import parse_rating
    return parse_rating(text) if text.strip() else None


def refuse(widget, text):
    """A refused value: said at the field and in the window's status bar."""
    from PySide6.QtWidgets import QToolTip
    win = widget.window()
    if hasattr(win, "statusBar"):
        win.statusBar().showMessage(text, 8000)
    if widget.isVisible():
        QToolTip.showText(widget.mapToGlobal(widget.rect().bottomLeft()), text, widget)
