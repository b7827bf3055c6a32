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
        """Candidate scored columns: all but the id, Usage and the columns the metric's
        options read (weights, mask, groups)."""
        keep = self.ctx.keep
        return [c for c in table.column_names
                if c != self.ctx.id_col and c.lower() != "usage" and c not in keep]

    def _read(self, table, name):
        if table is self.ctx.sol:
            self.ctx.read.add(name)

    def stop_if_any(self):
        self.col.raise_if_any()

    def align(self, sub_values):
        """Submission values (rows of the submission) in solution order."""
        return sub_values[self.al.sub_index]

    # -- columns ---------------------------------------------------------------------
    def sol_numbers(self, name):
        self.ctx.read.add(name)
        return numbers(self.ctx.sol, name, self.ctx.sol_name, self.sol_ids, self.col, integer=False)

    def sub_numbers(self, name):
        return numbers(self.ctx.sub, name, self.ctx.sub_name, self.sub_ids, self.col, integer=False)

    def texts(self, table, name):
        """A column as text (object array); empty cells are ''."""
        import pyarrow as pa
        self._read(table, name)
        arr = column_array(table, name)
        if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
            arr = arr.cast(pa.string())
        out = arr.to_numpy(zero_copy_only=False)
        if arr.null_count:
            out = np.where(out == None, "", out)   # noqa: E711 (elementwise)
        return out

    # -- value checks -------------------------------------------------------------------
    def check_binary(self, values, name, skip=None):
        """Solution 0/1 column (rows of ``skip``, left out, are not checked)."""
        wrong = (values != 0) & (values != 1)
        if skip is not None:
            wrong &= ~skip
        bad = np.flatnonzero(wrong)
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
            hint = ""
            if sub_t and all(c in in_sol for c in sub_t):
                hint = (f" (if they are not scored, name the scored ones: --target-column "
                        f"{','.join(sub_t[:4])}{',...' if len(sub_t) > 4 else ''})")
            self.col.add(ctx.sub_name, f"missing {what} column(s) of the solution: "
                         f"{listed(missing)}{hint}")
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
        from ..io.problems import Problem
        sides.col.notes.append(Problem(sides.ctx.sub_name, f"column(s) "
                               f"{listed(lacking, SHOW, quoted=True)}: a class the solution's "
                               f"'{name}' never holds; scored as Kaggle scores it (its "
                               f"probabilities still count)"))
    return codes


def one_hot_codes(sides, truth, names, skip=None):
    """Class codes of a one-hot solution (exactly one 1 a row), rows at fault named (rows
    of ``skip``, left out, are not checked)."""
    ok = ((truth == 0) | (truth == 1)).all(axis=1) & ((truth == 1).sum(axis=1) == 1)
    if skip is not None:
        ok |= skip
    bad = np.flatnonzero(~ok)
    if bad.size:
        shown_names = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
        sides.col.add(sides.ctx.sol_name, f"columns {shown_names}: "
                      f"{bad.size} row(s) are not one-hot (exactly one 1, the rest 0): "
                      f"{at_rows(bad, sides.sol_ids)}", bad)
    return np.argmax(truth, axis=1)


def unscored_rows(sides, truth, binary=False):
    """Solution rows left out (bool (n,)) or None: rows holding --unscored-value in every
    scored column, or (0/1 layouts of several columns) -1 in every column, Kaggle's mark
    of an unscored row in such answers (the Jigsaw labels). Noted with their count."""
    t = truth if truth.ndim == 2 else truth[:, None]
    value = sides.ctx.options.unscored_value
    sides.col.unscored_read = True
    why = None
    if value is not None:
        out = (t == value).all(axis=1)
        why = f"{value:g} in every scored column (--unscored-value)"
    elif binary and t.shape[1] >= 2:
        minus = t == -1
        whole = minus.all(axis=1)
        # -1 only in whole rows, the rest 0/1: the mark, not a value.
        if not whole.any() or (minus.any(axis=1) & ~whole).any() \
                or not ((t == 0) | (t == 1) | minus).all():
            return None
        out, why = whole, "-1 in every label column (the answers' mark of an unscored row)"
    else:
        return None
    if not out.any():
        return None
    from ..io.problems import Problem
    rows = np.flatnonzero(out)
    sides.col.notes.append(Problem(sides.ctx.sol_name, f"{rows.size:,} row(s) left out, not "
                                   f"scored: {why}: {at_rows(rows, sides.sol_ids)}"))
    sides.col.leave_out = out if sides.col.leave_out is None else sides.col.leave_out | out
    return out


def label_column(sides, sols, classes):
    """The solution's column of class labels for class-score columns ``classes``: the only
    candidate, else the only one whose every value names a class (the others, a patient
    id or features, are left alone); None when none or several are."""
    if len(sols) == 1:
        return sols[0]
    if not sols:
        return None
    import pyarrow as pa
    import pyarrow.compute as pc
    from ..numbers import arrow_texts
    found = []
    for c in sols:
        col = sides.ctx.sol.column(c)
        if not (pa.types.is_string(col.type) or pa.types.is_integer(col.type)):
            continue
        if pc.all(pc.is_in(col.cast(pa.string()), value_set=arrow_texts(classes))).as_py():
            found.append(c)
    return found[0] if len(found) == 1 else None

