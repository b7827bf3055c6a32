"""LwLRAP: one score column per class; truth as 0/1 columns or comma-joined labels."""
import numpy as np

from .kernels import lwlrap
from . import kernels as _kernels  # names load on first use: a faster start
from ..tables import Column
from .base import FieldSpec, Metric, parse_number, per_row, split_positions, split_rows, take
from .schema import Option


def _f4(v):
    return "" if v is None or (isinstance(v, float) and np.isnan(v)) else f"{v:.4f}"


def label_strings(truth, classes):
    """Each row's true classes, comma-joined (the solution's own notation)."""
    names = np.array(classes, dtype=object)
    rows, cols = np.nonzero(truth)
    out = np.full(truth.shape[0], "", dtype=object)
    if rows.size:
        starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
        ends = np.r_[starts[1:], rows.size]
        for s, e in zip(starts, ends):
            out[rows[s]] = ",".join(names[cols[s:e]])
    return out


class Lwlrap(Metric):
    name = "lwlrap"
    label = "LwLRAP"
    demo_label = "LwLRAP (FSDKaggle2019-like)"
    unit = "sample"
    options = (
        Option("ties", str, "worst", ("worst", "original"),
               "tied scores: worst rank (scikit-learn) or the original column order",
               choice_labels=("worst rank (scikit-learn)", "original order")),
    )

    def detect(self, sub_targets):
        if len(sub_targets) >= 2:
            return (f"the submission has {len(sub_targets)} score columns, "
                    "one per class (LwLRAP)")
        return None

    def fit(self, sub_targets, sample=None):
        # Clearly LwLRAP: a solution of class-name lists (the seed's layout), unless every
        # row holds one label and the scores are probabilities summing to 1 (multi-class:
        # log loss and AUC fit too); a solution of numbers is another family's.
        from .detect import Fit
        reason = self.detect(sub_targets)
        if not reason or sample is None:
            return Fit(reason) if reason else None
        cols = sample.sol_targets
        if len(cols) != 1:        # one 0/1 column per class is the seed's other layout
            sums = [sample.sol_column(c) for c in cols]
            return Fit(reason) if all(x is not None and x.binary for x in sums) else None
        summary = sample.sol_column(cols[0])
        if summary is None or summary.kind != "text":
            return None
        import pyarrow.compute as pc
        labels = sample.sol.column(cols[0]).slice(0, sample.rows)
        several = bool(pc.any(pc.match_substring(labels.cast("string"), ",")).as_py())
        if several or not sample.rows_sum_to_one(list(sub_targets), tol=1e-3):
            return Fit(reason)
        return Fit(f"{reason}; but each solution row holds one label and each submission row "
                   "sums to 1 (multi-class probabilities)", clear=False)

    def lean_load(self, truth_path, submission_path, options, sol_name, sub_name, step):
        from . import lwlrap_reader as lean_lwlrap
        return lean_lwlrap.load_lwlrap(truth_path, submission_path, options, sol_name, sub_name,
                                       step, metric=self)

    def reference(self, prep, options, rows=None):
        from .references import lwlrap_plain
        t, s = prep.truth.tolist(), prep.pred.tolist()
        keep = range(len(t)) if rows is None else rows
        return lwlrap_plain([t[i] for i in keep], [s[i] for i in keep], options.ties)

    def build(self, ctx):
        from ..io.columns import Lazy, join_ids, numbers, string_ids
        from ..io.prepare import Prepared
        from ..io.problems import ValidationFailed
        from ..io.read import _release
        sol, sub, sol_name, sub_name, col = ctx.sol, ctx.sub, ctx.sol_name, ctx.sub_name, ctx.col
        id_col, options = ctx.id_col, ctx.options
        classes = [c for c in sub.column_names if c != id_col]
        sol_extra = [c for c in sol.column_names if c != id_col and c.lower() != "usage"]
        in_sol, in_sub = set(sol_extra), set(classes)     # sets: a wide header is no square
        wide = [c for c in classes if c in in_sol]
        al, sol_ids = join_ids(sol, sub, sol_name, sub_name, id_col, col)
        _release()      # the join's hash tables (tens of MB) before the (n, C) matrices
        sid = Lazy(sol_ids)
        sub_id = Lazy(string_ids(sub, id_col))
        if len(wide) >= 2 or (len(sol_extra) > 1 and not options.target_column):
            missing = [c for c in sol_extra if c not in in_sub]
            if missing:
                col.add(sub_name, f"missing class column(s): {', '.join(missing)}")
            extra = [c for c in classes if c not in in_sol]
            if extra:
                col.add(sub_name, f"class column(s) not in the solution: {', '.join(extra)}")
            truth = np.zeros((sol.num_rows, len(wide)), dtype=np.int8)
            for j, c in enumerate(wide):
                v = numbers(sol, c, sol_name, sid, col, integer=True)
                if v is not None:
                    bad = np.flatnonzero((v != 0) & (v != 1))
                    if bad.size:
                        col.add(sol_name, f"class column '{c}' must be 0/1; row {bad[0] + 1} "
                                f"(id {sid[bad[0]]!r}) has {v[bad[0]]}", bad)
                    truth[:, j] = v
            classes_used = wide
            layout = f"id '{id_col}' + {len(wide)} class columns (0/1 truth, scores)"
        else:
            label_col = options.target_column or (sol_extra[0] if sol_extra else None)
            if label_col is None or label_col not in sol.column_names:
                col.add(sol_name, f"no labels column; found columns: {', '.join(sol.column_names)}")
                raise ValidationFailed(col.problems)
            truth = _label_matrix(sol.column(label_col), classes, sol_name, label_col, sid, col)
            classes_used = classes
            layout = (f"solution '{id_col},{label_col}' with comma-joined class names; "
                      f"submission one score column per class ({len(classes)})")
        # Scores land in solution order column by column: one (n, C) matrix, no reordered copy.
        ok = al is not None and not al.missing.size
        scores = np.zeros((sol.num_rows, len(classes_used)))
        for j, c in enumerate(classes_used):
            v = numbers(sub, c, sub_name, sub_id, col, integer=False)
            if v is not None and ok:
                scores[:, j] = v[al.sub_index]
        col.raise_if_any()
        return Prepared("lwlrap", ctx.reason, id_col, classes_used, sol_ids, truth,
                        scores, ctx.usage, classes=list(classes_used), layout=layout)

    def score(self, plan, rows, options, cancel):
        return lwlrap(take(plan.truth, rows), take(plan.pred, rows), ties=options.ties)

    def units(self, result):
        return _kernels.lwlrap_units(result)

    def differ(self, report_a, report_b, engine, i, j):
        from .kernels.differ import lwlrap_differ
        ra, rb = report_a.result, report_b.result
        return lwlrap_differ(ra.per_class, rb.per_class, ra.class_weights)

    fix_words = "true labels ranked first"

    def blend(self, report_a, report_b, alphas=None, rows=None):
        from .kernels.lwlrap_blend import lwlrap_blend
        rows = split_rows(report_a.prepared.usage) if rows is None else rows
        return lwlrap_blend(take(report_a.prepared.truth, rows), take(report_a.prepared.pred, rows),
                            take(report_b.prepared.pred, rows), alphas, ties=report_a.options.ties)

    def rescore_cells(self, report, cells, old, new):
        """An LwLRAP edit changes one sample's ranks only: its positives are ranked again
        and spliced into each split's result (kernels.lwlrap.update_samples)."""
        from dataclasses import replace
        from .kernels.lwlrap import update_samples
        from ..fields import LazyPrepared
        units = sorted({int(u) for _, u, _ in cells})
        if len(units) > 1000 or report.options.ties != report.result.ties:
            return None
        c = report.result.per_class.size
        rows = []                                # (truth rows, score rows): old, then new
        for version in (old, new):
            got = [_unit_rows(version, u, c) for u in units]
            if any(g is None for g in got):
                return None
            rows.append((np.array([g[0] for g in got]), np.array([g[1] for g in got])))
        results = {"all": report.result, **report.splits}
        for name, positions in split_positions(old.base.usage, units, results).items():
            if not positions:
                continue
            at, picked = zip(*positions)
            picked = list(picked)
            (t0, s0), (t1, s1) = rows
            res = update_samples(results[name], at, t0[picked], s0[picked], t1[picked], s1[picked])
            if res is None:
                return None
            results[name] = res
        return replace(report, result=results.pop("all"), splits=results,
                       prepared=LazyPrepared(new))

    def class_units(self, report):
        from .kernels.units import ClassUnits
        return report.prepared.classes, ClassUnits(report.result)

    def fixes(self, report, rows, top):
        return _kernels.lwlrap_fix_first(report.result, top)

    def gains(self, report, rows):
        """(per-class share and gain of a perfect class ranking, per-sample gains)."""
        p = self.plan(report.prepared, report.options)
        return (_kernels.lwlrap_class_gains(take(p.truth, rows), take(p.pred, rows),
                                   ties=report.options.ties, result=report.result),
                _kernels.sample_gains(report.result))

    def fix_details(self, report, units, sol_rows):
        r = report.result
        npos = np.bincount(r.positive_rows, minlength=r.sample_scores.size)[units]
        return [f"{n} true label(s), sample lwlrap {s:.3f}"
                for n, s in zip(npos.tolist(), r.sample_scores[units].tolist())]

    def json_fields(self, report):
        r, names = report.result, report.prepared.classes
        num = _num
        return dict(ties=r.ties, n_positives=r.n_positives, tied_positives=r.tied_positives,
                    per_class={n: num(v) if c > 0 else None
                               for n, v, c in zip(names, r.per_class, r.class_positives)},
                    per_class_undefined={n: "no positive labels of this class in the solution"
                                         for n, c in zip(names, r.class_positives) if c == 0},
                    class_weights={n: float(v) for n, v in zip(names, r.class_weights)})

    def human_lines(self, report, d):
        if not d["tied_positives"]:
            return []
        return [f"ties:    {d['tied_positives']} positive label(s) tie another class's "
                f"score (counted as '{d['ties']}')"]

    def report_tables(self, entry):
        from .report_tables import lwlrap_tables
        return lwlrap_tables(entry)

    def summary_lines(self, report):
        r = report.result
        lines = [f"{r.n_positives:,} positive labels over {r.per_class.size} classes"]
        if r.tied_positives:
            lines.append(f"{r.tied_positives:,} positive label(s) tie another class's score "
                         f"(counted as '{r.ties}' — switch under Options)")
        return lines

    def submission_rows(self, prep):
        rows = ([i, *(repr(float(v)) for v in row)] for i, row in zip(prep.ids, prep.pred.tolist()))
        return [prep.id_column, *prep.classes], rows

    def table_columns(self, prep):
        cols = [Column("true labels", prep.truth, FieldSpec("truth"),
                       fmt=lambda row: ",".join(c for c, t in zip(prep.classes, row) if t),
                       sort_key=lambda v: label_strings(v, prep.classes),
                       tooltip="classes marked 1 in the solution (editable: comma-joined names)"),
                Column("sample lwlrap", np.full(len(prep), np.nan), fmt=_f4, align_right=True,
                       tooltip="mean precision over this sample's true labels",
                       derived=lambda rep: per_row(rep.result.sample_scores,
                                                   rep.prepared.usage, np.nan))]
        for j, c in enumerate(prep.classes):
            cols.append(Column(c, prep.pred[:, j], FieldSpec("pred", j), lambda v: f"{v:.4g}",
                               align_right=True, tooltip=f"score for class {c} (editable)"))
        return cols

    def parse(self, spec, text, prep):
        if spec.name == "pred":
            return parse_number(text)
        index = {c: j for j, c in enumerate(prep.classes)}
        row = np.zeros(len(prep.classes), dtype=prep.truth.dtype)
        for lab in str(text).split(","):
            lab = lab.strip()
            if not lab:
                continue
            if lab not in index:
                raise ValueError(f"'{lab}' is not a class of this file")
            row[index[lab]] = 1
        return row


