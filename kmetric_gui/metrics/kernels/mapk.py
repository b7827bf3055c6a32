"""MAP@K: mean over queries of the average precision of the first K predictions.

Kaggle's public definition (``apk``/``mapk`` of Ben Hamner's Metrics):
* only the first K predictions count;
* a prediction is a hit when it is in the actual list and did not occur
  earlier in the predictions (a repeated item counts once, but still takes
  its position);
* AP = sum over hits of (hits so far / position) / min(len(actual), K),
  where len(actual) counts the actual list as given;
* a query with an empty actual list has AP 0 and still counts in the mean.

Items are coded to integers once; hits come from one sorted lookup of the
(query, item) pairs, so no Python loop runs per prediction.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import InputError
from ...core.additive import mean_units


@dataclass(frozen=True)
class MapkResult:
    score: float                 # nan when undefined
    undefined_reason: "str | None"
    k: int
    n: int                       # queries
    ap: np.ndarray               # (n,) average precision per query: the additive statistic
    hits: np.ndarray             # (n,) hits among the first K predictions
    actual_sizes: np.ndarray     # (n,) length of each actual list
    higher_is_better: bool = True

    @property
    def row_stats(self):
        return self.ap

    def units(self):
        return mean_units(self.ap, "query")


def split_items(cells):
    """Lists of items from space-separated strings (lists pass through)."""
    return [c.split() if isinstance(c, str) else list(c) for c in cells]


def check_k(k):
    try:
        kk = int(k)
    except (TypeError, ValueError):
        raise InputError(f"k must be a whole number of predictions; got {k!r}") from None
    if kk != k or kk < 1:
        raise InputError(f"k must be a whole number of at least 1; got {k!r}")
    return kk


def _padded(lists, width, code):
    """(n, width) codes, -1 where a list is shorter."""
    n = len(lists)
    lengths = np.fromiter((min(len(x), width) for x in lists), dtype=np.intp, count=n)
    out = np.full((n, width), -1, dtype=np.int64)
    flat = [code[v] for x in lists for v in x[:width]]
    rows = np.repeat(np.arange(n), lengths)
    cols = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    out[rows, cols] = np.asarray(flat, dtype=np.int64)
    return out


def mapk(actual, predicted, *, k: int = 5) -> MapkResult:
    """MAP@K of predicted item lists against actual item lists.

    actual, predicted: one entry per query, each a space-separated string or
    a sequence of items.

    >>> mapk(["a", "b"], ["a x", "x b"], k=2).score     # AP 1 and 1/2
    0.75
    """
    k = check_k(k)
    act, pred = split_items(actual), split_items(predicted)
    if len(act) != len(pred):
        raise InputError(f"actual has {len(act)} queries, predictions {len(pred)}")
    n = len(act)
    sizes = np.fromiter((len(a) for a in act), dtype=np.int64, count=n)
    if n == 0:
        z = np.zeros(0)
        return MapkResult(float("nan"), "no queries to score", k, 0, z, z.astype(np.int64), sizes)
    code = {}
    for lst in pred:
        for v in lst[:k]:
            code.setdefault(v, len(code))
    n_pred_items = len(code)
    for lst in act:
        for v in lst:
            code.setdefault(v, len(code))
    p = _padded(pred, k, code)                               # (n, k)
    width = int(sizes.max()) if n else 0
    a = _padded(act, max(width, 1), code)                    # (n, A)
    items = max(len(code), 1)
    q = np.arange(n, dtype=np.int64)[:, None]
    # A hit: (query, item) is among the query's actual pairs.
    actual_keys = np.unique((q * items + a)[a >= 0])
    pkeys = q * items + p
    valid = (p >= 0) & (p < n_pred_items)
    pos = np.searchsorted(actual_keys, pkeys)
    found = valid & (pos < actual_keys.size)
    found[found] = actual_keys[pos[found]] == pkeys[found]
    # ... and the item's first occurrence among the query's first K predictions.
    first = np.ones_like(valid)
    for j in range(1, k):
        first[:, j] = ~(p[:, :j] == p[:, j:j + 1]).any(axis=1)
    hit = found & first
    cum = np.cumsum(hit, axis=1)
    prec = np.where(hit, cum / np.arange(1, k + 1), 0.0).sum(axis=1)
    denom = np.minimum(sizes, k)
    ap = np.where(denom > 0, prec / np.maximum(denom, 1), 0.0)
    return MapkResult(float(ap.mean()), None, k, n, ap, cum[:, -1].astype(np.int64), sizes)
