"""Jaccard-matched micro F-beta: '|'-separated PredictionString per Id; truth
'|'-joined per Id or one row per (Id, label) as in Coleridge's train.csv."""
import numpy as np

from ..core.cells import split_cell  # the one splitter (core API, files, edits)
from . import kernels as _kernels  # names load on first use: a faster start
from ..tables import Column
from .base import FieldSpec, Metric, Plan, per_row, split_positions, take
from .fbeta_cells import Cells, EditedCells
from .fbeta_codes import code as code_cells
from .schema import Option

LABEL_COLUMNS = ("cleaned_label", "dataset_label", "labels", "label",
                 "predictionstring", "dataset_title")


def _join(items):
    return "|".join(items)


class Fbeta(Metric):
    name = "fbeta"
    label = "Jaccard F-beta"
    demo_label = "Jaccard F-beta (Coleridge-like)"
    unit = "document"
    options = (
        Option("beta", float, 0.5, help="F-beta's beta (0.5 weighs precision more)",
               minimum=0.01, maximum=100, step=0.25),
        Option("threshold", float, 0.5, help="Jaccard similarity at which a prediction matches",
               minimum=0, maximum=1, step=0.05),
        Option("matching", str, "one-to-one", ("one-to-one", "many-to-one"),
               "how predictions match truths"),
        Option("clean", bool, False, help="clean text as in the competition",
               label="Clean text"),
    )

    def detect(self, sub_targets):
        if any(c.lower() == "predictionstring" for c in sub_targets):
            return "the submission has a PredictionString column (Jaccard F-beta)"
        return None

    def lean_load(self, truth_path, submission_path, options, sol_name, sub_name, step):
        from . import fbeta_reader as lean_fbeta
        return lean_fbeta.load_fbeta(truth_path, submission_path, options, sol_name, sub_name,
                                     step, metric=self)

    def reference(self, prep, options, rows=None):
        from .references import fbeta_plain
        t, p = [list(x) for x in prep.truth], [list(x) for x in prep.pred]
        keep = range(len(t)) if rows is None else rows
        return fbeta_plain([t[i] for i in keep], [p[i] for i in keep], options.beta,
                           options.threshold, options.matching, options.clean)

    def build(self, ctx):
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
        codes, n_ids = _id_codes(ids)
        if n_ids < len(ids):
            # One row per (Id, label), as in Coleridge's train.csv: group labels per id.
            sol, usage, file_rows = _grouped(sol, sol_name, id_col, label_col, ids, codes, usage, col)
            layout = f"solution one row per ('{id_col}', '{label_col}'), grouped by id"
        else:
            file_rows = None
            layout = f"solution '{id_col},{label_col}' with '|'-joined labels"
        del codes
        seen = len(col.problems)
        al, sol_ids = join_ids(sol, sub, sol_name, sub_name, id_col, col)
        if file_rows is not None:
            col.problems[seen:] = [_file_rows(p, file_rows) for p in col.problems[seen:]]
        col.raise_if_any()
        # The columns as read: split into items only when scored (coded) or shown.
        truths = Cells(sol.column(label_col))
        preds = Cells(sub.column(pred_col), al.sub_index)
        layout += f"; submission '{id_col},{pred_col}' with '|'-separated predictions"
        return Prepared("fbeta", ctx.reason, id_col, [pred_col], sol_ids,
                        truths, preds, usage, layout=layout)

    def plan(self, prep, options):
        truth, pred = _as_cells(prep.truth), _as_cells(prep.pred)
        if truth is not None and pred is not None:
            # Both columns as read (plus the app's edits): coded once as numbers for
            # every split.
            return Plan(code_cells(truth, pred, options.clean,
                                   release=not getattr(prep, "keep_columns", True)), None)
        return Plan(prep.truth, prep.pred)

    def score(self, plan, rows, options, cancel):
        if plan.pred is None:
            return _kernels.coded_fbeta(plan.truth.take(rows), beta=options.beta,
                                     threshold=options.threshold, matching=options.matching)
        return _kernels.jaccard_fbeta(_take(plan.truth, rows), _take(plan.pred, rows),
                             beta=options.beta, threshold=options.threshold,
                             matching=options.matching, clean=options.clean)

    def units(self, result):
        return _kernels.fbeta_units(result)

    fix_words = "predictions equal to the truths"

    def blend_why_not(self, report_a, report_b):
        return "F-beta predictions are sets of strings per document: they do not blend"

    def fixes(self, report, rows, top):
        return _kernels.fbeta_fix_first(report.result, top)

    def gains(self, report, rows):
        return _kernels.fbeta_doc_gains(report.result)     # per document: FPs, FNs, both removed

    def honest(self, report, rows, **kw):
        from .fbeta_honest import fbeta_honest     # the Jaccard threshold
        return fbeta_honest(report, rows, **kw)

    def differ(self, report_a, report_b, engine, i, j):
        from .kernels.differ import fbeta_differ
        return fbeta_differ(report_a.result.per_document, report_b.result.per_document,
                            report_a.options.beta)

    def fix_details(self, report, units, sol_rows):
        return [f"TP {tp}, FP {fp}, FN {fn}" for tp, fp, fn in
                report.result.per_document[units].tolist()]

    def rescore_cells(self, report, cells, old, new):
        """An F-beta edit changes one document's matching only: the edited documents
        are matched again alone and their TP/FP/FN replace theirs in the totals."""
        from dataclasses import replace
        from .kernels.fbeta import update_documents
        from ..fields import LazyPrepared
        units = sorted({int(u) for _, u, _ in cells})
        if len(units) > 1000 or any(part is not None for _, _, part in cells):
            return None
        counts = [_document_counts(version, units, report.options) for version in (old, new)]
        if counts[0] is None or counts[1] is None:
            return None                  # a value the full score refuses: it names it
        results = {"all": report.result, **report.splits}
        for name, positions in split_positions(old.base.usage, units, results).items():
            if not positions:
                continue
            at, picked = (list(x) for x in zip(*positions))
            res = update_documents(results[name], at, counts[0][picked], counts[1][picked])
            if res is None:
                return None              # the report is not the old version's
            results[name] = res
        return replace(report, result=results.pop("all"), splits=results,
                       prepared=LazyPrepared(new))

    def json_fields(self, report):
        r = report.result
        return dict(tp=r.tp, fp=r.fp, fn=r.fn, precision=_num(r.precision),
                    recall=_num(r.recall), beta=r.beta, threshold=r.threshold,
                    matching=r.matching)

    def human_lines(self, report, d):
        return [f"counts:  TP {d['tp']}  FP {d['fp']}  FN {d['fn']}  "
                f"(precision {_fmt(d['precision'])}, recall {_fmt(d['recall'])})"]

    def report_tables(self, entry):
        from .report_tables import fbeta_tables
        return fbeta_tables(entry)

    def summary_lines(self, report):
        r = report.result
        return [f"TP {r.tp:,} · FP {r.fp:,} · FN {r.fn:,} — precision "
                f"{_fmt(_num(r.precision))}, recall {_fmt(_num(r.recall))} "
                f"(β = {r.beta:g}, threshold {r.threshold:g}, {r.matching})"]

    def submission_rows(self, prep):
        return [prep.id_column, prep.target_columns[0]], \
            ((i, "|".join(p)) for i, p in zip(prep.ids, prep.pred))

    def table_columns(self, prep):
        def counts(k):           # -1 (shown blank) on Ignored rows
            return lambda rep: per_row(rep.result.per_document[:, k], rep.prepared.usage, -1)
        cols = [Column("ground truths", prep.truth, FieldSpec("truth"), _join,
                       sort_key=_joined, tooltip="solution labels, '|'-joined (editable)"),
                Column("PredictionString", prep.pred, FieldSpec("pred"), _join, sort_key=_joined,
                       tooltip="predictions, '|'-separated (editable)")]
        for k, name in enumerate(("TP", "FP", "FN")):
            cols.append(Column(name, np.zeros(len(prep), np.int64), align_right=True,
                               fmt=lambda v: "" if v < 0 else str(v), derived=counts(k)))
        return cols

    def parse(self, spec, text, prep):
        return split_cell(str(text))


