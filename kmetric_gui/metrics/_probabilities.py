"""Probability layouts (auc, logloss): binary, multi-class and multi-label.

* binary: solution ``id,target`` of 0/1, submission ``id,target`` of scores;
* multi-class: solution ``id,label`` (class names) or one-hot columns,
  submission one probability column per class;
* multi-label (AUC): solution one 0/1 column per label, submission one score
  column per label.
"""
import numpy as np

from ._cells import Binary, Cells, ClassCode, ClassSet, Numbers

PROBABILITY = dict(low=0.0, high=1.0, why="is not a probability: probabilities lie in [0, 1]")


def cells_of(probabilities, truth, classes=None, label=None):
    """The table's cells of a probability layout: ``truth`` "binary", "codes" (one class a
    row, ``label``: the solution's column) or "set" (0/1 columns)."""
    bounds = PROBABILITY if probabilities else {}
    if truth == "binary":
        return Cells(Binary(), Numbers(**bounds))
    classes = tuple(str(c) for c in classes)
    kind = ClassCode(classes, label or "class") if truth == "codes" else ClassSet(classes)
    return Cells(kind, Numbers(per_class=True, **bounds))


def build_probabilities(metric, ctx, probabilities, multilabel):
    """Prepared with truth (n,) 0/1 or class codes, or (n, C) 0/1 (multi-label),
    and scores (n,) or (n, C) in solution order. ``probabilities``: scores must be
    in [0, 1] (log loss); ``multilabel``: 0/1 solution columns are labels, not one-hot."""
    from ..io.prepare import Prepared
    from ..io.problems import names as listed
    from ._layouts import (Sides, class_labels, label_column, matrix, one_hot_codes,
                           single_target, unscored_rows)
    s = Sides(ctx)
    subs = s.targets(ctx.sub)
    sols = s.targets(ctx.sol)
    if len(subs) == 1 or ctx.options.target_column:
        name = single_target(s)
        truth, pred = s.sol_numbers(name), s.sub_numbers(name)
        s.stop_if_any()
        skip = unscored_rows(s, truth, binary=True)
        s.check_binary(truth, name, skip)
        if probabilities:
            s.check_probabilities(pred, name)
        s.stop_if_any()
        return Prepared(metric.name, ctx.reason, ctx.id_col, [name], s.sol_ids_arr,
                        truth.astype(np.int8), s.align(pred).astype(np.float64, copy=False), ctx.usage,
                        classes=[name], layout=f"binary: id '{ctx.id_col}' + 0/1 truth and "
                        f"{'probabilities' if probabilities else 'scores'} in '{name}'",
                        cells=cells_of(probabilities, "binary"))
    classes = subs
    in_sol = set(sols)                   # a set: a wide header is no square
    wide = [c for c in classes if c in in_sol]
    if len(wide) >= 2:
        names = s.same_columns("class")
        truth = matrix(s, ctx.sol, names, ctx.sol_name)
        pred = matrix(s, ctx.sub, names, ctx.sub_name)
        s.stop_if_any()
        skip = unscored_rows(s, truth, binary=True)
        for j, c in enumerate(names):
            s.check_binary(truth[:, j], c, skip)
        s.stop_if_any()
        if multilabel:
            layout = f"multi-label: {len(names)} columns of 0/1 truth and scores"
            truth = truth.astype(np.int8)
        else:
            truth = one_hot_codes(s, truth, names, skip)
            layout = f"multi-class: one-hot solution, {len(names)} probability columns"
        classes = names
        cells = cells_of(probabilities, "set" if multilabel else "codes", names)
    else:
        label = label_column(s, sols, classes)
        if label is None:
            s.col.add(ctx.sol_name, f"expected one label column or one 0/1 column per class "
                      f"({listed(classes, 5)}); found {listed(sols) or 'none'}")
            s.stop_if_any()
        texts = s.texts(ctx.sol, label)
        truth = class_labels(s, texts, classes, label)
        pred = matrix(s, ctx.sub, classes, ctx.sub_name)
        layout = (f"multi-class: solution labels in '{label}', submission one "
                  f"{'probability' if probabilities else 'score'} column per class ({len(classes)})")
        cells = cells_of(probabilities, "codes", classes, label)
    if probabilities and pred is not None:     # named with the solution's problems, if any
        for j, c in enumerate(classes):
            s.check_probabilities(pred[:, j], c)
    s.stop_if_any()
    return Prepared(metric.name, ctx.reason, ctx.id_col, list(classes), s.sol_ids_arr, truth,
                    s.align(pred).astype(np.float64, copy=False), ctx.usage, classes=list(classes),
                    layout=layout, cells=cells)
