"""The metric core: numpy only (no pandas, no Qt, no I/O).

Names are imported from their modules on first use (PEP 562): `kmetric score`
on a kappa file never loads the F-beta, bootstrap or attribution code.
"""
import importlib

# Modules named like one of their functions load now, so the function wins.
from .lwlrap import LwlrapResult, lwlrap, sample_ranking  # noqa: E402
from .mapk import MapkResult, mapk  # noqa: E402
from .shakeup import Shakeup, shakeup  # noqa: E402

_WHERE = {
    "FixList": "attribution",
    "kappa_fix_first": "attribution",
    "kappa_gain_map": "attribution",
    "fbeta_doc_gains": "gains_fbeta",
    "fbeta_fix_first": "gains_fbeta",
    "lwlrap_class_gains": "gains_lwlrap",
    "lwlrap_fix_first": "gains_lwlrap",
    "sample_gains": "gains_lwlrap",
    "Coded": "fbeta",
    "coded_fbeta": "fbeta",
    "DocumentMatch": "fbeta",
    "FbetaResult": "fbeta",
    "document_matrices": "fbeta",
    "jaccard": "fbeta",
    "jaccard_fbeta": "fbeta",
    "shared_tokens": "fbeta",
    "split_cell": "cells",
    "Interval": "intervals",
    "bca_interval": "intervals",
    "percentile_interval": "intervals",
    "KappaAccumulator": "kappa",
    "KappaResult": "kappa",
    "kappa_from_confusion": "kappa",
    "weight_matrix": "kappa",
    "weighted_kappa": "kappa",
    "Units": "resample",
    "bootstrap": "resample",
    "CutResult": "thresholds",
    "apply_cuts": "thresholds",
    "is_continuous": "thresholds",
    "optimize_cuts": "thresholds",
    "rounding_cuts": "thresholds",
    "fbeta_units": "units",
    "kappa_units": "units",
    "lwlrap_units": "units",
    # the common Kaggle families (docs/metric-families.md)
    "AucResult": "ranking",
    "roc_auc": "ranking",
    "auc_bootstrap": "ranking_boot",
    "delong": "ranking",
    "LogLossResult": "probabilistic",
    "log_loss": "probabilistic",
    "accuracy": "classification",
    "f1": "classification",
    "rmse": "regression",
    "rmsle": "regression",
    "mae": "regression",
    "mcrmse": "regression",
}



def __getattr__(name):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_WHERE))


__all__ = [
    "weighted_kappa", "kappa_from_confusion", "KappaResult", "KappaAccumulator",
    "weight_matrix", "lwlrap", "LwlrapResult", "sample_ranking",
    "jaccard_fbeta", "split_cell", "FbetaResult", "document_matrices", "DocumentMatch",
    "jaccard", "shared_tokens", "optimize_cuts", "apply_cuts", "rounding_cuts", "CutResult",
    "is_continuous",
    # statistics (STATS.md): per-unit sums, bootstrap, intervals, shake-up
    "Units", "bootstrap", "Interval", "percentile_interval", "bca_interval", "Shakeup", "shakeup",
    "kappa_units", "lwlrap_units", "fbeta_units",
    # what moves the score: exact gains of fixes, greedy fix-first lists
    "FixList", "kappa_gain_map", "kappa_fix_first", "sample_gains", "lwlrap_class_gains",
    "lwlrap_fix_first", "fbeta_doc_gains", "fbeta_fix_first",
    # the common families
    "roc_auc", "AucResult", "auc_bootstrap", "delong", "log_loss", "LogLossResult", "accuracy",
    "f1", "mapk", "MapkResult", "rmse", "rmsle", "mae", "mcrmse",
]
