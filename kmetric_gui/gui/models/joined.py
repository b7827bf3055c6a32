"""Columns for the joined table of each metric, and for a raw file.

Pure functions (numpy, no Qt objects): they run on the worker thread, so a
million-row table is built off the UI thread.
"""
import numpy as np

from .table import Column


def _parse_number(text, what):
    text = str(text).strip()
    try:
        return text, float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number{what}") from None


def _parse_rating(text):
    text, v = _parse_number(text, "; a rating is an integer")
    if not np.isfinite(v) or v != int(v):
        raise ValueError(f"{text!r} is not an integer rating (round it, or use cut points)")
    return int(v)


def _parse_score(text):
    _, v = _parse_number(text, "")
    if not np.isfinite(v):
        raise ValueError("scores must be finite numbers")
    return v


def _parse_predictions(text):
    return [s for s in str(text).split("|") if s.strip()]


def _join(items):
    return "|".join(items)


def _fmt_float(v):
    return "" if v is None or (isinstance(v, float) and np.isnan(v)) else f"{v:.4f}"


def _lower(values):
    return np.array([str(v).lower() for v in values], dtype=object)


def build_columns(prep, report=None):
    """Joined-table columns for a Prepared input (solution row order)."""
    ids = prep.ids
    cols = [Column(prep.id_column, ids, tooltip="id (rows joined on it)",
                   sort_key=lambda _: _arrow_ranks(prep.id_array))]
    if prep.usage is not None:
        names = np.array(["Public", "Private", "Ignored"], dtype=object)
        cols.append(Column("Usage", names[prep.usage]))
    if prep.metric == "qwk":
        name = prep.target_columns[0]
        continuous = prep.pred.dtype.kind == "f"
        cols += [
            Column(f"truth ({name})", prep.truth, True, str, _parse_rating, align_right=True,
                   tooltip="solution rating (editable)", meta={"role": "truth"}),
            Column(f"prediction ({name})", prep.pred, True,
                   (lambda v: f"{v:.4g}") if continuous else str,
                   _parse_score if continuous else _parse_rating, align_right=True,
                   tooltip="submission prediction (editable)", meta={"role": "pred"}),
        ]
    elif prep.metric == "lwlrap":
        labels = _label_strings(prep.truth, prep.classes)
        cols.append(Column("true labels", labels, tooltip="classes marked 1 in the solution"))
        sample = report.result.sample_scores if report is not None else np.full(len(labels), np.nan)
        cols.append(Column("sample lwlrap", sample.copy(), fmt=_fmt_float, align_right=True,
                           tooltip="mean precision over this sample's true labels",
                           meta={"role": "sample_score"}))
        for j, c in enumerate(prep.classes):
            cols.append(Column(c, prep.pred[:, j], True, lambda v: f"{v:.4g}", _parse_score,
                               align_right=True, tooltip=f"score for class {c} (editable)",
                               meta={"role": "score", "class": j}))
    else:
        cols.append(Column("ground truths", prep.truth, False, _join, sort_key=None,
                           tooltip="solution labels, '|'-joined"))
        cols.append(Column("PredictionString", prep.pred, True, _join, _parse_predictions,
                           tooltip="predictions, '|'-separated (editable)", meta={"role": "pred"}))
        counts = report.result.per_document if report is not None else np.zeros((len(ids), 3), int)
        for k, name in enumerate(("TP", "FP", "FN")):
            cols.append(Column(name, counts[:, k].copy(), align_right=True,
                               meta={"role": "count", "k": k}))
    for c in cols:
        if c.sort_key is None and not isinstance(c.values, np.ndarray):
            c.sort_key = lambda v: np.array(["|".join(x) for x in v], dtype=object)
    return cols


def _arrow_ranks(arr):
    """Rank of each string by Arrow's sort: no Python comparisons, GIL released."""
    import pyarrow.compute as pc
    order = pc.sort_indices(arr).to_numpy()
    ranks = np.empty(len(arr), dtype=np.int64)
    ranks[order] = np.arange(len(arr))
    return ranks


def _label_strings(truth, classes):
    names = np.array(classes, dtype=object)
    rows, cols = np.nonzero(truth)
    out = np.full(truth.shape[0], "", dtype=object)
    if rows.size:
        starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
        ends = np.r_[starts[1:], rows.size]
        for s, e in zip(starts, ends):
            out[rows[s]] = ",".join(names[cols[s:e]])
    return out


def refresh_derived(columns, report):
    """Update per-row result columns after a rescore; returns changed indices."""
    changed = []
    for i, c in enumerate(columns):
        role = c.meta.get("role")
        if role == "sample_score":
            c.values[:] = report.result.sample_scores
            changed.append(i)
        elif role == "count":
            c.values[:] = report.result.per_document[:, c.meta["k"]]
            changed.append(i)
    return changed


def raw_columns(table):
    """Every column of a raw pyarrow table as text (to show invalid files)."""
    cols = []
    for name in table.column_names:
        vals = table.column(name).to_numpy(zero_copy_only=False).astype(object)
        cols.append(Column(name, vals, fmt=lambda v: "" if v is None else str(v)))
    return cols, table.num_rows
