"""The metric core: numpy only (no pandas, no Qt, no I/O)."""
from .attribution import FixList, kappa_fix_first, kappa_gain_map
from .gains_fbeta import fbeta_doc_gains, fbeta_fix_first
from .gains_lwlrap import lwlrap_class_gains, lwlrap_fix_first, sample_gains
from .fbeta import (DocumentMatch, FbetaResult, document_matrices, jaccard,
                    jaccard_fbeta, shared_tokens, split_cell)
from .intervals import Interval, bca_interval, percentile_interval
from .kappa import (KappaAccumulator, KappaResult, kappa_from_confusion,
                    weight_matrix, weighted_kappa)
from .lwlrap import LwlrapResult, lwlrap, sample_ranking
from .resample import Units, bootstrap
from .shakeup import Shakeup, shakeup
from .thresholds import (CutResult, apply_cuts, is_continuous, optimize_cuts,
                         rounding_cuts)
from .units import fbeta_units, kappa_units, lwlrap_units

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
]
