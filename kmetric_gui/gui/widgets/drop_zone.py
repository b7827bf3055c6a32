"""A labelled area that accepts a dropped file (or a click to browse)."""
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy

from ..crash import guarded


class MiddleElidedLabel(QLabel):
    """A file name cut in the middle ("train_su…sion.csv") to fit: the start and the
    extension are what tell files apart. The full text stays in ``full_text()``."""

    def __init__(self, text="", parent=None):
        super().__init__(parent)
        self._full = ""
        self.setTextFormat(Qt.PlainText)        # a file may be named "<b>"
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        self.set_full_text(text)

    def full_text(self):
        return self._full

    def set_full_text(self, text):
        self._full = text
        self._elide()

    @guarded
    def sizeHint(self):
        size = super().sizeHint()
        size.setWidth(self.fontMetrics().horizontalAdvance(self._full) + 4)
        return size

    @guarded
    def resizeEvent(self, event):
        super().resizeEvent(event)
        self._elide()

    def _elide(self):
        shown = self.fontMetrics().elidedText(self._full, Qt.ElideMiddle, max(self.width(), 1))
        if shown != self.text():
            self.setText(shown)


def dropped_paths(mime):
    return [u.toLocalFile() for u in mime.urls() if u.isLocalFile()] if mime.hasUrls() else []


class DropZone(QFrame):
    file_dropped = Signal(str)
    files_dropped = Signal(list)       # zones that take several files (compare)
    browse_requested = Signal()

    def __init__(self, title, parent=None, multiple=False):
        super().__init__(parent)
        self.title, self.multiple = title, multiple
        self.setAcceptDrops(True)
        self.setFrameShape(QFrame.StyledPanel)
        self.setObjectName("dropZone")
        lay = QHBoxLayout(self)               # one line: little height on short screens
        lay.setContentsMargins(8, 6, 8, 6)
        self._title = QLabel(f"<b>{title}</b>")
        self._path = MiddleElidedLabel("drop a file here")
        self._path.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self._path.setMinimumWidth(40)
        self._button = QPushButton("Open…")
        self._button.setToolTip(f"Choose the {title.lower()} file")
        self._button.clicked.connect(self.browse_requested)
        lay.addWidget(self._title)
        lay.addWidget(self._path, 1)
        lay.addWidget(self._button)
        self.path = None

    def set_path(self, path):
        self.path = path
        self._path.set_full_text(Path(path).name if path else "drop a file here")
        self._path.setToolTip(str(path) if path else "")

    @guarded
    def dragEnterEvent(self, event):
        n = len(dropped_paths(event.mimeData()))
        if n == 1 or (self.multiple and n > 1):
            self.setProperty("hover", True)
            self.style().polish(self)
            event.acceptProposedAction()

    @guarded
    def dragLeaveEvent(self, event):
        self.setProperty("hover", False)
        self.style().polish(self)

    @guarded
    def dropEvent(self, event):
        self.dragLeaveEvent(event)
        paths = dropped_paths(event.mimeData())
        if self.multiple and paths:
            event.acceptProposedAction()
            self.files_dropped.emit(paths)
        elif len(paths) == 1:
            event.acceptProposedAction()
            self.file_dropped.emit(paths[0])

    def set_paths(self, paths):
        """Several files (the compare zone): their names, the full paths on hover."""
        from pathlib import Path as _P
        self.path = list(paths)
        self._path.set_full_text(", ".join(_P(p).name for p in paths) if paths
                                 else "drop files here")
        self._path.setToolTip("\n".join(map(str, paths)))
