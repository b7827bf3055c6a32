"""Kaggle's shared metric helpers, written here from their documented behaviour,
so unmodified competition metric files run offline. The worker installs this
module under its Kaggle name before it runs a metric file.
"""
import re

import numpy as np


class ParticipantVisibleError(Exception):
    """An error whose message participants may see (first 280 characters)."""


class HostVisibleError(Exception):
    """An error only the competition's hosts see."""


def treat_as_participant_error(error_message: str, solution) -> bool:
    """True when the message cannot leak hidden labels: the solution is all
    numeric (booleans count), the message holds no digit, and, when the
    solution has booleans, neither 'true' nor 'false'."""
    import pandas as pd
    kinds = [solution[c].dtype for c in solution.columns]
    if not all(pd.api.types.is_numeric_dtype(k) or pd.api.types.is_bool_dtype(k) for k in kinds):
        return False
    if re.search(r"\d", error_message):
        return False
    if any(pd.api.types.is_bool_dtype(k) for k in kinds):
        low = error_message.lower()
        if "true" in low or "false" in low:
            return False
    return True


def safe_call_score(metric_function, solution, submission, **metric_func_kwargs):
    """Call the metric; errors named like the visible-error classes come back as
    this module's; others become participant-visible when that cannot leak labels."""
    try:
        return metric_function(solution, submission, **metric_func_kwargs)
    except Exception as err:
        name = type(err).__name__
        if name == "ParticipantVisibleError":
            raise ParticipantVisibleError(str(err)) from err
        if name == "HostVisibleError":
            raise HostVisibleError(str(err)) from err
        if treat_as_participant_error(str(err), solution):
            raise ParticipantVisibleError(str(err)) from err
        raise


def verify_valid_probabilities(df, df_name: str):
    """Every value numeric, in [0, 1], each row summing to 1 (as numpy.allclose)."""
    import pandas as pd
    if not all(pd.api.types.is_numeric_dtype(df[c].dtype) for c in df.columns):
        raise ParticipantVisibleError(f"All target values in {df_name} must be numeric")
    values = df.to_numpy(dtype=float)
    if values.size and values.min() < 0:
        raise ParticipantVisibleError(f"All target values in {df_name} must be at least zero")
    if values.size and values.max() > 1:
        raise ParticipantVisibleError(f"All target values in {df_name} must be no greater than one")
    if not np.allclose(values.sum(axis=1), 1):
        raise ParticipantVisibleError(f"Target values in {df_name} do not add to one within all rows")
