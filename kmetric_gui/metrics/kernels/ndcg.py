"""NDCG@K of ranked item lists: a query's relevant items are its solution items (gain 1
each, binary relevance), its predictions a ranking; only the first K count.

    DCG  = sum over the first K predictions of gain / log2(position + 1),
    IDCG = sum over the first min(relevant, K) positions of 1 / log2(position + 1),
    NDCG = DCG / IDCG, 0 for a query with nothing relevant (scikit-learn's ndcg_score
    gives such a sample 0 too); the score is the mean over queries.

A prediction repeated in one list counts once (its first place; the repeat takes a
place and gains nothing), as MAP@K's apk does. Items are coded to integers in one pass
over the flattened lists (a dict of the distinct items, looked up by ``map``); hits come
from one sort of (query, item, place) keys and an ordered lookup among the relevant
(query, item) keys: no Python loop runs per query.
"""
from __future__ import annotations

from itertools import chain

import numpy as np

from .mapk import check_k
from .means import mean_result, sorted_unique


def _flat(cells, code, k=None):
    """(query of each item, its place in the list, its code) of the cells' items (the first
    k of each when k is given). Cells are item lists, or texts of space-separated items:
    those are split in one call on the joined texts (queries apart by a NUL token)."""
    n = len(cells)
    items = None
    if n and all(isinstance(c, str) for c in cells):
        joined = " \x00 ".join(cells)
        if joined.count("\x00") == n - 1:
            items = joined.split()
    if items is not None:
        local = {"\x00": 0}                      # the separator, then this call's items
        for v in dict.fromkeys(items):
            local.setdefault(v, len(local))
        remap = np.fromiter((-1 if v == "\x00" and i == 0 else code.setdefault(v, len(code))
                             for i, v in enumerate(local)), dtype=np.int64, count=len(local))
        codes = remap[np.fromiter(map(local.__getitem__, items), dtype=np.int64,
                                  count=len(items))]
        sep = codes < 0
        query = np.cumsum(sep)
        at = np.arange(codes.size, dtype=np.int64)
        start = np.r_[0, np.flatnonzero(sep) + 1]
        place = at - start[query]
        keep = ~sep
        query, place, codes = query[keep], place[keep], codes[keep]
    else:
        lists = [c.split() if isinstance(c, str) else c for c in cells]
        lengths = np.fromiter(map(len, lists), dtype=np.int64, count=n)
        flat = list(chain.from_iterable(lists))
        for v in dict.fromkeys(flat):
            code.setdefault(v, len(code))
        codes = np.fromiter(map(code.__getitem__, flat), dtype=np.int64, count=len(flat))
        query = np.repeat(np.arange(n, dtype=np.int64), lengths)
        place = np.arange(codes.size, dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths,
                                                                  lengths)
    if k is not None:
        keep = place < k
        return query[keep], place[keep], codes[keep]
    return query, place, codes


def ndcg(actual, predicted, *, k=5):
    """Mean NDCG@K of predicted item lists against relevant item lists.

    >>> round(ndcg(["a", "b c"], ["x a", "b c"], k=2).score, 6)
    0.815465
    """
    k = check_k(k)
    act, pred = list(actual), list(predicted)
    n = len(act)
    if n == 0:
        return mean_result(np.zeros(0), "ndcg", higher_is_better=True, k=k)
    code = {}
    pq, pp, pc = _flat(pred, code, k)
    aq, _, ac = _flat(act, code)
    items = max(len(code), 1)
    relevant = sorted_unique(aq * items + ac)                # (query, item), each once
    sizes = np.bincount(relevant // items, minlength=n)
    # (query, item, place) in one sorted key: a prediction's first place in its list comes
    # first among its (query, item); the sorted keys are looked up in order
    placed = np.sort((pq * items + pc) * k + pp)
    keys, pp = np.divmod(placed, k)
    first = np.empty(keys.size, dtype=bool)
    first[:1] = True
    np.not_equal(keys[1:], keys[:-1], out=first[1:])
    pos = np.searchsorted(relevant, keys)
    found = pos < relevant.size
    found[found] = relevant[pos[found]] == keys[found]
    hit = found & first
    pq = keys // items
    disc = 1.0 / np.log2(np.arange(2, k + 2))
    dcg = np.bincount(pq[hit], weights=disc[pp[hit]], minlength=n)
    ideal = np.r_[0.0, np.cumsum(disc)][np.minimum(sizes, k)]
    with np.errstate(invalid="ignore", divide="ignore"):
        v = np.where(ideal > 0, dcg / ideal, 0.0)
    return mean_result(v, "ndcg", higher_is_better=True, k=k,
                       hits=np.bincount(pq[hit], minlength=n).astype(np.int64), relevant=sizes)
