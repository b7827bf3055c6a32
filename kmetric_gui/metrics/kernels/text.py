"""Text metrics: mean Levenshtein (edit) distance and word-level Jaccard.

* Levenshtein: the least insertions, deletions and substitutions of characters turning
  the prediction into the truth. Per row, with the row's truth length kept, so the
  score is the mean distance, the mean distance over the longer string (``row``), or
  the sum of distances over the sum of truth lengths (``total``: the character error
  rate). The dynamic programme runs for many rows at once: row i of the table is
  min(above + 1, diagonal + cost), then min over j of (that - j) + j (a running
  minimum along the row: the insertions), so the only Python loop is over the
  characters of the longest truth, and rows of similar lengths go together.
* Word Jaccard (Tweet Sentiment Extraction): |A & B| / |A | B| of the sets of
  whitespace-separated, lower-cased words; the texts are lowered and split in one call
  on them joined, the sets compared as sorted (row, word) keys.
"""
from __future__ import annotations

import numpy as np

from .means import mean_result, ratio_result, sorted_unique

NORMALIZE = ("none", "row", "total")
CELLS = 1 << 18          # table cells (rows x columns) a batch works on


class _Chars:
    """Every string's code points in one array (one encode of the joined strings)."""

    def __init__(self, strings):
        self.lengths = np.fromiter(map(len, strings), dtype=np.int64, count=len(strings))
        self.flat = np.frombuffer("".join(strings).encode("utf-32-le"), dtype=np.int32)
        self.starts = np.cumsum(self.lengths) - self.lengths

    def padded(self, rows, width):
        """(len(rows), width) int32 code points of those strings, -1 past each end."""
        out = np.full((rows.size, max(width, 0)), -1, dtype=np.int32)
        ln = self.lengths[rows]
        r = np.repeat(np.arange(rows.size), ln)
        c = np.arange(int(ln.sum())) - np.repeat(np.cumsum(ln) - ln, ln)
        out[r, c] = self.flat[np.repeat(self.starts[rows], ln) + c]
        return out


def _batch(ta, pa, rows):
    """(rows,) Levenshtein distances of one batch of rows of similar lengths."""
    lt, lp = ta.lengths[rows], pa.lengths[rows]
    mt, mp = int(lt.max(initial=0)), int(lp.max(initial=0))
    a, b = ta.padded(rows, mt), pa.padded(rows, mp)
    r = rows.size
    kind = np.int16 if mt + mp < 2 ** 15 else np.int32
    j = np.arange(mp + 1, dtype=kind)
    prev = np.broadcast_to(j, (r, mp + 1)).copy()         # the empty truth: j insertions
    cur = np.empty_like(prev)
    cost = np.empty((r, mp), dtype=bool)
    up = np.empty((r, mp), dtype=kind)
    out = np.where(lp == 0, lt, 0).astype(np.int64)
    done = lt == 0
    out[done] = lp[done]
    ends = np.bincount(lt, minlength=mt + 1)
    for i in range(mt):
        np.not_equal(b, a[:, i:i + 1], out=cost)
        np.add(prev[:, :-1], cost, out=cur[:, 1:], casting="unsafe")   # substitute (or keep)
        np.add(prev[:, 1:], 1, out=up)                                 # delete
        np.minimum(cur[:, 1:], up, out=cur[:, 1:])
        cur[:, 0] = i + 1
        cur -= j                                                       # insert: a running minimum
        np.minimum.accumulate(cur, axis=1, out=cur)
        cur += j
        if ends[i + 1]:
            last = lt == i + 1
            out[last] = cur[last, lp[last]]
        prev, cur = cur, prev
    return out


