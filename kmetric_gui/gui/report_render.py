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
from ..saving import save_atomic
from .widgets.heatmap import Heatmap
from .widgets.shakeup_panel import ShakeupPanel

SIZE = (640, 480)         # logical pixels of a plot; PNG at 2x
PDF_WIDTH = 500           # image width in the PDF's layout units
BLUE, ORANGE, RED, GREEN = (31, 119, 180), (255, 127, 14), (200, 30, 30), (26, 152, 80)

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


def _plot(title, left="", bottom=""):
    p = pg.PlotWidget(background="w", title=title)
    p.setMouseEnabled(False, False)
    p.hideButtons()
    for side in ("left", "bottom"):
        p.getAxis(side).enableAutoSIPrefix(False)     # scores read as scores, not "x0.001"
    if left:
        p.setLabel("left", left)
    if bottom:
        p.setLabel("bottom", bottom)
    return p


# -- the metric's plots (a parallel registry: metric name -> plots) -------------------

def _kappa_plots(entry):
    r = entry.report.result
    labels = [str(v) for v in r.labels]
    out = []
    for key, title, div, integer in (("observed", "O: observed counts", False, True),
                                     ("weights", f"W: {r.weighting} weights", False, False),
                                     ("expected", "E: expected by chance", False, False),
                                     ("numerator_matrix", "W·O: numerator", False, False),
                                     ("denominator_matrix", "W·E: denominator", False, False)):
        h = Heatmap(title, diverging=div)
        m = np.asarray(getattr(r, key), dtype=float)
        outline = (m > 0) & ~np.eye(m.shape[0], dtype=bool) if key == "observed" else None
        h.set_matrix(m, labels, outline=outline, integer=integer and np.all(m == np.round(m)))
        out.append((key, title, h))
    p = _plot("Class balance: truth vs prediction", "rows", "rating")
    p.addLegend(offset=(10, 10))
    x = np.arange(len(labels))
    p.addItem(pg.BarGraphItem(x=x - 0.2, height=r.hist_true, width=0.38, brush=BLUE, name="truth"))
    p.addItem(pg.BarGraphItem(x=x + 0.2, height=r.hist_pred, width=0.38, brush=ORANGE,
                              name="prediction"))
    p.getAxis("bottom").setTicks([list(zip(x, labels))])
    out.append(("class_balance", "Class balance: truth vs prediction", p))
    return out


def _lwlrap_plots(entry):
    r, names = entry.report.result, entry.report.prepared.classes
    order = np.argsort(np.where(r.class_weights > 0, r.per_class, np.inf), kind="stable")
    order = order[r.class_weights[order] > 0]
    w = r.class_weights[order]
    x0 = np.concatenate(([0.0], np.cumsum(w)[:-1]))
    cmap = pg.ColorMap([0.0, 0.5, 1.0], [(215, 48, 39), (254, 224, 139), GREEN])
    p = _plot("Per-class LwLRAP, worst first (bar width = class weight)", "class lwlrap",
              "classes (width ∝ share of positive labels)")
    brushes = [pg.mkBrush(*cmap.map(float(v), mode="byte")) for v in r.per_class[order]]
    p.addItem(pg.BarGraphItem(x0=x0, x1=x0 + w * 0.97, height=r.per_class[order], brushes=brushes,
                              pen=pg.mkPen("w")))
    if np.isfinite(r.score):
        p.addItem(pg.InfiniteLine(pos=r.score, angle=0, label=f"overall {r.score:.4f}",
                                  pen=pg.mkPen(RED, width=2, style=Qt.DashLine),
                                  labelOpts={"position": 0.9, "color": RED}))
    room = (SIZE[0] - 80) / 7
    ticks = [(c, str(names[i]) if w[k] * room >= len(str(names[i])) else "")
             for k, (c, i) in enumerate(zip(x0 + w / 2, order))]
    p.getAxis("bottom").setTicks([ticks])
    p.setYRange(0, 1.05)
    q = _plot("Share of the score lost per class", "weight × (1 − class lwlrap)", "class, worst first")
    lost = (r.class_weights * (1 - np.nan_to_num(r.per_class, nan=1.0)))[order][:30]
    q.addItem(pg.BarGraphItem(x=np.arange(lost.size), height=lost, width=0.8, brush=ORANGE))
    q.getAxis("bottom").setTicks([[(k, str(names[i])) for k, i in enumerate(order[:30])][::3]])
    return [("per_class", "Per-class LwLRAP (bar width = class weight)", p),
            ("lost_per_class", "Share of the score lost per class (30 worst)", q)]


def _fbeta_plots(entry):
    r = entry.report.result
    p = _plot("Pooled counts", "count")
    vals = [int(r.tp), int(r.fp), int(r.fn)]
    p.addItem(pg.BarGraphItem(x=[0, 1, 2], height=vals, width=0.6,
                              brushes=[pg.mkBrush(*c) for c in (GREEN, ORANGE, RED)]))
    p.getAxis("bottom").setTicks([[(0, f"TP {vals[0]:,}"), (1, f"FP {vals[1]:,}"),
                                   (2, f"FN {vals[2]:,}")]])
    per = np.asarray(r.per_document)
    errors = per[:, 1] + per[:, 2] if per.size else np.zeros(0, dtype=np.int64)
    counts = np.bincount(np.minimum(errors, 20).astype(np.int64), minlength=5)
    q = _plot("Documents by number of errors (FP + FN)", "documents", "errors")
    q.addItem(pg.BarGraphItem(x=np.arange(counts.size), height=counts, width=0.8, brush=BLUE))
    step = max(1, counts.size // 12)
    q.getAxis("bottom").setTicks([[(k, str(k) if k < 20 else "20+") for k in range(0, counts.size, step)]])
    return [("counts", "Pooled counts: TP, FP, FN", p),
            ("documents_by_errors", "Documents by number of errors", q)]


PLOTS_OF = {"qwk": _kappa_plots, "lwlrap": _lwlrap_plots, "fbeta": _fbeta_plots}


def _extra_plots(entry):
    out = []
    sh = entry.stats.shakeup if entry.stats is not None else None
    if sh is not None:
        panel = ShakeupPanel()
        panel.show_shakeup(sh)
        out.append(("shakeup", "Shake-up: simulated private − public gaps", panel))
    fx = entry.fixes
    if fx is not None and len(fx.fixes.score_after):
        p = _plot("Score after fixing the first k units", "score", f"{fx.unit}s fixed (greedy order)")
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
    plots = PLOTS_OF.get(entry.report.metric, lambda e: [])(entry) + _extra_plots(entry)
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
