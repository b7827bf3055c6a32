"""What the API takes as a solution or a submission, as the readers' Arrow tables.

A path stays a path: it is read exactly as ``kmetric`` reads it. A pandas or
polars DataFrame, a pyarrow Table, a mapping of columns or a numpy array
becomes a pyarrow Table here and then goes through the same validation and
alignment as a file (io/prepare.py); nothing is written to disk. Where a
message would name a file it names the object: ``solution (DataFrame)``.

Numbers are not copied where Arrow can wrap them: a numpy-backed numeric column
of a pandas frame becomes an Arrow array over the same memory, an Arrow-backed
one (pandas' pyarrow dtypes, polars) stays Arrow. NaN stays NaN (not a missing
value), so a frame's NaN is refused in the words a file's ``nan`` is. What
differs from a file, on purpose: a boolean column is read as 0/1; a named pandas
index is a column; a column of dates or categories is read as its text.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import refuse

ID = "id"            # the id column made for a numpy array
TARGET = "target"    # a 1-D array's column


@dataclass(frozen=True)
class Source:
    """One input: a path to read, or a table already in memory."""
    role: str                      # "solution" or "submission"
    name: str                      # where a file name would be: "a.csv", "(DataFrame)"
    path: "str | None" = None
    table: Any = None              # pyarrow.Table when in memory

    @property
    def label(self) -> str:
        """How messages name it: "solution a.csv", "submission (DataFrame 2)"."""
        return f"{self.role} {self.name}"

    @property
    def in_memory(self) -> bool:
        return self.path is None


def _module(obj) -> str:
    return type(obj).__module__.split(".", 1)[0]


def is_path(obj) -> bool:
    return isinstance(obj, (str, os.PathLike))


def source(obj, role: str, *, ids=None, number: "int | None" = None,
           name: "str | None" = None) -> Source:
    """A Source of ``obj`` (``number``: its place among several submissions; ``name``:
    the user's name for it). InvalidInput for what is not a table."""
    if is_path(obj):
        if ids is not None:
            raise refuse(f"{role}: ids= is for numpy arrays, not files")
        path = os.fspath(obj)
        return Source(role, name or os.path.basename(path) or path, path=path)
    table, kind = to_table(obj, role, ids)
    shown = name or (f"({kind} {number})" if number else f"({kind})")
    return Source(role, shown, table=table)


def to_table(obj, role: str, ids=None):
    """(pyarrow.Table, kind in words) of an in-memory input."""
    import pyarrow as pa
    if ids is not None and not _is_numpy(obj):
        raise refuse(f"{role}: ids= is for numpy arrays; a table holds its own id column")
    if isinstance(obj, pa.RecordBatch):
        obj = pa.Table.from_batches([obj])
    if isinstance(obj, pa.Table):
        return _plain_table(obj, role), "Arrow table"
    mod = _module(obj)
    if mod == "pandas":
        if type(obj).__name__ == "Series":
            obj = obj.to_frame()
        if type(obj).__name__ == "DataFrame":
            return _pandas_table(obj, role), "DataFrame"
    if mod == "polars" and hasattr(obj, "to_arrow"):
        if type(obj).__name__ == "LazyFrame":
            obj = obj.collect()
        return _plain_table(obj.to_arrow(), role), "polars DataFrame"
    if _is_numpy(obj):
        return _numpy_table(obj, role, ids), "array"
    if isinstance(obj, Mapping):
        return _columns_table(obj, role), "columns"
    raise refuse(f"{role}: expected a path, a pandas or polars DataFrame, a pyarrow Table, a "
                 f"mapping of columns or a numpy array; got {type(obj).__name__}")


def _is_numpy(obj) -> bool:
    return _module(obj) == "numpy" and type(obj).__name__ == "ndarray"


def _names(names, role, kind):
    """Column names as text; duplicates refused as a file's are."""
    out = [str(n) for n in names]
    seen, dup = set(), []
    for n in out:
        if n in seen and n not in dup:
            dup.append(n)
        seen.add(n)
    if dup:
        raise refuse(f"{role} ({kind}): duplicate column name(s): {', '.join(sorted(dup))}")
    blank = [i + 1 for i, n in enumerate(out) if not n.strip()]
    if blank:
        raise refuse(f"{role} ({kind}): column {blank[0]} has no name")
    return out


def _plain_array(arr):
    """An Arrow column in the types the readers produce: text as string, numbers as they
    are, booleans as 0/1, dictionaries (categories), dates and the rest as their text."""
    import pyarrow as pa
    import pyarrow.compute as pc
    if isinstance(arr, pa.ChunkedArray) and arr.num_chunks == 0:
        arr = pa.array([], type=arr.type)
    t = arr.type
    if pa.types.is_dictionary(t):
        arr = arr.cast(t.value_type) if isinstance(arr, pa.ChunkedArray) else arr.dictionary_decode()
        t = arr.type
    if pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_string(t):
        return arr
    if pa.types.is_boolean(t):
        return pc.cast(arr, pa.int64())
    if pa.types.is_large_string(t) or str(t) == "string_view":
        return arr.cast(pa.string())
    if pa.types.is_decimal(t):
        return arr.cast(pa.float64())
    try:
        return arr.cast(pa.string())
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid):
        return pa.array([None if v is None else str(v) for v in arr.to_pylist()], pa.string())


