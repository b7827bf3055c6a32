"""Error rate: the share of rows whose predicted label is wrong, 1 - accuracy. Lower is
better (the leaderboards that rank by it sort ascending); layouts and variants as
accuracy's (metrics/_labels.py)."""
from dataclasses import dataclass

import numpy as np

from .accuracy import ACCURACY, Accuracy, share


@dataclass(frozen=True)
class ErrorRateResult:
    """1 - accuracy, with accuracy's counts (``base``) for the views."""
    base: object
    higher_is_better: bool = False

    @property
    def score(self):
        return 1.0 - self.base.score

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(object.__getattribute__(self, "base"), name)

    def units(self):
        from ..core.resample import Units
        u = self.base.units()
        return Units(None, lambda counts: 1.0 - u.score(counts), u.cells, "row")


class ErrorRate(Accuracy):
    name = "error_rate"
    label = "Error rate"
    higher_is_better = False
    demo_label = "error rate (labels)"

    def demo_paths(self):
        return ACCURACY.demo_paths()        # accuracy's demo: the same labels

    def reference(self, prep, options, rows=None):
        from ._references import accuracy_reference
        return 1.0 - accuracy_reference(prep, options, rows)

    def kernel(self, truth, pred, options):
        return ErrorRateResult(super().kernel(truth, pred, options))

    def row_stats(self, result):
        miss = (~result.row_hits).astype(np.float64)
        return np.column_stack([miss, np.ones_like(miss)]), share

    def variant_sums(self, base, w, g, size):
        from .variants import mean_sums
        return mean_sums(~base.row_hits, w, g, size), share

    def json_fields(self, report):
        r = report.result
        return {**super().json_fields(report), "errors": int(r.n - r.hits)}


ERROR_RATE = ErrorRate()
