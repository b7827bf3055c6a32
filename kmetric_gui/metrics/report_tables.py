"""A metric's aggregate tables for a report (rows, header first; no Qt), called by each
metric module's ``report_tables``: matrices for kappa, the per-class table for LwLRAP,
counts and errors per document for F-beta. Every table is bounded by classes, ratings
or a histogram, never by rows.
"""
import numpy as np

MAX_ERROR_BIN = 20          # F-beta documents by errors: the last bin is "20 or more"


def _f(x):
    x = float(x)
    return x if np.isfinite(x) else None


def matrix_rows(m, row_labels, col_labels, corner="truth \\ prediction"):
    return [[corner] + [str(c) for c in col_labels]] + [
        [str(r)] + [_f(v) for v in row] for r, row in zip(row_labels, np.asarray(m, dtype=float))]


def kappa_tables(entry):
    r = entry.report.result
    labels = r.labels.tolist()
    return {
        "observed.csv": ("O: observed counts (truth rows, prediction columns)",
                         matrix_rows(r.observed, labels, labels)),
        "weights.csv": (f"W: {r.weighting} weights", matrix_rows(r.weights, labels, labels)),
        "expected.csv": ("E: expected counts by chance", matrix_rows(r.expected, labels, labels)),
        "class_balance.csv": ("Class balance: ratings in truth and prediction",
                              [["rating", "truth", "prediction"]] +
                              [[lab, int(a), int(b)] for lab, a, b in
                               zip(labels, r.hist_true, r.hist_pred)]),
    }


def lwlrap_tables(entry):
    r, names = entry.report.result, entry.report.prepared.classes
    civ = entry.stats.class_intervals if entry.stats is not None else None
    head = ["class", "lwlrap", "weight", "positives"] + (["ci_low", "ci_high"] if civ else [])
    counts = r.class_positives
    rows = [head]
    for c, name in enumerate(names):
        row = [name, _f(r.per_class[c]) if counts[c] else None, _f(r.class_weights[c]), int(counts[c])]
        if civ:
            iv = civ.get(name)
            row += [_f(iv.low), _f(iv.high)] if iv is not None else [None, None]
        rows.append(row)
    return {"per_class.csv": ("Per-class LwLRAP and weights", rows)}


def fbeta_tables(entry):
    r = entry.report.result
    per = np.asarray(r.per_document)
    errors = per[:, 1] + per[:, 2] if per.size else np.zeros(0, dtype=np.int64)
    counts = np.bincount(np.minimum(errors, MAX_ERROR_BIN).astype(np.int64),
                         minlength=MAX_ERROR_BIN + 1)
    hist = [["errors (FP + FN)", "documents"]] + [
        [f"{k}" if k < MAX_ERROR_BIN else f"{k} or more", int(c)] for k, c in enumerate(counts)
        if c or k < 4]
    return {
        "counts.csv": ("Pooled counts", [["tp", "fp", "fn", "precision", "recall", "beta",
                                          "threshold", "matching"],
                                         [int(r.tp), int(r.fp), int(r.fn), _f(r.precision),
                                          _f(r.recall), r.beta, r.threshold, r.matching]]),
        "documents_by_errors.csv": ("Documents by number of errors", hist),
    }


