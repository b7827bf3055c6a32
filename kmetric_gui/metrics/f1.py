"""F1 score: binary (of --pos-label), macro, micro or weighted over the labels.

Classes are the sorted union of the solution's labels (a submission label the
solution lacks is refused when reading, see metrics/_labels.py). Zero
division (binary, the positive label nowhere) scores 0.0 as scikit-learn does.
"""
import numpy as np

from ._family import FamilyMetric, Option, opt
from ._labels import build_labels


class F1(FamilyMetric):
    name = "f1"
    label = "F1 score"
    view = "confusion"             # the app's anatomy view (gui/views VIEW_KINDS)
    demo_label = "F1 (binary)"          # contract: the app's demo menu
    demo_detected = False   # contract: the app chooses the metric for its demo (layouts overlap)

    def reference(self, prep, options, rows=None):
        from ._references import f1_reference
        return f1_reference(prep, options, rows)
    options = (
        Option("average", str, "binary", ("binary", "macro", "micro", "weighted"),
               "f1: binary (of the positive label), or macro, micro, weighted over the classes; "
               "auc multi-class: macro"),
        Option("pos_label", str, "1", help="f1 binary: the positive label (default 1)"),
        Option("multi_label", bool, False, help="f1: each cell holds space-separated labels "
               "(several a row); TP, FP, FN count (row, label) pairs (scikit-learn's "
               "multi-label F1)", label="Multi-label (space-separated)"),
    )

    fix_words = "label set to the truth"

    no_blend = "the predictions are labels, and a weighted mean of two labels is no label"

    def blend_values(self, a, b, alpha):
        return None             # labels (0/1 labels are numbers, but not scores)

    def fit(self, sub_targets, sample=None):
        from ._family import label_fit
        return label_fit(self, sub_targets, sample)

    def build(self, ctx):
        if opt(ctx.options, self, "multi_label"):
            return self._build_sets(ctx)
        return build_labels(self, ctx)

    def _build_sets(self, ctx):
        """id + one column of space-separated labels in both files (a set per row)."""
        from ..io.prepare import Prepared
        from ._layouts import Sides, single_target
        from .kernels.multilabel import split_labels
        s = Sides(ctx)
        name = single_target(s)
        s.stop_if_any()
        truth = split_labels(s.texts(ctx.sol, name))
        pred = split_labels(s.texts(ctx.sub, name))
        return Prepared(self.name, ctx.reason, ctx.id_col, [name], s.sol_ids_arr, truth,
                        [pred[i] for i in s.al.sub_index.tolist()], ctx.usage,
                        layout=f"id '{ctx.id_col}' + space-separated labels in '{name}' "
                               "(multi-label)")

    def kernel(self, truth, pred, options):
        if opt(options, self, "multi_label"):
            from .kernels.multilabel import multilabel_f1
            return multilabel_f1(truth, pred, average=opt(options, self, "average"),
                                 pos_label=opt(options, self, "pos_label"))
        from .kernels.classification import f1
        return f1(truth, pred, average=opt(options, self, "average"),
                  pos_label=opt(options, self, "pos_label"))

    def fixed_prediction(self, truth, pred, rows=None):
        if isinstance(pred, list):          # label sets: the truth's set
            out = list(pred)
            for i in (range(len(out)) if rows is None else np.asarray(rows, np.int64).tolist()):
                out[i] = truth[i]
            return out
        return super().fixed_prediction(truth, pred, rows)

    def submission_rows(self, prep):
        if isinstance(prep.pred, list):
            return [prep.id_column, prep.target_columns[0]], \
                zip(prep.ids, (" ".join(p) for p in prep.pred))
        return super().submission_rows(prep)

    def row_stats(self, result):
        """Per row, TP/FP/FN of every class (3K columns)."""
        if hasattr(result, "score_of_sums"):          # multi-label: (row, label) pairs
            return result.row_stats(), result.score_of_sums
        t, p = result.truth_codes, result.pred_codes
        k = result.labels.size
        n = t.size
        stats = np.zeros((n, 3 * k))
        hit = t == p
        rows = np.arange(n)
        stats[rows[hit], 3 * t[hit]] = 1
        stats[rows[~hit], 3 * p[~hit] + 1] = 1
        stats[rows[~hit], 3 * t[~hit] + 2] = 1
        return stats, _counts_score(result.average, result.pos_index)

    def variant_sums(self, base, w, g, size):
        """TP, FP, FN of every class (the row statistics' layout) from the weighted confusion
        counts: one bincount of (group, truth, prediction) cells."""
        if hasattr(base, "score_of_sums"):
            return None
        t, p = base.truth_codes, base.pred_codes
        k = base.labels.size
        key = t * k + p
        if g is not None:
            key = key + g.astype(np.int64) * (k * k)
        cells = np.bincount(key, weights=w, minlength=max(size if g is not None else 1, 1) * k * k)
        conf = cells.reshape(-1, k, k)
        tp = np.diagonal(conf, axis1=1, axis2=2)
        fp = conf.sum(axis=1) - tp
        fn = conf.sum(axis=2) - tp
        sums = np.stack([tp, fp, fn], axis=2).reshape(conf.shape[0], 3 * k)
        return (sums[0] if g is None else sums), _counts_score(base.average, base.pos_index)

    def edit_split(self, options, result, edit):
        """An edit moves counts between cells of the confusion matrix (K x K work); the
        classes must stay those of the result (else its labels, hence the average, change)."""
        from .kernels.classification import f1_from_confusion
        from ._edits import LazyInputs, Unfit
        labels = result.labels
        obs = np.array(result.confusion, dtype=np.int64)
        for (t, p), sign in ((edit.before, -1), (edit.after, 1)):
            np.add.at(obs, (_codes(labels, t), _codes(labels, p)), sign)
        if ((obs.sum(axis=0) + obs.sum(axis=1)) == 0).any():
            raise Unfit("a class is no longer used")
        return f1_from_confusion(labels, obs, result.average, opt(options, self, "pos_label"),
                                 LazyInputs(edit.new, edit.name))

    def json_fields(self, report):
        r = report.result
        out = {**super().json_fields(report), "average": r.average,
               "labels": [str(x) for x in r.labels.tolist()],
               "tp": r.tp.tolist(), "fp": r.fp.tolist(), "fn": r.fn.tolist(),
               "per_class": r.per_class.tolist()}
        if r.note:
            out["note"] = r.note
        return out

    def summary_lines(self, report):
        r = report.result
        extra = [f"{r.average} average over {r.labels.size} label(s)"]
        return super().summary_lines(report) + extra + ([r.note] if r.note else [])


def _codes(labels, values):
    """Indices of values among sorted labels; Unfit for a value not among them."""
    from ._edits import Unfit
    v = np.asarray(values)
    if (labels.dtype.kind in "biuf") != (v.dtype.kind in "biuf"):
        raise Unfit("labels of another kind")
    at = np.minimum(np.searchsorted(labels, v), labels.size - 1)
    if not np.array_equal(labels[at], v):
        raise Unfit("a label the result does not hold")
    return at


F1_SCORE = F1()


def _counts_score(average, pos_index):
    """F1 of summed per-class TP, FP, FN (R, 3K) -> (R,), nan where no row counts."""
    from .kernels.classification import f1_from_counts

    def score(sums):
        sums = np.asarray(sums, dtype=np.float64)
        tp, fp, fn = sums[:, 0::3], sums[:, 1::3], sums[:, 2::3]
        out = f1_from_counts(tp, fp, fn, tp + fn, average, pos_index)
        out[sums.sum(axis=1) == 0] = np.nan
        return out
    return score
