"""The widget of one declared option (metrics/schema.py), and showing a value on it."""
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QLineEdit, QSpinBox

from ..crash import guarded


class _FocusWheel:
    """The wheel edits the value only with focus; without, the panel scrolls."""

    @guarded
    def wheelEvent(self, event):                     # noqa: N802 (Qt override)
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()


class WheelSafeCombo(_FocusWheel, QComboBox):
    pass


class WheelSafeSpin(_FocusWheel, QSpinBox):
    pass


class WheelSafeDoubleSpin(_FocusWheel, QDoubleSpinBox):
    pass


def _decimals(option):
    step = option.step or 0.01
    text = f"{step:.10f}".rstrip("0")
    return max(2, len(text.split(".")[1]) if "." in text else 0)


def option_widget(option):
    """The widget of one declared option (no signals connected)."""
    if option.type is bool:
        return QCheckBox(option.title)
    if option.choices:
        w = WheelSafeCombo()
        labels = option.choice_labels or option.choices
        for label, value in zip(labels, option.choices):
            w.addItem(label, value)
        return w
    # A spin box only for a bounded range with a declared step (an eps of 1e-15
    # showed as 0.00 and was written back as 0): other numbers are typed and read by the
    # schema.
    if option.type is float and not option.optional and option.minimum is not None \
            and option.maximum is not None and option.step is not None:
        lo = option.minimum if option.minimum is not None else -1e12
        hi = option.maximum if option.maximum is not None else 1e12
        w = WheelSafeDoubleSpin(decimals=_decimals(option), minimum=lo, maximum=hi,
                                singleStep=option.step or 0.01)
        return w
    w = QLineEdit()       # whole numbers, "auto" values, text: parsed by the schema
    if option.optional:
        w.setPlaceholderText(option.unset)
    return w


def show_value(w, value):
    """Put a value on an option's widget without signals."""
    w.blockSignals(True)
    try:
        if isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif isinstance(w, QComboBox):
            i = w.findData(value)
            w.setCurrentIndex(i if i >= 0 else max(0, w.findText(str(value))))
        elif isinstance(w, QDoubleSpinBox):
            w.setValue(float(value))
        elif isinstance(value, tuple):              # a list of numbers: "1, 2.5"
            w.setText(", ".join(repr(v) for v in value))
        else:
            w.setText("" if value is None else str(value))
    finally:
        w.blockSignals(False)
