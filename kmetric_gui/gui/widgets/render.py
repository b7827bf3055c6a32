"""Widgets to PNG and SVG, with an optional header (title, files, score), crisp at any scale.

QWidget.render paints through the widget's own paint code, so pyqtgraph views
come out as vectors scaled to the target, not as an upscaled screen grab.
"""
from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QImage, QPainter

from . import theme

PAD = 8


def header_lines(context):
    """[(text, bold)] from a context dict {title, files, score_text} (any key may be missing)."""
    context = context or {}
    lines = []
    if context.get("title"):
        lines.append((str(context["title"]), True))
    files = context.get("files") or []
    if isinstance(files, str):
        files = [files]
    if files:
        lines.append(("Files: " + ", ".join(str(f) for f in files), False))
    if context.get("score_text"):
        lines.append((str(context["score_text"]), False))
    return lines


def _header_height(lines, font, width):
    h = 0.0
    for text, bold in lines:
        f = QFont(font)
        f.setBold(bold)
        fm = QFontMetricsF(f)
        h += fm.boundingRect(QRectF(0, 0, width - 2 * PAD, 1e6), Qt.TextWordWrap, text).height() + 2
    return h + 2 * PAD if lines else 0.0


def _paint(painter, widget, lines, width, header_h):
    c = theme.colors(widget.palette())
    painter.fillRect(QRectF(0, 0, width, header_h + widget.height()), c["background"])
    y = PAD
    for text, bold in lines:
        f = QFont(widget.font())
        f.setBold(bold)
        painter.setFont(f)
        painter.setPen(c["text"])
        box = QRectF(PAD, y, width - 2 * PAD, 1e6)
        used = painter.boundingRect(box, Qt.TextWordWrap, text)
        painter.drawText(box, Qt.TextWordWrap, text)
        y += used.height() + 2
    widget.render(painter, QPointF(0, header_h).toPoint())


def render_image(widget, scale=2.0, context=None):
    """A QImage of `widget` at `scale` device pixels per logical pixel, with a header from `context`."""
    lines = header_lines(context)
    w = widget.width()
    header_h = _header_height(lines, widget.font(), w)
    size = QSize(round(w * scale), round((widget.height() + header_h) * scale))
    img = QImage(size, QImage.Format_ARGB32)
    img.setDevicePixelRatio(scale)
    img.fill(theme.colors(widget.palette())["background"])
    p = QPainter(img)
    p.setRenderHint(QPainter.Antialiasing)
    p.setRenderHint(QPainter.TextAntialiasing)
    _paint(p, widget, lines, w, header_h)
    p.end()
    return img


def save_png(widget, path, scale=2.0, dpi=None, context=None):
    img = render_image(widget, scale, context)
    if dpi:
        dpm = round(dpi / 0.0254)
        img.setDotsPerMeterX(dpm)
        img.setDotsPerMeterY(dpm)
    return img.save(str(path), "PNG")


def svg_available():
    try:
        from PySide6.QtSvg import QSvgGenerator  # noqa: F401
    except ImportError:
        return False
    return True


def save_svg(widget, path, context=None, title=""):
    """Vector SVG of any widget (text and lines stay vectors; images are embedded)."""
    from PySide6.QtSvg import QSvgGenerator
    lines = header_lines(context)
    w = widget.width()
    header_h = _header_height(lines, widget.font(), w)
    gen = QSvgGenerator()
    gen.setFileName(str(path))
    gen.setSize(QSize(w, round(widget.height() + header_h)))
    gen.setViewBox(QRectF(0, 0, w, widget.height() + header_h))
    gen.setTitle(title or (context or {}).get("title", "") or "kmetric export")
    gen.setDescription("Exported by kmetric-gui")
    p = QPainter()
    if not p.begin(gen):
        return False
    _paint(p, widget, lines, w, header_h)
    p.end()
    return True
