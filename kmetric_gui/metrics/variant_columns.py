"""Reading the solution columns the variants name (metrics/variants.py): row weights, a
row mask, groups. Every bad value is a problem naming the file, column, rows and ids."""
import numpy as np

from .variant_options import FLAGS, option


def read_columns(metric, prep, ctx):
    """``prep`` with the variants' columns read from the solution (weights, groups in
    ``row_values``); rows a mask leaves out marked for dropping. Each bad value is a
    problem naming the file, column, rows and ids; nothing is scored then."""
    from ..io.columns import Lazy, numbers
    from ._layouts import at_rows
    o, col, sol = ctx.options, ctx.col, ctx.sol
    names = {n: option(metric, o, n) for n in FLAGS}
    if not any(names.values()):
        return prep
    ids = Lazy(prep.id_array)
    out = dict(prep.row_values)
    mask_name = names["mask_column"]
    if mask_name:
        mask = _mask(sol.column(mask_name), mask_name, ctx, ids)
        if mask is not None:
            left = ~mask if col.leave_out is None else (~mask | col.leave_out)
            if left.all():
                rows = np.arange(min(len(mask), 5))
                col.add(ctx.sol_name, f"column '{mask_name}' (--mask-column): no row holds 1 or "
                        f"true, nothing to score: {at_rows(rows, ids)}", rows)
            elif (~mask).any():
                from ..io.problems import Problem
                col.notes.append(Problem(ctx.sol_name, f"{int((~mask).sum()):,} row(s) left out "
                                         f"by the mask column '{mask_name}' (0 or false)"))
                col.leave_out = left
    scored = None if col.leave_out is None else ~col.leave_out
    w_name = names["weights_column"]
    if w_name:
        w = numbers(sol, w_name, ctx.sol_name, ids, col, integer=False)
        if w is not None:
            bad = np.flatnonzero((w < 0) if scored is None else (w < 0) & scored)
            if bad.size:
                col.add(ctx.sol_name, f"column '{w_name}' (--weights-column): {bad.size} negative "
                        f"weight(s): {at_rows(bad, ids, w)}", bad)
            elif not (w if scored is None else w[scored]).sum() > 0:
                rows = np.arange(min(len(w), 5))
                col.add(ctx.sol_name, f"column '{w_name}' (--weights-column): every weight of "
                        f"the scored rows is 0: {at_rows(rows, ids, w)}", rows)
            out["weights"] = w.astype(np.float64, copy=False)
    g_name = names["group_by"]
    if g_name:
        codes, labels = _groups(sol.column(g_name), g_name, ctx, ids)
        if codes is not None:
            out["groups"] = codes
            prep.group_names = tuple(labels)
    col.raise_if_any()
    prep.row_values = out
    prep.variant_columns = {k: v for k, v in names.items() if v}
    return prep


def _mask(column, name, ctx, ids):
    """(n,) bool of a 1/0 or true/false column; None with a problem per bad value."""
    import pyarrow as pa
    import pyarrow.compute as pc
    from ._layouts import at_rows
    if pa.types.is_boolean(column.type) and not column.null_count:
        return np.asarray(column.to_numpy(zero_copy_only=False), dtype=bool)
    text = pc.utf8_lower(pc.utf8_trim_whitespace(column.cast(pa.string())))
    from ..numbers import arrow_texts, plain_array
    yes = plain_array(pc.fill_null(pc.is_in(text, value_set=arrow_texts(
        ["1", "1.0", "true", "yes", "t", "y"])), False)).astype(bool)
    no = plain_array(pc.fill_null(pc.is_in(text, value_set=arrow_texts(
        ["0", "0.0", "false", "no", "f", "n"])), False)).astype(bool)
    bad = np.flatnonzero(~(yes | no))
    if bad.size:
        raw = column.cast(pa.string())
        ctx.col.add(ctx.sol_name, f"column '{name}' (--mask-column): {bad.size} value(s) are "
                    f"not 1/0 or true/false: {at_rows(bad, ids, _Texts(raw))}", bad)
        return None
    return yes


class _Texts:
    """Values of an Arrow text column read one at a time (messages)."""

    def __init__(self, arr):
        self.arr = arr

    def __getitem__(self, i):
        v = self.arr[int(i)].as_py()
        return "" if v is None else v


def _groups(column, name, ctx, ids):
    """(codes (n,) int64, group names) of a group column; empty cells are a problem."""
    import pyarrow as pa
    import pyarrow.compute as pc
    from ..io.ids import empty_rows
    from ._layouts import at_rows
    text = column.cast(pa.string())
    bad = empty_rows(text)
    if bad.size:
        ctx.col.add(ctx.sol_name, f"column '{name}' (--group-by): {bad.size} empty group(s): "
                    f"{at_rows(bad, ids)}", bad)
        return None, None
    enc = pc.dictionary_encode(text).combine_chunks() if isinstance(text, pa.ChunkedArray) \
        else pc.dictionary_encode(text)
    from ..numbers import plain_array
    return plain_array(enc.indices).astype(np.int64), [str(x) for x in enc.dictionary.to_pylist()]
