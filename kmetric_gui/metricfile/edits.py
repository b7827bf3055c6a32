"""Changed submissions for one call, made in the worker (pandas lives there only).

A call's row set may be a dict: ``{"rows": rows or None, "fix": rows set to their
truth}``, ``{"rows", "blend": (paths of B, alpha)}`` (numeric predictions
alpha x A + (1 - alpha) x B) or ``{"rows", "swap": (paths of B, mask)}`` (B's
predictions where the mask is set: a permutation test's relabelled submission).
Rows are positions in the aligned frames; the truth is the solution's value in
the submission's column of the same name.
"""
import numpy as np


class NotEditable(Exception):
    """The edit cannot be made (no shared columns, no numeric predictions): one line."""


def shared_columns(cols):
    sol = dict(cols.sol)
    return [c for c, _ in cols.sub if c != cols.id_col and c in sol]


def _set(arr, pos, values):
    """arr with values at pos (a new array when the dtype must widen)."""
    if isinstance(arr, np.ndarray) and isinstance(values, np.ndarray):
        kind = np.result_type(arr, values)
        if kind != arr.dtype:
            arr = arr.astype(kind)
    arr[pos] = values
    return arr


def fix_edit(cols, fixed):
    fixed = np.asarray(fixed, dtype=np.int64)
    sol = dict(cols.sol)
    shared = shared_columns(cols)
    if not shared:
        raise NotEditable("the submission has no column of the solution's to set to its truth")

    def edit(sub_cols, rows):
        pos = fixed if rows is None else np.flatnonzero(np.isin(rows, fixed))
        src = fixed if rows is None else np.asarray(rows)[pos]
        for c in shared:
            sub_cols[c] = _set(sub_cols[c], pos, sol[c].take(src))
    return edit


def _numeric(a):
    return isinstance(a, np.ndarray) and a.dtype.kind in "fiu"


def blend_edit(cols, other, alpha):
    b_cols = dict(other.sub)
    names = [c for c, a in cols.sub if c != cols.id_col and _numeric(a) and _numeric(b_cols.get(c))]
    if not names:
        raise NotEditable("the submissions have no numeric prediction columns in common to blend")

    def edit(sub_cols, rows):
        for c in names:
            b = b_cols[c] if rows is None else b_cols[c].take(rows)
            sub_cols[c] = alpha * sub_cols[c].astype(np.float64) + (1.0 - alpha) * b
    return edit


def swap_edit(cols, other, mask):
    b_cols = dict(other.sub)
    names = [c for c, _ in cols.sub if c != cols.id_col]
    missing = [c for c in names if c not in b_cols]
    if missing:
        raise NotEditable(f"the other submission has no column '{missing[0]}' to swap")
    mask = None if mask is None else np.asarray(mask, dtype=bool)     # None: every row

    def edit(sub_cols, rows):
        if mask is None:
            for c in names:
                sub_cols[c] = b_cols[c].copy() if rows is None else b_cols[c].take(rows)
            return
        m = mask if rows is None else mask[rows]
        pos = np.flatnonzero(m)
        for c in names:
            b = b_cols[c] if rows is None else b_cols[c].take(rows)
            sub_cols[c] = _set(sub_cols[c], pos, b.take(pos) if isinstance(b, np.ndarray) else b[pos])
    return edit


def edit_of(spec, cols, other_columns):
    """(rows, edit) of a dict row set; ``other_columns(paths)``: B's Columns."""
    if "fix" in spec:
        return spec.get("rows"), fix_edit(cols, spec["fix"])
    if "blend" in spec:
        paths, alpha = spec["blend"]
        return spec.get("rows"), blend_edit(cols, other_columns(paths), float(alpha))
    if "swap" in spec:
        paths, mask = spec["swap"]
        return spec.get("rows"), swap_edit(cols, other_columns(paths), mask)
    return spec.get("rows"), None


def candidates(cols):
    """(shared columns, scored rows ordered by a cheap proxy of what a fix gains): rows
    whose prediction differs from the truth, largest absolute difference first (text
    columns count 1 where they differ)."""
    sol = dict(cols.sol)
    shared = shared_columns(cols)
    err = np.zeros(cols.n)
    for c in shared:
        a, b = cols.frames_all[1][c], cols.frames_all[0][c]
        if _numeric(sol[c]) and _numeric(dict(cols.sub)[c]):
            d = np.abs(a.to_numpy(dtype=np.float64) - b.to_numpy(dtype=np.float64))
            err += np.where(np.isnan(d), np.inf, d)
        else:
            err += (a.astype(str).to_numpy() != b.astype(str).to_numpy())
    rows = np.flatnonzero(err > 0)
    return shared, rows[np.argsort(-err[rows], kind="stable")]
