"""Join solution and submission rows on their ids, fast.

Kaggle ids are usually fixed-width codes (hex image ids, UUIDs). Such ids are
packed from their raw Arrow bytes into 64-bit keys (4 bits a hex character,
or the raw bytes of ids up to 8 bytes), chunk by chunk (no copy of the
strings), and the join is two sorts and a merge in numpy. Other ids get
their keys from Arrow's dictionary encoding (hashing in C++). No pandas.
"""
import functools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ..numbers import bool_array


@dataclass(frozen=True)
class Alignment:
    sub_index: np.ndarray    # for each solution row, its submission row (-1: missing)
    sol_duplicates: np.ndarray  # solution rows repeating an earlier id
    sub_duplicates: np.ndarray  # submission rows repeating an earlier id
    missing: np.ndarray      # solution rows whose id the submission lacks
    extra: np.ndarray        # submission rows whose id the solution lacks


def _chunks(arr):
    return arr.chunks if isinstance(arr, pa.ChunkedArray) else [arr]


def _fixed_width(arr):
    """Width in bytes shared by every id of a string array, or None."""
    width = None
    for c in _chunks(arr):
        if not len(c):
            continue
        if c.null_count or not (pa.types.is_string(c.type) or pa.types.is_large_string(c.type)):
            return None
        off = _offsets(c)
        w = int(off[1] - off[0])
        if w == 0 or (width is not None and w != width) or \
                int(off[-1] - off[0]) != w * len(c) or not np.all(np.diff(off) == w):
            return None
        width = w
    return width


def _offsets(c):
    off_type = np.int64 if pa.types.is_large_string(c.type) else np.int32
    return np.frombuffer(c.buffers()[1], dtype=off_type)[c.offset:c.offset + len(c) + 1]


def _byte_rows(c, width):
    """(n, width) uint8 view of one chunk's bytes (no copy)."""
    off = _offsets(c)
    data = np.frombuffer(c.buffers()[2], dtype=np.uint8)
    return data[off[0]:off[0] + len(c) * width].reshape(len(c), width)


_POOL = ThreadPoolExecutor(2, thread_name_prefix="kmetric-ids")
_HEX = [b"0123456789abcdef", b"0123456789ABCDEF"]
from .id_sort import _STEP  # noqa: E402 -- rows packed at a time: small temporaries


def _lut(digits):
    lut = np.full(256, 255, dtype=np.uint8)
    lut[np.frombuffer(digits, np.uint8)] = np.arange(16, dtype=np.uint8)
    return lut


@functools.lru_cache(maxsize=2)
def _pair_lut(digits):
    """Two text bytes (a little-endian uint16) -> their byte of the key (first digit in the
    low nibble), or 0x100 and up when either byte is not one of ``digits``."""
    one = np.full(256, 0x100, dtype=np.uint16)
    one[np.frombuffer(digits, np.uint8)] = np.arange(16, dtype=np.uint16)
    both = np.arange(1 << 16)
    return one[both & 255] | (one[both >> 8] << np.uint16(4))


def _keys(arr, width, digits, out=None):
    """uint64 keys of every id (hex ``digits`` if given, raw bytes otherwise), or None.

    ``out``: an array of len(arr) to write them into."""
    out = np.empty(len(arr), dtype=np.uint64) if out is None else out
    at = 0
    for c in _chunks(arr):
        if not len(c):
            continue
        rows = _byte_rows(c, width)
        if row_keys(rows, digits, out[at:at + rows.shape[0]]) is None:
            return None
        at += rows.shape[0]
    return out


def row_keys(rows, digits, out):
    """Keys of (n, width) id bytes into ``out`` (hex ``digits`` or raw bytes), or None
    when a byte is not one of the digits. Rows may be strided (fixed-width lines)."""
    lut = _lut(digits) if digits is not None else None
    pairs = _pair_lut(digits) if digits is not None and rows.shape[1] % 4 == 0 else None
    step = _STEP if pairs is None else 1 << 16      # the look-up's temporaries stay in cache
    for a in range(0, rows.shape[0], step):
        part = rows[a:a + step]
        if pairs is not None:
            if _hex_pairs(part, pairs, out[a:a + part.shape[0]]) is None:
                return None
            continue
        if lut is not None:
            codes = lut[part]
            if codes.max(initial=0) == 255:
                return None
            part = _nibbles(codes)
        out[a:a + part.shape[0]] = _native(part)
    return out


