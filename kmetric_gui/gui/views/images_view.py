"""The view of mask and box metrics: images worst first, one image's hits and misses.

The table lists every scored image by its own score, worst first (a numpy-backed
model: 10,000 images cost one argsort). Selecting an image draws it: true
positives green, false positives red, false negatives blue, over the image itself
when a folder of images is given (the field above, or the --images option), else
over a blank canvas of the image's size; the matched pairs with their IoU
beside. For mAP, a precision-recall curve per class at the first IoU threshold.
The picture is made on a worker (decoding masks, reading the image file).
"""
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QFileDialog, QHBoxLayout, QLabel, QLineEdit,
                               QPushButton, QSplitter, QTableView, QVBoxLayout, QWidget)

from ...metrics.image_pictures import find_image, picture, worst
from ..crash import guarded
from ..widgets import menus_later
from ..widgets.theme import style_plot

PENS = {"tp": (40, 170, 70), "fp": (220, 50, 40), "fn": (40, 100, 230)}
CLASS_COLOURS = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189)]


class ImagesModel(QAbstractTableModel):
    """Images worst first: id, score and three counts, from numpy arrays."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.ids, self.values, self.counts = [], np.zeros(0), np.zeros((0, 3))
        self.order, self.heads = np.zeros(0, np.int64), ["id", "score", "", "", ""]

    def set_data(self, ids, values, counts, order, count_names):
        self.beginResetModel()
        self.ids, self.values, self.counts, self.order = ids, values, counts, order
        self.heads = ["id", "score", *count_names]
        self.endResetModel()

    @guarded
    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else int(self.order.size)

    @guarded
    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else 5

    @guarded
    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        k, c = int(self.order[index.row()]), index.column()
        if role == Qt.DisplayRole:
            if c == 0:
                return str(self.ids[k])
            if c == 1:
                v = self.values[k]
                return "—" if v != v else f"{v:.4g}"
            return f"{int(self.counts[k, c - 2]):,}"
        if role == Qt.TextAlignmentRole and c:
            return int(Qt.AlignRight | Qt.AlignVCenter)
        return None

    @guarded
    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role == Qt.DisplayRole and orientation == Qt.Horizontal:
            return self.heads[section]
        return None


class ImagesView(QWidget):
    rows_requested = Signal(object, str)

    def __init__(self, context=None, parent=None):
        super().__init__(parent)
        self.jobs = context.jobs if context else None
        self.session = context.session if context else None
        self.report, self.current, self.scored = None, None, None
        lay = QVBoxLayout(self)
        self.title = QLabel("")
        self.title.setWordWrap(True)
        top = QHBoxLayout()
        self.folder = QLineEdit()
        self.folder.setPlaceholderText("a folder of the images (id.png, id.jpg): drawn under "
                                       "the masks or boxes")
        self.folder.editingFinished.connect(self._redraw)
        browse = QPushButton("Images…")
        browse.clicked.connect(self._browse)
        top.addWidget(QLabel("Images:"))
        top.addWidget(self.folder, 1)
        top.addWidget(browse)
        self.model = ImagesModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.selectionModel().currentRowChanged.connect(self._picked)
        self.canvas = pg.GraphicsLayoutWidget()
        self.box = self.canvas.addViewBox(lockAspect=True, invertY=True, enableMenu=False)
        menus_later.later(self.box)
        self.bg = pg.ImageItem(axisOrder="row-major")
        self.over = pg.ImageItem(axisOrder="row-major")
        self.box.addItem(self.bg)
        self.box.addItem(self.over)
        self.rects = {k: pg.PlotCurveItem(pen=pg.mkPen(c, width=2), connect="pairs")
                      for k, c in PENS.items()}
        for item in self.rects.values():
            self.box.addItem(item)
        self.pairs = QLabel("")
        self.pairs.setWordWrap(True)
        self.pairs.setAlignment(Qt.AlignTop)
        # The precision-recall plot is made when boxes arrive: a PlotWidget takes 50-100 ms
        # of the UI thread to build (its menus), most of the stall of opening a mask pair.
        self.pr = None
        right = self.right = QSplitter(Qt.Vertical)
        right.addWidget(self.canvas)
        right.addWidget(self.pairs)
        right.setStretchFactor(0, 3)
        right.setSizes([500, 70])
        split = QSplitter(Qt.Horizontal)
        split.addWidget(self.table)
        split.addWidget(right)
        split.setSizes([330, 700])
        legend = QLabel("<span style='color:#28aa46'>■ true positive</span> &nbsp; "
                        "<span style='color:#dc3228'>■ false positive</span> &nbsp; "
                        "<span style='color:#2864e6'>■ false negative</span>")
        for w in (self.title, legend):
            lay.addWidget(w)
        lay.addLayout(top)
        lay.addWidget(split, 1)

    # -- report --------------------------------------------------------------------------
    def set_report(self, report, new_data=False):
        self.report = report
        r, m = report.result, report.definition
        if not self.folder.text():
            self.folder.setText(getattr(report.options, "images", None) or "")
        from ...analysis.fixes import scored_rows
        rows = scored_rows(report.prepared)
        ids = report.prepared.ids if rows is None else report.prepared.ids[rows]
        v = np.where(np.isnan(r.values), np.inf if m.higher_is_better else -np.inf, r.values)
        order = np.argsort(v if m.higher_is_better else -v, kind="stable")
        self.scored = rows
        self.model.set_data(ids, r.values, r.counts, order, m.count_names)
        head = self.table.horizontalHeader()
        for c, width in enumerate((120, 64, 78, 78, 78)):
            head.resizeSection(c, width)
        way = "higher" if m.higher_is_better else "lower"
        score = "undefined" if report.score != report.score else f"{report.score:.6f}"
        self.title.setText(f"<b>{m.label}</b> {score} on {r.n:,} images ({way} is better); "
                           "images worst first: select one to draw it")
        self._draw_pr(r.detail)
        if order.size:
            self.table.selectRow(0)
            self._show(int(order[0]))

    def set_stats(self, stats):
        pass

    def _pr_plot(self):
        if self.pr is None:
            self.pr = pg.PlotWidget(title="Precision-recall per class (first IoU threshold)",
                                  enableMenu=False)
            menus_later.later(self.pr)
            self.pr.setLabel("left", "precision")
            self.pr.setLabel("bottom", "recall")
            self.pr.addLegend(offset=(-10, 10))
            self.pr.setMinimumHeight(110)
            style_plot(self.pr)          # made after the view was styled: the palette's colours
            self.right.addWidget(self.pr)
            self.right.setStretchFactor(2, 1)
            # the picture keeps most of the height (at 1280x720 it was left 60 px)
            h = max(self.right.height(), 300)
            self.right.setSizes([int(h * 0.58), 40, h - int(h * 0.58) - 40])
        return self.pr

    def _draw_pr(self, det):
        has = hasattr(det, "hit") and det.hit.size
        if self.pr is not None:
            self.pr.clear()
            self.pr.setVisible(bool(has))
        if not has:
            return
        self._pr_plot().setVisible(True)
        from ...metrics.kernels.boxes import pr_curve
        for c, name in enumerate(det.classes[:10]):
            if det.gt[:, c].sum() == 0:
                continue
            rec, prec = pr_curve(det, c)
            self.pr.plot(np.r_[0, rec], np.r_[1, prec], name=str(name) or "boxes",
                         pen=pg.mkPen(CLASS_COLOURS[c % len(CLASS_COLOURS)], width=2))
        self.pr.setRange(xRange=(0, 1), yRange=(0, 1.02))

    # -- one image -----------------------------------------------------------------------
    def _picked(self, current, _previous=None):
        if current.isValid() and self.report is not None:
            k = int(self.model.order[current.row()])
            self._show(k)
            sol = k if self.scored is None else int(self.scored[k])
            self.rows_requested.emit(lambda prep, r: np.isin(r, [sol]), "1 image")

    def _browse(self):
        path = QFileDialog.getExistingDirectory(self, "Folder of the images", self.folder.text())
        if path:
            self.folder.setText(path)
            self._redraw()

    def _redraw(self):
        if self.current is not None:
            self._show(self.current)

    def _show(self, k):
        self.current = k
        report, folder = self.report, self.folder.text().strip()

        def job(progress=None, cancel=None):
            pic = picture(report, k)
            image_id = pic.title.rsplit(": score", 1)[0]
            return pic, load_image(find_image(folder, image_id))
        if self.jobs is not None:
            gen = self.session.generation if self.session is not None else None
            self.jobs.submit("image-picture", job, self._draw, generation=gen)
        else:
            self._draw(job())

    def _draw(self, found):
        pic, image = found
        draw_picture(self.box, self.bg, self.over, self.rects, pic, image)
        self.pairs.setText("<b>" + pic.title + "</b><br>" + ("<br>".join(pic.pairs) or
                                                            "no overlapping pair"))


def load_image(path):
    """(h, w) or (h, w, 3) uint8 of an image file, or None (unreadable: drawn blank)."""
    if not path:
        return None
    from PySide6.QtGui import QImage
    img = QImage(path)
    if img.isNull():
        return None
    img = img.convertToFormat(QImage.Format_RGB888)
    w, h, stride = img.width(), img.height(), img.bytesPerLine()
    buf = np.frombuffer(img.constBits(), np.uint8, count=stride * h).reshape(h, stride)
    return buf[:, :w * 3].reshape(h, w, 3).copy()


def draw_picture(box, bg, over, rects, pic, image):
    """Draw a Picture (and its image, or a blank canvas) into a ViewBox's items."""
    h, w = pic.size
    if image is None:
        image = np.full((h, w), 235, np.uint8)
    bg.setImage(image, levels=(0, 255))
    if pic.overlay is not None:
        over.setImage(pic.overlay, levels=(0, 255))
        over.show()
    else:
        over.hide()
    for kind, item in rects.items():
        b = np.array([x[:4] for x in pic.boxes if x[4] == kind], float).reshape(-1, 4)
        x1, y1, x2, y2 = b.T
        xs = np.column_stack([x1, x2, x2, x2, x2, x1, x1, x1]).ravel()
        ys = np.column_stack([y1, y1, y1, y2, y2, y2, y2, y1]).ravel()
        item.setData(xs, ys)
    box.setRange(xRange=(0, max(w, image.shape[1])), yRange=(0, max(h, image.shape[0])),
                 padding=0.02)


