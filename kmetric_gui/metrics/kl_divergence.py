"""KL divergence (Kaggle's HMS Harmful Brain Activity form): the solution's columns are
vote fractions (each row sums to 1), the submission's predicted probabilities (each row
sums to 1); predictions clipped to [eps, 1 - eps], a class whose truth is 0 counts 0.
Micro average (default): the mean over rows of each row's sum; otherwise the mean of
each class's mean. Lower is better; 0 for a submission equal to the truth.

Layout: id + the same class columns in both files (metrics/kernels/divergence.py)."""
import numpy as np

from ._family import Option, opt
from ._means import MeanMetric
from .base import split_rows, take


class KlDivergence(MeanMetric):
    name = "kl_divergence"
    label = "KL divergence"
    higher_is_better = False
    fix_words = "probabilities set to the true fractions"
    demo_label = "KL divergence (vote fractions)"
    options = (
        Option("eps", float, 1e-15, help="kl_divergence: predictions are clipped to "
               "[eps, 1 - eps] (Kaggle: 1e-15)", minimum=0.0, maximum=0.49),
        Option("micro_average", bool, True, help="kl_divergence: mean over rows of each row's "
               "sum (true), or the mean of each class's mean (false)"),
    )

    def fit(self, sub_targets, sample=None):
        from ._family import fit_reason
        if sample is None or len(sub_targets) < 2:
            return None
        sols = [sample.sol_column(c) for c in sub_targets]
        subs = [sample.sub_column(c) for c in sub_targets]
        if any(c is None or not c.unit_interval for c in sols + subs):
            return None
        if not (_sums_to_one(sample.sol, sub_targets, sample.rows)
                and sample.rows_sum_to_one(sub_targets, tol=1e-5)):
            return None
        return fit_reason(self, sample, f"{len(sub_targets)} columns of fractions summing to 1 "
                          "in both files")

    def build(self, ctx):
        from ..io.prepare import Prepared
        from ._layouts import Sides, at_rows, matrix
        s = Sides(ctx)
        names = s.same_columns("class")
        if len(names) < 2 and not s.col.problems:
            s.col.add(ctx.sub_name, f"expected two or more class columns; found "
                      f"{', '.join(names) or 'none'}")
        s.stop_if_any()
        truth = matrix(s, ctx.sol, names, ctx.sol_name)
        pred = matrix(s, ctx.sub, names, ctx.sub_name)
        s.stop_if_any()
        for fname, v, ids, what in ((ctx.sol_name, truth, s.sol_ids, "vote fractions"),
                                    (ctx.sub_name, pred, s.sub_ids, "probabilities")):
            for j, c in enumerate(names):
                bad = np.flatnonzero((v[:, j] < 0) | (v[:, j] > 1))
                if bad.size:
                    s.col.add(fname, f"column '{c}': {bad.size} value(s) outside [0, 1]: "
                              f"{at_rows(bad, ids, v[:, j])}", bad)
            sums = v.sum(axis=1)
            off = np.flatnonzero(~np.isclose(sums, 1.0))       # Kaggle's np.allclose
            if off.size:
                hint = " (vote counts? divide each row by its total)" if fname == ctx.sol_name \
                    and (sums[off] > 1.5).all() else ""
                s.col.add(fname, f"{off.size} row(s) of {what} do not sum to 1{hint}: "
                          f"{at_rows(off, ids, sums)}", off)
        s.stop_if_any()
        return Prepared(self.name, ctx.reason, ctx.id_col, names, s.sol_ids_arr, truth,
                        s.align(pred), ctx.usage, classes=list(names),
                        layout=f"id '{ctx.id_col}' + {len(names)} class columns of fractions",
                        cells=_cells())

    def kernel(self, truth, pred, options):
        from .kernels.divergence import kl_divergence
        return kl_divergence(truth, pred, opt(options, self, "eps"),
                             opt(options, self, "micro_average"))

    def reference(self, prep, options, rows=None):
        """Kaggle's definition through scipy.special.rel_entr."""
        from scipy.special import rel_entr
        eps = opt(options, self, "eps")
        t = np.asarray(take(prep.truth, rows), dtype=float)
        p = np.clip(np.asarray(take(prep.pred, rows), dtype=float), eps, 1 - eps)
        terms = rel_entr(t, p)
        if opt(options, self, "micro_average"):
            return float(np.mean(terms.sum(axis=1)))
        return float(np.mean(terms.mean(axis=0)))

    def edit_cells(self, version, cells):
        """Each row of fractions sums to 1 (the load checks it, as Kaggle's does), so an
        edit keeps the typed values and rescales the row's other classes in proportion to
        fill the rest (evenly when they are all 0); one step of the history. A row whose
        typed values alone pass 1, or all of whose classes are typed and do not sum to 1,
        is refused."""
        from ..fields import FieldSpec
        out = dict(cells)
        rows = {}
        for (name, unit, part), v in cells.items():
            rows.setdefault((name, unit), {})[part] = float(v)
        k = len(version.base.target_columns)
        for (name, unit), typed in rows.items():
            row = np.array([float(version.value(FieldSpec(name, j), unit)) for j in range(k)])
            if all(row[j] == v for j, v in typed.items()):
                continue                   # nothing typed changes: the row stays as it is
            total = sum(typed.values())
            others = [j for j in range(k) if j not in typed]
            if total > 1 + 1e-9 or not others and not np.isclose(total, 1.0):
                what = "vote fractions" if name == "truth" else "probabilities"
                raise ValueError(f"row {unit + 1}: the {what} typed sum to {total:.6g}; a row "
                                 "of KL divergence sums to 1")
            if not others:
                continue                   # a whole row typed, summing to 1: as typed
            rest, old = max(1.0 - total, 0.0), row[others]
            new = old * (rest / old.sum()) if old.sum() > 0 else np.full(len(others),
                                                                         rest / len(others))
            out.update({(name, unit, j): float(x) for j, x in zip(others, new)})
        return out

    def edit_note(self, report, spec, value):
        return ("Edited; the row's other classes were rescaled in proportion so it still "
                "sums to 1 (one Ctrl+Z undoes the whole row)")

    def fixed_value(self, result):
        from .kernels.divergence import row_divergence
        t = np.asarray(result.detail["truth"])
        out = np.empty(t.shape[0])
        row_divergence(t, t, result.detail["eps"], out)
        return out if result.detail["micro_average"] else out / result.detail["classes"]

    def fix_details(self, report, units, sol_rows):
        prep = report.prepared
        out = []
        for t, p in zip(prep.truth[sol_rows], prep.pred[sol_rows]):
            j = int(np.argmax(t))
            out.append(f"truth {prep.classes[j]} {t[j]:.3g}, predicted {p[j]:.3g} "
                       f"(highest: {prep.classes[int(np.argmax(p))]} {p.max():.3g})")
        return out

    def json_fields(self, report):
        d = report.result.detail
        p = np.asarray(take(report.prepared.pred, split_rows(report.prepared.usage)))
        clipped = int(np.count_nonzero((p < d["eps"]) | (p > 1 - d["eps"])))
        return {**super(MeanMetric, self).json_fields(report), "eps": d["eps"],
                "micro_average": d["micro_average"], "clipped": clipped}


def _cells():
    """Each class's vote fraction beside its predicted probability, both in [0, 1]."""
    from ._cells import Cells, Numbers
    from ._probabilities import PROBABILITY
    return Cells(Numbers(low=0.0, high=1.0, why="is not a vote fraction: fractions lie in [0, 1]"),
                 Numbers(**PROBABILITY), interleave=True)


def _sums_to_one(table, names, rows):
    from ..numbers import column_numbers
    total = None
    for n in names:
        cv = column_numbers(table.column(n).slice(0, rows))
        if cv.bad.size:
            return False
        total = cv.values if total is None else total + cv.values
    return bool(np.all(np.abs(total - 1.0) <= 1e-5))


KL_DIVERGENCE = KlDivergence()
