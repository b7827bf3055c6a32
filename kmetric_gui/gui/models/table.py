"""A table model over numpy columns, with a row-index map for sort and filter.

No per-cell pandas indexing and no model reset per edit: ``data()`` reads
``column[rows[r]]``; an edit emits ``dataChanged`` for one cell. Sorting and
filtering only replace the index map (computed on the worker for big tables).
"""
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal


@dataclass
class Column:
    name: str
    values: object                 # numpy array (or list) indexed by source row
    editable: bool = False
    fmt: object = str              # value -> display text
    parse: object = None           # text -> value, raises ValueError with a reason
    sort_key: object = None        # values -> numpy array for argsort
    tooltip: str = ""
    align_right: bool = False
    meta: dict = field(default_factory=dict)


class ColumnsModel(QAbstractTableModel):
    """Rows are source indices into every column; edits go through a callback."""
    edit_requested = Signal(int, int, object, object)   # source row, column, old, new
    edit_rejected = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.columns = []
        self.rows = np.zeros(0, dtype=np.int64)
        self.n_source = 0

    # -- content -------------------------------------------------------------
    def set_columns(self, columns, n_rows):
        self.beginResetModel()
        self.columns = list(columns)
        self.n_source = int(n_rows)
        self.rows = np.arange(self.n_source, dtype=np.int64)
        self.endResetModel()

    def set_rows(self, rows):
        """Replace the index map (sorted and/or filtered source rows)."""
        self.layoutAboutToBeChanged.emit()
        self.rows = np.asarray(rows, dtype=np.int64)
        self.layoutChanged.emit()

    def view_row(self, source_row):
        """Row in the current view of a source row, or -1 when filtered out."""
        hit = np.flatnonzero(self.rows == source_row)
        return int(hit[0]) if hit.size else -1

    def value(self, source_row, col):
        return self.columns[col].values[source_row]

    def set_value(self, source_row, col, value):
        """Store a value (called by undo commands) and repaint that cell only."""
        self.columns[col].values[source_row] = value
        r = self.view_row(source_row)       # one vectorized scan, ~1 ms per 1M rows
        if r >= 0:
            idx = self.index(r, col)
            self.dataChanged.emit(idx, idx, [Qt.DisplayRole, Qt.EditRole])

    def refresh_column(self, col):
        if self.rowCount():
            self.dataChanged.emit(self.index(0, col), self.index(self.rowCount() - 1, col))

    # -- Qt interface ----------------------------------------------------------
    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else int(self.rows.size)

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        col = self.columns[index.column()]
        src = int(self.rows[index.row()])
        if role in (Qt.DisplayRole, Qt.EditRole):
            return col.fmt(col.values[src])
        if role == Qt.TextAlignmentRole and col.align_right:
            return int(Qt.AlignRight | Qt.AlignVCenter)
        if role == Qt.ToolTipRole and col.editable:
            return "Double-click to edit"
        return None

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role == Qt.DisplayRole:
            if orientation == Qt.Horizontal:
                return self.columns[section].name if section < len(self.columns) else None
            return str(int(self.rows[section]) + 1) if section < self.rows.size else None
        if role == Qt.ToolTipRole and orientation == Qt.Horizontal and section < len(self.columns):
            return self.columns[section].tooltip or None
        return None

    def flags(self, index):
        f = super().flags(index)
        if index.isValid() and self.columns[index.column()].editable:
            f |= Qt.ItemIsEditable
        return f

    def setData(self, index, value, role=Qt.EditRole):
        if role != Qt.EditRole or not index.isValid():
            return False
        col = self.columns[index.column()]
        if not col.editable:
            return False
        try:
            new = col.parse(value) if col.parse else value
        except ValueError as e:
            self.edit_rejected.emit(f"{col.name}: {e}")
            return False
        src = int(self.rows[index.row()])
        old = col.values[src]
        if _same(old, new):
            return False
        # The undo stack applies the change (and can revert it).
        self.edit_requested.emit(src, index.column(), old, new)
        return True

    def sort(self, column, order=Qt.AscendingOrder):
        """Sorting is requested from the owner (it may run on the worker)."""
        cb = getattr(self, "on_sort", None)
        if cb:
            cb(column, order)


def _same(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b)
    return a == b


def sorted_rows(values, rows, descending, key=None):
    """Source rows ordered by a column (stable), restricted to ``rows``."""
    vals = key(values) if key else values
    sub = vals[rows] if isinstance(vals, np.ndarray) else np.array([vals[i] for i in rows], dtype=object)
    order = np.argsort(sub, kind="stable")
    if descending:
        order = order[::-1]
    return rows[order]