def image_plots(entry):
    """The report's pictures of the worst images (the --images folder under them)."""
    from ..widgets.static_plot import SIZE
    report = entry.report
    folder = getattr(report.options, "images", None)
    out = []
    for n, k in enumerate(worst(report, 4)):
        pic = picture(report, k)
        view = pg.GraphicsLayoutWidget()
        view.setBackground("w")
        view.resize(*SIZE)
        view.addLabel(pic.title + (f" — {pic.pairs[0]}" if pic.pairs else ""), row=0, col=0)
        box = view.addViewBox(row=1, col=0, lockAspect=True, invertY=True, enableMenu=False)
        bg, over = pg.ImageItem(axisOrder="row-major"), pg.ImageItem(axisOrder="row-major")
        box.addItem(bg)
        box.addItem(over)
        rects = {k2: pg.PlotCurveItem(pen=pg.mkPen(c, width=2), connect="pairs")
                 for k2, c in PENS.items()}
        for item in rects.values():
            box.addItem(item)
        draw_picture(box, bg, over, rects, pic, load_image(find_image(folder,
                                                                      pic.title.rsplit(": score", 1)[0])))
        out.append((f"worst_image_{n + 1}", f"Worst image {n + 1}: {pic.title} (green: hit, red: "
                    "false positive, blue: missed)", view))
    return out
