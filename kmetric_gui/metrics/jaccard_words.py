"""Word-level Jaccard, as the Tweet Sentiment Extraction competition scores it: per row
|A & B| / |A | B| of the sets of lower-cased, whitespace-separated words of the true and
the predicted text; the mean over rows. Higher is better, 0 to 1.

Layout: id + one text column in both files. A solution text without words is refused
(the competition's formula divides by zero there); an empty prediction scores 0."""

from ._means import MeanMetric
from .base import take


class JaccardWords(MeanMetric):
    name = "jaccard_words"
    variants = ("weights_column", "mask_column", "group_by", "group_transform")   # no rounding
    label = "Word Jaccard"
    higher_is_better = True
    fix_words = "predicted text set to the true one"
    demo_label = "word Jaccard (Tweet Sentiment)"

    def fit(self, sub_targets, sample=None):
        from ._family import fit_reason, one_column
        found = one_column(sub_targets, sample)
        if found is None or found[1].kind != "text" or found[2].kind != "text":
            return None
        return fit_reason(self, sample, f"text in '{found[0]}' (words)")

    def build(self, ctx):
        from ._text import build_texts
        return build_texts(self, ctx, empty_truth_ok=False)

    def kernel(self, truth, pred, options):
        from .kernels.text import jaccard_words
        return jaccard_words(truth, pred)

    def reference(self, prep, options, rows=None):
        """The competition's own formula, row by row."""
        out = []
        for s1, s2 in zip(take(prep.truth, rows), take(prep.pred, rows)):
            a, b = set(s1.lower().split()), set(s2.lower().split())
            c = a.intersection(b)
            out.append(float(len(c)) / (len(a) + len(b) - len(c)))
        return sum(out) / len(out) if out else float("nan")

    def fixed_value(self, result):
        return 1.0

    def fix_details(self, report, units, sol_rows):
        prep = report.prepared
        v = report.result.values
        return [f"Jaccard {j:.3g}: truth {t[:40]!r}, predicted {p[:40]!r}"
                for j, t, p in zip(v[units].tolist(), prep.truth[sol_rows], prep.pred[sol_rows])]

    def summary_lines(self, report):
        d = report.result.detail
        return super().summary_lines(report) + [
            f"{d['exact']:,} row(s) with every word right, {d['empty']:,} with none"]

    def submission_rows(self, prep):
        return [prep.id_column, prep.target_columns[0]], zip(prep.ids, prep.pred.tolist())


JACCARD_WORDS = JaccardWords()
