"""NDCG@K of ranked item lists: a query's relevant items are its solution items (gain 1
each, binary relevance), its predictions a ranking; only the first K count.

    DCG  = sum over the first K predictions of gain / log2(position + 1),
    IDCG = sum over the first min(relevant, K) positions of 1 / log2(position + 1),
    NDCG = DCG / IDCG, 0 for a query with nothing relevant (scikit-learn's ndcg_score
    gives such a sample 0 too); the score is the mean over queries.

A prediction repeated in one list counts once (its first place; the repeat takes a
place and gains nothing), as MAP@K's apk does. Items are coded to integers once and hits
found by one sorted lookup of (query, item) pairs (kernels/mapk.py's way).
"""
from __future__ import annotations

import numpy as np

from .mapk import _padded, check_k, split_items
from .means import mean_result


def ndcg(actual, predicted, *, k=5):
    """Mean NDCG@K of predicted item lists against relevant item lists.

    >>> round(ndcg(["a", "b c"], ["x a", "b c"], k=2).score, 6)
    0.815465
    """
    k = check_k(k)
    act, pred = split_items(actual), split_items(predicted)
    n = len(act)
    sizes = np.fromiter((len(set(a)) for a in act), dtype=np.int64, count=n)
    if n == 0:
        return mean_result(np.zeros(0), "ndcg", higher_is_better=True, k=k)
    code = {}
    for lst in pred:
        for v in lst[:k]:
            code.setdefault(v, len(code))
    known = len(code)
    for lst in act:
        for v in lst:
            code.setdefault(v, len(code))
    p = _padded(pred, k, code)
    a = _padded(act, max(int(max((len(x) for x in act), default=1)), 1), code)
    items = max(len(code), 1)
    q = np.arange(n, dtype=np.int64)[:, None]
    keys = np.unique((q * items + a)[a >= 0])
    pk = q * items + p
    valid = (p >= 0) & (p < known)
    pos = np.searchsorted(keys, pk)
    found = valid & (pos < keys.size)
    found[found] = keys[pos[found]] == pk[found]
    first = np.ones_like(valid)
    for j in range(1, k):
        first[:, j] = ~(p[:, :j] == p[:, j:j + 1]).any(axis=1)
    hit = found & first
    disc = 1.0 / np.log2(np.arange(2, k + 2))
    dcg = hit @ disc
    ideal = np.r_[0.0, np.cumsum(disc)][np.minimum(sizes, k)]
    with np.errstate(invalid="ignore", divide="ignore"):
        v = np.where(ideal > 0, dcg / ideal, 0.0)
    return mean_result(v, "ndcg", higher_is_better=True, k=k,
                       hits=hit.sum(axis=1).astype(np.int64), relevant=sizes)
