"""Weighted kappa (QWK): one integer rating per id; continuous predictions
become ratings through cut points."""
import numpy as np

from .kernels import KappaAccumulator, apply_cuts, is_continuous, rounding_cuts
from ..errors import Cancelled, InputError
from . import kernels as _kernels  # names load on first use: a faster start
from ..tables import Column
from .base import FieldSpec, Metric, Plan, parse_number, parse_rating, split_rows, take
from .schema import Option

_CHUNK = 1_000_000


class Kappa(Metric):
    name = "qwk"
    ids_in_views = False    # only the table shows ids, read from Arrow text (5M: 1.2 s, 350 MB saved)
    label = "Weighted kappa"
    demo_label = "weighted kappa (APTOS-like)"
    unit = "row"
    options = (
        Option("weights", str, "quadratic", ("quadratic", "linear", "none"),
               "kappa weights: quadratic (QWK), linear, or none (Cohen's kappa)"),
        Option("min_rating", int, None, help="lowest rating (default: from the data)",
               minimum=-10 ** 6, maximum=10 ** 6),
        Option("max_rating", int, None, help="highest rating (default: from the data)",
               minimum=-10 ** 6, maximum=10 ** 6),
        Option("cuts", tuple, None, cli=False, label="Cut points",
               help="continuous predictions: the sorted cut points that make them ratings "
                    "(default: fitted to the truth's rating shares)"),
    )

    def detect(self, sub_targets):
        return "the submission has one target column (weighted kappa)"

    def fit(self, sub_targets, sample=None):
        # One integer (or unreadable: the build names the values) column is clearly
        # kappa's; real-valued predictions may be kappa through cut points, or another
        # metric's scores: not clear.
        from .detect import Fit
        if sample is None:
            return Fit(self.detect(sub_targets))
        if len(sub_targets) != 1:        # several columns: kappa only with --target-column
            return Fit(f"{self.detect(sub_targets)}, once one of the {len(sub_targets)} columns is "
                       "chosen (--target-column)", clear=False)
        name = sub_targets[0]
        sub, sol = sample.sub_column(name), sample.sol_column(name)
        if sol is not None and sol.kind == "text":     # class names or items: another family's
            return Fit(f"one target column '{name}' (weighted kappa, but the solution holds text, "
                       "not ratings)", clear=False)
        if sol is not None and sol.kind == "real":     # not ratings: kappa only if nothing else
            return Fit(f"one target column '{name}' (weighted kappa, but the solution's values "
                       "are not whole ratings)", clear=False)
        if sub is not None and sub.kind == "real":
            return Fit(f"one target column '{name}' of non-integer predictions (weighted kappa "
                       "through cut points)", clear=False)
        if sol is not None and sub is not None and sol.binary and sub.binary:
            # two ratings are also a binary label: accuracy, F1... may be meant
            return Fit(f"one 0/1 target column '{name}' (weighted kappa of two ratings)",
                       clear=False)
        return Fit(self.detect(sub_targets))      # the same words as the fast reader's

    def lean_load(self, truth_path, submission_path, options, sol_name, sub_name, step):
        from . import kappa_reader as lean_kappa
        return lean_kappa.load_kappa(truth_path, submission_path, options, sol_name, sub_name,
                                     step.progress, step.cancel, metric=self)

    def build(self, ctx):
        from .kernels.kappa import MAX_CLASSES
        from ..io.columns import (Lazy, check_range, check_span, fraction_note, join_ids, numbers,
                                  string_ids, target_column)
        from ..io.prepare import Prepared
        from ..io.problems import ValidationFailed
        sol, sub, sol_name, sub_name, col = ctx.sol, ctx.sub, ctx.sol_name, ctx.sub_name, ctx.col
        name = target_column(sol, sub, sol_name, sub_name, ctx.id_col, ctx.options, col)
        if name is None:
            raise ValidationFailed(col.problems)
        al, sol_ids = join_ids(sol, sub, sol_name, sub_name, ctx.id_col, col)
        sid = Lazy(sol_ids)
        truth = numbers(sol, name, sol_name, sid, col, integer=True)
        sub_id = Lazy(string_ids(sub, ctx.id_col))
        # The app may accept continuous predictions (it offers cut points); the CLI never.
        allow = ctx.options.allow_continuous
        pred = numbers(sub, name, sub_name, sub_id, col, integer=not allow)
        checks = ((sol_name, truth, sid), (sub_name, pred, sub_id))
        notes = []
        if allow and pred is not None and pred.dtype.kind == "f":
            if not is_continuous(pred):
                pred = pred.astype(np.int64)
            else:
                checks = checks[:1]
                notes.append(fraction_note(pred, sub_name, name, sub_id, al.sub_index))
        for fname, vals, vid in checks:
            if vals is not None:
                check_range(vals, ctx.options, fname, name, vid, col)
        if not col.problems:
            check_span(checks, name, col, MAX_CLASSES)
        col.raise_if_any()
        layout = f"id '{ctx.id_col}' + " + ("integer rating column" if not notes else
                                             "rating column (continuous predictions)") + f" '{name}'"
        return Prepared("qwk", ctx.reason, ctx.id_col, [name], sol_ids, truth, pred[al.sub_index],
                        ctx.usage, layout=layout, notes=notes)

    def plan(self, prep, options):
        # One rating range for every split: weights never change between them.
        lo, hi, pred, cuts = options.min_rating, options.max_rating, prep.pred, None
        if is_continuous(pred):
            lo = int(prep.truth.min()) if lo is None else lo
            hi = int(prep.truth.max()) if hi is None else hi
            cuts = np.asarray(options.cuts if options.cuts is not None
                              else rounding_cuts(lo, hi), dtype=np.float64)
            if cuts.size != hi - lo:
                raise InputError(f"expected {hi - lo} cut points for ratings {lo}..{hi}, "
                                 f"got {cuts.size}")
            pred = apply_cuts(pred, cuts, lo)
        elif len(prep.truth):
            lo = min(int(prep.truth.min()), int(pred.min())) if lo is None else lo
            hi = max(int(prep.truth.max()), int(pred.max())) if hi is None else hi
        return Plan(prep.truth, pred, dict(min_rating=lo, max_rating=hi), cuts)

    def reference(self, prep, options, rows=None):
        from .references import kappa_plain
        t, p = prep.truth.tolist(), prep.pred.tolist()
        lo = min(t + p) if options.min_rating is None else options.min_rating
        hi = max(t + p) if options.max_rating is None else options.max_rating
        keep = range(len(t)) if rows is None else rows
        return kappa_plain([t[i] for i in keep], [p[i] for i in keep], options.weights, lo, hi)

    def score(self, plan, rows, options, cancel):
        acc = KappaAccumulator(weights=options.weights, **plan.params)
        t, p = plan.truth, plan.pred
        if rows is not None:
            t, p = t[rows], p[rows]
        for a in range(0, max(t.size, 1), _CHUNK):
            if cancel():
                raise Cancelled("scoring")
            acc.update(t[a:a + _CHUNK], p[a:a + _CHUNK])
        return acc.result()

    def units(self, result):
        return _kernels.kappa_units(result)

    def unit_cells(self, report, split="all"):
        """Each scored row's index among the non-empty cells of O (kappa_units' order)."""
        plan = self.plan(report.prepared, report.options)
        rows = split_rows(report.prepared.usage, split)
        res = report.result if split == "all" else report.splits[split]
        obs = np.asarray(res.observed)
        k, lo = obs.shape[0], int(res.labels[0])
        code = (np.asarray(take(plan.truth, rows), dtype=np.int64) - lo) * k \
            + np.asarray(take(plan.pred, rows), dtype=np.int64) - lo
        lookup = np.full(k * k, -1, dtype=np.int64)
        nz = np.flatnonzero(obs)
        lookup[nz] = np.arange(nz.size)
        return lookup[code]

    def fixes(self, report, rows, top):
        plan = self.plan(report.prepared, report.options)
        return _kernels.kappa_fix_first(take(plan.truth, rows), take(plan.pred, rows), top=top,
                               result=report.result)

    def gains(self, report, rows):
        return _kernels.kappa_gain_map(report.result)      # K x K: truth rows, prediction columns

    def fix_details(self, report, units, sol_rows):
        plan = self.plan(report.prepared, report.options)
        return [f"truth {t}, predicted {p}" for t, p in
                zip(plan.truth[sol_rows].tolist(), plan.pred[sol_rows].tolist())]

    def honest(self, report, rows, **kw):
        from .kappa_honest import kappa_honest     # cut points: continuous predictions only
        return kappa_honest(report, rows, **kw)

    def paired(self, reports, split="all"):
        from .kernels.kappa_pairs import KappaPairs
        plans = [self.plan(r.prepared, r.options) for r in reports]
        lo = min(p.params["min_rating"] for p in plans)
        hi = max(p.params["max_rating"] for p in plans)
        rows = split_rows(reports[0].prepared.usage, split)
        return KappaPairs(take(plans[0].truth, rows).astype(np.int64) - lo,
                          [take(p.pred, rows).astype(np.int64) - lo for p in plans], hi - lo + 1,
                          reports[0].options.weights, labels=np.arange(lo, hi + 1))

    def differ(self, report_a, report_b, engine, i, j):
        from .kernels.differ import kappa_differ
        return kappa_differ(engine.joint(i, j), engine.weighting, engine.labels)

    fix_words = "rating set to the truth"

    def blend_why_not(self, report_a, report_b):
        return ("kappa blends continuous predictions (cut into ratings by the cut points); "
                "these are whole ratings already")

    def blend(self, report_a, report_b, alphas=None, rows=None):
        from .kernels.kappa_blend import kappa_blend
        pa, pb = report_a.prepared, report_b.prepared
        if not (is_continuous(pa.pred) and is_continuous(pb.pred)):
            return None
        plan = self.plan(pa, report_a.options)
        rows = split_rows(pa.usage) if rows is None else rows
        return kappa_blend(take(pa.truth, rows), take(pa.pred, rows), take(pb.pred, rows), plan.cuts,
                           alphas, min_rating=plan.params["min_rating"], weights=report_a.options.weights)

    def rescore_cells(self, report, cells, old, new):
        """A kappa edit moves one count between two cells of O (per split): K x K work."""
        from dataclasses import replace
        from .kernels import kappa_from_confusion
        from ..fields import LazyPrepared
        if len(cells) > 1000:
            return None
        r = report.result
        lo, k = int(r.labels[0]), r.labels.size
        opts = report.options
        usage = old.base.usage
        counts = {"all": r.observed.copy()}
        counts.update({name: res.observed.copy() for name, res in report.splits.items()})
        truth, pred = FieldSpec("truth"), FieldSpec("pred")
        for unit in {c[1] for c in cells}:
            codes = []
            for version in (old, new):
                t, p = version.value(truth, unit), version.value(pred, unit)
                if report.cuts is not None:
                    p = lo + int(np.searchsorted(report.cuts, float(p), side="right"))
                elif float(p) != int(p):
                    return None                  # a continuous value among ratings
                t, p = int(t) - lo, int(p) - lo
                if not (0 <= t < k and 0 <= p < k):
                    return None                  # outside the range: the range changes
                codes.append((t, p))
            if usage is not None and usage[unit] == 2:
                return None                      # an Ignored row may define the range
            split = None if usage is None else ("public", "private")[int(usage[unit])]
            for name in ("all", split):
                if name is None or name not in counts:
                    continue
                counts[name][codes[0]] -= 1
                counts[name][codes[1]] += 1
        if opts.min_rating is None or opts.max_rating is None:
            o = counts["all"]     # an edge class emptied: the automatic range shrinks
            if report.cuts is not None:
                if o[0].sum() == 0 or o[-1].sum() == 0:
                    return None
            elif (o[0].sum() + o[:, 0].sum() == 0) or (o[-1].sum() + o[:, -1].sum() == 0):
                return None
        result = kappa_from_confusion(counts.pop("all"), weights=r.weighting, labels=r.labels)
        splits = {n: kappa_from_confusion(c, weights=r.weighting, labels=r.labels)
                  for n, c in counts.items()}
        return replace(report, result=result, splits=splits, prepared=LazyPrepared(new))

    def edit_note(self, report, spec, value):
        labels = report.result.labels
        lo, hi = int(labels[0]), int(labels[-1])
        if report.cuts is not None and spec.name == "pred":
            return None                          # continuous: cut points make it a rating
        v = float(value)
        if lo <= v <= hi:
            return None
        return (f"Rating {value:g} is outside {lo}..{hi}: the rating range becomes "
                f"{min(lo, int(v))}..{max(hi, int(v))}, so K and every weight change "
                "(declare Min/Max rating under Options to keep a fixed range)")

    def json_fields(self, report):
        r, out = report.result, {}
        if report.cuts is not None:
            out["cuts"] = report.cuts.tolist()
        out.update(weights=r.weighting, labels=r.labels.tolist(),
                   observed=r.observed.astype(np.int64).tolist(),
                   numerator=r.numerator, denominator=r.denominator)
        return out

    def json_options(self, report):
        o, out = report.options, {}
        if o.allow_continuous:
            out["allow_continuous"] = True
        if o.cuts is not None:
            out["cuts"] = [float(c) for c in o.cuts]
        return out

    def report_tables(self, entry):
        from .report_tables import kappa_tables
        return kappa_tables(entry)

    def summary_lines(self, report):
        r = report.result
        return [f"{r.weighting} weights, ratings {r.labels[0]}..{r.labels[-1]} "
                f"(K = {r.labels.size}); numerator {r.numerator:.4g}, "
                f"denominator {r.denominator:.4g}"]

    def submission_rows(self, prep):
        pred = prep.pred
        if pred.dtype.kind == "f" and not is_continuous(pred):
            pred = pred.astype(np.int64)        # ratings after cut points: write integers
        return [prep.id_column, prep.target_columns[0]], zip(prep.ids, pred.tolist())

    def table_columns(self, prep):
        name = prep.target_columns[0]
        continuous = prep.pred.dtype.kind == "f"
        return [
            Column(f"truth ({name})", prep.truth, FieldSpec("truth"), str, align_right=True,
                   tooltip="solution rating (editable)"),
            Column(f"prediction ({name})", prep.pred, FieldSpec("pred"),
                   (lambda v: f"{v:.4g}") if continuous else str, align_right=True,
                   tooltip="submission prediction (editable)"),
        ]

    def parse(self, spec, text, prep):
        if spec.name == "pred" and prep.pred.dtype.kind == "f":
            return parse_number(text)
        return parse_rating(text)


KAPPA = Kappa()
