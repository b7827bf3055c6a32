"""An "Export" button whose menu saves plots as PNG and tables as CSV."""
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu, QToolButton

from ...saving import save_atomic


def _safe(title):
    return "".join(ch if ch.isalnum() else "_" for ch in title).strip("_") or "export"


class ExportButton(QToolButton):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setText("Export")
        self.setPopupMode(QToolButton.InstantPopup)
        self.setMenu(QMenu(self))

    def add_plot(self, title, widget):
        """PNG of any widget (plots, heatmaps)."""
        self._entry(title).addAction("Save PNG…", lambda: self.save_png(widget, title))
        return self

    def add_table(self, title, to_csv):
        """CSV (and clipboard, tab-separated) of a callable returning CSV text."""
        menu = self._entry(title)
        menu.addAction("Save CSV…", lambda: self.save_csv(to_csv, title))
        menu.addAction("Copy to clipboard",
                       lambda: QApplication.clipboard().setText(to_csv().replace(",", "\t")))
        return self

    def _entry(self, title):
        for a in self.menu().actions():
            if a.menu() and a.text() == title:
                return a.menu()
        return self.menu().addMenu(title)

    def save_png(self, widget, title, path=None):
        path = path or QFileDialog.getSaveFileName(self, f"Save {title}", f"{_safe(title)}.png",
                                                   "PNG (*.png)")[0]
        return bool(path) and widget.grab().save(path)

    def save_csv(self, to_csv, title, path=None):
        path = path or QFileDialog.getSaveFileName(self, f"Save {title}", f"{_safe(title)}.csv",
                                                   "CSV (*.csv)")[0]
        if path:
            save_atomic(path, to_csv())
        return bool(path)


def columns_csv(model):
    """CSV of a ColumnsModel's visible rows, in view order."""
    import csv
    import io
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([c.name for c in model.columns])
    for r in model.rows:
        w.writerow([c.fmt(c.values[r]) for c in model.columns])
    return buf.getvalue()
