"""The two files as pandas frames, aligned by id, as Kaggle's orchestrator hands
them to ``score``. Runs in the worker (pandas is imported only there).

Columns are read as pandas reads them; the id column as text, since rows are
matched on it. Problems are listed one a line, naming file, column, row, id.
"""
import numpy as np

from ..errors import InputError

USAGE = "Usage"
CODES = {"public": 0, "private": 1, "ignored": 2}
SHOWN = 5                      # ids listed per kind of problem
KEEP_BYTES = 256 << 20         # columns up to this size: each split's kept, frames made ahead


def _read(path, id_col):
    import pandas as pd
    low = str(path).lower()
    if low.endswith((".parquet", ".pq")):
        df = pd.read_parquet(path)
        if id_col is not None and id_col in df.columns:
            df[id_col] = df[id_col].astype(str)
        return df
    sep = "\t" if low.endswith((".tsv", ".tab", ".tsv.gz", ".tab.gz")) else ","
    head = pd.read_csv(path, sep=sep, nrows=0).columns
    key = id_col if id_col is not None else (head[0] if len(head) else None)
    return pd.read_csv(path, sep=sep, dtype={key: str} if key in head else None)


def _safe_read(path, label, id_col, problems):
    from pathlib import Path
    try:
        return _read(path, id_col)
    except FileNotFoundError:
        problems.append(f"{label} {Path(path).name}: no such file")
    except Exception as e:     # pandas' parser faults: one line in words
        why = " ".join(str(e).split())[:200] or type(e).__name__
        problems.append(f"{label} {Path(path).name}: cannot be read as a table ({why})")
    return None


def _row_list(label, name, col, what, ids, rows):
    shown = ", ".join(f"'{ids[r]}' (row {r + 2})" for r in rows[:SHOWN])
    more = f" and {len(rows) - SHOWN:,} more" if len(rows) > SHOWN else ""
    return f"{label} {name}, column '{col}': {what}: {shown}{more}"


def _arrow(df, col):
    import pyarrow as pa
    arr = pa.array(df[col], from_pandas=True)
    return arr.cast(pa.string()) if arr.type != pa.string() else arr


def _ids(df, label, name, col, problems, check_repeats=True, arr=None):
    """The id column as an Arrow string array (hashing in C); empty and repeated ids listed."""
    import pyarrow.compute as pc
    arr = _arrow(df, col) if arr is None else arr
    if arr.null_count:
        blank = np.flatnonzero(arr.is_null().to_numpy(zero_copy_only=False))
        problems.append(f"{label} {name}, column '{col}': empty id in row "
                        + ", ".join(str(r + 2) for r in blank[:SHOWN]))
    if check_repeats and len(pc.unique(arr)) < len(arr):
        dup = np.flatnonzero(df[col].duplicated(keep="first").to_numpy())
        problems.append(_row_list(label, name, col, "repeated id", arr.to_pylist(), dup))
    return arr


def _matched(sol_ids, sub_ids):
    """The submission's row of each solution row when both hold the same ids, each
    once (the usual case: one hash pass, no repeat check of its own), else None.
    index_in gives a value's first position, so n distinct positions out of n rows
    mean no id repeats on either side and none is missing or extra."""
    import pyarrow.compute as pc
    n = len(sol_ids)
    if sol_ids.null_count or sub_ids.null_count or len(sub_ids) != n:
        return None
    if sol_ids.equals(sub_ids):                  # already in the solution's order
        return np.arange(n) if pc.count_distinct(sol_ids).as_py() == n else None
    found = pc.index_in(sol_ids, value_set=sub_ids)
    if found.null_count:
        return None
    order = found.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
    return order if n == 0 or np.bincount(order, minlength=n).max() == 1 else None


def _usage(sol, name, problems):
    if USAGE not in sol.columns:
        return None
    codes = np.full(len(sol), -1, dtype=np.int8)
    col = sol[USAGE]
    exact = _exact_usage(col)                    # Public/Private/Ignored as written: no text work
    if exact is not None:
        ok = ~np.isnan(exact)
        codes[ok] = exact[ok]
    rest = np.flatnonzero(codes < 0)
    if rest.size:
        text = col.iloc[rest].astype(str).str.strip().str.lower().to_numpy(dtype=object)
        for word, code in CODES.items():
            codes[rest[text == word]] = code
    bad = np.flatnonzero(codes < 0)
    if bad.size:
        rows = ", ".join(f"row {r + 2} ('{sol[USAGE].iloc[r]}')" for r in bad[:SHOWN])
        problems.append(f"solution {name}, column '{USAGE}': expected Public, Private or Ignored: {rows}")
    return codes


