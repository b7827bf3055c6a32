"""Column helpers shared by the metric builders: ids, numbers, ranges, the join."""
import numpy as np
import pyarrow as pa

from .ids import align
from .problems import SHOW, column_hint, quote


class Lazy:
    """Index into an Arrow array without converting all of it (error messages)."""

    def __init__(self, arr):
        self.arr = arr

    def __getitem__(self, i):
        return self.arr[int(i)].as_py()


def column_array(table, name):
    """One column as a plain Arrow array (no copy when it is one chunk)."""
    col = table.column(name)
    if isinstance(col, pa.ChunkedArray):
        return col.chunk(0) if col.num_chunks == 1 else col.combine_chunks()
    return col


def string_ids(table, id_col):
    arr = column_array(table, id_col)
    return arr if pa.types.is_string(arr.type) else arr.cast(pa.string())


def join_ids(sol, sub, sol_name, sub_name, id_col, col, allow_sol_dups=False):
    sol_ids, sub_ids = string_ids(sol, id_col), string_ids(sub, id_col)
    for name, ids in ((sol_name, sol_ids), (sub_name, sub_ids)):
        if ids.null_count:
            rows = np.flatnonzero(ids.is_null().to_numpy(zero_copy_only=False))
            col.add(name, f"{rows.size} empty id(s) in column '{id_col}': rows "
                    f"{', '.join(str(r + 1) for r in rows[:SHOW])}", rows)
    if col.problems:
        return None, sol_ids
    al = align(sol_ids, sub_ids)
    if al.sol_duplicates.size and not allow_sol_dups:
        col.add(sol_name, f"{al.sol_duplicates.size} duplicate id(s): "
                f"{quote(sol_ids.take(pa.array(al.sol_duplicates[:SHOW])).to_pylist())}",
                al.sol_duplicates)
    if al.sub_duplicates.size:
        col.add(sub_name, f"{al.sub_duplicates.size} duplicate id(s): "
                f"{quote(sub_ids.take(pa.array(al.sub_duplicates[:SHOW])).to_pylist())}",
                al.sub_duplicates)
    if al.missing.size:
        col.add(sub_name, f"{al.missing.size} id(s) of the solution are missing: "
                f"{quote(sol_ids.take(pa.array(al.missing[:SHOW])).to_pylist())}",
                al.missing, role="solution")
    if al.extra.size:
        col.add(sub_name, f"{al.extra.size} id(s) are not in the solution: "
                f"{quote(sub_ids.take(pa.array(al.extra[:SHOW])).to_pylist())}", al.extra)
    return al, sol_ids


def target_column(sol, sub, sol_name, sub_name, id_col, options, col):
    sub_targets = [c for c in sub.column_names if c != id_col]
    if options.target_column:
        name = options.target_column
    elif len(sub_targets) == 1:
        name = sub_targets[0]
    else:
        col.add(sub_name, f"expected one target column besides '{id_col}'; found "
                f"{len(sub_targets)}: {', '.join(sub_targets) or 'none'}"
                f"{column_hint(sub.column_names)}")
        return None
    for fname, t in ((sol_name, sol), (sub_name, sub)):
        if name not in t.column_names:
            col.add(fname, f"no target column '{name}'; found columns: "
                    f"{', '.join(t.column_names)}")
    return None if col.problems else name


def numbers(table, name, fname, ids, col, integer):
    """A numeric column as float64/int64; unparsable or missing values collected."""
    arr = column_array(table, name)
    if pa.types.is_integer(arr.type) and not arr.null_count:
        return arr.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
    if pa.types.is_boolean(arr.type):
        return arr.to_numpy(zero_copy_only=False).astype(np.int64)
    if pa.types.is_floating(arr.type) or pa.types.is_integer(arr.type) or pa.types.is_null(arr.type):
        vals = arr.to_numpy(zero_copy_only=False).astype(np.float64)
        raw = None
    else:
        import pandas as pd  # only for text columns; keeps the CLI start fast
        raw = arr.to_numpy(zero_copy_only=False)
        vals = pd.to_numeric(pd.Series(raw), errors="coerce").to_numpy(np.float64)
    bad = np.flatnonzero(~np.isfinite(vals))
    if bad.size:
        shown = ", ".join(
            f"row {r + 1} (id {ids[r]!r}): "
            + (repr(raw[r]) if raw is not None and raw[r] is not None and raw[r] != "" else
               "empty" if raw is not None or np.isnan(vals[r]) else repr(vals[r]))
            for r in bad[:SHOW])
        col.add(fname, f"column '{name}': {bad.size} value(s) are not "
                f"{'ratings' if integer else 'finite numbers'}: {shown}", bad)
    if integer:
        with np.errstate(invalid="ignore"):
            frac = np.flatnonzero(np.isfinite(vals) & (vals != np.floor(vals)))
        if frac.size:
            shown = ", ".join(f"row {r + 1} (id {ids[r]!r}): {vals[r]:g}" for r in frac[:SHOW])
            col.add(fname, f"column '{name}': {frac.size} non-integer rating(s): {shown}; "
                    "continuous predictions need cut points (round them, or use the "
                    "threshold optimizer in the app)", frac)
            return None
    if bad.size:
        return None
    return vals.astype(np.int64) if integer else vals


def check_range(vals, options, fname, name, ids, col):
    for bound, bad, word in ((options.min_rating, lambda v, b: v < b, "below the declared minimum"),
                             (options.max_rating, lambda v, b: v > b, "above the declared maximum")):
        if bound is None:
            continue
        rows = np.flatnonzero(bad(vals, bound))
        if rows.size:
            shown = ", ".join(f"row {r + 1} (id {ids[r]!r}): {vals[r]}" for r in rows[:SHOW])
            col.add(fname, f"column '{name}': {rows.size} rating(s) {word} {bound}: {shown}", rows)
