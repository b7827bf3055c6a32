"""What the per-row mean metrics share (smape, mape, angular, laplace_ll, kl_divergence,
levenshtein, jaccard_words, ndcg): the score is the mean of one number a row (or a
ratio of two sums), so its statistics, compare, fix first and the generic view's costs
are sums of those numbers (metrics/kernels/means.py). A subclass gives ``kernel``, the
layout (``build``, ``fit``), its ``reference`` and ``fixed_value`` (a row's number once
its prediction is right); blends, where they differ and fix first come from the
contract's family analyses (metrics/family_analyses.py).
"""
import numpy as np

from ._family import FamilyMetric


class MeanEdits:
    """Edits of a mean of one number a row (metrics/_edits.py): the sum of the values
    loses the edited rows' old values and gains their new ones; the counts of the
    result's ``detail`` follow (SMAPE and MAPE take it too, on the regression layout)."""
    edit_constants = ("kind", "higher_is_better")
    edit_detail = True
    edit_largest = 1e12          # MAPE's rows of truth 0 (|F| / eps): scored again

    def edit_state(self, result):
        """(sum of values, rows) from the mean, in O(1); a ratio of sums from its rows."""
        from .kernels.means import MeanResult
        if not isinstance(result, MeanResult):
            return None
        if result.denominators is None and result.n and np.isfinite(result.score):
            return [result.score * result.n, result.n]
        return FamilyMetric.edit_state(self, result)

    def edit_fields(self, result, sums):
        return {}


class MeanMetric(MeanEdits, FamilyMetric):
    demo_detected = False        # these layouts overlap others': the app chooses

    def units(self, result):
        return result.units(self.unit)

    def row_stats(self, result):
        u = result.units(self.unit)
        return u.stats, u.score

    view = "values"              # each row's value and the rows furthest from their best

    def fixed_value(self, result):
        """(n,) or a number: each row's value once fixed (the view's distance to the best)."""
        raise NotImplementedError

    def json_fields(self, report):
        out = super().json_fields(report)
        for k, v in report.result.detail.items():
            if isinstance(v, np.ndarray):
                continue                              # per-row arrays stay out of the JSON
            out[k] = v.item() if hasattr(v, "item") else v
        return out
