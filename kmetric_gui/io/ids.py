"""Join solution and submission rows on their ids, fast.

Kaggle ids are usually fixed-width codes (hex image ids, UUIDs). Such ids are
packed from their raw Arrow bytes into int64 keys (a few bits per character),
and the join is two sorts and a merge in numpy: several times faster than
hashing millions of Python strings. Other ids fall back to pandas.factorize.
"""
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pyarrow as pa


@dataclass(frozen=True)
class Alignment:
    sub_index: np.ndarray    # for each solution row, its submission row (-1: missing)
    sol_duplicates: np.ndarray  # solution rows repeating an earlier id
    sub_duplicates: np.ndarray  # submission rows repeating an earlier id
    missing: np.ndarray      # solution rows whose id the submission lacks
    extra: np.ndarray        # submission rows whose id the solution lacks


def _fixed_bytes(arr):
    """(n, L) uint8 view of a string array whose values all have L bytes."""
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    if arr.null_count or not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        return None
    n = len(arr)
    off_type = np.int64 if pa.types.is_large_string(arr.type) else np.int32
    bufs = arr.buffers()
    offsets = np.frombuffer(bufs[1], dtype=off_type)[arr.offset:arr.offset + n + 1]
    if n == 0:
        return np.zeros((0, 0), dtype=np.uint8)
    width = int(offsets[1] - offsets[0])
    if width == 0 or not np.all(np.diff(offsets) == width):
        return None
    data = np.frombuffer(bufs[2], dtype=np.uint8)
    return data[offsets[0]:offsets[0] + n * width].reshape(n, width)


_POOL = ThreadPoolExecutor(2, thread_name_prefix="kmetric-ids")
_HEX = [np.frombuffer(b"0123456789abcdef", np.uint8),
        np.frombuffer(b"0123456789ABCDEF", np.uint8)]


def _pack(a, b):
    """int64 keys for two fixed-width byte matrices, or None if they don't fit.

    Hex ids take 4 bits a character (up to 16 characters); other ids their
    raw bytes (up to 8). Keys are big-endian views of uint8 rows: no loop
    over characters or rows.
    """
    if a is None or b is None or (a.size and b.size and a.shape[1] != b.shape[1]):
        return None
    width = a.shape[1] if a.size else b.shape[1] if b.size else 0
    if width <= 16:
        for digits in _HEX:
            lut = np.full(256, 255, dtype=np.uint8)
            lut[digits] = np.arange(16, dtype=np.uint8)
            keys = list(_POOL.map(lambda m: _hex_keys(m, lut), (a, b)))
            if all(k is not None for k in keys):
                return keys
    if width <= 8:
        return [_view_u64(a), _view_u64(b)]
    return None


def _hex_keys(m, lut):
    codes = lut[m]
    if (codes == 255).any():
        return None
    return _view_u64(_nibbles(codes))


def _nibbles(codes):
    if codes.shape[1] % 2:
        codes = np.concatenate((np.zeros((codes.shape[0], 1), np.uint8), codes), axis=1)
    return (codes[:, 0::2] << 4) | codes[:, 1::2]


def _view_u64(m):
    padded = np.zeros((m.shape[0], 8), dtype=np.uint8)
    padded[:, 8 - m.shape[1]:] = m
    return padded.view(">u8").ravel().astype(np.int64)


def id_keys(sol_ids, sub_ids):
    """Equal ids <-> equal int64 keys, for two Arrow string arrays."""
    packed = _pack(_fixed_bytes(sol_ids), _fixed_bytes(sub_ids))
    if packed is not None:
        return packed
    import pandas as pd  # the slow path only; keeps the CLI start fast
    both = np.concatenate((sol_ids.to_numpy(zero_copy_only=False),
                           sub_ids.to_numpy(zero_copy_only=False)))
    codes, _ = pd.factorize(both)
    return codes[:len(sol_ids)].astype(np.int64), codes[len(sol_ids):].astype(np.int64)


def _sort(keys):
    """(stable argsort of keys, sorted keys)."""
    order = _argsort_packed(keys)
    if order is None:
        order = np.argsort(keys, kind="stable")
    return order, keys[order]


def _argsort_packed(keys):
    """Argsort by sorting values: the row index rides in the low bits.

    np.sort on int64 is about twice as fast as np.argsort. Keys wider than the
    bits left over are cut to their high bits; rows whose cut keys tie are then
    put in full-key order (random ids almost never tie). None when that fix-up
    would be large.
    """
    n = keys.size
    if n < 2 or keys.min() < 0:
        return None
    ib = int(n - 1).bit_length()
    lo = int(keys.min())
    shift = max(0, int(int(keys.max()) - lo).bit_length() - (63 - ib))
    packed = ((keys - lo) >> shift) << ib
    packed |= np.arange(n, dtype=np.int64)
    packed.sort()
    order = packed & ((1 << ib) - 1)
    if shift:
        high = packed >> ib
        tie = np.flatnonzero(high[1:] == high[:-1])
        if tie.size > 10_000:
            return None
        if tie.size:
            starts = tie[np.r_[True, tie[1:] != tie[:-1] + 1]]
            for a in starts:
                b = a + 1
                while b < n and high[b] == high[a]:
                    b += 1
                part = order[a:b]
                order[a:b] = part[np.argsort(keys[part], kind="stable")]
    return order


def _duplicates(sk, order):
    """Rows (original positions) whose sorted key equals the one before it."""
    dup = np.flatnonzero(sk[1:] == sk[:-1]) + 1
    return np.sort(order[dup])


def align(sol_ids, sub_ids):
    """Match rows by id: duplicates, missing and extra ids, and the join."""
    sol_k, sub_k = id_keys(sol_ids, sub_ids)
    # numpy's sort releases the GIL: sort both files' keys on two cores.
    (sol_order, sol_sorted), (sub_order, sub_sorted) = _POOL.map(_sort, (sol_k, sub_k))
    sol_dup, sub_dup = _duplicates(sol_sorted, sol_order), _duplicates(sub_sorted, sub_order)
    if not sol_dup.size and not sub_dup.size and np.array_equal(sol_sorted, sub_sorted):
        # The valid case: the same ids on both sides, each once.
        sub_index = np.empty(sol_k.size, dtype=np.int64)
        sub_index[sol_order] = sub_order
        empty = np.zeros(0, dtype=np.int64)
        return Alignment(sub_index, empty, empty, empty, empty)
    # Sorted queries against sorted keys: a cache-friendly merge.
    pos = np.searchsorted(sub_sorted, sol_sorted)
    found = pos < sub_sorted.size
    found[found] = sub_sorted[pos[found]] == sol_sorted[found]
    sub_index = np.full(sol_k.size, -1, dtype=np.int64)
    sub_index[sol_order[found]] = sub_order[pos[found]]
    pos_b = np.searchsorted(sol_sorted, sub_sorted)
    in_sol = pos_b < sol_sorted.size
    in_sol[in_sol] = sol_sorted[pos_b[in_sol]] == sub_sorted[in_sol]
    return Alignment(sub_index, sol_dup, sub_dup, np.flatnonzero(sub_index < 0), np.sort(sub_order[~in_sol]))