def _as_cells(values):
    """``Cells`` of a column as read or edited in the app (None: plain lists).

    Edited documents go in one extra Arrow chunk, their cells '|'-joined again,
    and the documents point at it: a full rescore of edited data stays on the
    coded path (Arrow and numpy). The list path holds the GIL in long C calls
    (sorting millions of strings) and froze the app's event loop for seconds.
    """
    if isinstance(values, Cells):
        return values
    if not isinstance(values, EditedCells) or not isinstance(values.cells, Cells):
        return None
    cells, edits = values.cells, values.edits
    if not edits:
        return cells
    docs = sorted(edits)
    # Only items that split back to themselves ('|'-free, not blank) can be joined.
    if not all(isinstance(doc, list) and all(isinstance(x, str) and "|" not in x and x.strip()
                                             for x in doc) for doc in map(edits.get, docs)):
        return None
    import pyarrow as pa
    index = np.arange(cells.rows, dtype=np.int64) if cells.index is None else cells.index.copy()
    index[docs] = cells.rows + np.arange(len(docs))
    kind = cells.chunks[0].type if cells.chunks else pa.string()
    extra = pa.array(["|".join(edits[d]) for d in docs], type=kind)
    return Cells(pa.chunked_array(cells.chunks + [extra], type=kind), index)


