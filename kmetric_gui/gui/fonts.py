"""Can this system draw text? Without fonts (or without a fontconfig configuration) Qt
draws every character as the same empty box and says nothing."""
SAMPLE = "Score 0.123"


def text_problem():
    """None when text renders; otherwise one line saying what is missing. Needs a QGuiApplication."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QFontDatabase, QFontMetrics, QGuiApplication, QImage, QPainter

    hint = "install fontconfig and a font (Debian: fontconfig-config fonts-dejavu-core)"
    if not QFontDatabase.families():
        return f"no fonts found; {hint}"
    font = QGuiApplication.font()
    metrics = QFontMetrics(font)
    missing = sorted({ch for ch in SAMPLE if not ch.isspace() and not metrics.inFontUcs4(ord(ch))})
    if missing:
        return f"the font {font.family()!r} has no glyph for {''.join(missing)!r}; {hint}"

    def draw(text):
        img = QImage(48, 48, QImage.Format_Grayscale8)
        img.fill(255)
        p = QPainter(img)
        p.setFont(font)
        p.drawText(img.rect(), Qt.AlignCenter, text)
        p.end()
        return img

    a, b = draw("A"), draw("o")
    if a == b or a == draw(""):
        return f"text does not render (every character draws the same); {hint}"
    return None
