"""Reading the family metrics' layouts into aligned arrays, every problem named.

Each problem is one line naming the file, the column, the first rows (1-based,
as a spreadsheet counts data rows) and their ids. Submission problems name
the submission's own rows; arrays come back in solution order.
"""
import numpy as np

from ..io.columns import Lazy, column_array, join_ids, number_matrix, numbers, string_ids
from ..io.problems import SHOW, ValidationFailed, names as listed
from ..numbers import shown


def at_rows(rows, ids, values=None):
    """'row 3 (id 'a'): 1.5, row 9 (id 'b'): -2' for the first SHOW rows."""
    parts = []
    for r in list(rows)[:SHOW]:
        text = f"row {int(r) + 1} (id {shown(ids[r])})"
        if values is not None:
            text += f": {shown(values[r])}"
        parts.append(text)
    return ", ".join(parts) + (", ..." if len(rows) > SHOW else "")


class Sides:
    """Both tables of a pair, joined on the id: what every builder starts from."""

    def __init__(self, ctx, allow_missing_columns=False):
        self.ctx, self.col = ctx, ctx.col
        self.sol_ids_arr = None
        self.al, self.sol_ids_arr = join_ids(ctx.sol, ctx.sub, ctx.sol_name, ctx.sub_name,
                                             ctx.id_col, ctx.col)
        self.sol_ids = Lazy(self.sol_ids_arr)
        self.sub_ids = Lazy(string_ids(ctx.sub, ctx.id_col))

    def targets(self, table):
        return [c for c in table.column_names if c != self.ctx.id_col and c.lower() != "usage"]

    def stop_if_any(self):
        self.col.raise_if_any()

    def align(self, sub_values):
        """Submission values (rows of the submission) in solution order."""
        return sub_values[self.al.sub_index]

    # -- columns ---------------------------------------------------------------------
    def sol_numbers(self, name):
        return numbers(self.ctx.sol, name, self.ctx.sol_name, self.sol_ids, self.col, integer=False)

    def sub_numbers(self, name):
        return numbers(self.ctx.sub, name, self.ctx.sub_name, self.sub_ids, self.col, integer=False)

    def texts(self, table, name):
        """A column as text (object array); empty cells are ''."""
        import pyarrow as pa
        arr = column_array(table, name)
        if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
            arr = arr.cast(pa.string())
        out = arr.to_numpy(zero_copy_only=False)
        if arr.null_count:
            out = np.where(out == None, "", out)   # noqa: E711 (elementwise)
        return out

    # -- value checks -------------------------------------------------------------------
    def check_binary(self, values, name):
        """Solution 0/1 column."""
        bad = np.flatnonzero((values != 0) & (values != 1))
        if bad.size:
            self.col.add(self.ctx.sol_name, f"column '{name}': {bad.size} value(s) are not 0 or 1: "
                         f"{at_rows(bad, self.sol_ids, values)}", bad)

    def check_probabilities(self, values, name):
        """Submission probabilities in [0, 1]."""
        bad = np.flatnonzero((values < 0) | (values > 1))
        if bad.size:
            self.col.add(self.ctx.sub_name, f"column '{name}': {bad.size} probabilit(ies) outside "
                         f"[0, 1]: {at_rows(bad, self.sub_ids, values)}", bad)

    def check_non_negative(self, values, name, fname, ids, why):
        bad = np.flatnonzero(values < 0)
        if bad.size:
            self.col.add(fname, f"column '{name}': {bad.size} negative value(s) ({why}): "
                         f"{at_rows(bad, ids, values)}", bad)

    def same_columns(self, what):
        """The submission's target columns, checked against the solution's: missing and
        extra columns are problems. Returns the shared column names (submission order)."""
        ctx = self.ctx
        sol_t, sub_t = self.targets(ctx.sol), self.targets(ctx.sub)
        in_sol, in_sub = set(sol_t), set(sub_t)     # sets: a wide header is no square
        missing = [c for c in sol_t if c not in in_sub]
        extra = [c for c in sub_t if c not in in_sol]
        if missing:
            self.col.add(ctx.sub_name, f"missing {what} column(s) of the solution: {listed(missing)}")
        if extra:
            self.col.add(ctx.sub_name, f"{what} column(s) not in the solution: {listed(extra)}")
        return [c for c in sub_t if c in in_sol]


def single_target(sides):
    """The one target column both files share (--target-column, or the submission's only one)."""
    ctx, col = sides.ctx, sides.col
    subs = sides.targets(ctx.sub)
    name = ctx.options.target_column or (subs[0] if len(subs) == 1 else None)
    if name is None:
        col.add(ctx.sub_name, f"expected one target column besides '{ctx.id_col}'; found "
                f"{len(subs)}: {listed(subs) or 'none'}")
        raise ValidationFailed(col.problems)
    for fname, t in ((ctx.sol_name, ctx.sol), (ctx.sub_name, ctx.sub)):
        found = t.column_names
        if name not in found:
            col.add(fname, f"no target column '{name}'; found columns: {listed(found)}")
    col.raise_if_any()
    return name


def matrix(sides, table, names, fname):
    """(n, C) float64 of the named numeric columns of one table (None on a problem)."""
    ids = sides.sol_ids if fname == sides.ctx.sol_name else sides.sub_ids
    return number_matrix(table, names, fname, ids, sides.col)


def class_labels(sides, truth_texts, classes, name):
    """Codes of the solution's class labels among ``classes`` (the submission's columns):
    a label without a column, and a column without a row, are problems."""
    index = {c: i for i, c in enumerate(classes)}
    codes = np.fromiter((index.get(v, -1) for v in truth_texts), dtype=np.int64,
                        count=len(truth_texts))
    bad = np.flatnonzero(codes < 0)
    if bad.size:
        sides.col.add(sides.ctx.sol_name, f"column '{name}': {bad.size} label(s) have no probability "
                      f"column in the submission: {at_rows(bad, sides.sol_ids, truth_texts)}", bad)
    present = np.bincount(codes[codes >= 0], minlength=len(classes))
    lacking = [c for c, k in zip(classes, present) if k == 0]
    if lacking and not bad.size:
        sides.col.add(sides.ctx.sub_name, f"column(s) {listed(lacking, quoted=True)}: a class the "
                      f"solution's '{name}' never holds (no row to score it on)")
    return codes


def one_hot_codes(sides, truth, names):
    """Class codes of a one-hot solution (exactly one 1 a row), rows at fault named."""
    ok = ((truth == 0) | (truth == 1)).all(axis=1) & ((truth == 1).sum(axis=1) == 1)
    bad = np.flatnonzero(~ok)
    if bad.size:
        shown_names = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
        sides.col.add(sides.ctx.sol_name, f"columns {shown_names}: "
                      f"{bad.size} row(s) are not one-hot (exactly one 1, the rest 0): "
                      f"{at_rows(bad, sides.sol_ids)}", bad)
    return np.argmax(truth, axis=1)
