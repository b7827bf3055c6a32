"""A table model over column specs, with a row-index map for sort and filter.

No per-cell pandas indexing and no model reset per edit: ``data()`` reads
one cell of a column (an editable column reads the session's current data
version, so an edit shows at once); sorting and filtering only replace the
index map (computed on the worker). A refused edit says why in the cell's
tooltip until the next edit.
"""
import numpy as np
from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QObject, Qt, Signal
from PySide6.QtWidgets import QStyle

from ...tables import Column
from ..crash import guarded

__all__ = ["Column", "ColumnsModel", "SpareWidth", "fit_columns", "sorted_rows"]


class ColumnsModel(QAbstractTableModel):
    """Rows are source indices; edits go to ``edit_handler(spec, row, text)``."""
    edit_rejected = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.columns = []
        self.rows = np.zeros(0, dtype=np.int64)
        self.n_source = 0
        self.data_source = None              # state.DataVersion for editable columns
        self.edit_handler = None             # (spec, source_row, text) -> reason or None
        self.on_sort = None
        self.rejected = {}                   # (source_row, column) -> reason
        self.unscored = False                # derived columns blank: the data shown is not scored
        self.read_only = False               # no edits now (new data is coming)

    # -- content -------------------------------------------------------------
    def set_columns(self, columns, n_rows, data_source=None):
        self.beginResetModel()
        self.columns = list(columns)
        self.n_source = int(n_rows)
        self.rows = np.arange(self.n_source, dtype=np.int64)
        self.data_source = data_source
        self.rejected = {}
        self.endResetModel()

    def set_data_source(self, version):
        """A new version of the same data (an edit, undo or redo): repaint."""
        self.data_source = version
        for c, col in enumerate(self.columns):
            if col.editable:
                self.refresh_column(c)

    def set_extra_columns(self, extra):
        """Replace the read-only columns appended after the data's own (compared files)."""
        keep = [c for c in self.columns if not c.meta.get("extra")]
        if len(keep) < len(self.columns):
            self.beginRemoveColumns(QModelIndex(), len(keep), len(self.columns) - 1)
            self.columns = keep
            self.endRemoveColumns()
        if extra:
            for c in extra:
                c.meta["extra"] = True
            self.beginInsertColumns(QModelIndex(), len(keep), len(keep) + len(extra) - 1)
            self.columns = keep + list(extra)
            self.endInsertColumns()

    def set_rows(self, rows):
        """Replace the index map (sorted and/or filtered source rows).

        A reset, not layoutChanged: for a layout change the header walks every
        section (seconds of a frozen window at 10M rows); a reset only counts them.
        """
        self.beginResetModel()
        self.rows = np.asarray(rows, dtype=np.int64)
        self.endResetModel()

    def view_row(self, source_row):
        """Row in the current view of a source row, or -1 when filtered out."""
        hit = np.flatnonzero(self.rows == source_row)
        return int(hit[0]) if hit.size else -1

    def column_texts(self, col, n):
        """The display texts of a column's first ``n`` rows in view order (what data()
        gives, without a QModelIndex and a data() callback a cell: fit_columns)."""
        c = self.columns[col]
        return [str(c.fmt(self.value(int(r), col)) or "") for r in self.rows[:n]]

    def value(self, source_row, col):
        c = self.columns[col]
        if c.spec is not None and self.data_source is not None:
            return self.data_source.value(c.spec, source_row)
        return c.values[source_row]

    def set_derived(self, col, values):
        self.columns[col].values = values
        self.refresh_column(col)

    def refresh_column(self, col):
        if self.rowCount():
            self.dataChanged.emit(self.index(0, col), self.index(self.rowCount() - 1, col))

    # -- Qt interface ----------------------------------------------------------
    @guarded
    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else int(self.rows.size)

    @guarded
    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self.columns)

    @guarded
    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid() or index.row() >= self.rows.size:
            return None
        col = self.columns[index.column()]
        src = int(self.rows[index.row()])
        if role in (Qt.DisplayRole, Qt.EditRole):
            if self.unscored and col.derived is not None:
                return ""                    # numbers of older data: never shown as these
            return col.fmt(self.value(src, index.column()))
        if role == Qt.TextAlignmentRole and col.align_right:
            return int(Qt.AlignRight | Qt.AlignVCenter)
        if role == Qt.ToolTipRole:
            why = self.rejected.get((src, index.column()))
            if why:
                return f"Edit refused: {why}"
            if col.editable:
                return "Double-click to edit"
        return None

    @guarded
    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role == Qt.DisplayRole:
            if orientation == Qt.Horizontal:
                return self.columns[section].name if section < len(self.columns) else None
            return str(int(self.rows[section]) + 1) if section < self.rows.size else None
        if role == Qt.ToolTipRole and orientation == Qt.Horizontal and section < len(self.columns):
            return self.columns[section].tooltip or None
        return None

    @guarded
    def flags(self, index):
        f = super().flags(index)
        if index.isValid() and self.columns[index.column()].editable and self.edit_handler \
                and not self.read_only:
            f |= Qt.ItemIsEditable
        return f

    @guarded
    def setData(self, index, value, role=Qt.EditRole):
        if role != Qt.EditRole or not index.isValid() or self.edit_handler is None:
            return False
        col = self.columns[index.column()]
        if not col.editable:
            return False
        src = int(self.rows[index.row()])
        self.rejected.clear()                    # a refusal is shown until the next edit
        why = self.edit_handler(col.spec, src, value)
        if why:
            self.rejected[(src, index.column())] = why
            self.edit_rejected.emit(f"{col.name}, row {src + 1}: {why}")
            return False
        return True

    @guarded
    def sort(self, column, order=Qt.AscendingOrder):
        """Sorting is requested from the owner (it runs on the worker)."""
        if self.on_sort:
            self.on_sort(column, order)


