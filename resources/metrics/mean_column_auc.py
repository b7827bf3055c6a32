"""Mean column-wise ROC AUC over the label columns. Higher is better.

Written for kmetric_gui in the form of a Kaggle competition metric: columns
holding a single class are skipped, as many Kaggle metrics do.

>>> import pandas as pd
>>> sol = pd.DataFrame({"id": [1, 2, 3, 4], "x": [0, 0, 1, 1]})
>>> sub = pd.DataFrame({"id": [1, 2, 3, 4], "x": [0.1, 0.4, 0.35, 0.8]})
>>> score(sol, sub, "id")
0.75
"""
import numpy as np
import pandas as pd

HIGHER_IS_BETTER = True


class ParticipantVisibleError(Exception):
    pass


def _auc(y, s):
    order = np.argsort(s, kind="mergesort")
    s_sorted = s[order]
    ranks = np.empty(len(s), dtype=float)
    i = 0
    while i < len(s):            # average ranks of ties
        j = i
        while j + 1 < len(s) and s_sorted[j + 1] == s_sorted[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    pos = y == 1
    n1, n0 = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)


def score(solution: pd.DataFrame, submission: pd.DataFrame, row_id_column_name: str,
          min_positives: int = 1) -> float:
    """Mean ROC AUC of the columns with at least ``min_positives`` positives and one negative."""
    del solution[row_id_column_name]
    del submission[row_id_column_name]
    missing = [c for c in solution.columns if c not in submission.columns]
    if missing:
        raise ParticipantVisibleError(f"Submission is missing columns: {', '.join(missing)}")
    aucs = []
    for col in solution.columns:
        y = solution[col].to_numpy()
        if y.sum() < min_positives or y.sum() == len(y):
            continue
        aucs.append(_auc(y, submission[col].to_numpy(dtype=float)))
    if not aucs:
        raise ParticipantVisibleError("No column has both classes")
    return float(np.mean(aucs))
