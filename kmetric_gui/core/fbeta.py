"""Jaccard-matched micro F-beta (Coleridge "Show US the Data").

Each distinct string is tokenized once; Jaccard scores are computed per
distinct (truth, prediction) pair with sorted integer keys; matching runs
across all documents at once (one-to-one steps once per truth rank).
"""
import re
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ._checks import check_option

MATCHINGS = ("one-to-one", "many-to-one")
_CLEAN_RE = re.compile(r"[^A-Za-z0-9]+")


def clean_text(text):
    """The competition's cleaning: non-alphanumerics to spaces, lower case."""
    return _CLEAN_RE.sub(" ", str(text)).lower().strip()


def tokens(text):
    return set(text.lower().split())


def jaccard(a, b):
    """Jaccard of two strings' lower-cased whitespace token sets (0 if both empty)."""
    ta, tb = tokens(a), tokens(b)
    union = len(ta | tb)
    return len(ta & tb) / union if union else 0.0


def shared_tokens(a, b, *, clean=False):
    """Sorted tokens two strings have in common (after optional cleaning)."""
    if clean:
        a, b = clean_text(a), clean_text(b)
    return sorted(tokens(a) & tokens(b))


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
    score = (1 + b2) * precision * recall / (b2 * precision + recall)
    return float(score), float(precision), float(recall), None


def _as_items(doc, what, index):
    if doc is None:
        return []
    if isinstance(doc, str):
        # A Kaggle cell: '|'-joined, empty means nothing.
        return [s for s in doc.split("|") if s != ""]
    try:
        items = list(doc)
    except TypeError:
        raise InputError(f"{what}: document {index} is not a list of strings") from None
    for s in items:
        if not isinstance(s, str):
            raise InputError(f"{what}: document {index} has a non-string item {s!r}")
    return items


