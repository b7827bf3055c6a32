"""KL divergence between vote fractions (solution) and predicted class
probabilities (submission), averaged over rows. Lower is better.

Written for kmetric_gui in the form of a Kaggle competition metric.

>>> import pandas as pd
>>> sol = pd.DataFrame({"id": [1, 2], "a": [1.0, 0.5], "b": [0.0, 0.5]})
>>> sub = pd.DataFrame({"id": [1, 2], "a": [1.0, 0.5], "b": [0.0, 0.5]})
>>> round(score(sol, sub, "id"), 6)
0.0
"""
import numpy as np
import pandas as pd
import pandas.api.types

import kaggle_metric_utilities

HIGHER_IS_BETTER = False


class ParticipantVisibleError(Exception):
    pass


def score(solution: pd.DataFrame, submission: pd.DataFrame, row_id_column_name: str,
          epsilon: float = 10 ** -15, micro_average: bool = True) -> float:
    """Mean KL(solution || submission) over rows; terms where the truth is 0 count 0.

    ``micro_average``: one mean over every row (True) or the mean of per-column means.
    """
    del solution[row_id_column_name]
    del submission[row_id_column_name]
    for col in submission.columns:
        if not pandas.api.types.is_numeric_dtype(submission[col]):
            raise ParticipantVisibleError(f"Submission column {col} must be numeric")
    kaggle_metric_utilities.verify_valid_probabilities(submission, "submission")
    sub = np.clip(submission[solution.columns].to_numpy(dtype=float), epsilon, 1 - epsilon)
    sol = solution.to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(sol > 0, sol * np.log(np.where(sol > 0, sol, 1.0) / sub), 0.0)
    if micro_average:
        return float(terms.sum(axis=1).mean())
    return float(terms.mean(axis=0).sum())
