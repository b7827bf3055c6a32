"""A binary AUC's pair count with one sort, of the smaller class only.

The smaller class (A) is sorted; every row of the other class (Q) needs how
many A values lie below it and how many equal it. Buckets by value,
b = floor((s - lo) * M / (hi - lo)) clipped to [0, M - 1] with lo, hi the ends
of A, turn that search into a table look-up: each step (subtract, multiply,
clip, truncate) is monotone and A and Q go through the same steps, so an A
value in a lower bucket than q is below q, one in a higher bucket above it,
and equal values share a bucket. The table holds, per bucket, where its A
values start in sorted A and how many there are, capped at MAX_SCAN + 1 (packed
in one word, uint32 when it fits: one random read per q); only the few A values
in q's own bucket are compared, one step at a time over all q together. Queries
whose bucket holds more than MAX_SCAN A values (ties, clusters) are sorted and
searched (``searchsorted`` on sorted keys).
Counts are integers: exact, ties one half.
"""
from __future__ import annotations

import numpy as np

MIN_ROWS = 1 << 16      # below this two sorts are cheap: the table would not pay
PER_ROW = 2             # buckets per row of A: fewer A values to compare per query
MAX_SCAN = 4            # a bucket with more A values is searched, not scanned
MAX_BUCKETS = 1 << 25   # caps the count and table at 256 + 128 MB (A beyond 16M rows shares more)


def _scaled(v, lo, scale, m):
    """(v - lo) * scale clipped to [0, m - 1]: monotone in v, the same steps for A and
    q; its truncation is the bucket. float32 widens exactly; +-inf clip too (NaN
    was ruled out)."""
    k = np.subtract(v, lo, dtype=np.float64)
    k *= scale
    np.clip(k, 0, m - 1, out=k)
    return k


def _truncated(k):
    """k's truncation to intp, in k's own memory (a big temporary costs page faults)."""
    idx = k.view(np.intp)
    np.copyto(idx, k, casting="unsafe")
    return idx


def table_u(y, s):
    """(2U, positives, negatives, tied pairs) as ``ranking.binary_u``, or None when
    the table cannot help: few rows, one class empty, a non-finite score, or A's
    range too narrow or too wide for the bucket scale (overflows)."""
    n = s.size
    if n < MIN_ROWS:
        return None
    # np.compress: about 3x faster than boolean indexing here; copies, so A sorts in place
    s1, s0 = np.compress(y, s), np.compress(~y, s)
    n1, n0 = s1.size, s0.size
    if n1 == 0 or n0 == 0 or max(n1, n0) >= 1 << 31:
        return None
    a_pos = n1 <= n0
    a, q = (s1, s0) if a_pos else (s0, s1)
    if not np.isfinite(np.add.reduce(q)):        # NaN or +-inf (or a sum that overflows):
        return None                              # the caller's sort names the value
    a.sort()
    lo, hi = float(a[0]), float(a[-1])
    span = hi - lo
    if span == 0:                                # A one value: q above it or tied with it
        above, tied = int(np.count_nonzero(q > lo)), int(np.count_nonzero(q == lo))
        below, ties = a.size * above, a.size * tied
        return _u2(a_pos, n1, n0, below, ties), n1, n0, ties
    m = max(1, min(int(PER_ROW * a.size), MAX_BUCKETS))
    scale = m / span
    if not (np.isfinite(lo) and np.isfinite(hi) and np.isfinite(span) and np.isfinite(scale)):
        return None
    # A table entry packs (A values below the bucket, its count) in one word: one random
    # read per q, uint32 (half the bytes of int64) when both fit. The count is capped at
    # MAX_SCAN + 1: "more than MAX_SCAN" is all the scan needs to know.
    cap = min(MAX_SCAN + 1, a.size)
    bits = max(1, cap.bit_length())
    word = np.uint32 if a.size < 1 << (32 - bits) else np.uint64
    ka = _scaled(a, lo, scale, m)
    count = np.bincount(_truncated(ka), minlength=m)
    del ka
    table = np.empty(m, dtype=word)
    table[0] = 0
    np.cumsum(count[:-1], out=table[1:], dtype=word)
    table <<= bits
    np.minimum(count, cap, out=count)
    table |= count.astype(word)
    del count
    k = _scaled(q, lo, scale, m)
    w = np.take(table, _truncated(k), mode="clip")   # in range by construction
    del table, k
    t = min(MAX_SCAN, (1 << bits) - 1)
    buf = np.right_shift(w, bits)                # one buffer for the per-q temporaries
    below = int(np.add.reduce(buf, dtype=np.int64))  # A below q: lower buckets
    occ = np.bitwise_and(w, word((1 << bits) - 1), out=buf)
    occ -= 1                                     # an empty bucket wraps to the word's max
    scan = occ < t                               # 1..MAX_SCAN A values in q's bucket
    many = np.flatnonzero(occ == t)              # count capped: more than MAX_SCAN
    del occ, buf
    ties = 0
    if many.size:                                # sorted needles: the search stays in cache
        qm = np.sort(q[many])
        left = np.searchsorted(a, qm, "left")
        below += int(left.sum()) - int(np.add.reduce(w[many] >> bits, dtype=np.int64))
        ties += int(np.searchsorted(a, qm, "right").sum()) - int(left.sum())
    w, q = np.compress(scan, w), np.compress(scan, q)
    del scan
    pos = w >> bits
    w &= word((1 << bits) - 1)
    stop = np.add(pos, w, out=w)
    while pos.size:                              # the bucket's A values, one step for every q
        v = a[pos]
        below += int(np.count_nonzero(v < q))
        ties += int(np.count_nonzero(v == q))
        pos += 1
        keep = pos < stop
        if not keep.all():
            pos, stop, q = np.compress(keep, pos), np.compress(keep, stop), np.compress(keep, q)
    return _u2(a_pos, n1, n0, below, ties), n1, n0, ties


def _u2(a_pos, n1, n0, below, ties):
    """2U from the A values below / tied with each q, summed over q."""
    if a_pos:                                    # q negative: positives above it
        return 2 * (n1 * n0 - below - ties) + ties
    return 2 * below + ties                      # q positive: negatives below it
