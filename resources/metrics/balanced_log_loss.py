"""Balanced log loss of a binary target: the mean of the two classes' mean log
losses, so each class weighs the same. Lower is better.

Written for kmetric_gui in the form of a Kaggle competition metric. The
submission holds one probability column per class (class_0, class_1).

>>> import pandas as pd
>>> sol = pd.DataFrame({"id": [1, 2], "class_0": [1, 0], "class_1": [0, 1]})
>>> sub = pd.DataFrame({"id": [1, 2], "class_0": [0.5, 0.5], "class_1": [0.5, 0.5]})
>>> round(score(sol, sub, "id"), 6)
0.693147
"""
import numpy as np
import pandas as pd

import kaggle_metric_utilities

HIGHER_IS_BETTER = False


def score(solution: pd.DataFrame, submission: pd.DataFrame, row_id_column_name: str,
          epsilon: float = 1e-15) -> float:
    """Balanced log loss with predictions clipped to [epsilon, 1 - epsilon] and rows renormalised."""
    del solution[row_id_column_name]
    del submission[row_id_column_name]
    cols = list(solution.columns)
    kaggle_metric_utilities.verify_valid_probabilities(submission[cols], "submission")
    p = np.clip(submission[cols].to_numpy(dtype=float), epsilon, 1 - epsilon)
    p = p / p.sum(axis=1, keepdims=True)
    y = solution[cols].to_numpy(dtype=float)
    per_class = []
    for k in range(len(cols)):
        rows = y[:, k] == 1
        if rows.any():
            per_class.append(-np.log(p[rows, k]).mean())
    return float(np.mean(per_class))
