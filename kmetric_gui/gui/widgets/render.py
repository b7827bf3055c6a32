"""Widgets to PNG and SVG, with an optional header (title, files, score), crisp at any scale.

QWidget.render paints through the widget's own paint code, so pyqtgraph views
come out as vectors scaled to the target, not as an upscaled screen grab.
"""
import re

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QImage, QPainter
from PySide6.QtWidgets import QWidget

from . import theme

PAD = 8
EXPORTING = "kmetric_exporting"     # widget property set while a widget is rendered for export


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
    widget.setProperty(EXPORTING, True)      # no focus frame or current-cell mark in a picture
    try:
        # QWidget.render, not QGraphicsView.render (another signature: scene rectangles)
        QWidget.render(widget, painter, QPointF(0, header_h).toPoint())
    finally:
        widget.setProperty(EXPORTING, False)


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
    try:
        p.setRenderHint(QPainter.Antialiasing)
        p.setRenderHint(QPainter.TextAntialiasing)
        _paint(p, widget, lines, w, header_h)
    finally:
        p.end()          # an open painter on a dying device crashes the process
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


def svg_bytes(widget, context=None, title=""):
    """Vector SVG of any widget (text and lines stay vectors; images are embedded)."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtSvg import QSvgGenerator
    lines = header_lines(context)
    w = widget.width()
    header_h = _header_height(lines, widget.font(), w)
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.WriteOnly)
    gen = QSvgGenerator()
    gen.setOutputDevice(buf)
    gen.setSize(QSize(w, round(widget.height() + header_h)))
    gen.setViewBox(QRectF(0, 0, w, widget.height() + header_h))
    gen.setTitle(title or (context or {}).get("title", "") or "kmetric export")
    gen.setDescription("Exported by kmetric-gui")
    p = QPainter(gen)
    try:
        _paint(p, widget, lines, w, header_h)
    finally:
        p.end()
    buf.close()
    return bytes(data.data())


def svg_with_header(body, widget, context):
    """Put a header (title, files, score) above an SVG document made by pyqtgraph's exporter."""
    from xml.sax.saxutils import escape
    lines = header_lines(context)
    c = theme.colors(widget.palette())
    size = QFontMetricsF(widget.font()).height()
    header_h = (len(lines) * (size + 2) + 2 * PAD) if lines else 0
    body = re.sub(r"^\s*<\?xml[^>]*\?>", "", body)
    inner = re.search(r"<svg\b", body)
    if inner is None:
        return body
    body = body[:inner.start()] + f'<svg x="0" y="{header_h:.1f}" ' + body[inner.end():]
    w, h = widget.width(), widget.height() + header_h
    out = ['<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" '
           f'width="{w}" height="{h:.0f}" viewBox="0 0 {w} {h:.1f}">',
           f'<rect x="0" y="0" width="{w}" height="{h:.1f}" fill="{c["background"].name()}"/>']
    y = PAD
    for text, bold in lines:
        y += size
        out.append(f'<text x="{PAD}" y="{y - size * 0.25:.1f}" font-family="sans-serif" '
                   f'font-size="{size * 0.8:.1f}" font-weight="{"bold" if bold else "normal"}" '
                   f'fill="{c["text"].name()}">{escape(text)}</text>')
        y += 2
    out.append(body.strip())
    out.append("</svg>")
    return "\n".join(out) + "\n"
