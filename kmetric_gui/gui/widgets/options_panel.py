"""Scoring options, made from each metric's declared options (metrics/schema.py).

Emits ``changed`` on any edit. The panel always shows the options in force:
an entry that does not parse goes back to the value in force (its tooltip
says why), and the window puts back the session's options after a refused
or cancelled change (``set_options``). The mouse wheel changes a field only
when it has focus; otherwise it scrolls the panel.
"""
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox,
                               QLineEdit, QPushButton, QSpinBox, QVBoxLayout, QWidget)

from ...analysis.scoring import Options
from .option_widgets import (WheelSafeCombo, WheelSafeDoubleSpin, WheelSafeSpin,  # noqa: F401
                             option_widget, show_value)


def metric_entries():
    """(label, value) of the metric combo: auto, then every registered metric."""
    from ...metrics import REGISTRY
    return [("auto (from the layout)", None)] + [
        (m.label if m.foreign else f"{m.label} ({m.name})", m.name) for m in REGISTRY.values()]


def _own(metric):
    """Names of the options of the chosen metric, or None (left to the layout: all)."""
    from ...metrics import REGISTRY
    m = REGISTRY.get(metric) if metric is not None else None
    return None if m is None else {o.name for o in m.options}


class OptionsPanel(QWidget):
    changed = Signal(str)        # "reload" (metric/columns) or "rescore"
    stats_changed = Signal()     # interval or shake-up settings
    refused = Signal(str)        # a typed or restored value refused: why, and what stays

    def __init__(self, parent=None):
        from ...metrics import REGISTRY
        super().__init__(parent)
        lay = QVBoxLayout(self)
        general = QGroupBox("Files")
        f = QFormLayout(general)
        self.metric_combo = WheelSafeCombo()
        # A long metric name (a metric file's) must not widen the dock.
        self.metric_combo.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.metric_combo.setMinimumContentsLength(16)
        for label, value in metric_entries():
            self.metric_combo.addItem(label, value)
        from .competition_picker import CompetitionPicker
        self.competition = CompetitionPicker()
        self.competition.picked.connect(self.set_competition)
        self.id_column = QLineEdit()
        self.id_column.setPlaceholderText("first column of the submission")
        self.target_column = QLineEdit()
        self.target_column.setPlaceholderText("detected")
        f.addRow("Competition", self.competition)
        f.addRow("Metric", self.metric_combo)
        f.addRow("Id column", self.id_column)
        f.addRow("Target column", self.target_column)
        # How competitions' files are read (common settings; a change reads them again).
        from ...analysis.options import COMMON
        self.reading_specs = {o.name: o for o in COMMON
                              if o.name in ("usage_map", "extra_ids", "unscored_value")}
        self.reading_widgets = {}
        for o in self.reading_specs.values():
            w = option_widget(o)
            w.setToolTip(o.help)
            if isinstance(w, QLineEdit):
                w.setPlaceholderText("none")
            self.reading_widgets[o.name] = w
            f.addRow({"usage_map": "Usage spellings", "extra_ids": "Extra ids",
                      "unscored_value": "Unscored value"}[o.name], w)
        lay.addWidget(general)

        # One group per metric with options, one widget per declared option. An option
        # two metrics share (one meaning: register() sees to it) has a widget in each
        # group, all showing the one value in force, so the metric in use shows all of its
        # own; ``option_widgets`` names the first.
        from ...metrics.schema import all_options
        merged = all_options(REGISTRY.values())
        self.option_specs, self.option_widgets, self.metric_boxes = {}, {}, {}
        self._copies = {}                       # option name -> every widget showing it
        self._values = {}                       # option name -> value in force
        for m in REGISTRY.values():
            if not m.options:
                continue
            box = QGroupBox(m.label)
            form = QFormLayout(box)
            for o in m.options:
                o = merged[o.name]
                w = option_widget(o)
                self._copies.setdefault(o.name, []).append(w)
                if o.name in self.option_widgets:      # shared: a copy in this group
                    w.setToolTip(o.help)
                    form.addRow("" if isinstance(w, QCheckBox) else o.title, w)
                    continue
                w.setToolTip(o.help)
                self.option_specs[o.name] = o
                self.option_widgets[o.name] = w
                self._values[o.name] = o.default
                self._show(o.name, o.default)     # a typed field shows its default too
                if not hasattr(self, o.name):
                    setattr(self, o.name, w)    # panel.weights, panel.beta, ...
                form.addRow("" if isinstance(w, QCheckBox) else o.title, w)
            self.metric_boxes[m.name] = box
            lay.addWidget(box)

        self.stats_box = QGroupBox("Uncertainty")
        f = QFormLayout(self.stats_box)
        self.ci_level = WheelSafeDoubleSpin(decimals=3, minimum=0.5, maximum=0.999,
                                            singleStep=0.01, value=0.95)
        self.replicates = WheelSafeSpin(minimum=100, maximum=100_000, singleStep=500, value=2000)
        self.seed = WheelSafeSpin(minimum=0, maximum=2 ** 31 - 1, value=0)
        self.ci_method = WheelSafeCombo()
        self.ci_method.addItem("auto (as the CLI; says which)", "auto")
        self.ci_method.addItem("percentile", "percentile")
        self.ci_method.addItem("BCa (bias-corrected)", "bca")
        self.ci_method.addItem("calibrated (double bootstrap)", "calibrated")
        self.splits = WheelSafeSpin(minimum=100, maximum=100_000, singleStep=500, value=2000)
        self.public_fraction = WheelSafeDoubleSpin(decimals=2, minimum=0.0, maximum=0.95,
                                                   singleStep=0.05, value=0.0)
        self.public_fraction.setSpecialValueText("from Usage (else 0.30)")
        f.addRow("Confidence", self.ci_level)
        f.addRow("Replicates", self.replicates)
        f.addRow("Interval", self.ci_method)
        self.coverage_button = QPushButton("Check coverage")
        self.coverage_button.setToolTip(
            "Measure how often this interval method covers at this size: 200 datasets drawn "
            "from this data, the interval on each (runs in the background; Esc stops it)")
        f.addRow("", self.coverage_button)
        self.group_column = WheelSafeCombo()
        # A long column name of the file must not widen the dock (and squeeze the views).
        self.group_column.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.group_column.setMinimumContentsLength(12)
        self.group_column.setToolTip(
            "Rows that come in groups (one patient's two eyes, one slide's tiles): a column "
            "of the solution naming each row's group. Intervals, shake-up, comparison and "
            "the held-out check then resample and split whole groups.")
        self.set_group_columns([])
        f.addRow("Row groups", self.group_column)
        f.addRow("Shake-up splits", self.splits)
        f.addRow("Public share", self.public_fraction)
        f.addRow("Seed", self.seed)
        for w in (self.ci_level, self.replicates, self.seed, self.splits, self.public_fraction):
            w.valueChanged.connect(lambda *_: self.stats_changed.emit())
        self.ci_method.currentIndexChanged.connect(lambda *_: self.stats_changed.emit())
        self.group_column.currentIndexChanged.connect(lambda *_: self.stats_changed.emit())
        lay.addWidget(self.stats_box)
        lay.addStretch(1)
        for w in self.findChildren(QWidget):
            if isinstance(w, (QComboBox, QSpinBox, QDoubleSpinBox)):
                w.setFocusPolicy(Qt.StrongFocus)       # no focus from the wheel alone

        self.metric_combo.currentIndexChanged.connect(self._metric_chosen)
        for w in (self.id_column, self.target_column):
            w.editingFinished.connect(self._columns_edited)
        self._reading = {n: o.default for n, o in self.reading_specs.items()}
        for name, w in self.reading_widgets.items():
            if isinstance(w, QComboBox):
                w.currentIndexChanged.connect(lambda *_, n=name: self._reading_edited(n))
            else:
                w.editingFinished.connect(lambda n=name: self._reading_edited(n))
        self._last_columns = ("", "")
        self.refused_text = ""
        self.foreign_values = {}    # a metric file's score() arguments (set in its dock)
        for name, copies in self._copies.items():
            for w in copies:
                self._connect(name, w)
            self._show(name, self._values[name])
        self.show_metric(None)
        self.changed.connect(self.mark_changed)
        self.mark_changed()

    def _connect(self, name, w):
        if isinstance(w, QCheckBox):
            w.toggled.connect(lambda v, n=name: self._accept(n, bool(v)))
        elif isinstance(w, QComboBox):
            w.currentIndexChanged.connect(lambda *_, n=name, w=w: self._accept(n, w.currentData()))
        elif isinstance(w, QDoubleSpinBox):
            w.valueChanged.connect(lambda v, n=name: self._accept(n, float(v)))
        else:
            w.editingFinished.connect(lambda n=name, w=w: self._text_edited(n, w))

    def _accept(self, name, value):
        if value != self._values.get(name):
            self._values[name] = value
            spec = self.option_specs.get(name)
            # An option naming a solution column (weights, mask, groups) is read with the files.
            self.changed.emit("reload" if spec is not None and spec.reads else "rescore")

    def _reading_edited(self, name):
        """A reading setting (Usage spellings, extra ids, unscored value): the files are read
        again with it; a value that does not parse goes back, said."""
        w, spec = self.reading_widgets[name], self.reading_specs[name]
        try:
            value = w.currentData() if isinstance(w, QComboBox) else spec.parse(w.text())
            if name == "usage_map" and value is not None:
                from ...io.shapes import parse_usage_map
                parse_usage_map(value)
        except ValueError as e:
            show_value(w, self._reading[name])
            self.refused_text = f"{name.replace('_', ' ').capitalize()} refused: {e}"
            w.setToolTip(self.refused_text)
            self.refused.emit(self.refused_text)
            return
        if value != self._reading[name]:
            self._reading[name] = value
            self.changed.emit("reload")

    def _text_edited(self, name, w=None):
        """A typed value: in force when it parses (empty: auto), else the text goes back."""
        w, spec = w or self.option_widgets[name], self.option_specs[name]
        try:
            value = spec.parse(w.text())
        except ValueError as e:
            self._refuse(name, e)
            return
        self._show(name, value)          # "+3" shows as 3: the value in force
        self._accept(name, value)

    def _refuse(self, name, why):
        """Say why a value was refused, and show the value in force again."""
        kept = self._values.get(name)
        self._show(name, kept)
        self.refused_text = (f"{name.replace('_', ' ').capitalize()} refused: {why}; "
                             f"it stays {self._shown(kept)}")
        for w in self._copies[name]:
            w.setToolTip(self.refused_text)
        self.refused.emit(self.refused_text)

    @staticmethod
    def _shown(value):
        return "auto" if value is None else str(value)

    def _show(self, name, value):
        """Put a value on its widgets without signals."""
        for w in self._copies.get(name) or [self.option_widgets[name]]:
            show_value(w, value)

    def mark_changed(self, *_):
        """Options kept from an earlier file or session stand out from the defaults."""
        now, default = self.options(), Options(allow_continuous=True)
        named = dict(self._copies, id_column=[self.id_column], target_column=[self.target_column])
        for name, widgets in named.items():
            value = self._values.get(name, getattr(now, name))
            changed = value != getattr(default, name)
            spec = self.option_specs.get(name)
            base = spec.help if spec is not None else ""
            tip = f"changed from the default ({getattr(default, name)})" if changed else base
            for widget in widgets:
                font = widget.font()
                font.setBold(changed)
                widget.setFont(font)
                widget.setToolTip(tip)

    def _columns_edited(self):
        now = (self.id_column.text(), self.target_column.text())
        if now != self._last_columns:
            self._last_columns = now
            self.changed.emit("reload")

    def _metric_chosen(self):
        """Another metric than the picked competition's: the competition no longer applies."""
        slug = self.competition.slug()
        if slug is not None:
            from ...analysis.competitions import resolve
            if resolve(slug).metric != self.metric_combo.currentData():
                self.competition.show_slug(None)
        self.changed.emit("reload")

    def set_competition(self, comp):
        """A competition of the catalog picked: its metric, options and columns in force (a
        reload follows), or, for one no built-in scores, why (the panel keeps its options)."""
        if comp.metric is None:
            self.competition.show_slug(None)
            self.refused_text = (f"{comp.slug}: no built-in metric scores it "
                                 f"({comp.metric_file_needed}); open its metric file")
            self.refused.emit(self.refused_text)
            return
        self.set_options(Options(metric=comp.metric, id_column=comp.id_column,
                                 target_column=comp.target_column, extra_ids=comp.extra_ids,
                                 allow_continuous=True, **comp.options))
        tip = comp.words()
        if comp.metric_file_needed:
            tip += f"; not the leaderboard's number: {comp.metric_file_needed}"
        self.competition.setToolTip(tip)
        self.changed.emit("reload")

    def show_metric(self, metric):
        """Show the option groups that matter for the metric in use."""
        for name, box in self.metric_boxes.items():
            box.setVisible(metric in (None, name))

    def set_option(self, name, value):
        """One option changed from a view (a rescore follows through ``changed``)."""
        spec = self.option_specs[name]
        try:
            value = spec.check(value)
        except ValueError as e:                 # refused: the value in force stays shown
            self._refuse(name, e)
            return
        self._show(name, value)
        self._accept(name, value)

    def stats_settings(self):
        """(StatsOptions, ShakeupOptions) for kmetric_gui.analysis.stats.analyze."""
        from ...analysis.stats import ShakeupOptions, StatsOptions
        frac = self.public_fraction.value()
        return (StatsOptions(level=round(self.ci_level.value(), 3),
                             replicates=self.replicates.value(), seed=self.seed.value(),
                             method=self.ci_method.currentData(),
                             group_column=self.group_column.currentData()),
                ShakeupOptions(fraction=frac if frac > 0 else None, splits=self.splits.value(),
                               seed=self.seed.value()))

    def set_group_columns(self, names, chosen=...):
        """The solution's columns offered as row groups (none first). The choice stays
        when still offered; a chosen column the file lacks stays, marked, so the
        intervals say why they cannot group (settings or a project of another file)."""
        w = self.group_column
        self._group_names = [str(n) for n in names]
        chosen = w.currentData() if chosen is ... else chosen
        w.blockSignals(True)
        try:
            w.clear()
            w.addItem("none (rows independent)", None)
            for name in self._group_names:
                w.addItem(name, name)
            if chosen is not None and w.findData(chosen) < 0:
                w.addItem(f"{chosen} (not in this solution)", chosen)
            w.setCurrentIndex(max(0, w.findData(chosen)) if chosen is not None else 0)
        finally:
            w.blockSignals(False)

    def set_group_column(self, name):
        """Choose the group column (settings, a project); stats_changed when it changed."""
        name = name if isinstance(name, str) and name else None
        if name != self.group_column.currentData():
            self.set_group_columns(self._group_names, name)
            self.stats_changed.emit()

    def options(self):
        """The options shown (and in force once the window applies them): the common ones
        and, with a metric chosen, that metric's own; left to the layout, every metric's."""
        from ...analysis.options import declared_options
        metric = self.metric_combo.currentData()
        own = _own(metric)
        known = declared_options()      # a metric unregistered since (a metric file's) is gone
        values = {k: v for k, v in self._values.items()
                  if k in known and (own is None or k in own)}
        if own is not None:                 # a metric file's own: from its dock
            values.update((k, v) for k, v in self.foreign_values.items() if k in own)
        return Options(metric=metric, id_column=self.id_column.text().strip() or None,
                       target_column=self.target_column.text().strip() or None,
                       allow_continuous=True, **self._reading, **values)

    def set_options(self, o):
        """Show these options (restored, or the session's after a refusal or Cancel)
        without emitting a burst of changes."""
        o = o if isinstance(o, Options) else Options.from_dict(o, strict=False)
        if o == self.options():
            return
        widgets = [self.metric_combo, self.id_column, self.target_column]
        for w in widgets:
            w.blockSignals(True)
        try:
            self.metric_combo.setCurrentIndex(max(0, self.metric_combo.findData(o.metric)))
            self.id_column.setText(o.id_column or "")
            self.target_column.setText(o.target_column or "")
        finally:
            for w in widgets:
                w.blockSignals(False)
        for name, w in self.reading_widgets.items():
            self._reading[name] = getattr(o, name)
            show_value(w, self._reading[name])
        own = _own(o.metric)
        if own is not None and any(k not in self.option_widgets for k in own):
            self.foreign_values = {k: v for k, v in o.params if k in own}   # a metric file's
        for name in self.option_widgets:
            if own is not None and name not in own:
                continue               # another metric's value stays as the user left it
            value = getattr(o, name)
            try:                    # a damaged saved value (settings, project): the default
                value = self.option_specs[name].check(value)
            except (ValueError, TypeError):
                value = self.option_specs[name].default
            self._values[name] = value
            self._show(name, value)
        self._last_columns = (self.id_column.text(), self.target_column.text())
        self.mark_changed()

