"""Jaccard-matched micro F-beta (Coleridge "Show US the Data").

Each distinct string is tokenized once; Jaccard scores are computed per
distinct (truth, prediction) pair with sorted integer keys; matching runs
across all documents at once (one-to-one steps once per truth rank).
"""
import re
from itertools import chain
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..errors import InputError
from ._checks import check_option

MATCHINGS = ("one-to-one", "many-to-one")
_DENSE_PAIRS = 1 << 22   # distinct-pair table size below which pairs are deduplicated
_DENSE_MATMUL = 1 << 27  # strings^2 x vocabulary below which one matrix product scores all
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


def _flatten(docs, what):
    """(document index per item, flat list of items) from per-document lists."""
    if not set(map(type, docs)) <= {list}:
        docs = [_as_items(d, what, i) for i, d in enumerate(docs)]
    lens = np.fromiter(map(len, docs), dtype=np.int64, count=len(docs))
    flat = list(chain.from_iterable(docs))
    return np.repeat(np.arange(len(docs)), lens), flat


def _check_strings(distinct, flat, t_count):
    """Only the distinct items need a type check (there are few of them)."""
    bad = next((s for s in distinct if not isinstance(s, str)), None)
    if bad is not None:
        i = next(i for i, s in enumerate(flat) if s is bad or s == bad)
        what = "truths" if i < t_count else "predictions"
        raise InputError(f"{what}: item {bad!r} is not a string")


def _as_items(doc, what, index):
    if isinstance(doc, list):
        return doc
    if doc is None:
        return []
    if isinstance(doc, str):
        # A Kaggle cell: '|'-joined, empty means nothing.
        return [s for s in doc.split("|") if s != ""]
    try:
        return list(doc)
    except TypeError:
        raise InputError(f"{what}: document {index} is not a list of strings") from None


