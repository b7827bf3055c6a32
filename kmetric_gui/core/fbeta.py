"""Jaccard-matched micro F-beta (Coleridge "Show US the Data").

Each distinct string is tokenized once; Jaccard scores come from one small
table of all distinct pairs, or, when strings are many, from looking each
truth's tokens up in a (string, token) bitset; matching runs over all
documents at once in a few dense blocks, one step per (padded width, truth
rank).
"""
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property, partial
from itertools import chain, count
from operator import itemgetter

import numpy as np

from ..errors import InputError
from ._checks import check_option

MATCHINGS = ("one-to-one", "many-to-one")
_DENSE_MATMUL = 1 << 27  # strings^2 x vocabulary below which one matrix product scores all
_BLOCK_CELLS = 12288     # cells per matching block: arrays small enough for malloc's heap
_PADDED_MAX = 1 << 21    # cells x tokens above which a block is scored token by token
_BITSET_MAX = 1 << 29    # (string, token) bitset size (bits) below which it replaces searchsorted
_CHAR_IDS = 0x110000     # ids up to this travel as one-character strings
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


def _as_lists(docs, what):
    """Each document as a list of items (plain lists pass through untouched)."""
    if set(map(type, docs)) <= {list}:
        return docs
    return [_as_items(d, what, i) for i, d in enumerate(docs)]


def _check_strings(distinct, flat, t_count):
    """Only the distinct items need a type check (there are fewer of them)."""
    if set(map(type, distinct)) <= {str}:
        return
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


def _first_ids(items):
    """(distinct items in first-seen order, id of each item), in one pass.

    A defaultdict hands out the next id to each new item, and ids travel as
    one-character strings: one itemgetter call looks them all up and one
    join packs them, all in C, read back as uint32 - several times cheaper
    than a set, a dict and a Python int per item. Raises TypeError for an
    unhashable item.
    """
    if not items:
        return [], np.zeros(0, dtype=np.int64)
    ids = defaultdict(partial(next, map(chr, range(_CHAR_IDS))))
    try:
        text = "".join(itemgetter(*items)(ids))
    except StopIteration:   # more distinct items than characters
        ids = dict(zip(dict.fromkeys(items), count()))
        return list(ids), np.fromiter(map(ids.__getitem__, items), dtype=np.int64,
                                      count=len(items))
    return list(ids), np.frombuffer(text.encode("utf-32-le", "surrogatepass"),
                                    np.uint32).astype(np.int64)


def _token_keys(strings):
    """Sorted unique keys string id * V + token id of each string's lower-cased
    whitespace tokens, and V (the vocabulary size)."""
    # One lower() and one split() over all strings joined, each followed by a
    # "\x00" marker token: C speed, instead of a list and a set per string.
    text = " \x00 ".join(strings) + " \x00"
    joined = text.count("\x00") == len(strings)
    if joined:
        toks = text.lower().split()
    else:   # no strings, or a string holding "\x00" itself
        lists = list(map(str.split, map(str.lower, strings)))
        toks = list(chain.from_iterable(lists))
    vocab, ids = _first_ids(toks)
    vocab = vocab or [""]
    if joined:
        mark = ids == vocab.index("\x00")
        owner = np.cumsum(mark) - mark
        owner, ids = owner[~mark], ids[~mark]
    else:
        lens = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
        owner = np.repeat(np.arange(len(lists)), lens)
    keys = owner * len(vocab) + ids
    keys.sort(kind="stable")                 # already grouped by string: fast
    if keys.size:
        keys = keys[np.r_[True, keys[1:] != keys[:-1]]]   # a set: repeats dropped
    return keys, len(vocab)


