"""Mean Levenshtein (edit) distance between true and predicted texts; lower is better.
``--normalize``: ``none`` (the mean distance, e.g. Bengali.AI / text normalisation
style), ``row`` (each distance over the longer of the two texts, then the mean: 0 to
1), ``total`` (all distances over all truth characters: the character error rate; the
ASL Fingerspelling competition scores 1 minus it).

Layout: id + one text column in both files; empty cells are empty texts."""

from ._family import Option, opt
from ._means import MeanMetric
from .base import take


class Levenshtein(MeanMetric):
    name = "levenshtein"
    variants = ("weights_column", "mask_column", "group_by", "group_transform")   # no rounding
    label = "Levenshtein"
    higher_is_better = False
    fix_words = "predicted text set to the true one"
    demo_label = "Levenshtein distance (text)"
    options = (
        Option("normalize", str, "none", ("none", "row", "total"),
               "levenshtein: none (mean distance), row (each over the longer text), total "
               "(all distances over all truth characters)",
               label="Scale", choice_labels=("none", "per text", "per character")),
    )

    def fit(self, sub_targets, sample=None):
        from ._family import fit_reason, one_column
        found = one_column(sub_targets, sample)
        if found is None or found[1].kind != "text" or found[2].kind != "text":
            return None
        return fit_reason(self, sample, f"text in '{found[0]}'")

    def build(self, ctx):
        from ._text import build_texts
        return build_texts(self, ctx, empty_truth_ok=True)

    def kernel(self, truth, pred, options):
        from .kernels.text import levenshtein
        return levenshtein(truth, pred, opt(options, self, "normalize"))

    def reference(self, prep, options, rows=None):
        """The edit-distance table, filled cell by cell (Wagner-Fischer)."""
        how = opt(options, self, "normalize")
        dist, lens, norm = [], [], []
        for a, b in zip(take(prep.truth, rows), take(prep.pred, rows)):
            prev = list(range(len(b) + 1))
            for i, ca in enumerate(a, 1):
                cur = [i]
                for j, cb in enumerate(b, 1):
                    cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
                prev = cur
            dist.append(prev[-1])
            lens.append(len(a))
            norm.append(prev[-1] / max(len(a), len(b)) if max(len(a), len(b)) else 0.0)
        if not dist:
            return float("nan")
        if how == "total":
            return sum(dist) / sum(lens) if sum(lens) else float("nan")
        return sum(norm if how == "row" else dist) / len(dist)

    def fixed_value(self, result):
        return 0.0

    def fix_details(self, report, units, sol_rows):
        prep = report.prepared
        d = report.result.detail["distances"]
        return [f"{int(k)} edit(s): truth {_clip(t)!r}, predicted {_clip(p)!r}"
                for k, t, p in zip(d[units].tolist(), prep.truth[sol_rows], prep.pred[sol_rows])]

    def summary_lines(self, report):
        r = report.result
        how = r.detail["normalize"]
        words = {"none": "mean edit distance in characters",
                 "row": "mean of each distance over the longer text",
                 "total": "total distance over total truth characters (character error rate)"}
        return super().summary_lines(report) + [words[how]]

    def submission_rows(self, prep):
        return [prep.id_column, prep.target_columns[0]], zip(prep.ids, prep.pred.tolist())


def _clip(s, n=40):
    return s if len(s) <= n else s[:n - 1] + "…"


LEVENSHTEIN = Levenshtein()
