"""Ranks for the rank correlations (Spearman's rho, Kendall's tau): one stable sort a
column, its tie groups, and the inversion counts Kendall's tau is made of.

* ``stable_order``: np.argsort(kind="stable") of finite floats in a third of its time
  (here): the values' order-preserving integer keys, their low bits replaced by the
  row index, go through numpy's vectorised integer sort; rows whose truncated keys
  tie while their values differ (rare: values within 2^-40 or so of each other) are
  put in order again afterwards. Ties keep their row order.
* ``Ranked``: tie groups in sorted order (dense ranks, group sizes, mid-ranks as
  scipy.stats.rankdata(method="average") gives them).
* ``inversions`` / ``Levels``: pairs i < j with q[i] > q[j] of a permutation q of
  0..n-1, by a wavelet over q's bits from the highest: at each bit, elements sit
  grouped by their higher bits (in position order within a group), and every element
  whose bit is 0 counts the 1s before it in its group. O(n log n) numpy passes, each
  element's own count kept when asked (the jackknives), and weighted counts (a
  replicate's row multiplicities) from the same level orders (``Levels``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

SMALL = 1 << 12           # below this many rows numpy's own stable argsort is as quick


def stable_order(x):
    """Row order of ``x`` (1-D finite floats) sorted ascending, ties in row order."""
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    if n < SMALL:
        return np.argsort(x, kind="stable")
    bits = int(n - 1).bit_length()
    k = (x + 0.0).view(np.int64)          # + 0.0: -0.0 becomes 0.0 (one value, one key)
    flip = k >> 63
    flip &= 0x7FFFFFFFFFFFFFFF
    k = k ^ flip                           # signed order of the keys = order of the values
    k >>= bits
    k <<= bits
    k |= np.arange(n, dtype=np.int64)
    k.sort()
    order = k & ((1 << bits) - 1)
    v = x[order]
    bad = np.flatnonzero(v[1:] < v[:-1])
    if bad.size:                           # truncated keys tied, values did not
        high = k >> bits
        sel = np.flatnonzero(np.isin(high, high[bad]))
        sub = order[sel]
        order[sel] = sub[np.lexsort((sub, x[sub], high[sel]))]
    return order


@dataclass(frozen=True)
class Ranked:
    """Tie groups of one column: ``order`` sorts it, ``starts`` (G + 1) bound its groups
    in sorted order, ``group`` (n,) is each row's dense rank (0-based)."""
    order: np.ndarray
    starts: np.ndarray
    group: np.ndarray

    @property
    def n(self):
        return int(self.order.size)

    @cached_property
    def sizes(self):
        return np.diff(self.starts)

    @cached_property
    def mid(self):
        """(G,) mid-rank of each group, 1-based (rankdata's "average")."""
        return self.starts[:-1] + (self.sizes + 1) / 2.0

    @cached_property
    def midranks(self):
        return self.mid[self.group]

    @property
    def groups(self):
        return int(self.sizes.size)

    def tie_pairs(self):
        s = self.sizes.astype(np.int64)
        return int((s * (s - 1) // 2).sum())


def rank(x):
    """Ranked of a 1-D column of finite numbers."""
    x = np.asarray(x, dtype=np.float64)
    order = stable_order(x)
    v = x[order]
    new = np.empty(v.size, dtype=bool)
    new[:1] = True
    np.not_equal(v[1:], v[:-1], out=new[1:])
    starts = np.append(np.flatnonzero(new), v.size)
    group = np.empty(v.size, dtype=np.intp)
    group[order] = np.cumsum(new) - 1
    return Ranked(order, starts, group)


def midranks(x):
    """(n,) 1-based mid-ranks of a column (scipy.stats.rankdata's "average") with one sort,
    made in sorted order and put back in one scatter (no group array when nothing ties)."""
    x = np.asarray(x, dtype=np.float64)
    order = stable_order(x)
    v = x[order]
    new = np.empty(v.size, dtype=bool)
    new[:1] = True
    np.not_equal(v[1:], v[:-1], out=new[1:])
    if new.all():
        ranked = np.arange(1.0, v.size + 1.0)
    else:
        starts = np.flatnonzero(new)
        sizes = np.diff(np.append(starts, v.size))
        ranked = np.repeat(starts + (sizes + 1) / 2.0, sizes)
    out = np.empty(v.size)
    out[order] = ranked
    return out


def pair_order(rx, ry):
    """Rows sorted by (x, then y, then row), and the rank q (0..n-1) of each position in
    that order by (y, then position): equal y never invert, equal x are sorted by y.
    Kendall's discordant pairs are then the inversions of q."""
    n = rx.n
    bits = max(int(n - 1).bit_length(), 1)
    if rx.groups == n:
        order = rx.order
    else:
        order = _by_key(rx.group * ry.groups + ry.group, bits,
                        lambda: np.lexsort((np.arange(n), ry.group, rx.group)))
    gy = ry.group[order]
    if ry.groups == n:
        return order, gy
    second = _by_key(gy, bits, lambda: np.argsort(gy, kind="stable"))
    q = np.empty(n, dtype=np.intp)
    q[second] = np.arange(n)
    return order, q


def _by_key(key, bits, fallback):
    """Positions sorted by the integer key, ties by position (one integer sort when the
    key and the position fit in 63 bits)."""
    key = np.asarray(key, dtype=np.int64)
    n = key.size
    if n and int(key.max()) < (1 << (62 - bits)):
        packed = key << bits
        packed |= np.arange(n, dtype=np.int64)
        packed.sort()
        return packed & ((1 << bits) - 1)
    return fallback()


def _levels(q):
    """Yield (level bit, cur, ones before in group) for each level of the wavelet,
    and keep each level's order (positions as they stand) in ``cur`` of the next."""
    n = q.size
    top = max(int(n - 1).bit_length(), 1)
    cur = np.asarray(q, dtype=np.intp).copy()
    c = np.zeros(n + 1, dtype=np.intp)
    idx = np.arange(n, dtype=np.intp)
    b, gs, ob = (np.empty(n, np.intp) for _ in range(3))
    nxt = np.empty(n, np.intp)
    for lev in range(top - 1, -1, -1):
        np.right_shift(cur, lev, out=b)
        b &= 1
        np.cumsum(b, out=c[1:])
        np.right_shift(cur, lev + 1, out=gs)
        gs <<= lev + 1
        np.take(c, gs, out=ob, mode="clip")
        np.subtract(c[:-1], ob, out=ob)            # 1s before, in the group
        yield lev, cur, b, gs, ob
        # the next order: each group's 0s, then its 1s, positions kept within each
        gs += 1 << lev
        np.minimum(gs, n, out=gs)
        gs += ob
        gs += ob
        gs -= idx
        gs *= b
        gs -= ob
        gs += idx
        nxt[gs] = cur
        cur, nxt = nxt, cur


def inversions(q):
    """Pairs i < j with q[i] > q[j] of a permutation q of 0..n-1 (an int)."""
    total = 0
    for _, _, b, _, ob in _levels(q):
        total += int(ob.sum()) - int(np.einsum("i,i->", ob, b))
    return total


def _moves(q):
    """Yield (slot owners, bit, group starts, 1s before) of each level: ``owners[k]`` is
    the position whose value sits in slot k of that level's order."""
    n = np.asarray(q).size
    owner = np.arange(n, dtype=np.intp)
    nxt = np.empty(n, dtype=np.intp)
    slots = np.arange(n, dtype=np.intp)
    for lev, _, b, gs, ob in _levels(q):
        yield owner, b, gs, ob
        dest = np.minimum(gs + (1 << lev), n)
        dest = np.where(b == 1, dest + ob, slots - ob)
        nxt[dest] = owner
        owner, nxt = nxt, owner


def left_greater(q):
    """(n,) for each position j, how many i < j have q[i] > q[j]."""
    acc = np.zeros(np.asarray(q).size, dtype=np.int64)
    for owner, b, _, ob in _moves(q):
        acc[owner] += ob * (1 - b)
    return acc


class Levels:
    """The wavelet's level orders of one permutation, kept to weigh its inversions again
    and again: ``count(w)`` = sum over inversions (i, j) of w[i] * w[j] (a bootstrap
    replicate's row multiplicities, or a split's 0/1 mask)."""

    def __init__(self, q):
        q = np.asarray(q, dtype=np.intp)
        self.n = n = q.size
        self.orders, self.bits, self.starts = [], [], []
        small = np.int32 if n < 2 ** 31 else np.intp
        for owner, b, gs, _ in _moves(q):
            self.orders.append(owner.astype(small))
            self.bits.append(b.astype(bool))
            self.starts.append(gs.astype(small))            # group start, by slot

    def count(self, w):
        """Weighted inversions for weights ``w`` (n,) by position (float)."""
        w = np.asarray(w, dtype=np.float64)
        n = self.n
        c = np.zeros(n + 1)
        total = 0.0
        for order, bit, gs in zip(self.orders, self.bits, self.starts):
            wl = np.take(w, order, mode="clip")
            ones = np.where(bit, wl, 0.0)
            np.cumsum(ones, out=c[1:])
            before = c[:-1] - np.take(c, gs, mode="clip")
            total += float(np.einsum("i,i->", before, wl - ones))
        return total
