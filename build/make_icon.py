"""Draw the application icon (a small annotated heatmap) as PNG and ICO.

    .venv/bin/python build/make_icon.py      # writes resources/kmetric.png, .ico
"""
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QRectF, Qt  # noqa: E402
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


if __name__ == "__main__":
    app = QGuiApplication(sys.argv[:1])
    img = draw()
    img.save(os.path.join(ROOT, "kmetric.png"))
    ok = img.scaled(64, 64, Qt.KeepAspectRatio, Qt.SmoothTransformation).save(
        os.path.join(ROOT, "kmetric.ico"))
    print("ico written" if ok else "ico: this Qt has no ICO writer")
