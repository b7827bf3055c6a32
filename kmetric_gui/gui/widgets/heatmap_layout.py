"""Where every text of a heatmap goes: margins, labels, numbers, totals, colour-bar ticks.

Pure geometry from font metrics, the widget size and the visible range, so that
painting and the geometry tests read the same rectangles. Rules: texts never
overlap (labels are thinned, numbers shrink, abbreviate or hide), never leave
the widget, and long names are elided (the full text is in `tip`).
"""
import math
from dataclasses import dataclass

import numpy as np

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF

from . import numfmt

PAD = 3          # px between bands
MIN_PX = 7       # smallest font pixel size for numbers
LABEL_PX = 9     # smallest for labels and totals (thinned rather than smaller)
BAR_W = 10       # colour bar width
AIR = 6          # px between numbers or labels of neighbouring columns
NO_LIMIT = 1e5   # elision width for texts that are never elided (QFixed overflows near 3e7)


@dataclass
class Text:
    kind: str            # title, axis, row, col, cell, total, head, scale
    rect: QRectF         # bounding box in widget pixels (after rotation)
    text: str
    font: QFont
    rotated: bool = False
    tip: str = ""
    cell: tuple = None   # (i, j) of a cell number, i or j of a label/total


def font(base, px, bold=False):
    f = QFont(base)
    f.setPixelSize(max(1, int(px)))
    f.setBold(bold)
    return f


def visible(lo, hi, n):
    """Indices whose centres lie inside the view range [lo, hi]."""
    return range(max(0, math.ceil(lo - 1e-9)), min(n - 1, math.floor(hi + 1e-9)) + 1)


