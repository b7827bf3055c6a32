"""Column helpers shared by the metric builders: ids, numbers, ranges, the join."""
import numpy as np
import pyarrow as pa

from ..numbers import arrow_ints, bool_array, column_numbers, shown
from .ids import align, empty_rows
from .problems import SHOW, column_hint, names as listed, quote


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
    """The id column as text, as read: chunked, no combined copy of the strings."""
    col = table.column(id_col)
    if isinstance(col, pa.ChunkedArray) and col.num_chunks == 1:
        col = col.chunk(0)
    return col if pa.types.is_string(col.type) else col.cast(pa.string())


def join_ids(sol, sub, sol_name, sub_name, id_col, col, allow_sol_dups=False):
    from .shapes import id_words
    sol_ids, sub_ids = string_ids(sol, id_col), string_ids(sub, id_col)
    where = id_words(sol, id_col)
    for name, ids in ((sol_name, sol_ids), (sub_name, sub_ids)):
        rows = empty_rows(ids)
        if rows.size:
            col.add(name, f"{rows.size} empty id(s) in {where}: rows "
                    f"{', '.join(str(r + 1) for r in rows[:SHOW])}", rows)
    if col.problems:
        return None, sol_ids
    al = align(sol_ids, sub_ids)
    ignore = getattr(col, "extra_ids", "refuse") == "ignore"
    if ignore and al.extra.size and al.sub_duplicates.size:
        # Repeats of ids the solution lacks are not scored either.
        al = _without_extra_repeats(al)
    if al.sol_duplicates.size and not allow_sol_dups:
        col.add(sol_name, f"{al.sol_duplicates.size} duplicate id(s) in {where}: "
                f"{_duplicates(sol_ids, al.sol_duplicates)}", al.sol_duplicates)
    if al.sub_duplicates.size:
        col.add(sub_name, f"{al.sub_duplicates.size} duplicate id(s) in {where}: "
                f"{_duplicates(sub_ids, al.sub_duplicates)}", al.sub_duplicates)
    if al.missing.size:
        col.add(sub_name, f"{al.missing.size} id(s) of the solution are missing: "
                f"{quote(sol_ids.take(arrow_ints(al.missing[:SHOW])).to_pylist())}",
                al.missing, role="solution")
    if al.extra.size and ignore:
        from .problems import Problem
        col.notes.append(Problem(sub_name, f"{al.extra.size:,} id(s) not in the solution left "
                                 f"out (--extra-ids ignore): "
                                 f"{quote(sub_ids.take(arrow_ints(al.extra[:SHOW])).to_pylist())}"))
    elif al.extra.size:
        hint = "" if al.missing.size else "; --extra-ids ignore scores the solution's ids only"
        col.add(sub_name, f"{al.extra.size} id(s) are not in the solution: "
                f"{quote(sub_ids.take(arrow_ints(al.extra[:SHOW])).to_pylist())}{hint}", al.extra)
    return al, sol_ids


def _without_extra_repeats(al):
    """The alignment without the repeats of ids the solution lacks (those rows are in
    ``extra``: left out with the other extra ids, not refused as duplicates)."""
    from dataclasses import replace
    return replace(al, sub_duplicates=np.setdiff1d(al.sub_duplicates, al.extra))


def _duplicates(ids, dup_rows):
    """The first duplicated ids, each with every row holding it: 'a' (rows 3, 9)."""
    import pyarrow.compute as pc
    from ..numbers import arrow_texts
    first = list(dict.fromkeys(ids.take(arrow_ints(dup_rows[:SHOW])).to_pylist()))
    hits = np.flatnonzero(bool_array(pc.is_in(ids, value_set=arrow_texts(first))))
    found = ids.take(arrow_ints(hits)).to_pylist()
    parts, repeats = [], 0
    for v in first:
        rows = [r + 1 for r, x in zip(hits.tolist(), found) if x == v]
        repeats += len(rows) - 1
        more = ", ..." if len(rows) > SHOW else ""
        parts.append(f"{quote([v])} (rows {', '.join(map(str, rows[:SHOW]))}{more})")
    # dup_rows holds every repeat: more than these ids' repeats means more ids.
    return ", ".join(parts) + (", ..." if dup_rows.size > repeats else "")


def target_column(sol, sub, sol_name, sub_name, id_col, options, col):
    sub_targets = [c for c in sub.column_names if c != id_col]
    if options.target_column:
        name = options.target_column
    elif len(sub_targets) == 1:
        name = sub_targets[0]
    else:
        col.add(sub_name, f"expected one target column besides '{id_col}'; found "
                f"{len(sub_targets)}: {listed(sub_targets) or 'none'}"
                f"{column_hint(sub.column_names)}")
        return None
    for fname, t in ((sol_name, sol), (sub_name, sub)):
        found = t.column_names
        if name not in found:
            col.add(fname, f"no target column '{name}'; found columns: {listed(found)}")
    return None if col.problems else name


def _row(r, ids):
    return f"row {r + 1} (id {shown(ids[r])})"