def _hex_pairs(rows, pairs, out):
    """(n, 4m) hex digits -> uint64 keys (m <= 4), two digits a byte by one table look-up
    per pair; None when a byte is not a digit of the table's case.

    The look-up reads the text in place (a uint16 view of each pair); its (n, 2m) bytes
    are then squeezed two at a time into m uint16 words, the key's bytes in order. No
    padded copy of the text: a copy with a 12-byte inner dimension cost more than the
    look-up itself (0.13 s of 0.30 s for 10M 12-digit ids; 0.13 s in all now).
    """
    b = np.take(pairs, rows.view("<u2"))        # (n, 2m): a key byte each, or > 255
    if b.max(initial=0) > 255:
        return None
    u = b.view("<u4")                           # byte 2k | byte 2k+1 << 16
    u |= u >> np.uint32(8)
    c = u.astype(np.uint16)                     # (n, m): byte 2k | byte 2k+1 << 8
    m = c.shape[1]
    if m == 4:
        out[:] = c.view(np.uint64).ravel()
    elif m == 2:
        out[:] = c.view(np.uint32).ravel()
    elif m == 1:
        out[:] = c.ravel()
    else:                                       # 12 digits: three words, by columns
        out[:] = c[:, 2]
        out <<= np.uint64(16)
        out |= c[:, 1]
        out <<= np.uint64(16)
        out |= c[:, 0]
    return out