def levenshtein_distances(truths, preds):
    """(n,) edit distance of each (truth, prediction) pair of strings."""
    ta, pa = _Chars(truths), _Chars(preds)
    lt, lp = ta.lengths, pa.lengths
    n = lt.size
    out = np.zeros(n, dtype=np.int64)
    order = np.lexsort((lp, lt))          # similar lengths together: little padding
    most = np.maximum.accumulate(lp[order][::-1])[::-1]      # longest prediction from here on
    a = 0
    while a < n:
        width = max(int(lt[order[a]]), 1) * max(int(most[a]), 1)
        size = max(1, min(n - a, CELLS // width))
        take = order[a:a + size]
        out[take] = _batch(ta, pa, take)
        a += size
    return out


def levenshtein(truths, preds, normalize="none"):
    """Mean edit distance (``none``), mean of distance / longer length (``row``), or total
    distance / total truth length (``total``).

    >>> levenshtein(["kitten", ""], ["sitting", "ab"]).score
    2.5
    """
    d = levenshtein_distances(truths, preds).astype(np.float64)
    lt = np.fromiter((len(s) for s in truths), dtype=np.float64, count=len(truths))
    if normalize == "total":
        return ratio_result(d, lt, "levenshtein", "the truth holds no characters",
                            normalize=normalize, distances=d)
    if normalize == "row":
        lp = np.fromiter((len(s) for s in preds), dtype=np.float64, count=len(preds))
        longer = np.maximum(lt, lp)
        with np.errstate(invalid="ignore", divide="ignore"):
            v = np.where(longer > 0, d / longer, 0.0)
        return mean_result(v, "levenshtein", normalize=normalize, distances=d)
    return mean_result(d, "levenshtein", normalize=normalize, distances=d)


def _word_keys(texts, code):
    """Sorted unique (row * V + word) keys of lower-cased whitespace-split texts, V = 2^32:
    every text lowered and split in one call on the joined texts (rows apart by a NUL
    token), words coded through one dict; None when a text holds a NUL itself."""
    joined = " \x00 ".join(texts)
    if joined.count("\x00") != max(len(texts) - 1, 0):
        return None
    words = joined.lower().split()
    for w in dict.fromkeys(words):
        code.setdefault(w, len(code))
    c = np.fromiter(map(code.__getitem__, words), dtype=np.int64, count=len(words))
    sep = c == 0
    row = np.cumsum(sep)
    return sorted_unique((row[~sep] << 32) | c[~sep])


def jaccard_words(truths, preds):
    """Mean word-level Jaccard (a row with no words on either side counts 1: the truth is
    checked upstream to hold words). Rows whose texts are equal score 1 without being
    split; the others are split in one pass (``_word_keys``).

    >>> jaccard_words(["Good day", "so sad"], ["good", "SAD so"]).score
    0.75
    """
    truths, preds = list(truths), list(preds)
    n = len(truths)
    v = np.ones(n)
    same = np.fromiter(map(str.__eq__, truths, preds), dtype=bool, count=n)
    rest = np.flatnonzero(~same)
    if rest.size:
        code = {"\x00": 0}
        a = _word_keys([truths[i] for i in rest], code)
        b = _word_keys([preds[i] for i in rest], code) if a is not None else None
        if a is None or b is None:             # a NUL in a text: row by row
            sets = [(set(truths[i].lower().split()), set(preds[i].lower().split())) for i in rest]
            part = np.fromiter((len(x & y) / len(x | y) if (x or y) else 1.0 for x, y in sets),
                               dtype=np.float64, count=rest.size)
        else:
            m = rest.size
            na = np.bincount(a >> 32, minlength=m)
            nb = np.bincount(b >> 32, minlength=m)
            both = np.bincount(np.intersect1d(a, b, assume_unique=True) >> 32, minlength=m)
            union = na + nb - both
            with np.errstate(invalid="ignore", divide="ignore"):
                part = np.where(union > 0, both / union, 1.0)
        v[rest] = part
    return mean_result(v, "jaccard_words", higher_is_better=True,
                       exact=int(np.count_nonzero(v == 1.0)), empty=int(np.count_nonzero(v == 0)))
