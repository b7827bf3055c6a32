"""Kappa pairs read lean: each file read once, in pieces (io.pieces).

The usual Kaggle kappa pair (fixed-width hex or short ids, integer ratings,
valid) is read piece by piece: ids are packed into 64-bit keys as they
arrive, the submission's ids are never kept as text, and no whole Arrow
table of either file is ever held. The submission's rating rides in the low
bits of its key, so aligning it costs one in-place sort; the solution's
rows are put in key order by one argsort (run while the submission is read).

Anything out of the ordinary returns None: the caller then reads the whole
tables (io.read, io.prepare), which names every problem. So this path only
ever scores files that the full path would score the same way.
"""
import os
from concurrent.futures import Future

import numpy as np
import pyarrow as pa

from ..errors import Cancelled, InputError
from .ids import _HEX, _POOL, _STEP, KeyIds, _argsort, _fixed_width, _keys, sort_in_place
from . import pieces
from .pieces import Off, plain, tables
from .read import read_header

_VALUE_LIMIT = 1 << 30      # ratings beyond this take the full path
_USAGE = (b"public", b"private", b"ignored")


def load_kappa(truth_path, submission_path, options, sol_name, sub_name,
               progress=None, cancel=None):
    """Prepared for a valid kappa pair of plain CSV files, or None (take the full path)."""
    progress = progress or (lambda *_: None)
    cancel = cancel or (lambda: False)
    try:
        return _load(truth_path, submission_path, options, sol_name, sub_name, progress, cancel)
    except (Off, InputError, pa.ArrowException, OSError, ValueError, MemoryError):
        return None             # the full path reads again and names every problem


def _columns(sol_head, sub_head, options):
    from ..metrics import choose_metric
    id_col = pieces.id_column(sol_head, sub_head, options)
    targets = [c for c in sub_head if c != id_col]
    if len(sol_head) < 2 or not targets or any(c.lower() == "usage" for c in sub_head):
        raise Off
    metric, reason = choose_metric(targets, options.metric)
    if metric.name != "qwk":
        raise Off
    target = options.target_column or (targets[0] if len(targets) == 1 else None)
    if target is None or target not in sol_head or target not in sub_head:
        raise Off
    usage = [c for c in sol_head if c.lower() == "usage"]
    if usage and usage[0] in (id_col, target):
        raise Off
    return id_col, target, (usage[0] if usage else None), reason


