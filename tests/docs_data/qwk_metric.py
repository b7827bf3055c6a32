"""Quadratic weighted kappa between integer ratings, in the form of a Kaggle competition
metric (the README's `--metric-file metric.py` runs with it on the kappa demo pair).

>>> import pandas as pd
>>> sol = pd.DataFrame({"id": [1, 2, 3, 4], "rating": [0, 1, 2, 3]})
>>> sub = pd.DataFrame({"id": [1, 2, 3, 4], "rating": [0, 1, 2, 3]})
>>> score(sol, sub, "id")
1.0
"""
import numpy as np
import pandas as pd

HIGHER_IS_BETTER = True


class ParticipantVisibleError(Exception):
    pass


def score(solution: pd.DataFrame, submission: pd.DataFrame, row_id_column_name: str) -> float:
    """Cohen's kappa with weights (i - j)^2 over the ratings seen in either file."""
    del solution[row_id_column_name]
    del submission[row_id_column_name]
    if len(submission.columns) != 1:
        raise ParticipantVisibleError("the submission needs one rating column")
    truth = solution.iloc[:, 0].to_numpy(dtype=int)
    pred = submission.iloc[:, 0].to_numpy(dtype=int)
    low = min(truth.min(), pred.min())
    k = max(truth.max(), pred.max()) - low + 1
    observed = np.zeros((k, k))
    np.add.at(observed, (truth - low, pred - low), 1)
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / observed.sum()
    i, j = np.indices((k, k))
    weights = (i - j) ** 2
    return float(1 - (weights * observed).sum() / (weights * expected).sum())
