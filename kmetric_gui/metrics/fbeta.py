"""Jaccard-matched micro F-beta: '|'-separated PredictionString per Id; truth
'|'-joined per Id or one row per (Id, label) as in Coleridge's train.csv."""
import numpy as np

from ..core.cells import split_cell  # the one splitter (core API, files, edits)
from .. import core as _core  # names load on first use: a faster start
from ..tables import Column
from .base import FieldSpec, Metric, take

LABEL_COLUMNS = ("cleaned_label", "dataset_label", "labels", "label",
                 "predictionstring", "dataset_title")


def _join(items):
    return "|".join(items)


class Fbeta(Metric):
    name = "fbeta"
    label = "Jaccard F-beta"
    unit = "document"

    def detect(self, sub_targets):
        if any(c.lower() == "predictionstring" for c in sub_targets):
            return "the submission has a PredictionString column (Jaccard F-beta)"
        return None

    def build(self, ctx):
        import pyarrow as pa
        import pyarrow.compute as pc
        from ..io.columns import join_ids, string_ids
        from ..io.prepare import Prepared
        sol, sub, sol_name, sub_name, col = ctx.sol, ctx.sub, ctx.sol_name, ctx.sub_name, ctx.col
        id_col, options, usage = ctx.id_col, ctx.options, ctx.usage
        sub_targets = [c for c in sub.column_names if c != id_col]
        pred_col = next((c for c in sub_targets if c.lower() == "predictionstring"),
                        sub_targets[0] if len(sub_targets) == 1 else None)
        if pred_col is None:
            col.add(sub_name, f"no PredictionString column; found: {', '.join(sub.column_names)}")
        lower = {c.lower(): c for c in sol.column_names}
        label_col = options.target_column or next(
            (lower[c] for c in LABEL_COLUMNS if c in lower), None)
        if label_col is None or label_col not in sol.column_names:
            looked = options.target_column or ", ".join(LABEL_COLUMNS)
            col.add(sol_name, f"no label column (looked for {looked}); "
                    f"found: {', '.join(sol.column_names)}")
        col.raise_if_any()
        ids = string_ids(sol, id_col)
        labels = sol.column(label_col).cast(pa.string()).to_pylist()
        long = len(pc.unique(ids)) < len(ids)
        if long:
            # One row per (Id, label), as in Coleridge's train.csv: group labels per id.
            import pandas as pd
            frame = pd.DataFrame({"id": ids.to_numpy(zero_copy_only=False), "label": labels})
            grouped = frame.groupby("id", sort=False)["label"].agg(
                lambda s: sorted({x for v in s for x in split_cell(v)}))
            if usage is not None:
                by_id = pd.Series(usage).groupby(frame["id"], sort=False)
                _usage_conflicts(by_id, frame, sol, sol_name, col)
                usage = by_id.first().loc[grouped.index].to_numpy()
            sol = pa.table({id_col: pa.array(grouped.index.astype(str)),
                            label_col: pa.array(["|".join(v) for v in grouped.to_numpy()])})
            truths = [list(v) for v in grouped.to_numpy()]
            # Problems name rows of the file, not of the grouped table.
            file_rows = frame.drop_duplicates("id").index.to_numpy()
            layout = f"solution one row per ('{id_col}', '{label_col}'), grouped by id"
        else:
            truths = [split_cell(v) for v in labels]
            file_rows = None
            layout = f"solution '{id_col},{label_col}' with '|'-joined labels"
        seen = len(col.problems)
        al, sol_ids = join_ids(sol, sub, sol_name, sub_name, id_col, col)
        if file_rows is not None:
            col.problems[seen:] = [_file_rows(p, file_rows) for p in col.problems[seen:]]
        col.raise_if_any()
        preds = [split_cell(v) for v in sub.column(pred_col).cast(pa.string()).to_pylist()]
        preds = [preds[i] for i in al.sub_index]
        layout += f"; submission '{id_col},{pred_col}' with '|'-separated predictions"
        return Prepared("fbeta", ctx.reason, id_col, [pred_col], sol_ids,
                        truths, preds, usage, layout=layout)

    def score(self, plan, rows, options, cancel):
        return _core.jaccard_fbeta(take(plan.truth, rows), take(plan.pred, rows),
                             beta=options.beta, threshold=options.threshold,
                             matching=options.matching, clean=options.clean)

    def units(self, result):
        return _core.fbeta_units(result)

    def fixes(self, report, rows, top):
        return _core.fbeta_fix_first(report.result, top)

    def gains(self, report, rows):
        return _core.fbeta_doc_gains(report.result)     # per document: FPs, FNs, both removed

    def honest(self, report, rows, **kw):
        from ..optimisers import fbeta_honest     # the Jaccard threshold
        return fbeta_honest(report, rows, **kw)

    def differ(self, report_a, report_b, engine, i, j):
        from ..core.differ import fbeta_differ
        return fbeta_differ(report_a.result.per_document, report_b.result.per_document,
                            report_a.options.beta)

    def fix_details(self, report, units, sol_rows):
        return [f"TP {tp}, FP {fp}, FN {fn}" for tp, fp, fn in
                report.result.per_document[units].tolist()]

    def json_fields(self, report):
        r = report.result
        return dict(tp=r.tp, fp=r.fp, fn=r.fn, precision=_num(r.precision),
                    recall=_num(r.recall), beta=r.beta, threshold=r.threshold,
                    matching=r.matching)

    def human_lines(self, report, d):
        return [f"counts:  TP {d['tp']}  FP {d['fp']}  FN {d['fn']}  "
                f"(precision {_fmt(d['precision'])}, recall {_fmt(d['recall'])})"]

    def summary_lines(self, report):
        r = report.result
        return [f"TP {r.tp:,} · FP {r.fp:,} · FN {r.fn:,} — precision "
                f"{_fmt(_num(r.precision))}, recall {_fmt(_num(r.recall))} "
                f"(β = {r.beta:g}, threshold {r.threshold:g}, {r.matching})"]

    def submission_rows(self, prep):
        return [prep.id_column, prep.target_columns[0]], \
            ((i, "|".join(p)) for i, p in zip(prep.ids, prep.pred))

    def table_columns(self, prep):
        def counts(k):
            return lambda rep: rep.result.per_document[:, k]
        cols = [Column("ground truths", prep.truth, FieldSpec("truth"), _join,
                       sort_key=_joined, tooltip="solution labels, '|'-joined (editable)"),
                Column("PredictionString", prep.pred, FieldSpec("pred"), _join, sort_key=_joined,
                       tooltip="predictions, '|'-separated (editable)")]
        for k, name in enumerate(("TP", "FP", "FN")):
            cols.append(Column(name, np.zeros(len(prep), np.int64), align_right=True,
                               derived=counts(k)))
        return cols

    def parse(self, spec, text, prep):
        return split_cell(str(text))


def _file_rows(problem, file_rows):
    from dataclasses import replace
    if problem.role != "solution":
        return problem
    return replace(problem, rows=tuple(int(file_rows[r]) for r in problem.rows))


def _usage_conflicts(by_id, frame, sol, sol_name, col):
    """Ids of a long solution whose rows disagree on Usage: a problem, never the first row."""
    lo, hi = by_id.min(), by_id.max()
    bad = lo.index[(lo != hi).to_numpy()]
    if not len(bad):
        return
    name = next(c for c in sol.column_names if c.lower() == "usage")
    rows = frame.index[frame["id"].isin(set(bad[:5]))].to_numpy()
    of = frame["id"].to_numpy()[rows]
    listed = ", ".join(f"id '{i}' (rows {', '.join(str(r + 1) for r in rows[of == i])})" for i in bad[:5])
    col.add(sol_name, f"column '{name}': {len(bad)} id(s) have rows in more than one of Public, "
            f"Private and Ignored: {listed}", rows)


def _joined(values):
    return np.array(["|".join(x) for x in values], dtype=object)


def _num(x):
    return None if x is None or not np.isfinite(x) else float(x)


def _fmt(x):
    return "undefined" if x is None else f"{x:.6f}"


FBETA = Fbeta()
