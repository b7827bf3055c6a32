"""The metric registry: one module per metric, one line each here.

Detection asks the metrics in order, most specific layout first; the last
one (kappa: a single target column) is the fallback.
"""
from .. import chooser as _chooser
from ..errors import InputError
from .base import FieldSpec, Metric, Plan
from .detect import AmbiguousMetric, Fit, Sample, choose
from .fbeta import FBETA
from .kappa import KAPPA
from .lwlrap import LWLRAP
from .accuracy import ACCURACY
from .auc import AUC
from .error_rate import ERROR_RATE
from .f1 import F1_SCORE
from .logloss import LOGLOSS
from .mae import MAE
from .mapk import MAPK
from .mcrmse import MCRMSE
from .rmse import RMSE
from .rmsle import RMSLE
from .angular import ANGULAR
from .jaccard_words import JACCARD_WORDS
from .kendall import KENDALL
from .kl_divergence import KL_DIVERGENCE
from .laplace_ll import LAPLACE_LL
from .levenshtein import LEVENSHTEIN
from .mape import MAPE
from .mcc import MCC
from .ndcg import NDCG
from .pearson import PEARSON
from .smape import SMAPE
from .spearman import SPEARMAN

_DETECTION_ORDER = [FBETA, LWLRAP, KAPPA]
REGISTRY = {m.name: m for m in (KAPPA, LWLRAP, FBETA)}
METRIC_NAMES = tuple(REGISTRY)
_CHANGES = [0]             # registrations so far: caches of the registry's options key on it


def registry_version():
    return _CHANGES[0]


def register(metric, *, detect_before=None):
    """Add a metric module (one line per metric). Its ``detect`` is asked before the
    metric named ``detect_before`` (default: before the single-column fallback, kappa,
    the last one). Registering a name again replaces it. Returns the metric."""
    global METRIC_NAMES
    if not metric.name or not isinstance(metric, Metric):
        raise ValueError("register() takes a Metric instance with a name")
    if metric.higher_is_better not in (True, False):
        raise ValueError(f"metric {metric.name} must say its direction (higher_is_better "
                         "True or False)")
    from .schema import clashes
    others = [m for m in REGISTRY.values() if m.name != metric.name]
    names = [o.name for o in metric.options]
    if len(set(names)) != len(names):
        raise ValueError(f"metric {metric.name} declares an option twice")
    for o in () if metric.foreign else metric.options:
        why = clashes(o, metric.name, others)
        if why:
            raise ValueError(why)
    unregister(metric.name)
    _CHANGES[0] += 1
    REGISTRY[metric.name] = metric
    METRIC_NAMES = tuple(REGISTRY)
    names = [m.name for m in _DETECTION_ORDER]
    at = names.index(detect_before) if detect_before in names else len(names) - 1
    _DETECTION_ORDER.insert(max(at, 0), metric)
    return metric


def unregister(name):
    """Remove a registered metric (tests that register their own)."""
    global METRIC_NAMES
    if REGISTRY.pop(name, None) is not None:
        _CHANGES[0] += 1
        METRIC_NAMES = tuple(REGISTRY)
        _DETECTION_ORDER[:] = [m for m in _DETECTION_ORDER if m.name != name]


def get_metric(name):
    try:
        return REGISTRY[name]
    except KeyError:
        raise InputError(f"unknown metric {name!r}; allowed: {', '.join(REGISTRY)}") from None


def choose_metric(sub_targets, chosen=None, sample=None):
    """(metric, reason): the user's choice, else the first metric clearly fitting the
    layout, else the only one fitting; AmbiguousMetric (an InputError listing them) when
    several fit and none clearly (metrics/detect.py). ``sample``: the columns' values."""
    if isinstance(sample, tuple):
        sample = Sample(*sample)
    return choose(_DETECTION_ORDER, sub_targets, chosen, sample, get_metric)


for _m in (AUC, LOGLOSS, ACCURACY, F1_SCORE, MAPK, RMSE, RMSLE, MAE, MCRMSE, ERROR_RATE):
    register(_m)            # asked before kappa, the single-column fallback
for _m in (PEARSON, SPEARMAN, KENDALL, MCC, SMAPE, MAPE, NDCG, LEVENSHTEIN, JACCARD_WORDS,
           KL_DIVERGENCE, LAPLACE_LL, ANGULAR):
    register(_m)            # issue 35's families: their fits are never clear (the user is asked)

from .dice import DICE  # noqa: E402 (masks and boxes, issue 38: the image is the unit)
from .iou import IOU  # noqa: E402
from .iou_precision import IOU_PRECISION  # noqa: E402
from .fbeta_iou import FBETA_IOU  # noqa: E402
from .pixel_fbeta import PIXEL_FBETA  # noqa: E402
from .map_iou import MAP_IOU  # noqa: E402
from .point_f1 import POINT_F1  # noqa: E402
for _m in (DICE, IOU, IOU_PRECISION, FBETA_IOU, PIXEL_FBETA):
    register(_m, detect_before="mapk")    # run-length masks: asked which, before MAP@K's items
for _m in (MAP_IOU, POINT_F1):
    register(_m, detect_before="fbeta")   # box strings: before the PredictionString seed

_chooser.provide(choose_metric)


__all__ = ["REGISTRY", "METRIC_NAMES", "registry_version", "get_metric", "choose_metric",
           "register", "unregister",
           "AmbiguousMetric", "Fit", "Sample",
           "Metric", "Plan", "FieldSpec"]

from .._calls import make_callable  # noqa: E402 (km.metrics() is the Python API's, _calls.py)
make_callable(__name__, "kmetric_gui.api.scoring", "metrics")
