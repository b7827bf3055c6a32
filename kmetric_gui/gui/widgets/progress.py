"""Progress of the running job in the status bar, with a Cancel button (Esc)."""
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton


class StatusProgress:
    def __init__(self, status_bar, on_cancel):
        self.label = QLabel("")
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setMaximumWidth(220)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the running job (Esc)")
        self.cancel_button.clicked.connect(on_cancel)
        for w in self.widgets:
            status_bar.addPermanentWidget(w)
            w.setVisible(False)

    @property
    def widgets(self):
        return (self.label, self.bar, self.cancel_button)

    def busy(self, busy):
        for w in self.widgets:
            w.setVisible(busy)
        if busy:
            self.bar.setValue(0)

    def progress(self, kind, fraction, message):
        self.bar.setValue(int(fraction * 1000))
        self.label.setText(message)
