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
import threading
from concurrent.futures import Future, TimeoutError

import numpy as np
import pyarrow as pa

from ..errors import Cancelled, InputError
from ..io.fixed_lines import Lines, layout
from ..io.ids import _POOL, _STEP, KeyIds, _argsort, sort_in_place
from ..io.keyer import Keyer
from ..io import pieces
from ..io.pieces import Off, plain, tables
from ..io.read import read_header

_VALUE_LIMIT = 1 << 30      # ratings beyond this take the full path
_USAGE = (b"public", b"private", b"ignored")


def load_kappa(truth_path, submission_path, options, sol_name, sub_name,
               progress=None, cancel=None, metric=None):
    """Prepared for a valid kappa pair of plain CSV files, or None (take the full path).
    ``metric``: the metric module asking (its fast-reader hook); None for any."""
    progress = progress or (lambda *_: None)
    cancel = cancel or (lambda: False)
    try:
        return _load(truth_path, submission_path, options, sol_name, sub_name, progress, cancel,
                     metric)
    except (Off, InputError, pa.ArrowException, OSError, ValueError, MemoryError):
        return None             # the full path reads again and names every problem


def _columns(sol_head, sub_head, options, expected=None):
    from ..chooser import choose_metric
    id_col = pieces.id_column(sol_head, sub_head, options)
    targets = [c for c in sub_head if c != id_col]
    if len(sol_head) < 2 or not targets or any(c.lower() == "usage" for c in sub_head):
        raise Off
    metric, reason = choose_metric(targets, options.metric)
    if expected is not None and metric is not expected:
        raise Off
    reason = (metric.name, reason)
    target = options.target_column or (targets[0] if len(targets) == 1 else None)
    if target is None or target not in sol_head or target not in sub_head:
        raise Off
    usage = [c for c in sol_head if c.lower() == "usage"]
    if usage and usage[0] in (id_col, target):
        raise Off
    return id_col, target, (usage[0] if usage else None), reason


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
    """Pieces of the file: pyarrow Tables, or fixed_lines.Lines for fixed-width lines."""
    types = {id_col: pa.string(), target: pa.int64()}
    keep = [id_col, target]
    if usage:
        types[usage] = pa.string()
        keep.append(usage)
    return tables(path, delim, head, pieces.convert(types, keep), progress,
                  fixed=layout(head, id_col, target, delim))


def _piece(batch, id_col, target, delim, keyer, out=None):
    """(keys, ratings, lowest, highest) of one piece (a Table or Lines)."""
    if isinstance(batch, Lines):
        return keyer.lines(batch.ids, ord(delim), out), batch.values, batch.lo, batch.hi
    return (keyer.keys(batch.column(id_col), out),) + _ratings(batch.column(target))


def _read_solution(path, delim, head, cols, keyer, progress, cancel):
    """Keys, int32 truth and Usage codes (or None) of every row, in file order."""
    id_col, target, usage, _ = cols
    # Ratings as int32, as the full read gives them (numbers.column_numbers).
    keys, truth, codes = _Growing(np.uint64), _Growing(np.int32), _Growing(np.int8)
    size, expect = os.path.getsize(path), None
    for batch in _batches(path, delim, head, id_col, target, usage, progress):
        if cancel():
            raise Cancelled("reading the solution")
        k, v, _, _ = _piece(batch, id_col, target, delim, keyer)
        if expect is None:      # rows in the file, from the first piece (a piece's bytes or all)
            expect = k.size * size / min(pieces.PIECE, size) * 1.02 + 1024
        keys.add(k, expect)
        truth.add(v, expect)
        if usage:
            codes.add(_usage_codes(batch.column(usage)), expect)
    if not keys.n:
        raise Off
    return keys.done(), truth.done(), codes.done() if usage else None


