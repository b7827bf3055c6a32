"""Each call's frames, built in the worker from column arrays kept once per process.

A bootstrap re-scores thousands of resamples: ``iloc`` on both frames and ids
made unique row by row cost several times the metric's own call. Here each
column is a numpy (or Arrow) array taken once; a resample is one ``take`` per
column, and its ids one gather from the ids with '#1', '#2', ... appended (each
level made once, when first needed; gathered as Arrow string views, see
``_views``). Runs in the worker only.
"""
import numpy as np


def occurrences(rows, first=None):
    """k for each drawn row: how many times the same row was drawn before it (in
    draw order), in rounds: each round keeps every value's earliest position. The
    scatter writes in order, so the earliest (written last, reversed) wins; were
    that order ever to change, each round would still keep one position a value,
    so ids stay unique. The first round runs on contiguous arrays (most of the work)."""
    rows = np.asarray(rows)
    n = len(rows)
    if first is None or len(first) <= (rows.max() if n else 0):
        first = np.empty(int(rows.max()) + 1 if n else 0, dtype=np.int64)
    k = np.zeros(n, dtype=np.int32)
    if not n:
        return k
    rev = np.arange(n - 1, -1, -1, dtype=np.int64)
    first[np.ascontiguousarray(rows[::-1])] = rev
    pos = np.flatnonzero(first[rows] != rev[::-1])       # repeats: not a value's earliest
    level = 1
    while pos.size:
        r = rows[pos]
        first[r[::-1]] = pos[::-1]
        earliest = first[r] == pos
        k[pos[earliest]] = level
        pos = pos[~earliest]
        level += 1
    return k


class _Ids:
    """The id column's text as Arrow strings, with the '#k' copies made lazily."""

    def __init__(self, series):
        import pyarrow as pa
        self.array = series.array
        raw = getattr(self.array, "_pa_array", None)
        if raw is None or not pa.types.is_string(raw.type) and not pa.types.is_large_string(raw.type):
            raw = pa.array(series.astype(str).to_numpy(dtype=object), type=pa.string())
        self.base = raw.combine_chunks() if isinstance(raw, pa.ChunkedArray) else raw
        self.arrow_backed = type(self.array).__name__ == "ArrowStringArray"
        self.levels = [self.base]
        self.all = self.base
        self.views = None            # the table as Arrow string views (see _views)

    def _level(self, top):
        import pyarrow as pa
        import pyarrow.compute as pc
        while len(self.levels) <= top:
            k = len(self.levels)
            t = self.base.type
            self.levels.append(pc.binary_join_element_wise(
                self.base, pa.scalar(str(k), type=t), pa.scalar("#", type=t)))
            self.all = None
        if self.all is None:
            self.all = pa.concat_arrays(self.levels)
            self.views = _views(self.all)

    def take(self, rows, k):
        import pyarrow as pa
        import pyarrow.compute as pc
        n = len(self.base)
        if k is None:
            idx = np.asarray(rows, dtype=np.int64)
            table = self.base
        else:
            self._level(int(k.max()))
            idx = k.astype(np.int64)
            idx *= n
            idx += rows
            table = self.all
        if table is self.all and self.views is not None:
            views, data = self.views
            picked = views[idx]          # one 16-byte copy a row
            taken = pa.Array.from_buffers(pa.string_view(), len(idx), [None, pa.py_buffer(picked)] + data)
            taken = taken.cast(self.base.type)
        else:                            # the positions are in range by construction
            taken = pc.take(table, pa.array(idx), boundscheck=False)
        if self.arrow_backed:
            return type(self.array)(taken, dtype=self.array.dtype)
        return taken.to_numpy(zero_copy_only=False)


def _views(table):
    """(16-byte views as numpy, Arrow data buffers) of the text, or None (nulls, or an
    Arrow without string views). A string view holds up to 12 bytes itself and points
    into the data buffers past that, so gathering views with numpy and casting back
    gathers the strings: about half the time of Arrow's take on offsets and bytes,
    which misses the cache twice a row once the '#k' levels outgrow it."""
    import pyarrow as pa
    if table.null_count:
        return None
    try:
        sv = table.cast(pa.string_view())
    except (pa.ArrowException, AttributeError):
        return None
    bufs = sv.buffers()
    views = np.frombuffer(bufs[1], dtype=np.dtype("V16"))[sv.offset:sv.offset + len(sv)]
    return views, list(bufs[2:])