def _exact_usage(col):
    """Each row's code where its text is exactly a word of CODES capitalised, nan elsewhere."""
    import pyarrow as pa
    import pyarrow.compute as pc
    try:
        arr = pa.array(col, from_pandas=True)
    except (pa.ArrowException, TypeError, ValueError):
        return None
    if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        return None
    words = pa.array([w.capitalize() for w in CODES], type=arr.type)   # in code order
    return pc.index_in(arr, value_set=words).to_numpy(zero_copy_only=False).astype(np.float64)


def read_aligned(paths, id_col=None):
    """(solution without Usage, submission in its row order, usage codes or None, id column)."""
    from pathlib import Path
    sol_path, sub_path = paths
    sol_name, sub_name = Path(sol_path).name, Path(sub_path).name
    problems = []
    sol = _safe_read(sol_path, "solution", id_col, problems)
    key = id_col if id_col is not None else (sol.columns[0] if sol is not None and len(sol.columns) else None)
    sub = _safe_read(sub_path, "submission", key, problems)
    if sol is None or sub is None:
        raise InputError(problems[0], problems)
    if key is None or key not in sol.columns:
        problems.append(f"solution {sol_name}: no id column '{key}'")
    if key is not None and key not in sub.columns:
        problems.append(f"submission {sub_name}: no id column '{key}' (its columns: "
                        + ", ".join(map(str, sub.columns[:10])) + ")")
    if problems:
        raise InputError(problems[0], problems)
    sol_arr, sub_arr = _arrow(sol, key), _arrow(sub, key)
    order = _matched(sol_arr, sub_arr)
    sol_ids = _ids(sol, "solution", sol_name, key, problems, check_repeats=order is None, arr=sol_arr)
    # the submission's repeats show below, once its ids are matched (one hash pass fewer)
    sub_ids = _ids(sub, "submission", sub_name, key, problems, check_repeats=False, arr=sub_arr)
    usage = _usage(sol, sol_name, problems)
    if problems:
        raise InputError(problems[0], problems)
    if order is None:
        order = _order(sol_ids, sub_ids, sub, sub_name, key, problems)
    if not (len(order) and (order[1:] > order[:-1]).all()):     # a permutation: identity when rising
        sub = sub.iloc[order].reset_index(drop=True)
    sol = sol.drop(columns=[USAGE]) if USAGE in sol.columns else sol
    return sol, sub, usage, key


def _order(sol_ids, sub_ids, sub, sub_name, key, problems):
    """The submission's row of each solution row; every id problem listed."""
    import pyarrow.compute as pc
    order = pc.index_in(sol_ids, value_set=sub_ids).to_numpy(zero_copy_only=False)
    missing = np.flatnonzero(np.isnan(order)) if order.dtype.kind == "f" else np.array([], dtype=np.int64)
    if missing.size:
        problems.append(_row_list("submission", sub_name, key, "ids of the solution missing",
                                  sol_ids.to_pylist(), missing))
    if len(sub_ids) - (len(sol_ids) - missing.size) > 0:
        if len(pc.unique(sub_ids)) < len(sub_ids):
            dup = np.flatnonzero(sub[key].duplicated(keep="first").to_numpy())
            problems.append(_row_list("submission", sub_name, key, "repeated id", sub_ids.to_pylist(), dup))
        inside = pc.is_in(sub_ids, value_set=sol_ids).to_numpy(zero_copy_only=False)
        extra = np.flatnonzero(~inside)
        if extra.size:
            problems.append(_row_list("submission", sub_name, key, "ids not in the solution",
                                      sub_ids.to_pylist(), extra))
    if problems:
        raise InputError(problems[0], problems)
    return order.astype(np.int64)


def split_rows(usage, name):
    """Rows of a named split: "scored" (every row but the Ignored ones; None when none
    is Ignored), "public", "private", or "every" (None)."""
    if name == "every" or usage is None:
        return None
    if name == "scored":
        return np.flatnonzero(usage != 2) if (usage == 2).any() else None
    return np.flatnonzero(usage == CODES[name])


