"""The table of a metric file's pair as the app and the statistics read it: the rows, ids
and editable cells its worker holds (metricfile/metric.py's FileMetric reads them)."""
import threading

import numpy as np


class _Table:
    """The worker's aligned frames as Arrow columns, fetched once, on first use."""

    def __init__(self, worker):
        self.worker = worker
        self._lock = threading.Lock()
        self._data = None

    def data(self):
        with self._lock:
            if self._data is None:
                from . import worker as task
                self._data = self.worker.ask(task.table_columns)
            return self._data


class _Ids:
    """The solution's ids, fetched from the worker when first read (io.Prepared.id_array)."""

    def __init__(self, table, n):
        self.table, self.n = table, n

    def decode(self):
        return self.table.data()["ids"]

    def __len__(self):
        return self.n


class FileBlock:
    """One side's columns ("sol" or "sub") of the aligned frames: ``block[unit, part]``
    reads a cell; an editable copy keeps what was set as cells for the worker."""

    def __init__(self, table, side, names, n, cells=None):
        self.table, self.side, self.names, self.n = table, side, list(names), n
        self.cells = dict(cells or {})           # (unit, part) -> value
        self._values = None

    @property
    def shape(self):
        return (self.n, len(self.names))

    def __len__(self):
        return self.n

    def values(self, part):
        if self._values is None:
            self._values = [_numpy(a) for _, a in self.table.data()[self.side]]
        return self._values[part]

    def numeric(self, part):
        return self.values(part).dtype.kind in "fiu"

    def __getitem__(self, key):
        unit, part = key
        if (int(unit), part) in self.cells:
            return self.cells[(int(unit), part)]
        return self.values(part)[unit]

    def __iter__(self):
        """Rows as tuples of their cells (edits included)."""
        for i in range(self.n):
            yield tuple(self[i, j] for j in range(len(self.names)))

    def __setitem__(self, key, value):
        unit, part = key
        self.cells[(int(unit), part)] = value

    def editable(self):
        return FileBlock(self.table, self.side, self.names, self.n, self.cells)

    def __eq__(self, other):
        """The same columns, values and edits (two submissions' solutions compared)."""
        if not isinstance(other, FileBlock):
            return NotImplemented
        if (self.names, self.n, self.cells) != (other.names, other.n, other.cells):
            return False
        for j in range(len(self.names)):
            a, b = self.values(j), other.values(j)
            same = np.array_equal(a, b, equal_nan=True) if a.dtype.kind in "fiu" and \
                b.dtype.kind in "fiu" else a.tolist() == b.tolist()
            if not same:
                return False
        return True

    __hash__ = None

    def spec(self):
        """{column name: (positions, values)} of the edited cells."""
        out = {}
        for (unit, part), value in sorted(self.cells.items()):
            pos, vals = out.setdefault(self.names[part], ([], []))
            pos.append(unit)
            vals.append(value)
        return out


def _numpy(arr):
    """An Arrow column as numpy: numbers as they are (nulls as nan), the rest as text."""
    import pyarrow as pa
    if pa.types.is_integer(arr.type) and not arr.null_count:
        return arr.to_numpy()
    if pa.types.is_integer(arr.type) or pa.types.is_floating(arr.type):
        return arr.to_numpy(zero_copy_only=False).astype(np.float64)
    return np.asarray(arr.to_pylist(), dtype=object)


def cells_spec(plan):
    """The edited cells of a plan's data, as the worker takes them (None: no edit)."""
    spec = {side: block.spec() for side, block in (("sol", plan.truth), ("sub", plan.pred))
            if isinstance(block, FileBlock) and block.cells}
    return spec or None


class _CellsOf:
    """One column of a block, indexable by row (the table reads the rows in sight)."""

    def __init__(self, block, part):
        self.block, self.part = block, part

    def __len__(self):
        return len(self.block)

    def __getitem__(self, i):
        return self.block[i, self.part]


def _shown(v):
    if isinstance(v, (float, np.floating)):
        return "" if np.isnan(v) else f"{float(v):.6g}"
    return str(v)
