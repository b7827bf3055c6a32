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
  whitespace-separated, lower-cased words.
"""
from __future__ import annotations

import numpy as np

from .means import mean_result, ratio_result

NORMALIZE = ("none", "row", "total")
CELLS = 1 << 20          # table cells (rows x columns) a batch works on


def _codes(strings, width):
    """(rows, width) int32 code points, -1 past each string's end."""
    out = np.full((len(strings), width), -1, dtype=np.int32)
    for i, s in enumerate(strings):
        if s:
            a = np.frombuffer(s.encode("utf-32-le"), dtype=np.int32)
            out[i, :a.size] = a
    return out


def _batch(truths, preds):
    """(rows,) Levenshtein distances of one batch of similar lengths."""
    lt = np.fromiter((len(s) for s in truths), dtype=np.int64, count=len(truths))
    lp = np.fromiter((len(s) for s in preds), dtype=np.int64, count=len(preds))
    mt, mp = int(lt.max(initial=0)), int(lp.max(initial=0))
    a, b = _codes(truths, mt), _codes(preds, mp)
    r = len(truths)
    j = np.arange(mp + 1, dtype=np.int32)
    prev = np.broadcast_to(j, (r, mp + 1)).copy()         # the empty truth: j insertions
    out = np.where(lp == 0, lt, 0).astype(np.int64)
    done = lt == 0
    out[done] = lp[done]
    for i in range(mt):
        cost = (b != a[:, i:i + 1]).astype(np.int32)
        cur = np.empty_like(prev)
        cur[:, 0] = i + 1
        np.minimum(prev[:, 1:] + 1, prev[:, :-1] + cost, out=cur[:, 1:])
        cur -= j
        np.minimum.accumulate(cur, axis=1, out=cur)
        cur += j
        last = lt == i + 1
        if last.any():
            out[last] = cur[last, lp[last]]
        prev = cur
    return out


def levenshtein_distances(truths, preds):
    """(n,) edit distance of each (truth, prediction) pair of strings."""
    n = len(truths)
    lt = np.fromiter((len(s) for s in truths), dtype=np.int64, count=n)
    lp = np.fromiter((len(s) for s in preds), dtype=np.int64, count=n)
    out = np.zeros(n, dtype=np.int64)
    order = np.lexsort((lp, lt))          # similar lengths together: little padding
    a = 0
    while a < n:
        width = max(int(lt[order[a]]), 1) * max(int(lp[order[a:]].max()), 1)
        size = max(1, min(n - a, CELLS // width))
        take = order[a:a + size]
        out[take] = _batch([truths[i] for i in take], [preds[i] for i in take])
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


def word_sets(texts):
    return [set(s.lower().split()) for s in texts]


def jaccard_words(truths, preds):
    """Mean word-level Jaccard (a row with no words on either side: the truth is checked
    upstream to hold words, so the union is never empty here).

    >>> jaccard_words(["Good day", "so sad"], ["good", "SAD so"]).score
    0.75
    """
    a, b = word_sets(truths), word_sets(preds)
    v = np.fromiter((len(x & y) / len(x | y) if (x or y) else 1.0 for x, y in zip(a, b)),
                    dtype=np.float64, count=len(a))
    return mean_result(v, "jaccard_words", higher_is_better=True,
                       exact=int(np.count_nonzero(v == 1.0)), empty=int(np.count_nonzero(v == 0)))
