"""The layout of ranked items: a query a row, its items in one text column."""
import numpy as np


def item_lists(metric, ctx, need):
    """A query a row, its items space-separated in one text column (MAP@K, NDCG@K): the
    truth's and the submission's lists, K checked; ``need`` says why a prediction
    needs an item (the cell's refusal)."""
    from ..io.prepare import Prepared
    from ._cells import Cells, Items
    from ._family import opt
    from ._layouts import Sides, at_rows, single_target
    from .kernels.mapk import check_k, split_items
    s = Sides(ctx)
    name = single_target(s)
    s.stop_if_any()
    truth = split_items(s.texts(ctx.sol, name))
    pred = split_items(s.texts(ctx.sub, name))
    empty = np.flatnonzero(np.fromiter((len(x) == 0 for x in pred), bool, len(pred)))
    if empty.size:
        s.col.add(ctx.sub_name, f"column '{name}': {empty.size} empty prediction(s) "
                  f"({metric.label} needs at least one item a query): "
                  f"{at_rows(empty, s.sub_ids)}", empty)
    try:
        check_k(opt(ctx.options, metric, "k"))
    except Exception as e:     # the option is named with the files' problems
        s.col.add(ctx.sub_name, str(e))
    s.stop_if_any()
    return Prepared(metric.name, ctx.reason, ctx.id_col, [name], s.sol_ids_arr, truth,
                    [pred[i] for i in s.al.sub_index.tolist()], ctx.usage,
                    layout=f"id '{ctx.id_col}' + space-separated items in '{name}'",
                    cells=Cells(Items(allow_empty=True), Items(allow_empty=False, need=need)))
