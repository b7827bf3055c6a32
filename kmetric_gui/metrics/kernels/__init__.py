"""Each metric's numeric kernels: numpy only (no pandas, no Qt, no I/O), like core.

A metric's module (``kmetric_gui.metrics.<name>``) scores with these; the
metric-agnostic statistics they feed (intervals, shake-up, compare) are in
``kmetric_gui.core``. Names are imported from their modules on first use
(PEP 562): `kmetric score` on a kappa file never loads the F-beta code.
"""
from ...core._lazy import lazy_names

# Modules named like one of their functions load now, so the function wins.
from .lwlrap import LwlrapResult, lwlrap, sample_ranking  # noqa: E402
from .mapk import MapkResult, mapk  # noqa: E402

_WHERE = {
    "kappa_fix_first": "kappa_fixes",
    "kappa_gain_map": "kappa_fixes",
    "fbeta_doc_gains": "fbeta_gains",
    "fbeta_fix_first": "fbeta_gains",
    "lwlrap_class_gains": "lwlrap_gains",
    "lwlrap_fix_first": "lwlrap_gains",
    "sample_gains": "lwlrap_gains",
    "Coded": "fbeta",
    "coded_fbeta": "fbeta",
    "DocumentMatch": "fbeta",
    "FbetaResult": "fbeta",
    "document_matrices": "fbeta",
    "jaccard": "fbeta",
    "jaccard_fbeta": "fbeta",
    "shared_tokens": "fbeta",
    "split_cell": "fbeta",
    "KappaAccumulator": "kappa",
    "KappaResult": "kappa",
    "kappa_from_confusion": "kappa",
    "weight_matrix": "kappa",
    "weighted_kappa": "kappa",
    "CutResult": "kappa_cuts",
    "apply_cuts": "kappa_cuts",
    "is_continuous": "kappa_cuts",
    "optimize_cuts": "kappa_cuts",
    "rounding_cuts": "kappa_cuts",
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


__getattr__, __dir__ = lazy_names(globals(), _WHERE)


__all__ = [
    "AucResult", "Coded", "CutResult", "DocumentMatch", "FbetaResult", "KappaAccumulator",
    "KappaResult", "LogLossResult", "LwlrapResult", "MapkResult", "accuracy", "apply_cuts",
    "auc_bootstrap", "coded_fbeta", "delong", "document_matrices", "f1", "fbeta_doc_gains",
    "fbeta_fix_first", "fbeta_units", "is_continuous", "jaccard", "jaccard_fbeta",
    "kappa_fix_first", "kappa_from_confusion", "kappa_gain_map", "kappa_units", "log_loss",
    "lwlrap", "lwlrap_class_gains", "lwlrap_fix_first", "lwlrap_units", "mae", "mapk",
    "mcrmse", "optimize_cuts", "rmse", "rmsle", "roc_auc", "rounding_cuts", "sample_gains",
    "sample_ranking", "shared_tokens", "split_cell", "weight_matrix", "weighted_kappa",
]
