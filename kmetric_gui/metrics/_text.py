"""Text layouts (levenshtein, jaccard_words): id + one text column in both files, read as
text whatever it looks like (a column of digits is text too); an empty cell is an empty
text."""
import numpy as np


def build_texts(metric, ctx, empty_truth_ok):
    from ..io.prepare import Prepared
    from ._cells import Cells, Text
    from ._layouts import Sides, at_rows, single_target
    s = Sides(ctx)
    name = single_target(s)
    s.stop_if_any()
    truth = s.texts(ctx.sol, name)
    pred = s.texts(ctx.sub, name)
    if not empty_truth_ok:
        empty = np.flatnonzero(np.fromiter((not t.split() for t in truth), bool, len(truth)))
        if empty.size:
            s.col.add(ctx.sol_name, f"column '{name}': {empty.size} text(s) without a word "
                      f"({metric.label} divides by the words of both texts): "
                      f"{at_rows(empty, s.sol_ids)}", empty)
    s.stop_if_any()
    return Prepared(metric.name, ctx.reason, ctx.id_col, [name], s.sol_ids_arr, truth,
                    s.align(pred), ctx.usage, layout=f"id '{ctx.id_col}' + text in '{name}'",
                    cells=Cells(Text(not empty_truth_ok, f"{metric.label} divides by the words "
                                     "of both texts"), Text()))