def _read_submission(path, delim, head, cols, keyer, progress, cancel):
    """Keys and int16 ratings of every row, in file order, and (lowest, highest) rating."""
    id_col, target = cols[0], cols[1]
    keys, values = _Growing(np.uint64), _Growing(np.int16)
    size, expect, lo, hi = os.path.getsize(path), None, None, None
    for batch in _batches(path, delim, head, id_col, target, None, progress):
        if cancel():
            raise Cancelled("reading the submission")
        k, v, b_lo, b_hi = _piece(batch, id_col, target, delim, keyer)
        if expect is None:
            expect = k.size * size / min(pieces.PIECE, size) * 1.02 + 1024
        keys.add(k, expect)
        values.add(v, expect)
        if v.size:
            lo = b_lo if lo is None else min(lo, b_lo)
            hi = b_hi if hi is None else max(hi, b_hi)
            if lo < -(1 << 15) or hi >= 1 << 15:
                raise Off                   # kept as int16 until packed into the keys
    if lo is None:
        raise Off
    return keys.done(), values.done(), lo, hi


def _read_both(paths, delims, heads, cols, progress, cancel):
    """Both files read side by side (the solution here, the submission on another
    thread: each piece's work is mostly numpy or Arrow, which free the GIL).

    Only this thread reports progress; a failure on either side stops the other.
    """
    done, stop = [0.0, 0.0], threading.Event()

    def report():
        progress(0.25 * (done[0] + done[1]), "reading the files")

    def sub_step(f):
        done[1] = f

    def sub_stop():
        return stop.is_set() or cancel()

    def sol_stop():              # the user, or the submission's side failed (Off: stop now)
        return cancel() or _failed(job)
    sol_keyer = Keyer()
    sub_keyer = Keyer(leader=sol_keyer, stop=sub_stop)
    # A thread of its own for each call: the app's lanes load at once, none waits for another.
    job = _start("kmetric-read", _read_submission, paths[1], delims[1], heads[1], cols,
                 sub_keyer, sub_step, sub_stop)
    try:
        sol = _read_solution(paths[0], delims[0], heads[0], cols, sol_keyer,
                             lambda f: (done.__setitem__(0, f), report()), sol_stop)
        while True:
            try:
                sub = job.result(timeout=0.1)
                break
            except TimeoutError:
                report()
    except BaseException as e:
        stop.set()
        _wait(job)
        if isinstance(e, Cancelled) and _failed(job) and not cancel():
            raise job.exception() from None     # the submission's failure stopped this side
        raise
    # Equal ids <-> equal keys only if both files packed them the same way.
    if (sol_keyer.width, sol_keyer.digits, sol_keyer.raw) != \
            (sub_keyer.width, sub_keyer.digits, sub_keyer.raw):
        raise Off
    return sol, sub, sol_keyer


def _load(truth_path, submission_path, options, sol_name, sub_name, progress, cancel,
          metric=None):
    from .kernels.kappa import MAX_CLASSES
    from ..io.memory import check_memory
    from ..io.prepare import Prepared
    paths = (truth_path, submission_path)
    delims = (plain(truth_path, "solution", options), plain(submission_path, "submission", options))
    heads = (read_header(truth_path, "solution", options.max_inflated),
             read_header(submission_path, "submission", options.max_inflated))
    cols = _columns(*heads, options, metric)
    check_memory(list(paths))
    (sol_keys, truth, usage), sub, keyer = _read_both(paths, delims, heads, cols, progress, cancel)
    sub_keys, values, p_lo, p_hi = sub
    del sub
    pa.default_memory_pool().release_unused()   # parsed pieces' memory back before the sorts
    n = truth.size
    if sub_keys.size != n:
        raise Off                          # missing or extra rows: the full path names them
    t_lo, t_hi = int(truth.min()), int(truth.max())
    lo, hi = min(t_lo, p_lo), max(t_hi, p_hi)
    low = options.min_rating if options.min_rating is not None else lo
    high = options.max_rating if options.max_rating is not None else hi
    if lo < low or hi > high or hi - lo + 1 > MAX_CLASSES:
        raise Off                          # the full path names the rows at fault
    # The submission's rating rides in the low bits of its key, so one sort of the keys
    # aligns it. Codes cover every rating of either file from the lowest.
    vbits = (hi - lo).bit_length() or 1
    if vbits > 64 - keyer.max_bits:
        raise Off
    # The solution's order is sorted while the submission's keys are packed and sorted
    # (numpy's sort frees the GIL).
    if n < _STEP:                         # small: nothing to overlap, no pool to wait for
        order = Future()
        order.set_result(_argsort(sol_keys))
    else:
        order = _POOL.submit(_argsort, sol_keys)
    try:
        shift = np.uint64(vbits)
        for a in range(0, n, _STEP):
            part = sub_keys[a:a + _STEP]
            part <<= shift
            part |= (values[a:a + _STEP].astype(np.int64) - lo).astype(np.uint64)
        del values                         # before the sorts, which borrow memory
        return _join(sol_keys, truth, usage, sub_keys, lo, vbits, keyer, order, cols,
                     progress, Prepared)
    finally:
        _wait(order)