class Splits:
    """Each named split's columns taken once from the unedited ``replicate.Columns``, and
    the next call's frames made ahead (``refill``, run while the worker waits for its next
    task): a call then only sets the edited cells of rows in its split into them. Frames
    go to one call only; the kept columns are never handed out, so a metric that deletes
    or changes its frames' columns leaves nothing behind for the next call. Above
    ``budget`` bytes of columns nothing is kept: each call takes its split afresh."""

    def __init__(self, cols, budget=KEEP_BYTES):
        self.cols = cols
        self.keep = _nbytes(cols) <= budget
        self.kept = {}                 # name -> (rows or None, {side: [(column, array)]})
        self.ready = {}                # name -> ((solution, submission), {side: {column: array}})
        self.used = {}                 # names scored since the last refill (in order, once)

    def _taken(self, name, rows_of):
        got = self.kept.get(name)
        if got is None:
            cols, rows = self.cols, rows_of()
            if rows is None:
                sides = {"sol": cols.sol, "sub": cols.sub}
            else:
                ids = cols.ids().take(rows, None)
                sides = {side: [(c, ids if c == cols.id_col else a.take(rows))
                                for c, a in getattr(cols, side)] for side in ("sol", "sub")}
            got = (rows, sides)
            if self.keep:
                self.kept[name] = got
        return got

    def frames(self, name, rows_of, cells=None):
        """(solution, submission) of the split ``name`` (``rows_of()``: its rows, read once)."""
        rows, sides = self._taken(name, rows_of)
        self.used[name] = True
        ready = self.ready.pop(name, None)
        if ready is not None and _set_cells(ready[1], self.cols, rows, cells):
            return ready[0]
        from .replicate import _frame
        out = []
        for side in ("sol", "sub"):
            changed = (cells or {}).get(side) or {}
            full = dict(getattr(self.cols, side)) if changed else {}
            fresh = {}
            for c, a in sides[side]:
                a = a.copy()
                if c in changed and c != self.cols.id_col:
                    a = _patched(a, full[c], rows, *changed[c])
                fresh[c] = a
            out.append(_frame(fresh))
        return tuple(out)

    def refill(self):
        """The frames of the splits just scored made again (unedited) for the next call."""
        from .replicate import _frame
        names, self.used = list(self.used), {}
        for name in names:
            if name in self.ready or name not in self.kept:
                continue
            arrays = {side: {c: a.copy() for c, a in cols} for side, cols in self.kept[name][1].items()}
            self.ready[name] = (tuple(_frame(dict(arrays[s])) for s in ("sol", "sub")), arrays)


def _nbytes(cols):
    return sum(getattr(a, "nbytes", 0) for _, a in cols.sol + cols.sub)


def _set_cells(arrays, cols, rows, cells):
    """The edited cells of the split's rows set into frames made ahead (their arrays), or
    False when one must change a column's kind (a new array: the frames are made anew)."""
    todo = []
    for side in ("sol", "sub"):
        full = dict(getattr(cols, side))
        for c, (pos, values) in ((cells or {}).get(side) or {}).items():
            if c == cols.id_col or c not in arrays[side]:
                continue
            a = arrays[side][c]
            values = _values_for(full[c], values)
            if not isinstance(a, np.ndarray) or np.result_type(full[c], values) != a.dtype:
                return False
            todo.append((a, *_in_split(rows, pos, values)))
    for a, pos, values in todo:
        if len(pos):
            a[pos] = values
    return True


def _in_split(rows, pos, values):
    """(positions within the split, their values) of the edited rows that are in it."""
    pos = np.asarray(pos, dtype=np.int64)
    if rows is None:
        return pos, values
    at = np.minimum(np.searchsorted(rows, pos), max(len(rows) - 1, 0))
    inside = rows[at] == pos if len(rows) else np.zeros(len(pos), dtype=bool)
    return at[inside], values[inside]


def _values_for(full, values):
    from .replicate import _values_for as kind_of
    return kind_of(full, values)


def _patched(a, full, rows, pos, values):
    """``a`` (a split's copy of the column ``full``) with the edited cells in it, in the
    kind the whole edited column takes (as ``Columns.with_cells`` makes it: an integer
    column given 0.5 is a float column in every split, as in the edited file)."""
    values = _values_for(full, values)
    if isinstance(a, np.ndarray):
        kind = np.result_type(full, values)
        if kind != a.dtype:
            a = a.astype(kind)
    pos, values = _in_split(rows, pos, values)
    if len(pos):
        a[pos] = values
    return a
