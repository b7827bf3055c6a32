"""AUC's bootstrap: each submission's column sorted once into cells, each replicate's
weighted U from cumulative counts (the same row draws for every compared submission;
above BLOCK rows each replicate's draws come from a generator of its own)."""
from __future__ import annotations

import os
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .ranking import _truth_columns
from ...core.resample import check_cancel, check_replicates, index_blocks, rng_of

BLOCK = 1 << 16             # rows per draw block above this size (see _draws)
THREADS = 2                 # workers counting drawn rows (numpy releases the GIL there)
PARALLEL_DRAWS = 1 << 24    # below this many draws in all, threads cost more than they save
TASK = 8                    # replicates per worker task (n > BLOCK)

# --- bootstrap: one sort, cumulative weighted counts -------------------------

class _Cells:
    """One column of one submission sorted once, as cells of rows that a
    weighted U cannot tell apart.

    Sorted rows fall into tie groups; consecutive groups holding one class
    only merge into one cell (their rows see the same negatives below them),
    a group with both classes gives a negative and a positive cell (its pairs
    are ties). Negative cells come first, in score order, then the positive
    ones, so a replicate needs only its counts per cell:
    2U = sum over positive cells of W1 * (2 * negatives below + tied W0).
    """

    def __init__(self, y, s, w=None):
        # w: row weights (weighted AUC): a replicate's cell sums are then the drawn rows'
        # weights, not their counts.
        self.w = None if w is None else np.ascontiguousarray(w, dtype=np.float64)
        order = np.argsort(s, kind="stable")
        ss, ys = s[order], y[order]
        new = np.r_[True, ss[1:] != ss[:-1]]
        group = np.cumsum(new) - 1
        n1g = np.bincount(group, weights=ys)
        n0g = np.bincount(group) - n1g
        kind = np.where(n1g == 0, 0, np.where(n0g == 0, 1, 2))   # all negative, all positive, both
        starts = np.r_[True, (kind[1:] == 2) | (kind[:-1] != kind[1:])]
        bkind = kind[starts]                                     # kind of each block
        has0, has1 = bkind != 1, bkind != 0
        neg_id = np.cumsum(has0) - 1                             # negative cell of a block
        pos_id = np.cumsum(has1) - 1
        m0 = int(has0.sum())
        self.negatives = m0
        self.cells = m0 + int(has1.sum())
        self.below = (np.cumsum(has0) - has0)[has1]              # negative cells strictly below
        mixed = bkind[has1] == 2
        self.tied_pos = np.flatnonzero(mixed)                   # positive cells with tied negatives
        self.tied_neg = neg_id[has1][mixed]
        block = (np.cumsum(starts) - 1)[group]
        # uint32: half the bytes of intp, gathers measured 3x faster
        self.cell = np.empty(s.size, dtype=np.uint32 if self.cells < 2 ** 32 else np.intp)
        self.cell[order] = np.where(ys, m0 + pos_id[block], neg_id[block])

    def auc(self, counts):
        """(R,) AUC of cell counts (R, cells), whole numbers in any numeric dtype."""
        w = np.asarray(counts)
        exact = self.w is None
        if exact and w.dtype != np.int64:          # int64 sums: exact for any n below 3e9
            w = w.astype(np.int64)
        w0, w1 = w[:, :self.negatives], w[:, self.negatives:]
        c0 = np.zeros((w.shape[0], self.negatives + 1), dtype=np.int64 if exact else np.float64)
        np.cumsum(w0, axis=1, out=c0[:, 1:])
        u2 = 2 * np.einsum("ij,ij->i", w1, c0[:, self.below])
        if self.tied_pos.size:
            u2 += np.einsum("ij,ij->i", w1[:, self.tied_pos], w0[:, self.tied_neg])
        n0, n1 = c0[:, -1], w1.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = u2 / (2.0 * n1 * n0)
        out[~((n1 > 0) & (n0 > 0))] = np.nan
        return out

    def block_counts(self, blocks, buf):
        """(1, cells) counts of one replicate's block draws; buf: (n,) uint32 scratch."""
        at = 0
        weights = None if self.w is None else np.empty(buf.size)
        for start, rows in blocks:              # each gather reads one block's slice (in L2)
            np.take(self.cell[start:start + BLOCK], rows, out=buf[at:at + rows.size], mode="clip")
            if weights is not None:
                np.take(self.w[start:start + BLOCK], rows, out=weights[at:at + rows.size],
                        mode="clip")
            at += rows.size
        ids = buf.view(np.int32) if self.cells < 2 ** 31 else buf   # bincount casts less
        return np.bincount(ids, weights, minlength=self.cells)[None, :]

    def counts(self, idx):
        """(r, cells) counts of the drawn row indices idx (r, w)."""
        r = idx.shape[0]
        flat = np.take(self.cell, idx, mode="clip")
        if r > 1:
            flat = flat + (np.arange(r, dtype=np.intp) * self.cells)[:, None]
        weights = None if self.w is None else np.take(self.w, idx, mode="clip").ravel()
        return np.bincount(flat.ravel(), weights, minlength=r * self.cells).reshape(r, self.cells)


