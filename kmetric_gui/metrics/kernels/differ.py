"""Where two submissions differ, per metric (STATS.md, "Paired comparison").

Each "delta" here answers: how much of B's advantage over A comes from
this part of the data? It is score(B) - score(B with A's predictions on that
part), so a positive value means B's predictions there help B.
"""
from dataclasses import dataclass

import numpy as np

from .kappa import kappa_rows
from .kappa import weight_matrix


@dataclass(frozen=True)
class KappaDiffer:
    agreement: np.ndarray     # (K, K) rows where A predicts a (row) and B predicts b (column)
    a_right: np.ndarray       # (K, K) of those, rows whose truth is a
    b_right: np.ndarray       # (K, K) of those, rows whose truth is b
    cell_delta: np.ndarray    # (K, K) kappa(B) - kappa(B with A's rating on the cell's rows)
    labels: np.ndarray        # (K,) rating of each row / column


def kappa_differ(joint, weights="quadratic", labels=None):
    """From (K, K, K) counts of (truth, A, B)."""
    joint = np.asarray(joint, dtype=np.float64)
    k = joint.shape[0]
    agreement = joint.sum(axis=0)
    idx = np.arange(k)
    a_right = joint[idx, idx, :]            # truth == a
    b_right = joint[idx, :, idx].T          # [a, b] = joint[b, a, b]
    w = weight_matrix(k, weights)
    ob = joint.sum(axis=1)                  # (t, b)
    # Rows of cell (a, b) move in B's confusion from column b to column a (K is small).
    moved = np.empty((k, k, k, k))
    for a in range(k):
        for b in range(k):
            m = moved[a, b]
            m[:] = ob
            m[:, b] -= joint[:, a, b]
            m[:, a] += joint[:, a, b]
    base = kappa_rows(ob.reshape(1, -1), w)[0]
    cell_delta = base - kappa_rows(moved.reshape(k * k, k * k), w).reshape(k, k)
    labels = np.arange(k) if labels is None else np.asarray(labels)
    return KappaDiffer(agreement, a_right, b_right, cell_delta, labels)


@dataclass(frozen=True)
class LwlrapDiffer:
    per_class_delta: np.ndarray   # (C,) per-class lwlrap of B minus A
    contribution: np.ndarray      # (C,) delta times the class weight (sums to the overall delta)
    class_weights: np.ndarray


def lwlrap_differ(per_class_a, per_class_b, class_weights):
    d = np.asarray(per_class_b, dtype=np.float64) - np.asarray(per_class_a, dtype=np.float64)
    w = np.asarray(class_weights, dtype=np.float64)
    return LwlrapDiffer(d, d * w, w)


@dataclass(frozen=True)
class FbetaDiffer:
    counts_a: np.ndarray      # (D, 3) tp, fp, fn of each document under A
    counts_b: np.ndarray      # (D, 3) under B
    doc_delta: np.ndarray     # (D,) F(B) - F(B with A's predictions for this document)


def fbeta_differ(per_document_a, per_document_b, beta=0.5):
    ca = np.asarray(per_document_a, dtype=np.float64).reshape(-1, 3)
    cb = np.asarray(per_document_b, dtype=np.float64).reshape(-1, 3)
    b2 = float(beta) ** 2

    def score(tp, fp, fn):
        with np.errstate(invalid="ignore", divide="ignore"):
            prec, rec = tp / (tp + fp), tp / (tp + fn)
            f = (1 + b2) * prec * rec / (b2 * prec + rec)
        return np.where(tp + fp + fn > 0, np.where(tp > 0, f, 0.0), np.nan)

    tb = cb.sum(axis=0)
    reverted = tb[None, :] - cb + ca                     # (D, 3) with A on document d
    doc_delta = score(*tb) - score(reverted[:, 0], reverted[:, 1], reverted[:, 2])
    return FbetaDiffer(ca.astype(np.int64), cb.astype(np.int64), doc_delta)


@dataclass(frozen=True)
class UnitDiffer:
    """Units (rows, queries) where A and B differ, the largest effect first.

    ``delta``: score(B) - score(B with A's prediction on that unit), from the
    units' additive statistics (or, for rank metrics, the unit's share of the
    score under B minus under A; ``what`` says which)."""
    units: np.ndarray         # (N,) unit positions where the two differ, largest |delta| first
    delta: np.ndarray         # (N,)
    n_units: int              # units compared
    higher_is_better: bool
    unit: str = "row"
    what: str = "score of B minus score of B with A's prediction on that unit"
    a_text: tuple = ()        # A's prediction at the first listed units, in words (the metric's)
    b_text: tuple = ()
    bands: tuple = ()         # optional (label, units, B's gain, A's gain) rows, e.g. AUC by score

    @property
    def b_better(self):
        """(N,) True where B's prediction there is the better one (in the metric's direction)."""
        return self.delta > 0 if self.higher_is_better else self.delta < 0

    @property
    def wins(self):
        """(units where B is better, units where A is better)."""
        b = self.b_better
        a = (self.delta < 0) if self.higher_is_better else (self.delta > 0)
        return int(b.sum()), int(a.sum())


def unit_differ(stats_a, stats_b, score_fn, higher_is_better=True, unit="row", chunk=1 << 18):
    """UnitDiffer of two (n, m) per-unit additive statistics on the same units; ``score_fn``
    maps sums (R, m) to scores (nan when undefined)."""
    sa = np.asarray(stats_a, dtype=np.float64).reshape(len(stats_a), -1)
    sb = np.asarray(stats_b, dtype=np.float64).reshape(len(stats_b), -1)
    if sa.shape != sb.shape:
        raise ValueError(f"statistics differ in shape: {sa.shape} vs {sb.shape}")
    diff = np.flatnonzero(np.any(sa != sb, axis=1))
    tb = sb.sum(axis=0)
    base = float(np.asarray(score_fn(tb[None, :]))[0])
    delta = np.empty(diff.size)
    step = max(1, chunk // max(sa.shape[1], 1))
    # An overflowing total (inf) gives inf - inf: an undefined change, counted as none
    # (the scores say why they are undefined), not a warning on stderr.
    with np.errstate(invalid="ignore", over="ignore"):
        for s in range(0, diff.size, step):
            rows = diff[s:s + step]
            delta[s:s + step] = base - np.asarray(score_fn(tb[None, :] - sb[rows] + sa[rows]))
    delta = np.where(np.isfinite(delta), delta, 0.0)
    order = np.argsort(-np.abs(delta), kind="stable")
    return UnitDiffer(diff[order].astype(np.int64), delta[order], int(sa.shape[0]),
                      bool(higher_is_better), unit)