class KeyIds:
    """Ids kept as their keys (8 bytes a row, not the text), decoded when text is needed.

    ``digits``: the hex digits the keys were packed from (None: raw bytes).
    """

    def __init__(self, keys, width, digits):
        self.keys, self.width, self.digits = keys, width, digits

    def __len__(self):
        return self.keys.size

    def _shifts(self):
        w = self.width
        if self.digits is None:
            raw = np.arange(256, dtype=np.uint8)
            return np.arange(w, dtype=np.uint64) * np.uint64(8), np.uint64(0xFF), raw
        if w % 4 == 0:                       # _hex_pairs: digit p in bits 4p..4p+3
            shifts = np.arange(w, dtype=np.uint64) * np.uint64(4)
        else:                                # _nibbles + _native: two digits a byte, high first
            q = np.arange(w) + w % 2
            shifts = (8 * (q // 2) + 4 * (1 - q % 2)).astype(np.uint64)
        return shifts, np.uint64(15), np.frombuffer(self.digits, np.uint8)

    def decode(self):
        """A pyarrow string array of the ids (chunked: any size)."""
        shifts, mask, table = self._shifts()
        chunks, w = [], self.width
        for a in range(0, self.keys.size, _STEP):
            k = self.keys[a:a + _STEP]
            chars = np.ascontiguousarray(table[((k[:, None] >> shifts[None, :]) & mask).astype(np.intp)])
            offsets = np.arange(k.size + 1, dtype=np.int32) * np.int32(w)
            chunks.append(pa.Array.from_buffers(pa.string(), k.size,
                                                [None, pa.py_buffer(offsets), pa.py_buffer(chars)]))
        return pa.chunked_array(chunks, type=pa.string())


def _nibbles(codes):
    if codes.shape[1] % 2:
        codes = np.concatenate((np.zeros((codes.shape[0], 1), np.uint8), codes), axis=1)
    return (codes[:, 0::2] << 4) | codes[:, 1::2]


def _native(m):
    """Rows of up to 8 bytes as uint64 keys (native byte order: only equality matters)."""
    if m.shape[1] == 8:
        return np.ascontiguousarray(m).view(np.uint64).ravel()
    padded = np.zeros((m.shape[0], 8), dtype=np.uint8)
    padded[:, :m.shape[1]] = m
    return padded.view(np.uint64).ravel()


def _pack(sol_ids, sub_ids):
    """uint64 keys for both arrays (equal ids <-> equal keys), or None if they don't fit."""
    w = _fixed_width(sol_ids) if len(sol_ids) else None
    v = _fixed_width(sub_ids) if len(sub_ids) else None
    if (len(sol_ids) and w is None) or (len(sub_ids) and v is None):
        return None
    width = w or v or 0
    if w and v and w != v:
        return None
    if width <= 16:
        for digits in _HEX:
            keys = list(_POOL.map(lambda a: _keys(a, width, digits), (sol_ids, sub_ids)))
            if all(k is not None for k in keys):
                return keys
    if width <= 8:
        return list(_POOL.map(lambda a: _keys(a, width, None), (sol_ids, sub_ids)))
    return None


def id_keys(sol_ids, sub_ids):
    """Equal ids <-> equal uint64 keys, for two Arrow string arrays."""
    packed = _pack(sol_ids, sub_ids)
    if packed is not None:
        return packed
    import pyarrow.compute as pc
    both = pa.chunked_array(_chunks(sol_ids) + _chunks(sub_ids), type=sol_ids.type) \
        if sol_ids.type == sub_ids.type else \
        pa.chunked_array(_chunks(sol_ids.cast(pa.string())) + _chunks(sub_ids.cast(pa.string())))
    codes = pc.dictionary_encode(both).combine_chunks().indices
    codes = np.frombuffer(codes.buffers()[1], dtype=np.int32)[codes.offset:codes.offset + len(codes)]
    codes = codes.astype(np.uint64)
    return codes[:len(sol_ids)], codes[len(sol_ids):]


from .id_sort import (_argsort, _argsort_distinct, _paired, _scan, _sort,  # noqa: E402,F401
                      sort_in_place)


_UNIQUE = []      # [(buffers' addresses, buffers)]: the last ids found each once (kept alive)


def _each_once(ids):
    """No id repeats. Remembered for the last array (by its buffers, held so their
    addresses stay its own): one truth aligned against many submissions hashes once."""
    chunks = _chunks(ids)
    bufs = [b for c in chunks for b in c.buffers() if b is not None]
    key = tuple((b.address, b.size) for b in bufs) + tuple((c.offset, len(c)) for c in chunks)
    memo = _UNIQUE[:1]
    if memo and memo[0][0] == key:
        return True
    keys = _own_keys(ids)
    if keys is not None:        # fixed-width ids: one sort of their keys (Arrow's hash of the
        keys.sort()             # text took 4x the whole sort join: bench/api.py)
        ok = not bool(np.any(keys[1:] == keys[:-1]))
    else:
        import pyarrow.compute as pc
        ok = pc.count_distinct(ids, mode="all").as_py() == len(ids)
    if ok:
        _UNIQUE[:] = [(key, bufs)]
    return ok


def _own_keys(ids):
    """uint64 keys of one array of fixed-width ids (as ``_pack`` makes them), or None."""
    w = _fixed_width(ids) if len(ids) else None
    if not w or w > 16:
        return None
    for digits in _HEX:
        keys = _keys(ids, w, digits)
        if keys is not None:
            return keys
    return _keys(ids, w, None) if w <= 8 else None


def _same_order(sol_ids, sub_ids):
    """The same ids in the same order, each once: the join is the identity. A memcmp
    instead of hashing both (submissions written from one sample list the ids alike)."""
    n = len(sol_ids)
    if not n or n != len(sub_ids) or sol_ids.type != sub_ids.type or sol_ids.null_count:
        return False
    a, b = (pa.chunked_array(_chunks(x), type=x.type) for x in (sol_ids, sub_ids))
    return a.equals(b) and _each_once(sol_ids)


def align(sol_ids, sub_ids):
    """Match rows by id: duplicates, missing and extra ids, and the join.

    Memory: both files' keys and their orders (4 x 8 bytes a row) and the join;
    the sorted keys only when the ids differ (the invalid case).
    """
    if _same_order(sol_ids, sub_ids):
        empty = np.zeros(0, dtype=np.int64)
        return Alignment(np.arange(len(sol_ids), dtype=np.int64), empty, empty, empty, empty)
    sol_k, sub_k = id_keys(sol_ids, sub_ids)
    # numpy's sort releases the GIL: sort both files' keys on two cores.
    other = _POOL.submit(_argsort, sub_k)
    sol_o, sol_once = _argsort_distinct(sol_k)
    sub_o = other.result()
    n = sol_o.size
    empty = np.zeros(0, dtype=np.int64)
    joined = _paired(sol_k, sol_o, sub_k, sub_o) if sol_once else None
    if joined is not None:
        return Alignment(joined, empty, empty, empty, empty)
    # Some id repeats, is missing or is extra: _scan finds the repeats.
    sol_dup, sub_dup = _scan(sol_k, sol_o, sub_k, sub_o)
    sol_sorted, sub_sorted = sol_k[sol_o], sub_k[sub_o]
    # Sorted queries against sorted keys: a cache-friendly merge.
    pos = np.searchsorted(sub_sorted, sol_sorted)
    found = pos < sub_sorted.size
    found[found] = sub_sorted[pos[found]] == sol_sorted[found]
    sub_index = np.full(n, -1, dtype=np.int64)
    sub_index[sol_o[found]] = sub_o[pos[found]]
    pos_b = np.searchsorted(sol_sorted, sub_sorted)
    in_sol = pos_b < sol_sorted.size
    in_sol[in_sol] = sol_sorted[pos_b[in_sol]] == sub_sorted[in_sol]
    return Alignment(sub_index, sol_dup, sub_dup, np.flatnonzero(sub_index < 0), np.sort(sub_o[~in_sol]))


def empty_rows(ids):
    """Rows whose id is missing or "" (an empty id is never a key); numpy on the offsets."""
    out, at = [], 0
    for c in (ids.chunks if isinstance(ids, pa.ChunkedArray) else [ids]):
        n = len(c)
        if n:
            off_type = np.int64 if pa.types.is_large_string(c.type) else np.int32
            off = np.frombuffer(c.buffers()[1], dtype=off_type)[c.offset:c.offset + n + 1]
            empty = off[1:] == off[:-1]
            if c.null_count:
                empty |= ~bool_array(c.is_valid())
            out.append(np.flatnonzero(empty) + at)
        at += n
    return np.concatenate(out) if out else np.zeros(0, np.int64)
