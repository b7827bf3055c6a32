"""The metric registry: one module per metric, one line each here.

Detection asks the metrics in order, most specific layout first; the last
one (kappa: a single target column) is the fallback.
"""
from ..errors import InputError
from .base import FieldSpec, Metric, Plan
from .fbeta import FBETA
from .kappa import KAPPA
from .lwlrap import LWLRAP
from .accuracy import ACCURACY
from .auc import AUC
from .f1 import F1_SCORE
from .logloss import LOGLOSS
from .mae import MAE
from .mapk import MAPK
from .mcrmse import MCRMSE
from .rmse import RMSE
from .rmsle import RMSLE

_DETECTION_ORDER = (FBETA, LWLRAP, KAPPA)
REGISTRY = {m.name: m for m in (KAPPA, LWLRAP, FBETA, AUC, LOGLOSS, ACCURACY, F1_SCORE, MAPK,
                                RMSE, RMSLE, MAE, MCRMSE)}
METRIC_NAMES = tuple(REGISTRY)


def get_metric(name):
    try:
        return REGISTRY[name]
    except KeyError:
        raise InputError(f"unknown metric {name!r}; allowed: {', '.join(METRIC_NAMES)}") from None


def choose_metric(sub_targets, chosen=None):
    """(metric, reason): the user's choice, else the first whose layout fits."""
    if chosen:
        return get_metric(chosen), f"metric {chosen} chosen by the user"
    for m in _DETECTION_ORDER:
        reason = m.detect(sub_targets)
        if reason:
            return m, reason
    raise InputError("no metric fits this submission's columns")


__all__ = ["REGISTRY", "METRIC_NAMES", "get_metric", "choose_metric", "Metric", "Plan", "FieldSpec"]