class _Prepared:
    """Strings to ids, token sets as CSR arrays, items sorted per document."""

    def __init__(self, truths, predictions, clean):
        if len(truths) != len(predictions):
            raise InputError(f"truths and predictions differ in number of documents: "
                             f"{len(truths)} vs {len(predictions)}")
        self.n_docs = len(truths)
        t_doc, t_flat = _flatten(truths, "truths")
        p_doc, p_flat = _flatten(predictions, "predictions")
        flat = t_flat + p_flat
        if clean:
            table = {s: clean_text(s) for s in set(flat)}
            flat = list(map(table.__getitem__, flat))
        # dict and map run at C speed: no Python statement per item.
        try:
            distinct = dict.fromkeys(flat)
        except TypeError:
            distinct = {}
            _check_strings([s for s in flat if not isinstance(s, str)], flat, len(t_flat))
        _check_strings(distinct, flat, len(t_flat))
        ids = {s: i for i, s in enumerate(distinct)}
        sid = np.fromiter(map(ids.__getitem__, flat), dtype=np.int64, count=len(flat))
        t_sid, p_sid = sid[:len(t_flat)], sid[len(t_flat):]
        self.strings = list(ids)
        s_count = len(self.strings)
        # Alphabetical rank of each distinct string: sort items within documents.
        alpha = np.empty(s_count, dtype=np.int64)
        alpha[sorted(range(s_count), key=self.strings.__getitem__)] = np.arange(s_count)
        # Items are already grouped by document: one argsort of doc * S + rank.
        o = np.argsort(t_doc * s_count + alpha[t_sid], kind="stable")
        self.t_doc, self.t_sid = t_doc[o], t_sid[o]
        o = np.argsort(p_doc * s_count + alpha[p_sid], kind="stable")
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
        """Jaccard for each (a, b) pair of string ids, vectorized.

        Each token of a is looked up among b's tokens in one sorted array of
        (string id, token) keys: no set built per pair.
        """
        if a_sid.size == 0:
            return np.zeros(0)
        s_count = len(self.strings)
        if s_count * s_count <= _DENSE_PAIRS and a_sid.size > s_count:
            # Few distinct strings, many pairs: score each distinct pair once.
            code = a_sid * s_count + b_sid
            if s_count * s_count * self.vocab_size <= _DENSE_MATMUL:
                return self._jaccard_table().ravel()[code]
            present = np.zeros(s_count * s_count, dtype=bool)
            present[code] = True
            uniq = np.flatnonzero(present)
            slot = np.cumsum(present, dtype=np.int32) - 1
            jac = self._jaccard_direct(uniq // s_count, uniq % s_count)
            return jac[slot[code]]
        return self._jaccard_direct(a_sid, b_sid)

    @cached_property
    def member_keys(self):
        """Sorted (string id, token) keys of every distinct string."""
        owner = np.repeat(np.arange(len(self.strings), dtype=np.int64), self.tok_len)
        return np.sort(owner * self.vocab_size + self.tok_ids)

    @cached_property
    def member_table(self):
        """The same as a dense bitmap, when small (faster than searchsorted)."""
        size = len(self.strings) * self.vocab_size
        if size > 1 << 24:
            return None
        table = np.zeros(size, dtype=bool)
        table[self.member_keys] = True
        return table

    def _jaccard_table(self):
        """Jaccard of every pair of distinct strings: one small matrix product."""
        s_count = len(self.strings)
        owner = np.repeat(np.arange(s_count), self.tok_len)
        m = np.zeros((s_count, self.vocab_size), dtype=np.float32)
        m[owner, self.tok_ids] = 1.0
        inter = (m @ m.T).astype(np.float64)          # exact: small integer counts
        union = self.tok_len[:, None] + self.tok_len[None, :] - inter
        return np.where(union > 0, inter / np.maximum(union, 1), 0.0)

    def _jaccard_direct(self, a_sid, b_sid):
        lens = self.tok_len[a_sid]
        pair, tok = self._expand(a_sid, lens)
        query = b_sid[pair] * self.vocab_size + tok
        if self.member_table is not None:
            hit = self.member_table[query]
        else:
            keys = self.member_keys
            pos = np.minimum(np.searchsorted(keys, query), max(keys.size - 1, 0))
            hit = keys[pos] == query if keys.size else np.zeros(query.size, bool)
        hits = np.concatenate(([0], np.cumsum(hit)))
        ends = np.cumsum(lens)
        inter = hits[ends] - hits[ends - lens]
        union = lens + self.tok_len[b_sid] - inter
        return np.where(union > 0, inter / np.maximum(union, 1), 0.0)

    def _expand(self, sid, lens):
        """(pair index, token id) for every token of each string in sid."""
        idx, pair = _ranges(self.tok_ptr[sid], lens)
        return pair, self.tok_ids[idx]


def _segments(counts):
    """Start offsets of consecutive runs with the given lengths."""
    return np.cumsum(counts) - counts


def _ranges(starts, lengths):
    """Concatenated aranges [s, s+len) for each run: (index, run id)."""
    ends = np.cumsum(lengths)
    total = int(ends[-1]) if ends.size else 0
    pos = np.arange(total)
    # Run id = number of runs ended at or before pos: a cumsum of end marks
    # (several times faster than np.repeat or searchsorted here).
    run = np.cumsum(np.bincount(ends, minlength=total + 1)[:total])
    return (starts - (ends - lengths))[run] + pos, run


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
    chosen = np.full(prep.t_sid.size, -1, dtype=np.int64)
    used = np.zeros(prep.p_sid.size, dtype=bool)
    # Only pairs at or above the threshold can ever match: the rest drop out here.
    cand = np.flatnonzero(jac >= threshold)
    ct, cp, cj = pair_truth[cand], pair_pred[cand], jac[cand]   # truth-major, preds sorted
    if matching == "many-to-one":
        groups = [np.arange(cand.size)]
    else:
        # Truths of equal rank sit in different documents: match them together,
        # rank by rank, each taking the best prediction not used yet.
        rank = (np.arange(prep.t_sid.size) - _segments(nt)[prep.t_doc])[ct]
        if rank.size and rank.max() < 32767:
            rank = rank.astype(np.int16)         # small ints: numpy's stable sort is a radix sort
        order = np.argsort(rank, kind="stable")
        bounds = np.searchsorted(rank[order], np.arange(int(nt.max(initial=0)) + 1))
        groups = [order[bounds[r]:bounds[r + 1]] for r in range(bounds.size - 1)]
    for g in groups:
        gt, gp, gj = ct[g], cp[g], cj[g]
        if matching == "one-to-one":
            free = ~used[gp]
            gt, gp, gj = gt[free], gp[free], gj[free]
        if gt.size == 0:
            continue
        new = np.r_[True, gt[1:] != gt[:-1]]
        seg = np.cumsum(new) - 1
        best = np.maximum.reduceat(gj, np.flatnonzero(new))
        hit = np.flatnonzero(gj == best[seg])
        first = hit[np.r_[True, seg[hit][1:] != seg[hit][:-1]]]   # alphabetically first
        chosen[gt[first]] = gp[first]
        used[gp[first]] = True
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
