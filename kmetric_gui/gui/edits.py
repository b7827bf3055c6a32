"""Undoable edits and atomic saving of the edited submission."""
import os
import tempfile

import numpy as np
from PySide6.QtGui import QUndoCommand

from ..core import is_continuous


class CellEdit(QUndoCommand):
    """One cell of the joined table: redo sets the new value, undo the old."""

    def __init__(self, model, source_row, col, old, new, on_change):
        name = model.columns[col].name
        super().__init__(f"Edit {name} of row {source_row + 1}")
        self.model, self.row, self.col = model, source_row, col
        self.old, self.new, self.on_change = old, new, on_change

    def redo(self):
        self.model.set_value(self.row, self.col, self.new)
        self.on_change()

    def undo(self):
        self.model.set_value(self.row, self.col, self.old)
        self.on_change()


class ArrayEdit(QUndoCommand):
    """Replace a whole prediction array (e.g. applying cut points)."""

    def __init__(self, text, target, new, on_change):
        super().__init__(text)
        self.target, self.old, self.new = target, target.copy(), np.asarray(new)
        self.on_change = on_change

    def redo(self):
        self.target[...] = self.new
        self.on_change()

    def undo(self):
        self.target[...] = self.old
        self.on_change()


def submission_csv(prep):
    """The edited submission as CSV text (ids in solution order)."""
    import csv
    import io
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    ids = prep.ids
    if prep.metric == "qwk":
        w.writerow([prep.id_column, prep.target_columns[0]])
        pred = prep.pred
        if pred.dtype.kind == "f" and not is_continuous(pred):
            pred = pred.astype(np.int64)        # ratings after cut points: write integers
        w.writerows(zip(ids, pred.tolist()))
    elif prep.metric == "lwlrap":
        w.writerow([prep.id_column, *prep.classes])
        for i, row in zip(ids, prep.pred.tolist()):
            w.writerow([i, *(repr(float(v)) for v in row)])
    else:
        w.writerow([prep.id_column, prep.target_columns[0]])
        w.writerows((i, "|".join(p)) for i, p in zip(ids, prep.pred))
    return buf.getvalue()


def save_atomic(path, text):
    """Write to a temporary file in the same folder, then replace: never half a file."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".kmetric-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
