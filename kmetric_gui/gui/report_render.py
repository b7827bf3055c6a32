"""The Qt part of a report: anatomy plots as PNG (2x) and SVG, and report.pdf.

Runs on the GUI thread (or in the CLI with an offscreen QApplication): the
plots are the app's own widgets (Heatmap, ShakeupPanel, pyqtgraph plots)
drawn offscreen; the PDF is Qt's QTextDocument printed on a QPdfWriter —
no browser, nothing new to install.
"""
import sys

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import (QBuffer, QByteArray, QIODevice, QMarginsF, QRect, QSize, QSizeF, Qt,
                            QUrl, qInstallMessageHandler)
from PySide6.QtGui import (QColor, QFont, QFontDatabase, QImage, QPageLayout, QPageSize,
                           QPdfWriter, QTextDocument)
from PySide6.QtWidgets import QApplication, QWidget

from ..report.folder import PLOTS
from ..report.html import render_html
from ..io.saving import save_atomic
from .views import report_plots
from .views.anatomy_plots import pair_plots as report_plots_of_pairs
from .widgets.shakeup_panel import ShakeupPanel
from .widgets.static_plot import GREEN, SIZE
from .widgets.static_plot import static_plot as _plot
from ..core.words import plural

PDF_WIDTH = 500           # image width in the PDF's layout units

try:                      # the bundle leaves QtSvg out: SVG is then skipped, said in the report
    from PySide6.QtSvg import QSvgGenerator
except ImportError:       # pragma: no cover - the venv has QtSvg
    QSvgGenerator = None


def ensure_app():
    """The running QApplication, or one made for this process (CLI)."""
    app = QApplication.instance()
    if app is None:
        qInstallMessageHandler(_quiet)
        app = QApplication(["kmetric"])
    if not QFontDatabase.families():
        raise RuntimeError("no fonts found: text in the plots and the PDF would be empty boxes")
    return app


def _quiet(kind, context, message):
    """The CLI's Qt messages: the offscreen platform's chatter is not the user's business."""
    if "propagateSizeHints" not in message:
        sys.stderr.write(f"qt: {message}\n")




def _extra_plots(entry):
    out = []
    sh = entry.stats.shakeup if entry.stats is not None else None
    if sh is not None:
        panel = ShakeupPanel()
        panel.show_shakeup(sh)
        out.append(("shakeup", "Shake-up: simulated private − public gaps", panel))
    fx = entry.fixes
    if fx is not None and len(fx.fixes.score_after):
        p = _plot("Score after fixing the first k units", "score", f"{plural(fx.unit)} fixed (greedy order)")
        after = np.concatenate(([entry.report.score], fx.fixes.score_after))
        p.plot(np.arange(after.size), after, pen=pg.mkPen(GREEN, width=2.5), symbol="o",
               symbolSize=5, symbolBrush=GREEN)
        out.append(("top_fixes", "Fix first: score after each fix", p))
    return out


# -- rendering ---------------------------------------------------------------------

def render_widget(widget, size=SIZE):
    """(PNG bytes at 2x, SVG bytes or None) of a widget drawn offscreen."""
    w, h = size
    widget.setAttribute(Qt.WA_DontShowOnScreen, True)
    widget.resize(w, h)
    widget.show()
    QApplication.processEvents()
    # A first drawing sizes the axes to their tick labels (pyqtgraph widens an axis while
    # it draws): drawn once, a long label such as "0.0010" ran under the axis title.
    QWidget.render(widget, QImage(w, h, QImage.Format_ARGB32))
    QApplication.processEvents()
    img = QImage(w * 2, h * 2, QImage.Format_ARGB32)
    img.setDevicePixelRatio(2.0)
    img.fill(QColor("white"))
    QWidget.render(widget, img)
    png = _bytes(lambda buf: img.save(buf, "PNG"))
    svg = None
    if QSvgGenerator is not None:
        def draw(buf):
            gen = QSvgGenerator()
            gen.setOutputDevice(buf)
            gen.setSize(QSize(w, h))
            gen.setViewBox(QRect(0, 0, w, h))
            gen.setTitle(getattr(widget, "windowTitle", lambda: "")())
            QWidget.render(widget, gen)
        svg = _bytes(draw)
    widget.hide()
    return png, svg


def _bytes(write):
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.WriteOnly)
    write(buf)
    buf.close()
    return bytes(data)


def render_steps(data, folder):
    """Draw the plots into ``folder``/plots one at a time (a generator: the app runs one step
    per event-loop turn, so the window stays responsive), then write the PDF."""
    ensure_app()
    entry = data.main
    plots = report_plots(entry) + _extra_plots(entry)
    for k, other in enumerate(data.entries[1:], 2):     # each compared submission's anatomy
        plots += [(f"sub{k}_{name}", f"{title} ({other.name})", w)
                  for name, title, w in report_plots(other)]
    plots += report_plots_of_pairs(data.json.get("comparison") or {})
    if QSvgGenerator is None:
        data.notes.append("SVG plots were not made: this build of kmetric has no Qt SVG module")
    drawn = []
    while plots:
        name, title, widget = plots.pop(0)
        png, svg = render_widget(widget)
        # Kept alive until the report is done, then deleted by Qt: a parentless pyqtgraph
        # widget freed by Python's collector while the app draws other plots crashed
        # (a segfault in a ViewBox being built during an export, seen on a fresh clone).
        drawn.append(widget)
        widget = None
        save_atomic(folder / PLOTS / f"{name}.png", png)
        if svg is not None:
            save_atomic(folder / PLOTS / f"{name}.svg", svg)
        data.plots.append({"name": name, "title": title, "png": f"{name}.png",
                           "svg": f"{name}.svg" if svg is not None else None,
                           "width": SIZE[0], "height": SIZE[1], "pdf_width": PDF_WIDTH,
                           "image": png})
        yield name
    write_pdf(data, folder)
    _dispose(drawn)
    yield "report.pdf"


def _dispose(widgets):
    """Delete offscreen widgets through Qt (also where no event loop runs, as in the CLI)."""
    from PySide6.QtCore import QCoreApplication, QEvent
    for w in widgets:
        w.deleteLater()
    widgets.clear()
    QCoreApplication.sendPostedEvents(None, QEvent.DeferredDelete)


def write_pdf(data, folder, name="report.pdf"):
    """report.pdf from the report's HTML (QTextDocument on QPdfWriter); returns the page count."""
    ensure_app()
    doc = QTextDocument()
    doc.setDefaultFont(QFont("DejaVu Sans", 9))
    for p in data.plots:
        doc.addResource(QTextDocument.ImageResource, QUrl(f"{PLOTS}/{p['png']}"),
                        QImage.fromData(p["image"], "PNG"))
    path = folder / name
    tmp = path.with_name(f".{name}.tmp")
    writer = QPdfWriter(str(tmp))
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.A4), QPageLayout.Portrait,
                                     QMarginsF(15, 15, 15, 15), QPageLayout.Millimeter))
    # The document laid out on the page's printable area (points): what it counts is printed.
    doc.setPageSize(QSizeF(writer.pageLayout().paintRectPoints().size()))
    doc.setHtml(render_html(data, pdf=True))
    writer.setTitle(f"kmetric report: {data.main.name}")
    writer.setCreator("kmetric")
    doc.print_(writer)
    del writer                     # closes the file
    tmp.replace(path)
    data.pdf = name
    data.pdf_pages = doc.pageCount()
    return data.pdf_pages


def render_report(data, folder):
    """Plots, then the PDF (the HTML and JSON are written after, by report.write_index)."""
    for _ in render_steps(data, folder):
        pass
