"""A metric file's score the plain way, in this process: both files read with pandas,
the submission put in the solution's order by a merge on the id, the rows taken,
score() called on copies. The conformance test holds the worker's path to it; never
called on a user's file outside tests (it runs the code here)."""
import numpy as np


def plain_call(source, prep, args, rows=None):
    import pandas as pd
    w = prep.truth.table.worker
    sol_path, sub_path = w.paths
    id_col = prep.id_column
    sol = pd.read_csv(sol_path, dtype={id_col: str})
    sub = pd.read_csv(sub_path, dtype={id_col: str})
    sol = sol.drop(columns=[c for c in sol.columns if c == "Usage"])
    sub = sol[[id_col]].merge(sub, on=id_col, how="left")
    for side, frame in (("sol", sol), ("sub", sub)):
        block = prep.truth if side == "sol" else prep.pred
        for (unit, part), value in block.cells.items():
            frame.loc[unit, block.names[part]] = value
    if rows is not None:
        rows = np.asarray(rows)
        sol, sub = sol.iloc[rows].reset_index(drop=True), sub.iloc[rows].reset_index(drop=True)
    import sys

    from . import kaggle_metric_utilities
    sys.modules.setdefault("kaggle_metric_utilities", kaggle_metric_utilities)
    ns = {}
    exec(compile(source.code, source.path, "exec"), ns)      # noqa: S102 (tests only)
    return float(ns["score"](sol.copy(), sub.copy(), id_col, **args))