def _join(sol_keys, truth, usage, sub_keys, lo, vbits, keyer, order, cols, progress, prepared):
    """Prepared rows in the solution's order, from the packed submission keys (Off when
    the ids differ: the full path lists them)."""
    n = truth.size
    progress(0.5, "joining ids")
    id_col, target, _, (name, reason) = cols
    layout = f"id '{id_col}' + integer rating column '{target}'"
    ids = KeyIds(sol_keys, keyer.width, keyer.digits)   # the ids as keys: text when shown
    mask = np.uint64((1 << vbits) - 1)
    if _equal(sol_keys, sub_keys, vbits):
        # The submission lists the ids in the solution's order (made from the sample
        # submission): no sort of it; the solution's sort still finds repeated ids.
        if not _same_ids(sol_keys, order.result()):
            raise Off
        pred = np.empty(n, dtype=np.int32)
        for a in range(0, n, _STEP):
            pred[a:a + _STEP] = sub_keys[a:a + _STEP] & mask
    else:
        sort_in_place(sub_keys)
        order = order.result()
        pred = np.empty(n, dtype=np.int32)         # after the sorts: their peak is without it
        if not _same_ids(sol_keys, order, sub_keys, vbits, pred):
            raise Off                      # missing, extra or repeated ids: the full path lists them
    del order, sub_keys
    pred += np.int32(lo)
    return prepared(name, reason, id_col, [target], ids, truth, pred, usage, layout=layout)


def _same_ids(sol_keys, order, sub_packed=None, vbits=0, pred=None):
    """Both files hold the same ids, each once (``sub_packed`` None: only that the
    solution's ids are each once), compared in key order; and, on the way, each rating
    put in its solution row (``pred``). Each half of the rows on its own core: random
    reads and writes, which wait on memory more than they compute."""
    n = order.size
    if n < 2 * _STEP:
        return _same_part(sol_keys, order, sub_packed, vbits, pred, 0, n)
    half = n // 2
    other = _POOL.submit(_same_part, sol_keys, order, sub_packed, vbits, pred, half, n)
    ok = _same_part(sol_keys, order, sub_packed, vbits, pred, 0, half)
    return other.result() and ok and sol_keys[order[half - 1]] < sol_keys[order[half]]


def _same_part(sol_keys, order, sub_packed, vbits, pred, start, end):
    prev = None
    shift, mask = np.uint64(vbits), np.uint64((1 << vbits) - 1)
    for a in range(start, end, _STEP):
        b = min(a + _STEP, end)
        rows = order[a:b]
        s = sol_keys[rows]
        if sub_packed is not None:
            p = sub_packed[a:b]
            if not np.array_equal(s, p >> shift):
                return False
            pred[rows] = p & mask
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


def _start(name, fn, *args):
    """fn(*args) on a new thread, as a Future."""
    fut = Future()

    def run():
        if fut.set_running_or_notify_cancel():
            try:
                fut.set_result(fn(*args))
            except BaseException as e:
                fut.set_exception(e)
    threading.Thread(target=run, name=name, daemon=True).start()
    return fut


def _failed(fut: Future):
    return fut.done() and not fut.cancelled() and fut.exception() is not None


def _wait(fut: Future):
    try:
        fut.result()
    except Exception:
        pass

