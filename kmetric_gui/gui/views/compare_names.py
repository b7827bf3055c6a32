"""Compare's tables, and how they name the submissions where room is short. A name
keeps what tells it from the other of its pair (the end of the file name: 'subm…_b.csv',
'subm….csv (shown)'); the whole name and its path are in the tooltip. At 1280x720 the
pair table needed a horizontal scroll bar and still cut A and B alike in the middle, and
the agreement map's axis read 'A: a_submis…'."""
import math
import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QSizePolicy,
                               QStyle, QStyledItemDelegate, QTableWidget, QTableWidgetItem, QWidget)

from ..crash import guarded

ELLIPSIS = "…"
HEAD = 4          # characters of the shared start kept before the ellipsis ('subm…_b.csv')

# The pair table's headers, short so that nine columns fit 1280x720, and what each means.
PAIR_HEADERS = (
    ("A", "the first submission of the pair"),
    ("B", "the second submission of the pair"),
    ("B − A", "Δ = B − A: the score of B minus the score of A"),
    ("interval", "the interval of Δ = B − A (paired bootstrap)"),
    ("B better", "the share of paired bootstrap replicates in which B scores better than A, in "
                 "the metric's direction (lower is better for errors and losses)"),
    ("p", "p-value: how often randomly swapping the two submissions' predictions gives a "
          "difference at least this large"),
    ("flips", "P(order flips): the share of random Public/Private splits in which Public and "
              "Private order A and B differently"),
    ("public", "public Δ: B − A on the Public rows"),
    ("private", "private Δ: B − A on the Private rows"),
)


def shared_start(names):
    """How many leading characters all the (distinct) names share; 0 for fewer than two."""
    distinct = sorted(set(names))
    return len(os.path.commonprefix(distinct)) if len(distinct) > 1 else 0


def short_name(fm, name, room, start=0):
    """``name`` in ``room`` pixels of font metrics ``fm`` (a QFontMetricsF): whole if it
    fits; else a few of the first characters, '…' and all that follows the ``start``
    characters it shares with the other name; else cut in the middle, keeping twice as
    much of its end as of its start ('lgbm…erage_v3.csv')."""
    if fm.horizontalAdvance(name) <= room:
        return name
    for head in (name[:min(HEAD, start)], "") if start else ():
        text = head + ELLIPSIS + name[start:]
        if fm.horizontalAdvance(text) <= room:
            return text
    for keep in range(len(name) - 1, 0, -1):
        head = keep // 3
        text = name[:head] + ELLIPSIS + name[len(name) - keep + head:]
        if fm.horizontalAdvance(text) <= room:
            return text
    return ELLIPSIS


def form(name, other, head):
    """``name`` as its pair's table shows it at step ``head`` (characters kept before what
    follows the start it shares with ``other``); None when it shares none."""
    start = shared_start([name, other])
    return name[:min(head, start)] + ELLIPSIS + name[start:] if start else None


def text_margin(widget):
    """Pixels Qt's item painter leaves on each side of a cell's text (it elides beyond)."""
    return widget.style().pixelMetric(QStyle.PM_FocusFrameHMargin, None, widget) + 1


def table(headers):
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.setEditTriggers(QAbstractItemView.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectRows)
    t.setSelectionMode(QAbstractItemView.SingleSelection)
    t.verticalHeader().setVisible(False)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
    # Compact rows: at 1280x720 every pixel left over goes to the agreement heatmap.
    t.verticalHeader().setDefaultSectionSize(t.fontMetrics().height() + 6)
    t.verticalHeader().setMinimumSectionSize(t.fontMetrics().height() + 4)
    t.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Maximum)
    return t


def fill(table, rows, tips=None, left=1):
    """Rows of text; the first ``left`` columns (names) left-aligned, numbers right."""
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            item = QTableWidgetItem(str(text))
            if c >= left:
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
            if tips and tips[r]:
                item.setToolTip(tips[r])
            table.setItem(r, c, item)