def _document_counts(version, units, options):
    """(k, 3) TP, FP, FN of documents ``units`` of a data version, each matched alone."""
    from ..errors import InputError
    truths = [version.value(FieldSpec("truth"), u) for u in units]
    preds = [version.value(FieldSpec("pred"), u) for u in units]
    try:
        return _kernels.jaccard_fbeta(truths, preds, beta=options.beta, threshold=options.threshold,
                                   matching=options.matching, clean=options.clean).per_document
    except (InputError, TypeError):
        return None


def _file_rows(problem, file_rows):
    from dataclasses import replace
    if problem.role != "solution":
        return problem
    return replace(problem, rows=tuple(int(file_rows[r]) for r in problem.rows))


def _id_codes(ids):
    """A code per row, numbering distinct ids in order of first appearance (-1: missing)."""
    import pyarrow.compute as pc
    from ..numbers import bool_array, plain_array
    enc = pc.dictionary_encode(ids)
    chunks = enc.chunks if hasattr(enc, "chunks") else [enc]
    parts = []
    for c in chunks:
        codes = plain_array(c.indices).astype(np.int64)
        if c.null_count:
            codes = np.where(bool_array(c.is_valid()), codes, -1)
        parts.append(codes)
    codes = np.concatenate(parts) if parts else np.zeros(0, np.int64)
    n_ids = len(chunks[0].dictionary) + int((codes < 0).any()) if chunks else 0
    return codes, n_ids


def _grouped(sol, sol_name, id_col, label_col, ids, codes, usage, col):
    """A long solution as one row per id (first-appearance order) with its labels
    sorted, distinct and '|'-joined; (table, usage per id, first file row of each id)."""
    import pyarrow as pa
    from ..numbers import arrow_ints, arrow_texts
    valid = np.flatnonzero(codes >= 0)            # a missing id is no group
    order = valid[np.argsort(codes[valid], kind="stable")]
    sorted_codes = codes[order]
    starts = np.flatnonzero(np.r_[True, sorted_codes[1:] != sorted_codes[:-1]]) \
        if order.size else np.zeros(0, np.int64)
    file_rows = order[starts]
    if usage is not None:
        _usage_conflicts(usage, codes, order, starts, ids, sol, sol_name, col)
        usage = usage[file_rows]
    labels = sol.column(label_col).cast(pa.string()).to_pylist()
    bounds = np.r_[starts, order.size].tolist()
    order = order.tolist()
    joined = ["|".join(sorted({x for r in order[a:b] for x in split_cell(labels[r])}))
              for a, b in zip(bounds[:-1], bounds[1:])]
    table = pa.Table.from_arrays([ids.take(arrow_ints(file_rows)), arrow_texts(joined)],
                                 names=[id_col, label_col])
    return table, usage, file_rows


def _usage_conflicts(usage, codes, order, starts, ids, sol, sol_name, col):
    """Ids of a long solution whose rows disagree on Usage: a problem, never the first row."""
    if not starts.size:
        return
    lo = np.minimum.reduceat(usage[order], starts)
    hi = np.maximum.reduceat(usage[order], starts)
    bad = codes[order[starts[lo != hi]]]          # in order of first appearance
    if not bad.size:
        return
    name = next(c for c in sol.column_names if c.lower() == "usage")
    rows = np.flatnonzero(np.isin(codes, bad[:5]))
    of = codes[rows]
    listed = ", ".join(f"id '{ids[int(rows[of == b][0])].as_py()}' "
                       f"(rows {', '.join(str(r + 1) for r in rows[of == b])})" for b in bad[:5])
    col.add(sol_name, f"column '{name}': {len(bad)} id(s) have rows in more than one of Public, "
            f"Private and Ignored: {listed}", rows)


def _take(values, rows):
    if rows is not None and isinstance(values, Cells):
        return values.take(rows)
    return take(values, rows)


def _joined(values):
    return np.array(["|".join(x) for x in values], dtype=object)


def _num(x):
    return None if x is None or not np.isfinite(x) else float(x)


def _fmt(x):
    return "undefined" if x is None else f"{x:.6f}"


FBETA = Fbeta()