class Columns:
    """The aligned frames as column arrays; ``frames(rows)`` gives a call's fresh pair."""

    def __init__(self, sol, sub, id_col):
        self.id_col = id_col
        self.n = len(sol)
        self.simple = sol.columns.is_unique and sub.columns.is_unique and id_col in sub.columns
        self.sol = [(c, _array(sol[c])) for c in sol.columns]
        self.sub = [(c, _array(sub[c])) for c in sub.columns]
        self.frames_all = (sol, sub)
        self._ids = None
        self._first = np.empty(self.n, dtype=np.int64)

    def with_cells(self, cells):
        """A copy whose columns carry the app's edited cells: ``cells`` maps "sol"/"sub"
        to {column name: (row positions, values)}; untouched columns are shared."""
        import copy

        from .edits import NotEditable, _set
        if not self.simple:
            raise NotEditable("the files have repeated column names, so no cell can be changed")
        out = copy.copy(self)
        for side in ("sol", "sub"):
            changed = cells.get(side) or {}
            if not changed:
                continue
            cols = []
            for c, a in getattr(self, side):
                if c in changed and c != self.id_col:
                    pos, values = changed[c]
                    a = _set(_copy(a), np.asarray(pos, dtype=np.int64), _values_for(a, values))
                cols.append((c, a))
            setattr(out, side, cols)
        return out

    def ids(self):
        if self._ids is None:
            self._ids = _Ids(self.frames_all[0][self.id_col])
        return self._ids

    def frames(self, rows, edit=None):
        """(solution, submission) of ``rows`` (None: every row), each a new frame the
        metric may change; repeated rows get ids made unique ('#k' for the k-th repeat).
        ``edit(sub_columns, rows)`` may replace submission columns first (fixes, blends)."""
        sol, sub = self.frames_all
        if not self.simple:                      # repeated column names: pandas' own way
            if edit is not None:
                from .edits import NotEditable
                raise NotEditable("the files have repeated column names, so no column can be changed")
            if rows is None:
                return sol.copy(), sub.copy()
            return _iloc_pair(sol, sub, rows, self.id_col, self)
        if rows is None:
            ids = None
            cols_sol = {c: _copy(a) for c, a in self.sol}
            cols_sub = {c: _copy(a) for c, a in self.sub}
        else:
            rows = np.asarray(rows)
            rising = len(rows) < 2 or bool((rows[1:] > rows[:-1]).all())   # a split: no repeats
            k = None if rising else occurrences(rows, self._first)
            ids = self.ids().take(rows, k if k is not None and k.any() else None)
            key = self.id_col
            cols_sol = {c: ids if c == key else a.take(rows) for c, a in self.sol}
            cols_sub = {c: ids if c == key else a.take(rows) for c, a in self.sub}
        if edit is not None:
            edit(cols_sub, rows)
        return _frame(cols_sol), _frame(cols_sub)


def _frame(cols):
    """A DataFrame of the columns as given: pandas would read an object column of text
    as strings, so those go in as Series that keep their dtype."""
    import pandas as pd
    for c, a in cols.items():
        if isinstance(a, np.ndarray) and a.dtype == object:
            cols[c] = pd.Series(a, dtype=object, copy=False)
    return pd.DataFrame(cols, copy=False)


def _array(series):
    """numpy values for numpy dtypes; the extension array otherwise (strings, nullable)."""
    if isinstance(series.dtype, np.dtype):
        return series.to_numpy()
    return series.array


def _copy(a):
    return a.copy()


def _values_for(a, values):
    """Edited values in a column's own kind: numbers for a numeric column (a text value
    there makes it a column of objects), text as text."""
    if isinstance(a, np.ndarray) and a.dtype.kind in "fiub":
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
            return np.asarray(values, dtype=np.float64 if a.dtype.kind == "f" or any(
                isinstance(v, float) for v in values) else a.dtype)
    return np.asarray(values, dtype=object)


def _iloc_pair(sol, sub, rows, id_col, cols):
    sol = sol.iloc[rows].reset_index(drop=True)
    sub = sub.iloc[rows].reset_index(drop=True)
    k = occurrences(rows)
    if k.any():
        import pandas as pd
        ids = cols.ids().take(rows, k)
        sol[id_col] = pd.Series(ids, index=sol.index, name=id_col)
        sub[id_col] = sol[id_col].to_numpy()
    return sol, sub