class NameDelegate(QStyledItemDelegate):
    """Paints a name column's text shortened by ``short_name`` to the cell, against the
    other name of its row (the item keeps the whole name: copying, searching and tooltips
    see it)."""

    @guarded
    def initStyleOption(self, option, index):
        super().initStyleOption(option, index)
        room = option.rect.width() - 2 * text_margin(self.parent())
        if room > 0:            # no cell yet (a size hint): the whole name
            other = index.siblingAtColumn(1 - index.column()).data() or ""
            start = shared_start([option.text, other])
            option.text = short_name(QFontMetricsF(option.font), option.text, room, start)


def _need(fm, texts, pad):
    return math.ceil(max((fm.horizontalAdvance(t) for t in texts), default=0.0)) + pad


def fit_pairs(table):
    """The numbers to their contents; the names (columns 0 and 1: A and B) share what is
    left: whole when they fit, else each as wide as a shortened form that keeps what tells
    it from the other name of its pair, else equal shares (cut in the middle). Only below
    four characters a name are the columns wider than the table (then it scrolls)."""
    table.resizeColumnsToContents()
    room = table.viewport().width() - sum(table.columnWidth(c) for c in range(2, table.columnCount()))
    fm = QFontMetricsF(table.font())
    pad = 2 * text_margin(table) + (1 if table.showGrid() else 0) + 1
    rows = [[table.item(r, c).text() for c in (0, 1)] for r in range(table.rowCount())]
    low = _need(fm, ["m" * 4], pad)
    # Each name as '…_b.csv' (what follows the start it shares with the other), then as
    # 'subm…_b.csv', then whole: the cheapest step first, while the numbers keep their room.
    forms = []
    for c in (0, 1):
        whole = _need(fm, [row[c] for row in rows], pad)
        steps = [max(low, _need(fm, [form(row[c], row[1 - c], h) or row[c] for row in rows], pad))
                 for h in (0, HEAD)]
        forms.append([min(n, whole) for n in steps] + [whole])
    level = [0, 0]
    if forms[0][0] + forms[1][0] > room:          # too narrow: equal shares
        widths = [max(low, room // 2)] * 2
    else:
        while True:
            used = sum(f[k] for f, k in zip(forms, level))
            up = sorted((f[k + 1] - f[k], c) for c, (f, k) in enumerate(zip(forms, level))
                        if k + 1 < len(f) and used + f[k + 1] - f[k] <= room)
            if not up:
                break
            level[up[0][1]] += 1
        widths = [f[k] for f, k in zip(forms, level)]
        short = [c for c in (0, 1) if level[c] < 2]
        for c in short:             # what is left widens the names still shortened
            widths[c] += (room - sum(f[k] for f, k in zip(forms, level))) // len(short)
    for c, w in enumerate(widths):
        table.setColumnWidth(c, w)


class NameLabel(QLabel):
    """'A: name' in one line, shortened to its width as the table's names are (the end
    kept); the whole name and the file's path in the tooltip."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)   # its width never grows the page
        self.setTextFormat(Qt.PlainText)
        self.lead, self.name, self.path, self.start = "", "", None, 0

    def set_name(self, lead, name, path=None, start=0):
        self.lead, self.name, self.path, self.start = lead, name, path, start
        self.setToolTip(f"{lead}{name}" + (f"\n{path}" if path else ""))
        self._elide()

    def _elide(self):
        fm = QFontMetricsF(self.font())
        room = self.contentsRect().width() - fm.horizontalAdvance(self.lead) - 1
        self.setText(self.lead + short_name(fm, self.name, room, self.start) if self.name else "")

    @guarded
    def resizeEvent(self, event):
        super().resizeEvent(event)
        self._elide()


class PairNames(QWidget):
    """Which file is A and which is B, side by side above the pair's details."""

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(2, 0, 2, 0)
        self.a, self.b = NameLabel(), NameLabel()
        for w in (self.a, self.b):
            lay.addWidget(w, 1)

    def show_pair(self, a, b):
        """``a``, ``b``: the compared Submissions (name, path)."""
        start = shared_start([a.name, b.name])
        self.a.set_name("A: ", a.name, a.path, start)
        self.b.set_name("B: ", b.name, b.path, start)

    def clear(self):
        for w in (self.a, self.b):
            w.set_name("", "")
