"""Progress of the running job in the status bar, with a Cancel button (Esc)."""
from PySide6.QtCore import QTimer
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
        self._busy = self._shown = False

    @property
    def widgets(self):
        return (self.label, self.bar, self.cancel_button)

    def busy(self, busy):
        # A job ending often hands its result to one that starts at once (an open runs
        # a dozen): hidden and shown again in between, the status bar was laid out twice
        # a job, each a round of Python callbacks while workers hold the GIL. The widgets
        # are hidden once the event loop is idle and no job has started since.
        self._busy = busy
        if busy:
            self.bar.setValue(0)
            self.label.setText("")           # not the last job's "done" beside 0%
            self._show(True)
        else:
            QTimer.singleShot(0, lambda: self._busy or self._show(False))

    def _show(self, shown):
        if shown != self._shown:
            self._shown = shown
            for w in self.widgets:
                w.setVisible(shown)

    def progress(self, kind, fraction, message):
        self.bar.setValue(int(fraction * 1000))
        self.label.setText(message)