class Layout:
    """Computed once per (size, view range, data); `texts` and the matrix rect `m`."""

    def __init__(self, hm, w, h, xr, yr, base):
        self.hm, self.w, self.h = hm, float(w), float(h)
        px = base.pixelSize() if base.pixelSize() > 0 else round(base.pointSizeF() * 4 / 3)
        self.base_px = max(MIN_PX, px)
        self.base = font(base, self.base_px)
        self.bold = font(base, self.base_px, bold=True)
        self.lh_bold = QFontMetricsF(self.bold).height()
        self.fm = QFontMetricsF(self.base)
        self.lh = self.fm.height()
        self.xr, self.yr = xr, yr
        self.texts = []
        self._margins()
        if hm.nr and hm.nc:
            self._place()

    # -- margins -------------------------------------------------------------
    def _width(self, f, texts):
        fm = QFontMetricsF(f)
        return max((fm.horizontalAdvance(t) for t in texts), default=0.0)

    def _margins(self):
        hm, lh = self.hm, self.lh
        self.title_h = lh + PAD if hm.title else 0.0
        self.axis_w = lh + PAD
        self.label_cap = max(24.0, 0.22 * self.w)
        self.left_band = min(self._width(self.base, hm.labels) + PAD, self.label_cap)
        corner_w, corner_h = hm.corner_size()        # room for the reset-zoom button
        self.left_band = max(self.left_band, corner_w + 2 * PAD - self.axis_w)
        left = self.axis_w + self.left_band
        right = PAD
        self.total_fmt = None
        rows = hm.display.sum(axis=1) if hm.totals and hm.nr else []
        if len(rows):
            cap = max(30.0, 0.16 * self.w)
            fm = QFontMetricsF(self.bold)
            self.total_fmt = numfmt.fitting(rows, hm.integer, fm.horizontalAdvance, cap) or numfmt.tiny
            self.total_w = self._width(self.bold, [self.total_fmt(v, hm.integer) for v in rows])
            right += self.total_w + PAD
        self.scale_ticks = hm.scale_ticks() if hm.nr else []
        if self.scale_ticks:
            self.scale_font = font(self.base, max(MIN_PX, self.base_px - 1))
            right += PAD + BAR_W + PAD + self._width(self.scale_font, [t for _, t in self.scale_ticks]) + PAD
        ncols = max(self.xr[1] - self.xr[0], 1e-6)
        cw = max(1.0, (self.w - left - right)) / ncols
        # Column labels: horizontal when they fit a cell, else rotated and thinned.
        self.col_font, self.col_rot = self._label_font(self.hm.col_labels, cw)
        self.col_elide = False
        if self.col_rot and cw >= 40:
            # Rotated into a short band, "0 - Proliferative DR" showed "0 - …" though the
            # column had 80 px: across the cell, cut at its end, shows more of it.
            band = max(24.0, 0.2 * self.h)
            if self._width(self.col_font, hm.col_labels) > band and band < 1.5 * cw:
                self.col_rot, self.col_elide = False, True
        col_band = (QFontMetricsF(self.col_font).height() if not self.col_rot else
                    min(self._width(self.col_font, hm.col_labels), max(24.0, 0.2 * self.h)))
        col_band = max(col_band, corner_h)
        self.col_band = col_band
        top = self.title_h + lh + col_band + PAD
        # Column totals: across a cell (in full, else abbreviated, smaller if need be), else upwards.
        bottom = PAD
        self.ctot = None
        if self.total_fmt is not None:
            cols = hm.display.sum(axis=0)
            self.ctot = self._fit_numbers(cols, cw - AIR - 2, LABEL_PX, bold=True)
            if self.ctot is None:
                up = font(self.bold, max(MIN_PX, self.base_px - 1), bold=True)
                fmt = numfmt.fitting(cols, hm.integer, QFontMetricsF(up).horizontalAdvance, 0.2 * self.h)
                self.ctot = (up, fmt or numfmt.tiny, True)
            f, fmt, rot = self.ctot
            fm = QFontMetricsF(f)
            bottom += (max(fm.height(), self.lh_bold) if not rot else     # the bold Σ shares the band
                       max(fm.horizontalAdvance(fmt(v, hm.integer)) for v in cols)) + PAD
        nrows = max(self.yr[1] - self.yr[0], 1e-6)
        ch = max(1.0, self.h - top - bottom) / nrows
        # Readable labels on thin rows: at least LABEL_PX, thinned (every 2nd, 3rd...) instead.
        px = next((px for px in range(self.base_px, LABEL_PX, -1)
                   if QFontMetricsF(font(self.base, px, True)).height() + 1 <= ch), LABEL_PX)
        self.row_font = font(self.base, px)
        self.row_bold = font(self.row_font, self.row_font.pixelSize(), bold=True)
        # Labels and totals centred on thin rows stick out of the matrix: widen the gaps.
        over_r = max(0.0, (QFontMetricsF(self.row_bold).height() - ch) / 2)
        over_c = max(0.0, (QFontMetricsF(self.col_font).height() - cw) / 2) if self.col_rot else 0.0
        self.gap = PAD + max(over_r, over_c)
        extra = self.gap - PAD
        self.margins = (left + extra, top + extra, right + extra, bottom + extra)
        left, top, right, bottom = self.margins
        self.m = QRectF(left, top, max(1.0, self.w - left - right), max(1.0, self.h - top - bottom))
        self.cw = self.m.width() / ncols
        self.ch = self.m.height() / nrows

    def _label_font(self, labels, cw):
        for px in range(self.base_px, LABEL_PX - 1, -1):
            f = font(self.base, px)
            if self._width(f, labels) <= cw - AIR - 2:     # 2: the estimate of cw is a bit large
                return f, False
        return font(self.base, min(self.base_px, max(LABEL_PX, cw - 1))), True

    def _fit_numbers(self, values, room, min_px, bold=False):
        """(font, format, rotated=False) for the largest font where a format fits `room`."""
        if not len(values):
            return None
        longest = _longest(values, self.hm.integer)
        for px in range(self.base_px, min_px - 1, -1):
            f = font(self.base, px, bold)
            fm = QFontMetricsF(f)
            fmt = numfmt.fitting(longest, self.hm.integer, fm.horizontalAdvance, room)
            if fmt is not None:
                return f, fmt, False
        return None

    # -- placing -------------------------------------------------------------
    def x_of(self, j):
        """Left edge of column j."""
        return self.m.left() + (j - 0.5 - self.xr[0]) * self.cw

    def y_of(self, i):
        """Top edge of row i."""
        return self.m.top() + (i - 0.5 - self.yr[0]) * self.ch

    def _add(self, kind, rect, text, f, **kw):
        if rect.left() >= -0.01 and rect.top() >= -0.01 and rect.right() <= self.w + 0.01 \
                and rect.bottom() <= self.h + 0.01:
            self.texts.append(Text(kind, rect, text, f, **kw))

    def _line(self, kind, text, f, x, y, avail, align, tip="", rotated=False, cell=None):
        """One elided line: horizontal with its left/centre/right at x, top at y; rotated reads upwards
        with its bottom/centre at y and its left at x."""
        fm = QFontMetricsF(f)
        shown = fm.elidedText(text, Qt.ElideRight, max(0.0, avail))
        if not shown:
            return
        adv = fm.horizontalAdvance(shown)
        tip = tip or (text if shown != text else "")
        if not rotated:
            x0 = {"left": x, "center": x - adv / 2, "right": x - adv}[align]
            rect = QRectF(x0, y, adv, fm.height())
        else:
            y0 = {"bottom": y - adv, "center": y - adv / 2}[align]
            rect = QRectF(x, y0, fm.height(), adv)
        self._add(kind, rect, shown, f, rotated=rotated, tip=tip, cell=cell)

    def _place(self):
        hm, m, g = self.hm, self.m, self.gap
        if hm.title:
            self._line("title", hm.title, self.bold, self.w / 2, 0, self.w - 2 * PAD, "center")
        top_axis_y = self.title_h
        self._line("axis", hm.col_axis, self.base, m.center().x(), top_axis_y, m.width(), "center")
        self._line("axis", hm.row_axis, self.base, 0, m.center().y(), m.height(), "center", rotated=True)
        rows = visible(*self.yr, hm.nr)
        cols = visible(*self.xr, hm.nc)
        # Row labels, right-aligned left of the matrix; thinned when rows are thinner than the text.
        fm = QFontMetricsF(self.row_font)
        step = max(1, math.ceil((fm.height() + 1) / self.ch))
        avail = m.left() - g - self.axis_w
        for i in rows:
            if i % step == 0:
                y = self.y_of(i) + self.ch / 2 - fm.height() / 2
                self._line("row", hm.labels[i], self.row_font, m.left() - g, y, avail, "right",
                           tip=hm.labels[i], cell=i)
        # Column labels above the matrix.
        fm = QFontMetricsF(self.col_font)
        bottom = m.top() - g
        if not self.col_rot:
            step = 1 if self.col_elide else \
                max(1, math.ceil((self._width(self.col_font, hm.col_labels) + AIR) / self.cw))
            for j in cols:
                if j % step == 0:
                    self._line("col", hm.col_labels[j], self.col_font, self.x_of(j) + self.cw / 2,
                               bottom - fm.height(), self.cw * step - 2, "center", tip=hm.col_labels[j],
                               cell=j)
        else:
            step = max(1, math.ceil((fm.height() + 1) / self.cw))
            for j in cols:
                if j % step == 0:
                    x = self.x_of(j) + self.cw / 2 - fm.height() / 2
                    self._line("col", hm.col_labels[j], self.col_font, x, bottom, self.col_band, "bottom",
                               tip=hm.col_labels[j], rotated=True, cell=j)
        self._cells(rows, cols)
        if self.total_fmt is not None:
            self._totals(rows, cols)
        if self.scale_ticks:
            self._scale()

    def _cells(self, rows, cols):
        hm = self.hm
        if not len(rows) or not len(cols):
            return
        sub = hm.display[rows.start:rows.stop, cols.start:cols.stop]
        fit = self._fit_numbers(sub.ravel(), self.cw - min(AIR, max(3.0, 0.2 * self.cw)), MIN_PX)
        if fit is None:
            return
        f, fmt, _ = fit
        fm = QFontMetricsF(f)
        if fm.height() > self.ch:
            return
        h = fm.height()
        texts, widths = {}, {}           # most cells repeat a few values (0 above all): format once
        for i in rows:
            y = self.y_of(i) + self.ch / 2 - h / 2
            for j in cols:
                v = hm.display[i, j]
                t = texts.get(v)
                if t is None:
                    t = texts[v] = fmt(v, hm.integer)
                    widths[t] = fm.horizontalAdvance(t)
                adv = widths[t]
                self.texts.append(Text("cell", QRectF(self.x_of(j) + self.cw / 2 - adv / 2, y, adv, h), t, f,
                                       cell=(i, j)))

    def _totals(self, rows, cols):
        hm, m, g = self.hm, self.m, self.gap
        integer = hm.integer
        rsum, csum = hm.display.sum(axis=1), hm.display.sum(axis=0)
        fm = QFontMetricsF(self.row_bold)
        step = max(1, math.ceil((fm.height() + 1) / self.ch))
        for i in rows:
            if i % step == 0:
                t = self.total_fmt(rsum[i], integer)
                y = self.y_of(i) + self.ch / 2 - fm.height() / 2
                self._line("total", t, self.row_bold, m.right() + g, y, NO_LIMIT, "left",
                           tip=numfmt.exact(rsum[i], integer), cell=i)
        self._line("head", "Σ", self.bold, m.right() + g, m.top() - g - self.lh_bold, NO_LIMIT, "left",
                   tip="row totals")
        self._line("head", "Σ", self.bold, m.left() - g, m.bottom() + g, NO_LIMIT, "right",
                   tip="column totals")
        f, fmt, rot = self.ctot
        fm = QFontMetricsF(f)
        size = fm.height() if rot else max(fm.horizontalAdvance(fmt(v, integer)) for v in csum) + AIR
        step = max(1, math.ceil((size + 1) / self.cw))
        for j in cols:
            if j % step == 0:
                t = fmt(csum[j], integer)
                x = self.x_of(j) + self.cw / 2
                if rot:
                    adv = fm.horizontalAdvance(t)
                    self._line("total", t, f, x - fm.height() / 2, m.bottom() + g + adv, NO_LIMIT, "bottom",
                               tip=numfmt.exact(csum[j], integer), rotated=True, cell=j)
                else:
                    self._line("total", t, f, x, m.bottom() + g, NO_LIMIT, "center",
                               tip=numfmt.exact(csum[j], integer), cell=j)

    def bar_rect(self):
        x = self.m.right() + self.gap + (self.total_w + PAD if self.total_fmt is not None else 0) + PAD
        return QRectF(x, self.m.top(), BAR_W, self.m.height())

    def _scale(self):
        bar = self.bar_rect()
        fm = QFontMetricsF(self.scale_font)
        h = fm.height()
        ticks = self.scale_ticks if bar.height() >= 3 * h else [self.scale_ticks[0], self.scale_ticks[-1]]
        placed = []
        for frac, t in ticks:     # frac 0 = bottom (low), 1 = top (high)
            y = bar.bottom() - frac * bar.height() - h / 2
            y = min(max(y, bar.top() - h / 2, 0.0), bar.bottom() - h / 2, self.h - h)   # ends stay inside
            rect = QRectF(bar.right() + PAD, y, fm.horizontalAdvance(t), h)
            if all(not rect.intersects(r) for r in placed):
                placed.append(rect)
                self._add("scale", rect, t, self.scale_font)


def _longest(values, integer):
    """A few values whose texts are longest in every format: the largest and smallest magnitudes
    and the most negative (text length follows those, digit widths are equal)."""
    v = np.asarray(values, dtype=np.float64).ravel()
    if v.size <= 12:
        return list(v)
    a = np.abs(np.nan_to_num(v))
    pick = set(np.argsort(a)[-4:]) | set(np.argsort(np.where(a > 1e-9, a, np.inf))[:4])
    pick |= set(np.argsort(v)[:2])
    pick |= set(np.flatnonzero(np.isnan(v))[:1])
    return [v[k] for k in sorted(pick)]