class _Keyer:
    """uint64 keys of fixed-width ids, one mode (hex digits or raw bytes) for both files."""

    @property
    def max_bits(self):
        """Bits a key can use (ids._keys: raw bytes, 4 hex digits a 16-bit word, or
        two digits a byte with a leading zero digit for an odd width)."""
        w = self.width
        return 8 * w if self.raw else 4 * w if w % 4 == 0 else 8 * ((w + 1) // 2)

    def __init__(self):
        self.width = self.digits = None
        self.raw = False

    def keys(self, ids, out=None):
        w = _fixed_width(ids)
        if w is None or (self.width is not None and w != self.width):
            raise Off
        if self.width is None:              # the first piece decides the mode
            self.width = w
            for digits in _HEX:
                k = _keys(ids, w, digits, out) if w <= 16 else None
                if k is not None:
                    self.digits = digits
                    return k
            if w > 8:
                raise Off
            self.raw = True
        k = _keys(ids, w, None if self.raw else self.digits, out)
        if k is None:
            raise Off
        return k


def _ratings(col):
    """int64 values of a rating column (no nulls), range-checked, as one new array,
    and their (min, max) (None, None when empty): one pass serves every check."""
    if col.null_count or not pa.types.is_int64(col.type):
        raise Off
    parts = [np.frombuffer(c.buffers()[1], dtype=np.int64)[c.offset:c.offset + len(c)]
             for c in col.chunks]
    v = np.concatenate(parts) if parts else np.zeros(0, np.int64)
    if not v.size:
        return v, None, None
    lo, hi = int(v.min()), int(v.max())
    if lo <= -_VALUE_LIMIT or hi >= _VALUE_LIMIT:
        raise Off
    return v, lo, hi


def _usage_codes(arr):
    import pyarrow.compute as pc
    raw = pc.utf8_lower(pc.utf8_trim_whitespace(arr))
    from ..numbers import arrow_texts
    codes = pc.index_in(raw, value_set=arrow_texts([u.decode() for u in _USAGE]))
    if codes.null_count:
        raise Off
    return np.concatenate([np.frombuffer(c.buffers()[1], dtype=np.int32)[c.offset:c.offset + len(c)]
                           for c in codes.chunks]).astype(np.int8)


class _Growing:
    """An array filled batch by batch, allocated once from an estimate of the rows
    (no list of parts joined at the end: that would hold every value twice)."""

    def __init__(self, dtype):
        self.arr, self.n, self.dtype = np.empty(0, dtype), 0, dtype

    def add(self, values, expect):
        end = self.n + values.size
        if end > self.arr.size:
            grown = np.empty(max(end, int(expect), int(self.arr.size * 1.25)), self.dtype)
            grown[:self.n] = self.arr[:self.n]
            self.arr = grown
        self.arr[self.n:end] = values
        self.n = end

    def done(self):
        return self.arr[:self.n]          # a view: the estimate's few spare rows stay


def _batches(path, delim, head, id_col, target, usage, progress):
    types = {id_col: pa.string(), target: pa.int64()}
    keep = [id_col, target]
    if usage:
        types[usage] = pa.string()
        keep.append(usage)
    return tables(path, delim, head, pieces.convert(types, keep), progress)


def _read_solution(path, delim, head, cols, keyer, progress, cancel):
    id_col, target, usage, _ = cols
    # Ratings as int32, as the full read gives them (numbers.column_numbers).
    keys, truth, codes = _Growing(np.uint64), _Growing(np.int32), _Growing(np.int8)
    size, expect = os.path.getsize(path), None

    def step(f):
        progress(0.3 * f, "reading the solution")
    for batch in _batches(path, delim, head, id_col, target, usage, step):
        if cancel():
            raise Cancelled("reading the solution")
        m = batch.num_rows
        if expect is None:      # rows in the file, from the first piece (a piece's bytes or all)
            expect = m * size / min(pieces.PIECE, size) * 1.02 + 1024
        keys.add(keyer.keys(batch.column(id_col)), expect)
        truth.add(_ratings(batch.column(target))[0], expect)
        if usage:
            codes.add(_usage_codes(batch.column(usage)), expect)
    if not keys.n:
        raise Off
    return keys.done(), truth.done(), codes.done() if usage else None


def _read_submission(src, delim, head, cols, keyer, n, base, vbits, progress, cancel):
    """Packed keys (id key << vbits | rating - base) for n rows, (lowest, highest) rating.

    More or fewer rows than the solution, or a rating outside the codes, is Off.
    """
    id_col, target = cols[0], cols[1]
    keys = np.empty(n, dtype=np.uint64)
    at, lo, hi = 0, None, None
    step = (lambda f: progress(0.3 + 0.3 * f, "reading the submission"))
    shift, top = np.uint64(vbits), (1 << vbits) - 1
    for batch in _batches(src, delim, head, id_col, target, None, step):
        if cancel():
            raise Cancelled("reading the submission")
        m = batch.num_rows
        if at + m > n:
            raise Off
        v, b_lo, b_hi = _ratings(batch.column(target))
        v -= base
        if v.size:
            b_lo, b_hi = b_lo - base, b_hi - base
            if b_lo < 0 or b_hi > top:
                raise Off
            lo = b_lo if lo is None else min(lo, b_lo)
            hi = b_hi if hi is None else max(hi, b_hi)
        part = keys[at:at + m]
        keyer.keys(batch.column(id_col), out=part)
        part <<= shift
        part |= v.view(np.uint64)              # codes >= 0: the same bits
        at += m
    if at != n or lo is None:
        raise Off
    return keys, lo + base, hi + base


def _load(truth_path, submission_path, options, sol_name, sub_name, progress, cancel):
    from ..core.kappa import MAX_CLASSES
    from .memory import check_memory
    from .prepare import Prepared
    sol_src, sol_delim = truth_path, plain(truth_path, "solution", options)
    sub_src, sub_delim = submission_path, plain(submission_path, "submission", options)
    sol_head = read_header(truth_path, "solution", options.max_inflated)
    sub_head = read_header(submission_path, "submission", options.max_inflated)
    cols = _columns(sol_head, sub_head, options)
    check_memory([truth_path, submission_path])
    keyer = _Keyer()
    sol_keys, truth, usage = _read_solution(sol_src, sol_delim, sol_head, cols, keyer,
                                            progress, cancel)
    n = truth.size
    t_lo, t_hi = int(truth.min()), int(truth.max())
    # The submission's rating rides in the low bits of its key as it is read. Codes cover
    # every rating that can share a kappa range with the truth, or as many around the
    # truth's as the key leaves bits for (a rating outside them: the full read).
    span, free = t_hi - t_lo, 64 - keyer.max_bits
    if span + 1 > MAX_CLASSES or free < max(span, 1).bit_length():
        raise Off
    vbits = min((span + 2 * (MAX_CLASSES - 1 - span)).bit_length(), free)
    base = t_lo - ((1 << vbits) - 1 - span) // 2
    # The solution's order is sorted while the submission is read (numpy's sort frees the GIL).
    order = _POOL.submit(_argsort, sol_keys)
    try:
        sub_keys, p_lo, p_hi = _read_submission(sub_src, sub_delim, sub_head, cols, keyer, n,
                                                base, vbits, progress, cancel)
    except BaseException:
        _wait(order)
        raise
    lo, hi = min(t_lo, p_lo), max(t_hi, p_hi)
    low = options.min_rating if options.min_rating is not None else lo
    high = options.max_rating if options.max_rating is not None else hi
    if lo < low or hi > high or hi - lo + 1 > MAX_CLASSES:
        _wait(order)
        raise Off                          # the full path names the rows at fault
    progress(0.5, "joining ids")
    id_col, target, _, reason = cols
    layout = f"id '{id_col}' + integer rating column '{target}'"
    ids = KeyIds(sol_keys, keyer.width, keyer.digits)   # the ids as keys: text when shown
    mask = np.uint64((1 << vbits) - 1)
    if _equal(sol_keys, sub_keys, vbits):
        # The submission lists the ids in the solution's order (made from the sample
        # submission): no sort of it; the solution's sort still finds repeated ids.
        order = order.result()
        if not _same_ids(sol_keys, order, None, 0):
            raise Off
        del order
        pred = np.empty(n, dtype=np.int32)
        for a in range(0, n, _STEP):
            pred[a:a + _STEP] = (sub_keys[a:a + _STEP] & mask).astype(np.int32)
        del sub_keys
        pred += np.int32(base)
        return Prepared("qwk", reason, id_col, [target], ids, truth, pred, usage, layout=layout)
    sort_in_place(sub_keys)
    order = order.result()
    if not _same_ids(sol_keys, order, sub_keys, vbits):
        raise Off                          # missing, extra or repeated ids: the full path lists them
    pred = np.empty(n, dtype=np.int32)
    for a in range(0, n, _STEP):
        pred[order[a:a + _STEP]] = sub_keys[a:a + _STEP] & mask
    del order, sub_keys
    pred += np.int32(base)
    return Prepared("qwk", reason, id_col, [target], ids, truth, pred, usage, layout=layout)


def _same_ids(sol_keys, order, sub_packed, vbits):
    """Both files hold the same ids, each once: compared in key order, chunk by chunk
    (``sub_packed`` None: only that the solution's ids are each once)."""
    prev = None
    shift = np.uint64(vbits)
    for a in range(0, order.size, _STEP):
        s = sol_keys[order[a:a + _STEP]]
        if sub_packed is not None and not np.array_equal(s, sub_packed[a:a + _STEP] >> shift):
            return False
        if (s.size > 1 and not (s[1:] > s[:-1]).all()) or (prev is not None and s[0] <= prev):
            return False
        prev = s[-1]
    return True


def _equal(keys, packed, vbits):
    """keys == packed >> vbits element by element, in chunks (no n-sized temporary)."""
    shift = np.uint64(vbits)
    return keys.size == packed.size and all(
        np.array_equal(keys[i:i + _STEP], packed[i:i + _STEP] >> shift)
        for i in range(0, keys.size, _STEP))


def _wait(fut: Future):
    try:
        fut.result()
    except Exception:
        pass

