"""NDCG@K: id + one column of space-separated items in both files (MAP@K's layout and its
``k``): the solution's items are a query's relevant ones (gain 1 each), the submission's
its ranking; only the first K count. A query with nothing relevant scores 0 and still
counts (scikit-learn's ndcg_score does the same); an empty prediction cell is refused,
as for MAP@K. Higher is better, 0 to 1 (metrics/kernels/ndcg.py)."""
import math

import numpy as np

from ._means import MeanMetric
from .base import take
from .mapk import MAPK


class Ndcg(MeanMetric):
    name = "ndcg"
    variants = ("weights_column", "mask_column", "group_by", "group_transform")   # no rounding
    label = "NDCG@K"
    unit = "query"
    fix_words = "the query's relevant items put first"
    higher_is_better = True
    demo_label = "NDCG@5 (ranked items)"
    options = MAPK.options          # the same k: predictions counted per query

    def fit(self, sub_targets, sample=None):
        from ._family import fit_reason, one_column
        found = one_column(sub_targets, sample)
        if found is None or found[1].kind != "text" or found[2].kind != "text":
            return None
        return fit_reason(self, sample, f"text in '{found[0]}' (ranked items)")

    def build(self, ctx):
        from ._item_lists import item_lists
        return item_lists(self, ctx, need="at least one item a query")

    def kernel(self, truth, pred, options):
        from ._family import opt
        from .kernels.ndcg import ndcg
        return ndcg(truth, pred, k=opt(options, self, "k"))

    def reference(self, prep, options, rows=None):
        """The definition, query by query."""
        from ._family import opt
        k = opt(options, self, "k")
        total, n = 0.0, 0
        for act, pred in zip(take(prep.truth, rows), take(prep.pred, rows)):
            relevant, seen, dcg = set(act), set(), 0.0
            for i, item in enumerate(list(pred)[:k]):
                if item in relevant and item not in seen:
                    dcg += 1 / math.log2(i + 2)
                seen.add(item)
            ideal = sum(1 / math.log2(i + 2) for i in range(min(len(relevant), k)))
            total += dcg / ideal if ideal else 0.0
            n += 1
        return total / n if n else float("nan")

    def fixed_prediction(self, truth, pred, rows=None):
        """Item lists with ``rows`` (None: all) ranking the relevant items first."""
        out = [list(p) for p in pred]
        for i in (range(len(out)) if rows is None else np.asarray(rows, np.int64).tolist()):
            out[i] = list(truth[i])
        return out

    def fixed_value(self, result):
        return np.where(result.detail["relevant"] > 0, 1.0, 0.0)   # the relevant items first

    def fix_details(self, report, units, sol_rows):
        d = report.result.detail
        return [f"NDCG {v:.3g}: {int(h)} of {int(r)} relevant item(s) in the first "
                f"{d['k']}" for v, h, r in zip(report.result.values[units].tolist(),
                                               d["hits"][units], d["relevant"][units])]

    def json_fields(self, report):
        d = report.result.detail
        return {**super(MeanMetric, self).json_fields(report), "k": d["k"],
                "queries_with_hits": int(np.count_nonzero(d["hits"]))}

    def submission_rows(self, prep):
        return MAPK.submission_rows(prep)


NDCG = Ndcg()
