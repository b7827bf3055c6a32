"""Jaccard-matched micro F-beta (Coleridge "Show US the Data").

Each distinct string is tokenized once (``text``); Jaccard scores come from
one small table of all distinct pairs, or, when strings are many, from
looking each truth's tokens up in a (string, token) bitset (``table``);
matching runs over all documents at once in a few dense blocks, one step per
(padded width, truth rank) (``match``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from dataclasses import dataclass

import numpy as np

from ....errors import InputError
from ....core._checks import check_option
from .coded import Coded
from .match import _match
from .table import _Prepared, _segment_sums
from .text import clean_text, jaccard, shared_tokens, split_cell, tokens

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

MATCHINGS = ("one-to-one", "many-to-one")


@dataclass(frozen=True)
class FbetaResult:
    score: float                 # nan when undefined
    precision: float
    recall: float
    tp: int
    fp: int
    fn: int
    per_document: np.ndarray     # (D, 3) int: tp, fp, fn of each document
    beta: float = 0.5
    threshold: float = 0.5
    matching: str = "one-to-one"
    undefined_reason: "str | None" = None


@dataclass(frozen=True)
class DocumentMatch:
    """One document's matrices, truths and predictions in the order matched."""
    truths: list
    predictions: list
    jaccard: np.ndarray          # (T, P) float
    match: np.ndarray            # (T, P) bool: truth row matched to prediction column
    tp: int
    fp: int
    fn: int


def fbeta_from_counts(tp, fp, fn, beta=0.5):
    """(score, precision, recall, undefined_reason) from pooled counts."""
    if tp + fp + fn == 0:
        return float("nan"), float("nan"), float("nan"), \
            "no ground truths and no predictions: nothing to score"
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    b2 = beta * beta
    if tp == 0:
        return 0.0, precision, recall, None
    if b2 > 1:      # divided through by b2: a huge beta (b2 = inf) tends to the recall, not NaN
        score = (1 + 1 / b2) * precision * recall / (precision + recall / b2)
    else:           # a tiny beta (b2 = 0) gives the precision
        score = (1 + b2) * precision * recall / (b2 * precision + recall)
    return float(score), float(precision), float(recall), None


def jaccard_fbeta(truths: Sequence[str | Iterable[str]], predictions: Sequence[str | Iterable[str]], *,
                  beta: float = 0.5, threshold: float = 0.5, matching: str = "one-to-one",
                  clean: bool = False) -> FbetaResult:
    """Micro F-beta over documents, truths matched to predictions by Jaccard.

    truths, predictions: one sequence of strings per document (a plain
    string is read as a '|'-joined Kaggle cell).

    >>> r = jaccard_fbeta([["a b", "c d"]], [["a b", "x"]])
    >>> (r.tp, r.fp, r.fn)
    (1, 1, 1)
    """
    check_option("matching", matching, MATCHINGS)
    beta, threshold = _check_numbers(beta, threshold)
    return _score(_Prepared(truths, predictions, clean), beta, threshold, matching)


def coded_fbeta(coded: Coded, *, beta: float = 0.5, threshold: float = 0.5,
                matching: str = "one-to-one") -> FbetaResult:
    """``jaccard_fbeta`` of documents already coded as numbers (``Coded``; cleaning,
    if any, was applied when coding)."""
    check_option("matching", matching, MATCHINGS)
    beta, threshold = _check_numbers(beta, threshold)
    return _score(_Prepared.from_coded(coded), beta, threshold, matching)