def _plain_table(table, role):
    import pyarrow as pa
    names = _names(table.column_names, role, "Arrow table")
    return pa.table([_plain_array(c) for c in table.columns], names=names)


def _pandas_column(series):
    """One pandas column as Arrow: numpy numbers wrapped (no copy), extension arrays
    through their own Arrow export, text as text."""
    import numpy as np
    import pyarrow as pa
    dtype = series.dtype
    if isinstance(dtype, np.dtype):
        if dtype.kind in "iuf":
            return pa.array(series.to_numpy(copy=False))      # shares the frame's memory
        if dtype.kind == "b":
            return pa.array(series.to_numpy(copy=False).astype(np.int64))
        if dtype.kind in "mM":
            return pa.array(series.astype(str).to_numpy(dtype=object), pa.string())
        values = series.to_numpy(dtype=object, copy=False)
        try:
            arr = pa.array(values, from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
            arr = None
        if arr is None or not (pa.types.is_string(arr.type) or pa.types.is_integer(arr.type)
                               or pa.types.is_floating(arr.type) or pa.types.is_null(arr.type)):
            # mixed objects: each as its text, missing ones missing
            arr = pa.array([None if v is None or v != v else str(v) for v in values.tolist()],
                           pa.string())
        return arr.cast(pa.string()) if pa.types.is_null(arr.type) else arr
    return pa.array(series, from_pandas=True)      # extension dtypes: their __arrow_array__


def _pandas_table(df, role):
    import pyarrow as pa
    index = []
    if any(n is not None for n in df.index.names):
        for level, n in enumerate(df.index.names):
            if n is not None:
                index.append((n, df.index.get_level_values(level).to_series(index=None)))
    columns = index + [(name, df.iloc[:, k]) for k, name in enumerate(df.columns)]
    names = _names([n for n, _ in columns], role, "DataFrame")
    arrays = [_plain_array(_pandas_column(s)) for _, s in columns]
    return pa.table(arrays, names=names)


def _columns_table(cols, role):
    import numpy as np
    import pyarrow as pa
    names = _names(list(cols), role, "columns")
    arrays = []
    for v in cols.values():
        if _module(v) == "pandas":
            arrays.append(_plain_array(_pandas_column(v)))
        elif isinstance(v, (pa.Array, pa.ChunkedArray)):
            arrays.append(_plain_array(v))
        else:
            a = np.asarray(v)
            if a.ndim != 1:
                raise refuse(f"{role} (columns): each column must be one-dimensional; got "
                             f"shape {a.shape}")
            arrays.append(_array_column(a))
    lengths = {len(a) for a in arrays}
    if len(lengths) > 1:
        shown = ", ".join(map(str, sorted(lengths)))
        raise refuse(f"{role} (columns): the columns differ in length ({shown})")
    return pa.table(arrays, names=names)


def _array_column(a):
    import numpy as np
    import pyarrow as pa
    if a.dtype.kind in "iuf":
        return pa.array(np.ascontiguousarray(a))
    if a.dtype.kind == "b":
        return pa.array(a.astype(np.int64))
    return pa.array([None if v is None else str(v) for v in a.tolist()], pa.string())


def _numpy_table(a, role, ids):
    """An id column (``ids`` or the row numbers 0, 1, ...) and the array's columns:
    ``target`` for a 1-D array, ``0``, ``1``, ... (class or column numbers) for 2-D."""
    import numpy as np
    import pyarrow as pa
    if a.ndim not in (1, 2):
        raise refuse(f"{role} (array): expected a 1-D or 2-D array; got {a.ndim} dimensions")
    n = a.shape[0]
    if ids is None:
        id_col = pa.array(np.arange(n).astype(str), pa.string())
    else:
        given = np.asarray(ids)
        if given.ndim != 1 or given.shape[0] != n:
            raise refuse(f"{role} (array): ids= holds {given.size} value(s) for {n} rows")
        id_col = _array_column(given)
        id_col = id_col if pa.types.is_string(id_col.type) else id_col.cast(pa.string())
    if a.ndim == 1:
        return pa.table([id_col, _array_column(a)], names=[ID, TARGET])
    cols = [_array_column(a[:, j]) for j in range(a.shape[1])]
    return pa.table([id_col, *cols], names=[ID] + [str(j) for j in range(a.shape[1])])


def table_of(src: Source, keep=(), max_inflated=None):
    """The Arrow table of a Source: read from its path (``keep``: columns kept as text,
    as the CLI keeps the id column) or the one in memory."""
    if src.table is not None:
        return src.table
    from ..io.read import read_table
    return read_table(src.path, src.role, string_columns=tuple(keep), max_inflated=max_inflated)


__all__ = ["Source", "source", "to_table", "table_of", "is_path"]