class _Prepared:
    """Strings to ids, token sets as CSR arrays.

    String ids follow alphabetical order. Truths are sorted by id within
    their document (one-to-one takes them in that order); predictions keep
    their order and ties are broken by id instead.
    """

    def __init__(self, truths, predictions, clean):
        if len(truths) != len(predictions):
            raise InputError(f"truths and predictions differ in number of documents: "
                             f"{len(truths)} vs {len(predictions)}")
        n = self.n_docs = len(truths)
        truths, predictions = _as_lists(truths, "truths"), _as_lists(predictions, "predictions")
        lens = np.fromiter(map(len, chain(truths, predictions)), dtype=np.int64, count=2 * n)
        # One flat tuple, then dict lookups at C speed: no Python statement
        # per item.
        flat = tuple(chain.from_iterable(chain(truths, predictions)))
        t_count = int(lens[:n].sum())
        try:
            seen, first = _first_ids(flat)
        except TypeError:   # an unhashable item: name it
            _check_strings([s for s in flat if not isinstance(s, str)], flat, t_count)
            raise InputError("truths and predictions must be strings") from None
        _check_strings(seen, flat, t_count)
        # Ids in alphabetical order: rank the distinct strings once.
        if clean:
            keys = list(map(clean_text, seen))
            self.strings = sorted(set(keys))
            rank = dict(zip(self.strings, count()))
            rank = np.fromiter(map(rank.__getitem__, keys), dtype=np.int64, count=len(keys))
        else:
            order = sorted(range(len(seen)), key=seen.__getitem__)
            self.strings = list(map(seen.__getitem__, order))
            rank = np.empty(len(order), dtype=np.int64)
            rank[order] = np.arange(len(order))
        sid = rank[first]
        del flat
        s_count = len(self.strings)
        self.nt, self.npd = lens[:n], lens[n:]
        self.t_start, self.p_start = _segments(self.nt), _segments(self.npd)
        t_sid, self.p_sid = sid[:t_count], sid[t_count:]
        # Truths sorted by id within their document (already grouped by
        # document: a stable sort of doc * S + id is fast).
        t_doc = np.repeat(np.arange(n, dtype=np.int64), self.nt)
        self.t_sid = t_sid[np.argsort(t_doc * s_count + t_sid, kind="stable")]
        # Token sets of every distinct string as sorted (string, token) keys.
        self.member_keys, self.vocab_size = _token_keys(self.strings)
        owner = self.member_keys // self.vocab_size
        self.tok_ids = self.member_keys - owner * self.vocab_size
        self.tok_len = np.bincount(owner, minlength=s_count)
        self.tok_ptr = np.concatenate(([0], np.cumsum(self.tok_len)))

    def dense(self, pairs):
        """Whether one dense table of all distinct pairs is worth building."""
        s_count, size = len(self.strings), len(self.strings) * self.vocab_size
        # The S x V token matrix, the S x V x S product and the S x S table
        # all small: a few long strings make V huge while S stays tiny, and
        # many spellings of a few words make S large while V stays tiny.
        return (pairs > s_count and size * s_count <= _DENSE_MATMUL
                and size <= _DENSE_MATMUL >> 3 and s_count * s_count <= _DENSE_MATMUL >> 5)

    def block_jaccard(self, blocks, pairs):
        """For each block (a, b, ...), yield it with the Jaccard of a[j] and each b[i, j].

        Blocks are scored one at a time, when asked for, so a block built
        after earlier matches sees them. String id S (one past the last) is a
        sentinel that scores -1.
        """
        s_count = len(self.strings)
        if self.dense(pairs):
            table = self.jaccard_table.ravel()
            for block in blocks:
                yield block, table[block[1] * (s_count + 1) + block[0]]
            return
        for block in blocks:
            a, b = block[0], block[1]
            real = np.minimum(b, s_count - 1)
            jac = self._padded_jaccard(a, real)
            if jac is None:   # a very long truth: token by token instead
                jac = self._jaccard_direct(np.broadcast_to(a, b.shape).ravel(),
                                           real.ravel()).reshape(b.shape)
            yield block, np.where(b < s_count, jac, -1.0)

    def _padded_jaccard(self, a_sid, b_sid):
        """Jaccard of a[j] with each b[i, j]: a's tokens padded to its longest,
        looked up in b's in one (w, n, tokens) pass. None if too large."""
        lens = self.tok_len[a_sid]
        most = int(lens.max()) if lens.size else 0
        if b_sid.size * most > _PADDED_MAX:
            return None
        k = np.arange(most)
        tok = self.tok_ids[np.minimum(self.tok_ptr[a_sid][:, None] + k,
                                      max(self.tok_ids.size - 1, 0))]
        hit = self._has(b_sid[:, :, None] * self.vocab_size + tok)
        hit &= k < lens[:, None]
        inter = hit.sum(axis=2)
        union = lens + self.tok_len[b_sid] - inter
        return np.where(union > 0, inter / np.maximum(union, 1), 0.0)

    def _has(self, query):
        """Whether each (string * V + token) key is a member: bitset or keys."""
        if self.member_bits is not None:
            return ((self.member_bits[query >> 3] >> (query & 7).astype(np.uint8)) & 1).astype(bool)
        keys = self.member_keys
        if keys.size == 0:
            return np.zeros(query.shape, dtype=bool)
        return keys[np.minimum(np.searchsorted(keys, query), keys.size - 1)] == query

    @cached_property
    def member_bits(self):
        """The (string, token) keys as a packed bitset, when it fits."""
        size = len(self.strings) * self.vocab_size
        if size > _BITSET_MAX:
            return None
        keys = self.member_keys                   # sorted: bytes come in runs
        bits = np.zeros(size // 8 + 1, dtype=np.uint8)
        if keys.size:
            byte = keys >> 3
            start = np.flatnonzero(np.r_[True, byte[1:] != byte[:-1]])
            mask = np.left_shift(1, (keys & 7).astype(np.uint8), dtype=np.uint8)
            bits[byte[start]] = np.bitwise_or.reduceat(mask, start)
        return bits

    @cached_property
    def jaccard_table(self):
        """Jaccard of every pair of distinct strings, one small matrix product,
        plus a sentinel string that scores -1 with all."""
        s_count = len(self.strings)
        owner = np.repeat(np.arange(s_count), self.tok_len)
        m = np.zeros((s_count, self.vocab_size), dtype=np.float32)
        m[owner, self.tok_ids] = 1.0
        inter = (m @ m.T).astype(np.float64)          # exact: small integer counts
        union = self.tok_len[:, None] + self.tok_len[None, :] - inter
        table = np.full((s_count + 1, s_count + 1), -1.0)   # last row, column: sentinel
        table[:s_count, :s_count] = np.where(union > 0, inter / np.maximum(union, 1), 0.0)
        return table

    def _jaccard_direct(self, a_sid, b_sid):
        """Jaccard for each (a, b) pair: every token of a looked up in b."""
        lens = self.tok_len[a_sid]
        pair, tok = self._expand(a_sid, lens)
        hits = np.concatenate(([0], np.cumsum(self._has(b_sid[pair] * self.vocab_size + tok))))
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


def _segment_sums(flags, starts, counts):
    """Number of true flags in each run [start, start + count)."""
    total = np.concatenate(([0], np.cumsum(flags)))
    return total[starts + counts] - total[starts]


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

    Returns the chosen prediction of each truth (-1 when unmatched) and a
    'used' flag per prediction, with one extra always-used slot for padding.

    Documents are grouped by their prediction count rounded up to a power of
    two (the block width); within a group, step r takes the r-th truth
    (alphabetically) of every document that has one. Each step is one dense
    (width, documents) block, column-major so reductions over axis 0 are
    plain element-wise passes. One-to-one: documents are independent, so a
    step's truths each take the best prediction not used yet.
    """
    n_t, n_p, s_count = prep.t_sid.size, prep.p_sid.size, len(prep.strings)
    chosen = np.full(n_t, -1, dtype=np.int64)
    used = np.zeros(n_p + 1, dtype=bool)
    used[n_p] = True
    one_to_one = matching == "one-to-one"
    nt, npd = prep.nt, prep.npd
    docs = np.flatnonzero((nt > 0) & (npd > 0))
    if docs.size == 0:
        return chosen, used
    wclass = np.frexp(npd[docs] - 1)[1]          # ceil(log2(width)); 0 for width 1
    # By width class, most truths first: the documents still holding a truth
    # of rank r are then a prefix of their class.
    most = int(nt.max())
    key = wclass * (most + 1) + (most - nt[docs])
    if key.max() < 32767:
        key = key.astype(np.int16)               # numpy's stable sort is a radix sort here
    order = np.argsort(key, kind="stable")
    docs, wclass = docs[order], wclass[order]
    bounds = np.flatnonzero(np.r_[True, wclass[1:] != wclass[:-1], True])
    p_sid = np.append(prep.p_sid, s_count)        # the padding slot reads the sentinel

    def blocks():
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            d = docs[lo:hi]
            col = np.arange(1 << int(wclass[lo]))[:, None]
            idx = np.where(col < npd[d], prep.p_start[d] + col, n_p)
            first, fewer = prep.t_start[d], -nt[d]           # fewer: ascending
            step = max(1, _BLOCK_CELLS // col.size)
            for r in range(int(nt[d[0]])):
                k = np.searchsorted(fewer, -r)                # documents with > r truths
                for j in range(0, k, step):
                    rows = first[j:min(k, j + step)] + r
                    sub = idx[:, j:j + rows.size]
                    yield prep.t_sid[rows], p_sid[sub], rows, col, sub

    for (_, b_sid, rows, col, idx), jac in prep.block_jaccard(blocks(), int(nt @ npd)):
        w = col.size
        top = jac.max(axis=0)
        # Among equal scores the alphabetically first prediction wins, then
        # the first column: the largest tie key, column in its low part.
        tie = (s_count - b_sid) * w + (w - 1 - col)
        first = w - 1 - ((jac == top) * tie).max(axis=0) % w
        ok = np.flatnonzero(top >= threshold)
        pick = idx[first[ok], ok]
        chosen[rows[ok]] = pick
        used[pick] = True
        if one_to_one:
            p_sid[pick] = s_count   # later blocks read a taken prediction as the sentinel
    return chosen, used


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
    chosen, used = _match(prep, threshold, matching)
    n = prep.n_docs
    doc_tp = _segment_sums(chosen >= 0, prep.t_start, prep.nt)
    doc_fn = prep.nt - doc_tp
    doc_fp = prep.npd - _segment_sums(used[:-1], prep.p_start, prep.npd)
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