def _score(prep, beta, threshold, matching):
    chosen, used = _match(prep, threshold, matching)
    n = prep.n_docs
    # Written in place: no per-document temporaries beside the result.
    per_doc = np.empty((n, 3), np.int64)
    doc_tp, doc_fp, doc_fn = per_doc[:, 0], per_doc[:, 1], per_doc[:, 2]
    _segment_sums(chosen >= 0, prep.t_start, prep.nt, doc_tp)
    del chosen
    np.subtract(prep.nt, doc_tp, out=doc_fn)
    _segment_sums(used[:-1], prep.p_start, prep.npd, doc_fp)
    np.subtract(prep.npd, doc_fp, out=doc_fp)
    tp, fp, fn = int(doc_tp.sum()), int(doc_fp.sum()), int(doc_fn.sum())
    score, precision, recall, reason = fbeta_from_counts(tp, fp, fn, beta)
    return FbetaResult(score, precision, recall, tp, fp, fn, per_doc,
                       beta, threshold, matching, reason)


def update_documents(result, docs, old_counts, new_counts):
    """``result`` after documents ``docs`` (distinct positions) go from per-document
    (TP, FP, FN) ``old_counts`` to ``new_counts`` (k x 3, e.g. ``jaccard_fbeta`` of
    those documents alone: matching never looks past a document). Equal to scoring
    everything again. None when ``old_counts`` are not the result's own (other data).
    """
    docs = np.asarray(docs, dtype=np.int64)
    old = np.asarray(old_counts, dtype=np.int64).reshape(-1, 3)
    new = np.asarray(new_counts, dtype=np.int64).reshape(-1, 3)
    per_doc = result.per_document
    if not np.array_equal(per_doc[docs], old):
        return None
    per_doc = per_doc.copy()
    per_doc[docs] = new
    tp, fp, fn = (int(v) for v in np.array([result.tp, result.fp, result.fn])
                  + new.sum(axis=0) - old.sum(axis=0))
    score, precision, recall, reason = fbeta_from_counts(tp, fp, fn, result.beta)
    return FbetaResult(score, precision, recall, tp, fp, fn, per_doc, result.beta,
                       result.threshold, result.matching, reason)


def _check_numbers(beta, threshold):
    try:
        beta, threshold = float(beta), float(threshold)
    except (TypeError, ValueError):
        raise InputError(f"beta and threshold must be numbers; got {beta!r}, {threshold!r}") from None
    if not (np.isfinite(beta) and beta > 0):
        raise InputError(f"beta must be a positive number; got {beta}")
    if not (np.isfinite(threshold) and 0 <= threshold <= 1):
        raise InputError(f"threshold must be between 0 and 1; got {threshold}")
    return beta, threshold


def document_matrices(truths: str | Iterable[str], predictions: str | Iterable[str], *,
                      threshold: float = 0.5, matching: str = "one-to-one",
                      clean: bool = False) -> DocumentMatch:
    """One document's Jaccard and match matrices (for drawing)."""
    check_option("matching", matching, MATCHINGS)
    _, threshold = _check_numbers(0.5, threshold)
    prep = _Prepared([truths], [predictions], clean)
    chosen, used = _match(prep, threshold, matching)
    order = np.argsort(prep.p_sid, kind="stable")     # predictions shown sorted
    column = np.argsort(order)
    t, p = prep.t_sid.size, prep.p_sid.size
    jm = np.zeros((t, p))
    if t and p:
        block = (prep.p_sid[order], np.broadcast_to(prep.t_sid[:, None], (t, p)))
        jm[:] = next(prep.block_jaccard([block], t * p))[1]
    mm = np.zeros((t, p), dtype=bool)
    ok = chosen >= 0
    mm[np.flatnonzero(ok), column[chosen[ok]]] = True
    tp = int(ok.sum())
    return DocumentMatch([prep.strings[i] for i in prep.t_sid],
                         [prep.strings[i] for i in prep.p_sid[order]],
                         jm, mm, tp, int((~used[:-1]).sum()), t - tp)


__all__ = ["split_cell", "MATCHINGS", "Coded", "coded_fbeta", "update_documents",
           "FbetaResult", "DocumentMatch", "fbeta_from_counts", "jaccard_fbeta",
           "document_matrices", "clean_text", "tokens", "jaccard", "shared_tokens"]