def numbers(table, name, fname, ids, col, integer):
    """A numeric column as float64 (int64 ratings) in the strict grammar (numbers.py).

    Every value problem is collected naming the file, column, row and id;
    None when there is one.
    """
    cv = column_numbers(table.column(name), integer=integer)   # chunks: read without a combined copy
    what = "ratings" if integer else "numbers"
    if cv.bad.size:
        listed = ", ".join(f"{_row(r, ids)}: {shown(cv.raw(r))} ({cv.reason(r)})"
                           for r in cv.bad[:SHOW])
        col.add(fname, f"column '{name}': {cv.bad.size} value(s) are not {what}: {listed}", cv.bad)
    if cv.too_large.size:
        listed = ", ".join(f"{_row(r, ids)}: {shown(cv.raw(r))}" for r in cv.too_large[:SHOW])
        col.add(fname, f"column '{name}': {cv.too_large.size} rating(s) too large (a rating stays "
                f"below 2^53, about 9.007e15): {listed}", cv.too_large)
    if cv.fraction.size:
        listed = ", ".join(f"{_row(r, ids)}: {shown(cv.raw(r))}" for r in cv.fraction[:SHOW])
        col.add(fname, f"column '{name}': {cv.fraction.size} non-integer rating(s): {listed}; "
                "continuous predictions need cut points (round them, or use the "
                "threshold optimizer in the app)", cv.fraction)
    return cv.values if cv.ok else None


def number_matrix(table, names, fname, ids, col, rows=None):
    """(n, len(names)) float64 of the named columns, as ``numbers`` reads each (every
    problem collected), or None when there is one. ``rows``: the rows taken, in that
    order (a submission in solution order), written straight into the matrix.

    Numeric columns without gaps are copied in as they are and checked for NaN and
    infinities a block at a time: a wide table costs microseconds a column, not a few
    numpy calls each (io/blocks.py)."""
    from .blocks import fill, plain, positions
    at = positions(table)
    n = table.num_rows if rows is None else len(rows)
    out = np.empty((n, len(names)))
    again = np.zeros(len(names), bool)
    for j, name in enumerate(names):
        c = table.column(at[name])
        if not plain(c):
            again[j] = True
        elif rows is None:
            fill(out[:, j], c)
        else:
            out[:, j] = fill(np.empty(len(c)), c)[rows]
    again |= ~np.isfinite(out).all(axis=0)
    ok = True
    for j in np.flatnonzero(again):      # in column order: each problem named as before
        v = numbers(table, names[j], fname, ids, col, integer=False)
        if v is None:
            ok = False
        else:
            out[:, j] = v if rows is None else v[rows]
    return out if ok else None


def fraction_note(vals, fname, name, ids, sub_index):
    """A note (io.Problem that does not stop scoring) on non-integer predictions the
    app accepts for cut points: Kaggle's scorer and `kmetric score` refuse them.

    The message names the submission's rows; the note's rows are the aligned
    table's (solution order: ``sub_index[i]`` is solution row i's submission row),
    so activating it selects the documents shown."""
    from .problems import Problem
    rows = np.flatnonzero(vals != np.floor(vals))
    if not rows.size:
        return None
    listed = ", ".join(f"{_row(r, ids)}: {vals[r]:g}" for r in rows[:SHOW])
    at = np.empty(sub_index.size, np.int64)
    at[sub_index] = np.arange(sub_index.size)
    return Problem(fname, f"column '{name}': {rows.size} non-integer rating(s): {listed}; "
                   "scored through cut points (rounding half up unless set in the Cut points "
                   "tab) — Kaggle's scorer and `kmetric score` refuse this file",
                   tuple(int(r) for r in at[rows[:SHOW]]), "")


def check_range(vals, options, fname, name, ids, col):
    for bound, bad, word in ((options.min_rating, lambda v, b: v < b, "below the declared minimum"),
                             (options.max_rating, lambda v, b: v > b, "above the declared maximum")):
        if bound is None:
            continue
        rows = np.flatnonzero(bad(vals, bound))
        if rows.size:
            listed = ", ".join(f"{_row(r, ids)}: {vals[r]}" for r in rows[:SHOW])
            col.add(fname, f"column '{name}': {rows.size} rating(s) {word} {bound}: {listed}", rows)


def check_span(columns, name, col, limit):
    """Ratings spanning more than ``limit`` classes: the extreme rows of each file named.

    ``columns``: (file name, values, ids) per file.
    """
    present = [(f, v, i) for f, v, i in columns if v is not None and v.size]
    if not present:
        return
    lo = min(int(v.min()) for _, v, _ in present)
    hi = max(int(v.max()) for _, v, _ in present)
    if hi - lo + 1 <= limit:
        return
    # The file(s) whose own ratings span too many classes are at fault; only when
    # each is fine alone (1..5 against 100..104, say) are both named.
    alone = [x for x in present if int(x[1].max()) - int(x[1].min()) + 1 > limit]
    for fname, vals, ids in alone or present:
        shown_rows = [r for r in (int(vals.argmin()), int(vals.argmax()))
                      if int(vals[r]) in (lo, hi)]
        if shown_rows:
            listed = ", ".join(f"{_row(r, ids)}: {vals[r]}" for r in dict.fromkeys(shown_rows))
            col.add(fname, f"column '{name}': ratings span {lo}..{hi}, more than {limit} classes "
                    f"(are these ratings?): {listed}", shown_rows)
