"""Label layouts (accuracy, f1): id + one column of class labels in both files.

Labels are compared as numbers when every value of both columns is a number
(``1`` and ``1.0`` are one class, as pandas reads them on Kaggle), else as
text, byte for byte. A label the submission uses and the solution never
holds is scored as scikit-learn and Kaggle score it, as wrong (a class of
its own, with F1 0 in a macro mean), and named in a note: it is most often
a typo or another spelling, and large class sets rarely all appear in a
test set.
"""
import numpy as np



def _numeric(table, name):
    from ..io.columns import column_array
    from ..numbers import column_numbers
    cv = column_numbers(column_array(table, name), integer=False)
    return cv.values if cv.ok else None


def build_labels(metric, ctx):
    from ..io.prepare import Prepared
    from ._layouts import Sides, at_rows, single_target, unscored_rows
    s = Sides(ctx)
    name = single_target(s)
    s.stop_if_any()
    ctx.read.add(name)
    t, p = _numeric(ctx.sol, name), _numeric(ctx.sub, name)
    if t is None or p is None:
        t, p = s.texts(ctx.sol, name).astype(str), s.texts(ctx.sub, name).astype(str)
        for fname, vals, ids in ((ctx.sol_name, t, s.sol_ids), (ctx.sub_name, p, s.sub_ids)):
            empty = np.flatnonzero(vals == "")
            if empty.size:
                s.col.add(fname, f"column '{name}': {empty.size} empty label(s): "
                          f"{at_rows(empty, ids)}", empty)
        kind = "text"
    else:
        if np.array_equal(t, np.round(t)) and np.array_equal(p, np.round(p)):
            t, p = t.astype(np.int64), p.astype(np.int64)
        kind = "numbers"
    s.stop_if_any()
    if kind == "numbers":
        unscored_rows(s, t)
    known = np.unique(t)
    unknown = np.flatnonzero(~np.isin(p, known))
    if unknown.size:
        from ..io.problems import Problem
        labels = list(dict.fromkeys(p[unknown[:50]].tolist()))[:5]
        s.col.notes.append(Problem(
            ctx.sub_name, f"column '{name}': {unknown.size} prediction(s) of a class the "
            f"solution never holds ({', '.join(map(repr, labels))}), scored as wrong: "
            f"{at_rows(unknown, s.sub_ids, p)}"))
    s.stop_if_any()
    from ._cells import Cells, Labels
    typed = Labels(tuple(known.tolist()), "text" if kind == "text" else
                   "int" if t.dtype.kind in "iu" else "float")
    return Prepared(metric.name, ctx.reason, ctx.id_col, [name], s.sol_ids_arr, t, s.align(p),
                    ctx.usage, layout=f"id '{ctx.id_col}' + class labels ({kind}) in '{name}'",
                    cells=Cells(typed, typed))