def auc_bootstrap(truth, submissions, replicates=1000, seed=0, cancel=None, threads=None,
                  weights=None):
    """Replicate AUCs (B, S) of S submissions on the same row draws.

    submissions: a sequence of score arrays, each laid out as ``roc_auc``
    takes them. The draws depend on (n, B, seed) alone and ``auc_draws``
    gives them, so a plain loop over those rows gives the same numbers. A
    replicate where a column the full data scores has a single class is
    undefined (nan); skipped columns stay skipped. ``weights``: row weights
    (weighted AUC; a drawn row counts its weight).

    Small n: draws come from one generator in order (this thread), counting
    runs on the workers. n > BLOCK: each replicate has its own generator
    (``replicate_blocks``), so a worker draws and counts whole replicates.
    Either way ``threads`` workers (default: up to THREADS on big jobs) never
    change a number.
    """
    b = check_replicates(replicates)
    cols = []          # per submission: the _Cells of its scored columns
    t = np.zeros((0, 1), dtype=bool)
    for scores in submissions:
        t, s, _ = _truth_columns(truth, scores)
        keep = [j for j in range(s.shape[1]) if _both(t[:, j], weights)]
        cols.append([_Cells(t[:, j], np.ascontiguousarray(s[:, j]), weights) for j in keep])
    n = t.shape[0]
    out = np.full((b, len(cols)), np.nan)
    if n == 0 or not any(cols):
        return out
    flat = [c for group in cols for c in group]
    local = threading.local()

    def count(r0, r, draws):
        if isinstance(draws, np.ndarray):
            aucs = iter([c.auc(c.counts(draws)) for c in flat])
        else:
            buf = getattr(local, "buf", None)
            if buf is None:
                buf = local.buf = np.empty(n, dtype=np.uint32)
            aucs = iter([c.auc(c.block_counts(draws, buf)) for c in flat])
        for k, group in enumerate(cols):
            if group:
                out[r0:r0 + r, k] = np.mean([next(aucs) for _ in group], axis=0)

    workers = _workers(threads, float(b) * n)
    pool = ThreadPoolExecutor(workers) if workers > 1 else None
    if n <= BLOCK:                 # whole replicates at a time, from one generator in order
        tasks = ((count, (r0, r, draws)) for r0, r, draws in _draws(rng_of(seed), n, b))
    else:                          # each replicate from its own generator: drawn on a worker
        def drawn(r0, r):
            for i in range(r0, r0 + r):
                count(i, 1, replicate_blocks(n, seed, i))
        tasks = ((drawn, (r0, min(TASK, b - r0))) for r0 in range(0, b, TASK))
    pending = deque()
    try:
        for fn, args in tasks:
            check_cancel(cancel)
            if pool is None:
                fn(*args)
                continue
            pending.append(pool.submit(fn, *args))
            while len(pending) > 2 * workers:      # bounds the draws held in memory
                pending.popleft().result()
        while pending:
            pending.popleft().result()
    finally:
        if pool is not None:
            for f in pending:
                f.cancel()
            pool.shutdown(wait=True)
    return out


