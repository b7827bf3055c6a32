"""MAP@K: id + one column of space-separated items in both files (Kaggle's apk/mapk).

The solution holds each query's relevant items, the submission its ranked
predictions; only the first K count. An empty prediction cell is refused
(Kaggle's scorers read it as a missing value); an empty solution cell is a
query with nothing relevant (AP 0, still counted).
"""
import numpy as np

from ._family import FamilyMetric, Option, opt
from .base import take


class MapK(FamilyMetric):
    name = "mapk"
    label = "MAP@K"
    view = "ranking"             # the app's anatomy view (gui/views VIEW_KINDS)
    demo_label = "MAP@5 (items)"          # contract: the app's demo menu
    demo_detected = False   # contract: the app chooses the metric for its demo (layouts overlap)

    def reference(self, prep, options, rows=None):
        from ._references import mapk_reference
        return mapk_reference(prep, options, rows)
    unit = "query"
    variants = ("weights_column", "mask_column", "group_by", "group_transform")   # lists: no rounding
    options = (
        Option("k", int, 5, help="mapk: predictions counted per query (default 5)",
               minimum=1, maximum=10 ** 6),
    )

    def variant_sums(self, base, w, g, size):
        """[(weighted) AP, weight] in one pass."""
        from ..core.additive import mean_units
        from .variants import mean_sums
        return mean_sums(base.ap, w, g, size), mean_units(np.zeros(1)).score

    fix_words = "the true items put first"
    no_blend = "the predictions are ranked lists of items, not numbers to average"

    def fixed_prediction(self, truth, pred, rows=None):
        """The query's relevant items first (a query with none keeps its predictions)."""
        out = list(pred)
        for i in (range(len(out)) if rows is None else np.asarray(rows, np.int64).tolist()):
            if len(truth[i]):
                out[i] = list(truth[i])
        return out

    def fix_details(self, report, units, sol_rows):
        prep, k = report.prepared, report.result.k
        return [f"relevant {' '.join(map(str, t[:5]))}{' …' if len(t) > 5 else ''}; "
                f"predicted {' '.join(map(str, p[:k]))}"
                for t, p in zip(take(prep.truth, sol_rows), take(prep.pred, sol_rows))]

    def fit(self, sub_targets, sample=None):
        from ._family import fit_reason, one_column
        found = one_column(sub_targets, sample)
        if found is None or found[1].kind != "text" or found[2].kind != "text":
            return None
        import pyarrow.compute as pc
        preds = sample.sub.column(found[0]).slice(0, sample.rows).cast("string")
        from ._image_layouts import rle_fit
        if rle_fit(sub_targets, sample):   # pairs of numbers, runs apart: masks may fit too
            return fit_reason(self, sample, f"space-separated numbers in '{found[0]}' (items)")
        if bool(pc.any(pc.match_substring(pc.utf8_trim_whitespace(preds), " ")).as_py()):
            from .detect import Fit        # several space-separated items a row: a ranking
            return Fit(f"space-separated items in '{found[0]}' ({self.label})")
        return fit_reason(self, sample, f"text in '{found[0]}' (items)")

    def build(self, ctx):
        from ._item_lists import item_lists
        return item_lists(self, ctx, need="at least one item (MAP@K ranks a query's items)")

    def kernel(self, truth, pred, options):
        from .kernels.mapk import mapk
        return mapk(truth, pred, k=opt(options, self, "k"))

    edit_constants = ("k",)

    def edit_state(self, result):
        return [result.score * result.n, result.n]      # mean_units: (AP, count) sums

    def json_fields(self, report):
        r = report.result
        return {**super().json_fields(report), "k": r.k, "queries_with_hits":
                int(np.count_nonzero(r.hits))}

    def submission_rows(self, prep):
        return [prep.id_column, prep.target_columns[0]], zip(prep.ids, (" ".join(p) for p in prep.pred))


MAPK = MapK()
