"""An "Export" button whose menu saves what the view shows: plots as PNG (2x, or a chosen width)
and SVG, tables as CSV and as tab-separated text on the clipboard.

The menu is rebuilt each time it opens and lists only what the view has now
(an empty heatmap or plot is left out). PNG and SVG carry a header from
``set_context(fn)``: fn() returns {"title", "files", "score_text"}. Files go to
the last folder used (settings key ``last_export_folder``) under plain names.
CSV and clipboard text quote-prefix cells a spreadsheet would run as formulas.
"""
import csv
import io
import os
import re

import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QApplication, QFileDialog, QInputDialog, QMenu, QToolButton, QWidget

from ...io.saving import csv_text, save_atomic, tsv  # noqa: F401 -- tsv: copy as text
from . import render
from .heatmap import Heatmap

SETTINGS_KEY = "last_export_folder"


def plain_name(*parts, limit=60):
    """A file name stem of ASCII letters, digits and single dashes ('O: observed' -> 'o-observed')."""
    words = re.findall(r"[A-Za-z0-9]+", " ".join(str(p) for p in parts if p))
    stem = "-".join(words).lower()[:limit].strip("-")
    return stem or "export"


def csv_rows(text):
    return list(csv.reader(io.StringIO(text, newline="")))


def spreadsheet_csv(rows):
    return csv_text(rows, spreadsheet=True)


def has_content(widget):
    """Whether a plot or heatmap shows anything worth exporting."""
    if isinstance(widget, Heatmap):
        return widget.nr > 0
    if isinstance(widget, pg.PlotWidget):
        return bool(widget.getPlotItem().items)
    return True