def _both(y, weights=None):
    """Whether a column has both classes (with weight, when weighted)."""
    if weights is None:
        return bool(y.any() and not y.all())
    return bool(weights[y].sum() > 0 and weights[~y].sum() > 0)


def _draws(rng, n, b):
    """Yield (first replicate, count, row indices (r, n)) of B bootstrap replicates of
    n <= BLOCK rows: ``resample.index_blocks``' draws, several replicates at a time."""
    for r0, r, u0, idx in index_blocks(rng, n, b):
        if idx.shape[1] == n:
            yield r0, r, idx
            continue
        if u0 == 0:                   # a replicate in slices (n > resample.CHUNK)
            whole = np.empty((1, n), dtype=idx.dtype)
        whole[0, u0:u0 + idx.shape[1]] = idx[0]
        if u0 + idx.shape[1] == n:
            yield r0, 1, whole


def replicate_blocks(n, seed, r):
    """Replicate r's draws of n > BLOCK rows as [(first row of a block, rows in it)].

    Replicate r has its own generator (SFC64, the fastest of numpy's, seeded by the
    r-th child of the seed's SeedSequence), so its rows depend on (n, seed, r) alone:
    any thread may draw it, in any order. How many of the n draws land in each block
    of BLOCK rows is multinomial (block size / n); within a block they are uniform:
    raw generator bits cut into uint16 when the block size is a power of two
    (exactly uniform, a quarter of a 64-bit draw each), else bounded integers.
    Together that is the law of n uniform draws with replacement; counting them
    gathers from one block's slice of a cell table at a time, not the whole table.
    """
    g = np.random.Generator(np.random.SFC64(
        np.random.SeedSequence(0 if seed is None else seed, spawn_key=(r,))))
    k = -(-n // BLOCK)
    last = n - BLOCK * (k - 1)
    hits = g.multinomial(n, np.r_[np.full(k - 1, BLOCK / n), last / n]).tolist()
    if _bits_fit(BLOCK):                       # the whole blocks' rows in one raw draw
        cut = np.cumsum(hits[:-2], dtype=np.int64)
        rows = np.split(_raw_rows(g, sum(hits[:-1]), BLOCK), cut)
    else:
        rows = [g.integers(0, BLOCK, h, dtype=np.uint16) for h in hits[:-1]]
    rows.append(_raw_rows(g, hits[-1], last) if _bits_fit(last)
                else g.integers(0, last, hits[-1], dtype=np.uint16))
    return list(zip(range(0, n, BLOCK), rows))


def _bits_fit(m):
    return m & (m - 1) == 0 and m <= 1 << 16


def _raw_rows(g, h, m):
    """h uniform rows of 0..m-1 (m a power of two up to 2**16) from raw 64-bit draws."""
    raw = g.bit_generator.random_raw(-(-h // 4)).astype("<u8", copy=False)
    rows = raw.view("<u2")[:h].astype(np.uint16, copy=False)
    if m < 1 << 16:
        rows &= m - 1
    return rows


def auc_draws(n, replicates, seed=0):
    """(B, n) row indices ``auc_bootstrap`` draws (for checks against plain loops; small n)."""
    b = check_replicates(replicates)
    out = np.empty((b, n), dtype=np.int64)
    if n <= BLOCK:
        for r0, r, draws in _draws(rng_of(seed), n, b):
            out[r0:r0 + r] = draws
        return out
    for r0 in range(b):
        out[r0] = np.concatenate([a + rows.astype(np.int64) for a, rows in replicate_blocks(n, seed, r0)])
    return out


def _workers(threads, draws):
    if threads is None:
        threads = THREADS if draws >= PARALLEL_DRAWS else 1
    return max(1, min(int(threads), os.cpu_count() or 1))