class _Prepared:
    """Strings to ids, token sets as CSR arrays, items sorted per document."""

    def __init__(self, truths, predictions, clean):
        if len(truths) != len(predictions):
            raise InputError(f"truths and predictions differ in number of documents: "
                             f"{len(truths)} vs {len(predictions)}")
        self.n_docs = len(truths)
        ids = {}
        cleaned = {}

        def collect(docs, what):
            doc_idx, sid = [], []
            for d, doc in enumerate(docs):
                for s in _as_items(doc, what, d):
                    if clean:
                        c = cleaned.get(s)
                        if c is None:
                            c = cleaned[s] = clean_text(s)
                        s = c
                    k = ids.get(s)
                    if k is None:
                        k = ids[s] = len(ids)
                    doc_idx.append(d)
                    sid.append(k)
            return np.array(doc_idx, dtype=np.int64), np.array(sid, dtype=np.int64)

        t_doc, t_sid = collect(truths, "truths")
        p_doc, p_sid = collect(predictions, "predictions")
        self.strings = list(ids)
        s_count = len(self.strings)
        # Alphabetical rank of each distinct string: sort items within documents.
        alpha = np.empty(s_count, dtype=np.int64)
        alpha[sorted(range(s_count), key=self.strings.__getitem__)] = np.arange(s_count)
        o = np.lexsort((alpha[t_sid], t_doc)) if t_sid.size else np.zeros(0, np.int64)
        self.t_doc, self.t_sid = t_doc[o], t_sid[o]
        o = np.lexsort((alpha[p_sid], p_doc)) if p_sid.size else np.zeros(0, np.int64)
        self.p_doc, self.p_sid = p_doc[o], p_sid[o]
        # Token sets of every distinct string, tokens as ints.
        vocab = {}
        lens = np.empty(s_count, dtype=np.int64)
        flat = []
        for i, s in enumerate(self.strings):
            toks = tokens(s)
            lens[i] = len(toks)
            flat.extend(vocab.setdefault(w, len(vocab)) for w in toks)
        self.tok_len = lens
        self.tok_ptr = np.concatenate(([0], np.cumsum(lens)))
        self.tok_ids = np.array(flat, dtype=np.int64)
        self.vocab_size = max(len(vocab), 1)

    def pair_jaccard(self, a_sid, b_sid):
        """Jaccard for each (a, b) pair of string ids, vectorized."""
        if a_sid.size == 0:
            return np.zeros(0)
        s_count = len(self.strings)
        code = a_sid * s_count + b_sid
        uniq, inverse = np.unique(code, return_inverse=True)
        ua, ub = uniq // s_count, uniq % s_count
        inter = self._intersections(ua, ub)
        union = self.tok_len[ua] + self.tok_len[ub] - inter
        jac = np.where(union > 0, inter / np.maximum(union, 1), 0.0)
        return jac[inverse]

    def _expand(self, sid):
        """(pair index, token id) for every token of each string in sid."""
        lens = self.tok_len[sid]
        total = int(lens.sum())
        pair = np.repeat(np.arange(sid.size), lens)
        starts = np.repeat(self.tok_ptr[sid], lens)
        local = np.arange(total) - np.repeat(np.cumsum(lens) - lens, lens)
        return pair, self.tok_ids[starts + local]

    def _intersections(self, ua, ub):
        pa, ta = self._expand(ua)
        pb, tb = self._expand(ub)
        # Token sets have no repeats, so a key seen twice is a shared token.
        keys = np.concatenate((pa * self.vocab_size + ta, pb * self.vocab_size + tb))
        keys.sort()
        dup = keys[1:][keys[1:] == keys[:-1]]
        return np.bincount(dup // self.vocab_size, minlength=ua.size)


def _segments(counts):
    """Start offsets of consecutive runs with the given lengths."""
    return np.cumsum(counts) - counts


def _ranges(starts, lengths):
    """Concatenated aranges [s, s+len) for each pair: (index, run id)."""
    total = int(lengths.sum())
    run = np.repeat(np.arange(lengths.size), lengths)
    local = np.arange(total) - np.repeat(_segments(lengths), lengths)
    return np.repeat(starts, lengths) + local, run


def _match(prep, threshold, matching):
    """Match truths to predictions in every document.

    Returns per-truth chosen prediction index (-1 when unmatched), the pair
    arrays (truth occurrence, prediction occurrence, jaccard) and the
    prediction 'used' flags.
    """
    n_docs = prep.n_docs
    nt = np.bincount(prep.t_doc, minlength=n_docs)
    npd = np.bincount(prep.p_doc, minlength=n_docs)
    p_start = _segments(npd)
    t_np = npd[prep.t_doc]                      # predictions in each truth's doc
    pair_pred, pair_truth = _ranges(p_start[prep.t_doc], t_np)
    jac = prep.pair_jaccard(prep.t_sid[pair_truth], prep.p_sid[pair_pred])
    pair_start = _segments(t_np)                 # each truth's first pair
    chosen = np.full(prep.t_sid.size, -1, dtype=np.int64)
    used = np.zeros(prep.p_sid.size, dtype=bool)
    if matching == "many-to-one":
        steps = [np.flatnonzero(t_np > 0)]
    else:
        t_rank = np.arange(prep.t_sid.size) - _segments(nt)[prep.t_doc]
        has = t_np > 0
        steps = [np.flatnonzero(has & (t_rank == r)) for r in range(int(nt.max(initial=0)))]
    for truths_now in steps:
        if truths_now.size == 0:
            continue
        idx, run = _ranges(pair_start[truths_now], t_np[truths_now])
        vals = jac[idx]
        if matching == "one-to-one":
            vals = np.where(used[pair_pred[idx]], -1.0, vals)
        seg = _segments(t_np[truths_now])
        best = np.maximum.reduceat(vals, seg)
        is_best = vals == best[run]
        local = idx - pair_start[truths_now][run]
        first = np.minimum.reduceat(np.where(is_best, local, np.iinfo(np.int64).max), seg)
        ok = best >= threshold
        pick = p_start[prep.t_doc[truths_now]] + first
        chosen[truths_now[ok]] = pick[ok]
        used[pick[ok]] = True
    return chosen, used, pair_truth, pair_pred, jac


def jaccard_fbeta(truths, predictions, *, beta=0.5, threshold=0.5,
                  matching="one-to-one", clean=False):
    """Micro F-beta over documents, truths matched to predictions by Jaccard.

    truths, predictions: one sequence of strings per document (a plain
    string is read as a '|'-joined Kaggle cell).

    >>> r = jaccard_fbeta([["a b", "c d"]], [["a b", "x"]])
    >>> (r.tp, r.fp, r.fn)
    (1, 1, 1)
    """
    check_option("matching", matching, MATCHINGS)
    beta, threshold = _check_numbers(beta, threshold)
    prep = _Prepared(truths, predictions, clean)
    chosen, used, _, _, _ = _match(prep, threshold, matching)
    n = prep.n_docs
    doc_tp = np.bincount(prep.t_doc, weights=chosen >= 0, minlength=n).astype(np.int64)
    doc_fn = np.bincount(prep.t_doc, minlength=n) - doc_tp
    doc_fp = np.bincount(prep.p_doc, weights=~used, minlength=n).astype(np.int64)
    tp, fp, fn = int(doc_tp.sum()), int(doc_fp.sum()), int(doc_fn.sum())
    score, precision, recall, reason = fbeta_from_counts(tp, fp, fn, beta)
    per_doc = np.stack([doc_tp, doc_fp, doc_fn], axis=1) if n else np.zeros((0, 3), np.int64)
    return FbetaResult(score, precision, recall, tp, fp, fn, per_doc,
                       beta, threshold, matching, reason)


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


def document_matrices(truths, predictions, *, threshold=0.5,
                      matching="one-to-one", clean=False):
    """One document's Jaccard and match matrices (for drawing)."""
    check_option("matching", matching, MATCHINGS)
    _, threshold = _check_numbers(0.5, threshold)
    prep = _Prepared([truths], [predictions], clean)
    chosen, used, pair_truth, pair_pred, jac = _match(prep, threshold, matching)
    t, p = prep.t_sid.size, prep.p_sid.size
    jm = np.zeros((t, p))
    jm[pair_truth, pair_pred] = jac
    mm = np.zeros((t, p), dtype=bool)
    ok = chosen >= 0
    mm[np.flatnonzero(ok), chosen[ok]] = True
    tp = int(ok.sum())
    return DocumentMatch([prep.strings[i] for i in prep.t_sid],
                         [prep.strings[i] for i in prep.p_sid],
                         jm, mm, tp, int((~used).sum()), t - tp)