class ExportButton(QToolButton):
    export_failed = Signal(str)     # a sentence for the status bar: what could not be saved, and why
    exported = Signal(str)          # the path written ("" for the clipboard)

    def __init__(self, parent=None, settings=None):
        super().__init__(parent)
        self.setText("Export")
        self.setPopupMode(QToolButton.InstantPopup)
        self.setMenu(QMenu(self))
        self.menu().aboutToShow.connect(self.rebuild_menu)
        self.entries = []           # [title, kind ('plot' | 'table'), payload, available()]
        self._context = None
        self._settings = settings

    # -- what the view offers -------------------------------------------------------
    def add_plot(self, title, widget, available=None):
        """PNG (and SVG) of a plot, heatmap or any widget; `available()` says whether it shows data now.
        ``widget`` may be a function returning the widget, for a chart made on first use."""
        get = widget if callable(widget) and not isinstance(widget, QWidget) else (lambda: widget)
        self.entries.append([title, "plot", get, available or (lambda: has_content(get()))])
        return self

    def add_table(self, title, to_csv, available=None, rows=None):
        """CSV file and clipboard text of a callable returning CSV text; ``rows()`` (header first) is used
        for the clipboard when given. A heatmap's to_csv copies with its totals."""
        owner = getattr(to_csv, "__self__", None)
        if isinstance(owner, Heatmap):
            rows = rows or (lambda: owner.to_rows(totals=True))
            available = available or (lambda: owner.nr > 0)
        self.entries.append([title, "table", (to_csv, rows), available or (lambda: True)])
        return self

    def add_heatmap(self, title, heatmap):
        return self.add_plot(title, heatmap).add_table(title, heatmap.to_csv)

    def set_context(self, fn):
        """fn() -> {"title": str, "files": [names], "score_text": str} for the PNG/SVG header."""
        self._context = fn
        return self

    def context(self):
        return dict(self._context() or {}) if self._context else {}

    def available_titles(self):
        """Titles the menu lists now, in order (each with at least one available export)."""
        seen = []
        for title, _, _, ok in self.entries:
            if title not in seen and ok():
                seen.append(title)
        return seen

    def rebuild_menu(self):
        menu = self.menu()
        menu.clear()
        titles = self.available_titles()
        for title in titles:
            sub = menu.addMenu(title)
            for t, kind, payload, ok in self.entries:
                if t != title or not ok():
                    continue
                if kind == "plot":
                    sub.addAction("Save PNG (2x)…", lambda w=payload, t=t: self.save_png(w(), t))
                    sub.addAction("Save PNG at a chosen width…",
                                  lambda w=payload, t=t: self.save_png_sized(w(), t))
                    if render.svg_available():
                        sub.addAction("Save SVG…", lambda w=payload, t=t: self.save_svg(w(), t))
                else:
                    to_csv, rows = payload
                    sub.addAction("Save CSV…", lambda f=to_csv, t=t: self.save_csv(f, t))
                    sub.addAction("Copy to clipboard (tab-separated)",
                                  lambda f=to_csv, r=rows: self.copy_table(f, r))
        if not titles:
            menu.addAction("Nothing to export yet").setEnabled(False)

    # -- where files go -----------------------------------------------------------
    def settings(self):
        if self._settings is None:
            from ..app_settings import settings    # the app's own settings file (tests set their own)
            self._settings = settings()
        return self._settings

    def default_path(self, title, ext):
        folder = self.settings().value(SETTINGS_KEY, "") or os.path.expanduser("~")
        files = self.context().get("files") or []
        stem = os.path.splitext(os.path.basename(str(files[-1])))[0] if files else ""
        return os.path.join(str(folder), plain_name(stem, title) + "." + ext)

    def _ask(self, title, ext, kind):
        return QFileDialog.getSaveFileName(self, f"Save {title}", self.default_path(title, ext),
                                           f"{kind} (*.{ext})")[0]

    def _done(self, path, ok, what, reason=""):
        if ok:
            self.settings().setValue(SETTINGS_KEY, os.path.dirname(os.path.abspath(path)))
            self.exported.emit(str(path))
        else:
            self.export_failed.emit(f"Could not save {what} to {path}" + (f": {reason}." if reason else "."))
        return ok

    def _header(self, title):
        ctx = self.context()
        ctx["title"] = f"{ctx['title']} — {title}" if ctx.get("title") else title
        return ctx

    # -- exports --------------------------------------------------------------------
    def save_png(self, widget, title, path=None, scale=2.0, dpi=None):
        path = path or self._ask(title, "png", "PNG")
        if not path:
            return False
        # 96 dpi per logical pixel: a 2x picture prints at the size it has on screen
        ok = render.save_png(widget, path, scale=scale, dpi=dpi or 96 * scale, context=self._header(title))
        return self._done(path, ok, title, "" if ok else "the folder or the disk refused the file")

    def save_png_sized(self, widget, title):
        width, ok = QInputDialog.getInt(self, f"Save {title}", "Width in pixels", 2 * widget.width(),
                                        200, 20000, 100)
        return ok and self.save_png(widget, title, scale=width / max(1, widget.width()))

    def save_svg(self, widget, title, path=None):
        if not render.svg_available():     # the frozen app leaves PySide6.QtSvg out
            self.export_failed.emit("SVG export needs PySide6.QtSvg, which this installation does not have.")
            return False
        path = path or self._ask(title, "svg", "SVG")
        if not path:
            return False
        ctx = self._header(title)
        data = self._pyqtgraph_svg(widget, ctx) if isinstance(widget, pg.PlotWidget) else None
        try:
            save_atomic(path, data or render.svg_bytes(widget, context=ctx, title=title))
        except OSError as e:
            return self._done(path, False, title, getattr(e, "reason", "") or e.strerror or "")
        return self._done(path, True, title)

    @staticmethod
    def _pyqtgraph_svg(plot, ctx):
        """pyqtgraph's SVG (it clips curves to the axes; Qt's generator does not), or None where that
        exporter fails: pyqtgraph 0.14 cannot read the closed paths Qt 6.11 writes (pyqtgraph#3495)."""
        from pyqtgraph.exporters import SVGExporter
        try:
            body = SVGExporter(plot.getPlotItem()).export(toBytes=True).decode("utf-8")
        except (ValueError, TypeError, AttributeError):
            return None
        return render.svg_with_header(body, plot, ctx)

    def save_csv(self, to_csv, title, path=None):
        path = path or self._ask(title, "csv", "CSV")
        if not path:
            return False
        try:
            save_atomic(path, spreadsheet_csv(csv_rows(to_csv())))
        except OSError as e:
            return self._done(path, False, title, getattr(e, "reason", "") or e.strerror or "")
        return self._done(path, True, title)

    def copy_table(self, to_csv, rows=None):
        QApplication.clipboard().setText(tsv(rows() if rows else csv_rows(to_csv())))
        self.exported.emit("")


def columns_csv(model):
    """CSV of a ColumnsModel's visible rows, in view order."""
    head = [c.name for c in model.columns]
    return csv_text([head] + [[c.fmt(c.values[r]) for c in model.columns] for r in model.rows],
                    spreadsheet=False)
