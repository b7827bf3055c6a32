"""Draw the application icon (a small annotated heatmap) as PNG, ICO and ICNS.

    .venv/bin/python build/make_icon.py      # writes resources/kmetric.png, .ico, .icns

Every size is drawn by Qt at that size (crisper than scaling one image down) and
stored as PNG; the ICO (Windows, 16-256 px) and ICNS (macOS, 16-1024 px)
containers are written here, so no imaging library is needed.
"""
import io
import os
import struct
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt  # noqa: E402
from PySide6.QtGui import QColor, QFont, QGuiApplication, QImage, QPainter  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources")


def draw(size=256):
    img = QImage(size, size, QImage.Format_ARGB32)
    img.fill(Qt.transparent)
    p = QPainter(img)
    p.setRenderHint(QPainter.Antialiasing)
    p.setBrush(QColor(11, 61, 145))
    p.setPen(Qt.NoPen)
    p.drawRoundedRect(QRectF(0, 0, size, size), size * 0.18, size * 0.18)
    cell, pad = size * 0.2, size * 0.2
    shades = [[240, 120, 60], [120, 240, 120], [60, 120, 240]]
    for i in range(3):
        for j in range(3):
            v = shades[i][j]
            p.setBrush(QColor(255 - v // 2, 255 - v // 3, 255) if i != j else QColor(255, 200, 40))
            p.drawRect(QRectF(pad + j * cell, pad + i * cell, cell * 0.92, cell * 0.92))
    p.setPen(QColor(11, 61, 145))
    f = QFont("DejaVu Sans")
    f.setBold(True)
    f.setPixelSize(int(cell * 0.75))
    p.setFont(f)
    p.drawText(QRectF(pad + cell, pad + cell, cell * 0.92, cell * 0.92), Qt.AlignCenter, "κ")
    p.end()
    return img


ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS entry types holding PNG data, by pixel size (the @2x types reuse the larger images).
ICNS_TYPES = ((b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256),
              (b"ic09", 512), (b"ic10", 1024), (b"ic11", 32), (b"ic12", 64), (b"ic13", 256),
              (b"ic14", 512))


def png_bytes(size):
    buf = QByteArray()
    dev = QBuffer(buf)
    dev.open(QIODevice.WriteOnly)
    assert draw(size).save(dev, "PNG")
    return bytes(buf)


def ico(pngs):
    """ICO container: header, one 16-byte entry per image, then the PNG data."""
    out = io.BytesIO()
    out.write(struct.pack("<HHH", 0, 1, len(pngs)))
    offset = 6 + 16 * len(pngs)
    for size, data in pngs:
        edge = 0 if size >= 256 else size          # 0 means 256 in an ICO entry
        out.write(struct.pack("<BBBBHHII", edge, edge, 0, 0, 1, 32, len(data), offset))
        offset += len(data)
    for _, data in pngs:
        out.write(data)
    return out.getvalue()


def icns(png_of):
    """ICNS container: 'icns' + total length, then (type, length, PNG) entries, big-endian."""
    body = b"".join(kind + struct.pack(">I", 8 + len(png_of[size])) + png_of[size]
                    for kind, size in ICNS_TYPES)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main():
    app = QGuiApplication(sys.argv[:1])  # noqa: F841 (fonts and painting need it)
    png_of = {size: png_bytes(size) for size in set(ICO_SIZES) | {s for _, s in ICNS_TYPES}}
    for name, data in (("kmetric.png", png_of[256]),
                       ("kmetric.ico", ico([(s, png_of[s]) for s in ICO_SIZES])),
                       ("kmetric.icns", icns(png_of))):
        with open(os.path.join(ROOT, name), "wb") as f:
            f.write(data)
        print(f"resources/{name}: {len(data):,} bytes")


if __name__ == "__main__":
    main()