def sorted_rows(values, rows, descending, key=None, text=None):
    """Source rows ordered by a column (stable), restricted to ``rows``; values with no
    order of their own (a mask image) are ordered by ``text`` (the cell's text)."""
    vals = key(values) if key else values
    if isinstance(vals, np.ndarray) and vals.ndim > 1:
        vals = np.array([str(v) for v in vals.tolist()], dtype=object)
    sub = vals[rows] if isinstance(vals, np.ndarray) else np.array([vals[i] for i in rows], dtype=object)
    if sub.ndim > 1:        # a list of equal-length lists (several values a row): one key a row
        sub = np.array([str(v) for v in sub.tolist()] + [None], dtype=object)[:-1]
    try:
        order = np.argsort(sub, kind="stable")
    except TypeError:
        show = text or str
        order = np.argsort(np.array([show(v) for v in sub.tolist()] + [None], dtype=object)[:-1],
                           kind="stable")
    if descending:
        order = order[::-1]
    return rows[order]



FIT_ROWS = 30      # rows measured to fit a column: about what a table shows at once


def fit_columns(table, columns=None, rows=FIT_ROWS, cap=None):
    """Columns as wide as their header and their first ``rows`` rows (in view order).

    Not Qt's resizeColumnsToContents: it asks data() ~8 roles a cell, over
    resizeContentsPrecision rows (all rows of a hidden table when that is 0),
    which froze the window 80-250 ms when a big table arrived. Each of those
    calls is a Python callback that also waits for the GIL while a worker runs
    Python, so here the texts are read in Python and only the longest few of a
    column are measured (plus one cell for the delegate's margins). ``cap``: the
    widest a column is made (long texts elide; the user can still widen it).
    """
    model, head = table.model(), table.horizontalHeader()
    n = min(model.rowCount(), rows)
    fm = table.fontMetrics()
    grid = 1 if table.showGrid() else 0
    margin = None               # the delegate's padding: one cell measured, the same for all
    fast = getattr(model, "column_texts", None)
    for c in range(model.columnCount()) if columns is None else columns:
        width = head.sectionSizeHint(c)
        if n:
            texts = fast(c, n) if fast else [str(model.data(model.index(r, c)) or "")
                                             for r in range(n)]
            if margin is None:
                margin = table.sizeHintForIndex(model.index(0, c)).width() - \
                    fm.horizontalAdvance(texts[0])
            # Every distinct text is measured (microseconds for 30): among texts of one
            # length a proportional font makes some wider ('da08d187.wav' elided).
            # Whole pixels round a 91.2 px text down: one more or it is elided.
            width = max(width, max(fm.horizontalAdvance(t) for t in set(texts)) + margin + grid + 1)
        table.setColumnWidth(c, width if cap is None else min(width, cap))


class SpareWidth(QObject):
    """The width a table has beyond its columns goes to one column (a text one).

    Not QHeaderView's stretchLastSection (the last column is often a one-digit count)
    and not a Stretch section (it shrinks to nothing when the columns overflow): the
    column keeps the width it was given and takes what is left over, on every resize.
    """

    def __init__(self, table):
        super().__init__(table)
        self.table, self.col, self.base, self._busy = table, -1, 0, False
        table.viewport().installEventFilter(self)
        table.horizontalHeader().sectionResized.connect(self._resized)

    def give_to(self, col):
        self.col = col
        self.base = self.table.columnWidth(col) if col >= 0 else 0
        self.apply()

    def apply(self):
        t, head = self.table, self.table.horizontalHeader()
        if not 0 <= self.col < t.model().columnCount() or head.isSectionHidden(self.col):
            return
        others = head.length() - head.sectionSize(self.col)
        # The room as if the vertical scroll bar were always shown: filling the room
        # that appears when it hides made the horizontal bar appear, the rows fit no
        # more, the vertical bar came back, the column shrank... an endless resize
        # storm (a test hung in it). One bar's width is left unused instead.
        room = t.viewport().width()
        if not t.verticalScrollBar().isVisible():
            room -= t.style().pixelMetric(QStyle.PM_ScrollBarExtent, None, t)
        want = max(self.base, room - others)
        if want != head.sectionSize(self.col):
            self._busy = True
            t.setColumnWidth(self.col, want)
            self._busy = False

    def _resized(self, index, _old, new):
        if self._busy:
            return
        if index == self.col:
            self.base = new             # the user's width for it
        else:
            self.apply()

    @guarded
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Resize and not self._busy:
            self.apply()
        return False