def _num(x):
    return None if x is None or not np.isfinite(x) else float(x)


def _unit_rows(version, unit, c):
    """(truth row, score row) of a sample in a data version, edits applied as
    ``DataVersion.prepared`` does; None when a row was edited both whole and by class."""
    out = []
    for name in ("truth", "pred"):
        whole = version.edited(FieldSpec(name), unit)
        parts = [j for j in range(c) if version.edited(FieldSpec(name, j), unit)]
        if whole and parts:
            return None          # the order of the two edits would matter
        try:
            row = np.array(version.value(FieldSpec(name), unit),
                           dtype=np.float64 if name == "pred" else None)
            for j in parts:
                row[j] = version.value(FieldSpec(name, j), unit)
        except (TypeError, ValueError):
            return None          # not a number: the full path decides what to say
        if row.shape != (c,):
            return None
        out.append(row)
    return out


def _label_matrix(arr, classes, fname, label_col, sid, col):
    import pyarrow as pa
    from ..io.problems import SHOW
    index = {c: j for j, c in enumerate(classes)}
    values = arr.cast(pa.string()).to_pylist()
    truth = np.zeros((len(values), len(classes)), dtype=np.int8)
    unknown = {}
    for i, cell in enumerate(values):
        for lab in (cell or "").split(","):
            lab = lab.strip()
            if not lab:
                continue
            j = index.get(lab)
            if j is None:
                unknown.setdefault(lab, i)
            else:
                truth[i, j] = 1
    if unknown:
        shown = ", ".join(f"{k!r} (row {r + 1}, id {sid[r]!r})" for k, r in list(unknown.items())[:SHOW])
        col.add(fname, f"column '{label_col}': {len(unknown)} label(s) have no score "
                f"column in the submission: {shown}", list(unknown.values()))
    return truth


LWLRAP = Lwlrap()
