"""Sorting the id keys of a pair and pairing them up (io/ids.py's join): numpy sorts
that let go of the GIL, a large one split in halves on two threads."""
from concurrent.futures import ThreadPoolExecutor

import numpy as np

_STEP = 1 << 20                     # rows at a time: small temporaries
_SORTER = ThreadPoolExecutor(2, thread_name_prefix="kmetric-sort")   # halves of a sort (no
                                                                     # thread until used)


def sort_in_place(arr):
    """np.sort in place on both cores: each half sorted on its own thread, then one
    merge (numpy's stable sort finds the two sorted runs: a linear pass).

    Nearly twice as fast as one sort on two idle cores; the merge borrows half the
    array's size for a moment.
    """
    if arr.size < (1 << 20):
        arr.sort()
        return
    half = arr.size // 2
    other = _SORTER.submit(arr[half:].sort)
    arr[:half].sort()
    other.result()
    arr.sort(kind="stable")


def _argsort(keys):
    """Stable argsort of uint64 keys in about one np.sort, with one n-sized temporary.

    The row index rides in the low bits of each value: np.sort of values is
    about twice as fast as np.argsort. Keys wider than the bits left over are
    cut to their high bits; rows whose cut keys tie are then put in full-key
    order by one lexsort over the tied rows only (random ids tie rarely:
    no fallback, no cliff at any size). The order is unpacked in place.
    """
    return _argsort_distinct(keys, False)[0]


def _argsort_distinct(keys, want_distinct=True):
    """(_argsort's order, whether no key repeats: None unless wanted), the latter from
    the sorted values' equal cut keys, then the full keys of those rows only."""
    n = keys.size
    if n < 2:
        return np.arange(n, dtype=np.int64), True
    ib = int(n - 1).bit_length()
    lo = keys.min()
    shift = max(0, int(keys.max() - lo).bit_length() - (64 - ib))
    packed = keys - lo
    if shift:
        packed >>= np.uint64(shift)
    packed <<= np.uint64(ib)
    for a in range(0, n, _STEP):               # the index, without an n-sized temporary
        packed[a:a + _STEP] |= np.arange(a, min(a + _STEP, n), dtype=np.uint64)
    sort_in_place(packed)
    ties = []
    if shift or want_distinct:
        for a in range(0, n - 1, _STEP):
            high = packed[a:a + _STEP + 1] >> np.uint64(ib)
            ties.append(np.flatnonzero(high[1:] == high[:-1]) + a)
    packed &= np.uint64((1 << ib) - 1)
    order = packed.view(np.int64)
    tie = np.concatenate(ties) if ties else np.zeros(0, np.int64)
    if tie.size and shift:
        # every row of a tie group (np.union1d would import numpy.ma: 30 ms)
        rows = np.concatenate((tie, tie + 1))
        rows.sort()
        rows = rows[np.concatenate(([True], rows[1:] != rows[:-1]))]
        part = order[rows]
        k = keys[part]
        order[rows] = part[np.lexsort((part, k, (k - lo) >> np.uint64(shift)))]
    distinct = None
    if want_distinct:
        distinct = not tie.size or not np.any(keys[order[tie]] == keys[order[tie + 1]])
    return order, distinct


def _sort(keys):
    """(stable argsort of keys, sorted keys); any integer keys (viewed as uint64)."""
    keys = np.ascontiguousarray(keys)
    keys = keys.view(np.uint64) if keys.dtype != np.uint64 else keys
    order = _argsort(keys)
    return order, keys[order]


def _scan(sol_k, sol_o, sub_k, sub_o):
    """(sol duplicates, sub duplicates) in chunks: no sorted copies."""
    dups = ([], [])
    for a in range(0, max(sol_o.size, sub_o.size), _STEP):
        start = max(a - 1, 0)
        for j, (k, o) in enumerate(((sol_k, sol_o), (sub_k, sub_o))):
            s = k[o[start:a + _STEP]]
            dups[j].append(o[np.flatnonzero(s[1:] == s[:-1]) + start + 1])
    return tuple(np.sort(np.concatenate(d)) if d else np.zeros(0, np.int64) for d in dups)


def _paired(sol_k, sol_o, sub_k, sub_o):
    """The join when the k-th smallest ids of both sides are equal for every k (solution
    ids distinct), else None. Pairs whose keys are equal make the join valid: the
    submission's ids are then distinct too. One gather, checked in pieces, where
    _scan takes two (and finds the problems)."""
    n = sol_o.size
    if n != sub_o.size:
        return None
    sub_index = np.empty(n, dtype=np.int64)
    sub_index[sol_o] = sub_o
    for a in range(0, n, _STEP):
        if not np.array_equal(sub_k[sub_index[a:a + _STEP]], sol_k[a:a + _STEP]):
            return None
    return sub_index
