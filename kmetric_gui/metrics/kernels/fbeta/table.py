"""Jaccard back-ends: distinct strings to ids, token sets, and the scores of
string pairs from a dense table, a padded lookup or token by token."""
from functools import cached_property
from itertools import chain, count

import numpy as np

from ....errors import InputError
from .text import _as_lists, _check_strings, _first_ids, _token_keys, clean_text

_DENSE_MATMUL = 1 << 27  # strings^2 x vocabulary below which one matrix product scores all
_PADDED_MAX = 1 << 21    # cells x tokens above which a block is scored token by token
_BITSET_MAX = 1 << 29    # (string, token) bitset size (bits) below which it replaces binary search


class _Prepared:
    """Strings to ids, token sets as CSR arrays.

    String ids follow alphabetical order. Truths are sorted by id within
    their document (one-to-one takes them in that order); predictions keep
    their order and ties are broken by id instead.
    """

    def __init__(self, truths, predictions, clean):
        if len(truths) != len(predictions):
            raise InputError(f"truths and predictions differ in number of documents: "
                             f"{len(truths)} vs {len(predictions)}")
        n = self.n_docs = len(truths)
        truths, predictions = _as_lists(truths, "truths"), _as_lists(predictions, "predictions")
        lens = np.fromiter(map(len, chain(truths, predictions)), dtype=np.int64, count=2 * n)
        # One flat tuple, then dict lookups at C speed: no Python statement
        # per item.
        flat = tuple(chain.from_iterable(chain(truths, predictions)))
        t_count = int(lens[:n].sum())
        try:
            seen, first = _first_ids(flat)
        except TypeError:   # an unhashable item: name it
            _check_strings([s for s in flat if not isinstance(s, str)], flat, t_count)
            raise InputError("truths and predictions must be strings") from None
        _check_strings(seen, flat, t_count)
        # Ids in alphabetical order: rank the distinct strings once.
        if clean:
            keys = list(map(clean_text, seen))
            self.strings = sorted(set(keys))
            rank = dict(zip(self.strings, count()))
            rank = np.fromiter(map(rank.__getitem__, keys), dtype=np.int64, count=len(keys))
        else:
            order = sorted(range(len(seen)), key=seen.__getitem__)
            self.strings = list(map(seen.__getitem__, order))
            rank = np.empty(len(order), dtype=np.int64)
            rank[order] = np.arange(len(order))
        sid = rank[first]
        del flat
        keys, vocab = _token_keys(self.strings)
        tok_ptr, tok_ids = token_lists(keys, vocab, len(self.strings))
        del keys
        self._setup(lens[:n], lens[n:], sid[:t_count], sid[t_count:], len(self.strings),
                    tok_ptr, tok_ids, vocab)

    @classmethod
    def from_coded(cls, coded):
        """From documents already coded as numbers (``coded.Coded``): no strings."""
        self = cls.__new__(cls)
        self.n_docs = len(coded)
        self.strings = None
        self._setup(coded.nt, coded.npd, coded.t_sid, coded.p_sid, coded.s_count,
                    coded.tok_ptr, coded.tok_ids, coded.vocab_size, coded.truths_sorted)
        return self

    def _setup(self, nt, npd, t_sid, p_sid, s_count, tok_ptr, tok_ids, vocab_size,
               truths_sorted=False):
        self.s_count = s_count
        self.nt, self.npd = nt, npd
        self.t_start, self.p_start = _segments(self.nt), _segments(self.npd)
        self.p_sid = p_sid
        # Truths sorted by id within their document.
        self.t_sid = t_sid if truths_sorted else _sorted_within(t_sid, self.nt, self.t_start,
                                                                 s_count)
        # Token sets of every distinct string: each string's sorted token ids.
        self.tok_ptr, self.tok_ids, self.vocab_size = tok_ptr, tok_ids, vocab_size
        self.tok_len = np.diff(tok_ptr)
        if self.tok_len.size and self.tok_len.max() < 2 ** 14:
            self.tok_len = self.tok_len.astype(np.int16)    # two of them still add up

    def dense(self, pairs):
        """Whether one dense table of all distinct pairs is worth building."""
        s_count, size = self.s_count, self.s_count * self.vocab_size
        # The S x V token matrix, the S x V x S product and the S x S table
        # all small: a few long strings make V huge while S stays tiny, and
        # many spellings of a few words make S large while V stays tiny.
        return (pairs > s_count and size * s_count <= _DENSE_MATMUL
                and size <= _DENSE_MATMUL >> 3 and s_count * s_count <= _DENSE_MATMUL >> 5)

    def block_jaccard(self, blocks, pairs):
        """For each block (a, b, ...), yield it with the Jaccard of a[j] and each b[i, j].

        Blocks are scored one at a time, when asked for, so a block built
        after earlier matches sees them. String id S (one past the last) is a
        sentinel that scores -1.
        """
        s_count = self.s_count
        if self.dense(pairs):
            table = self.jaccard_table.ravel()
            for block in blocks:
                yield block, table[block[1] * (s_count + 1) + block[0]]
            return
        for block in blocks:
            a, b = block[0], block[1]
            real = np.minimum(b, s_count - 1)
            jac = self._padded_jaccard(a, real)
            if jac is None:   # a very long truth: token by token instead
                jac = self._jaccard_direct(np.broadcast_to(a, b.shape).ravel(),
                                           real.ravel()).reshape(b.shape)
            yield block, np.where(b < s_count, jac, -1.0)

    def _padded_jaccard(self, a_sid, b_sid):
        """Jaccard of a[j] with each b[i, j]: a's tokens padded to its longest,
        looked up in b's in one (w, n, tokens) pass. None if too large."""
        lens = self.tok_len[a_sid]
        most = int(lens.max()) if lens.size else 0
        if b_sid.size * most > _PADDED_MAX:
            return None
        k = np.arange(most)
        tok = self.tok_ids[np.minimum(self.tok_ptr[a_sid][:, None] + k,
                                      max(self.tok_ids.size - 1, 0))]
        hit = self._has(b_sid[:, :, None], tok)
        hit &= k < lens[:, None]
        inter = hit.sum(axis=2)
        union = lens + self.tok_len[b_sid] - inter
        return np.where(union > 0, inter / np.maximum(union, 1), 0.0)

    def _has(self, sid, tok):
        """Whether each string ``sid`` holds token ``tok`` (broadcast): a bitset
        lookup, or a binary search among the string's own sorted tokens."""
        if self.member_bits is not None:
            query = sid * self.vocab_size + tok
            return ((self.member_bits[query >> 3] >> (query & 7).astype(np.uint8)) & 1).astype(bool)
        ids = self.tok_ids
        shape = np.broadcast_shapes(np.shape(sid), np.shape(tok))
        if ids.size == 0:
            return np.zeros(shape, dtype=bool)
        lo = np.broadcast_to(self.tok_ptr[sid], shape).copy()
        end = np.broadcast_to(self.tok_ptr[sid + 1], shape)
        hi, last = end.copy(), ids.size - 1
        tok = np.broadcast_to(tok, shape)
        for _ in range(int(self.tok_len[sid].max(initial=0)).bit_length()):
            mid = (lo + hi) >> 1
            less = ids[np.minimum(mid, last)] < tok
            open_ = lo < hi
            np.copyto(lo, mid + 1, where=open_ & less)
            np.copyto(hi, mid, where=open_ & ~less)
        return (lo < end) & (ids[np.minimum(lo, last)] == tok)

    @cached_property
    def member_bits(self):
        """The (string, token) pairs as a packed bitset, when it fits."""
        size = self.s_count * self.vocab_size
        # Beyond 64 bits a token the bitset costs more memory than it saves time.
        if size > _BITSET_MAX or size > 64 * max(self.tok_ids.size, 1 << 16):
            return None
        owner = np.repeat(np.arange(self.s_count, dtype=np.int64), self.tok_len)
        keys = owner * self.vocab_size + self.tok_ids   # sorted: bytes come in runs
        bits = np.zeros(size // 8 + 1, dtype=np.uint8)
        if keys.size:
            byte = keys >> 3
            start = np.flatnonzero(np.r_[True, byte[1:] != byte[:-1]])
            mask = np.left_shift(1, (keys & 7).astype(np.uint8), dtype=np.uint8)
            bits[byte[start]] = np.bitwise_or.reduceat(mask, start)
        return bits

    @cached_property
    def jaccard_table(self):
        """Jaccard of every pair of distinct strings, one small matrix product,
        plus a sentinel string that scores -1 with all."""
        s_count = self.s_count
        owner = np.repeat(np.arange(s_count), self.tok_len)
        m = np.zeros((s_count, self.vocab_size), dtype=np.float32)
        m[owner, self.tok_ids] = 1.0
        inter = (m @ m.T).astype(np.float64)          # exact: small integer counts
        union = self.tok_len[:, None] + self.tok_len[None, :] - inter
        table = np.full((s_count + 1, s_count + 1), -1.0)   # last row, column: sentinel
        table[:s_count, :s_count] = np.where(union > 0, inter / np.maximum(union, 1), 0.0)
        return table

    def _jaccard_direct(self, a_sid, b_sid):
        """Jaccard for each (a, b) pair: every token of a looked up in b."""
        lens = self.tok_len[a_sid]
        pair, tok = self._expand(a_sid, lens)
        hits = np.concatenate(([0], np.cumsum(self._has(b_sid[pair], tok))))
        ends = np.cumsum(lens)
        inter = hits[ends] - hits[ends - lens]
        union = lens + self.tok_len[b_sid] - inter
        return np.where(union > 0, inter / np.maximum(union, 1), 0.0)

    def _expand(self, sid, lens):
        """(pair index, token id) for every token of each string in sid."""
        idx, pair = _ranges(self.tok_ptr[sid], lens)
        return pair, self.tok_ids[idx]


def token_lists(keys, vocab, s_count):
    """Sorted keys string id * vocab + token id (repeats allowed) as each string's
    sorted distinct token ids: (pointers (s_count + 1,), token ids), a slice at a
    time (no key-sized temporaries)."""
    tok_len = np.zeros(s_count, dtype=np.int64)
    tok_ids = np.empty(keys.size, dtype=np.int32 if vocab < 2 ** 31 else np.int64)
    at, step = 0, 1 << 18
    for a in range(0, keys.size, step):
        part = keys[a:a + step]
        new = np.r_[a == 0 or part[0] != keys[a - 1], part[1:] != part[:-1]]
        part = part[new]
        tok_len += np.bincount(part // vocab, minlength=s_count)
        tok_ids[at:at + part.size] = part % vocab
        at += part.size
    return np.concatenate(([0], np.cumsum(tok_len))), tok_ids[:at].copy()


def _sorted_within(sid, counts, starts, s_count, out=None):
    """``sid`` (items of documents of ``counts`` items, one after the other) sorted
    within each document: a stable sort of doc * S + id (grouped: fast), a slice
    of documents at a time (no item-sized int64 temporaries); ``out=sid``: in place."""
    out = np.empty_like(sid) if out is None else out
    step = 1 << 16
    for a in range(0, counts.size, step):
        c = counts[a:a + step]
        lo = int(starts[a]) if c.size else 0
        hi = lo + int(c.sum())
        if hi == lo:
            continue
        key = np.repeat(np.arange(c.size, dtype=np.int64), c)
        key *= s_count
        key += sid[lo:hi]
        out[lo:hi] = sid[lo:hi][np.argsort(key, kind="stable")]
    return out


def _segments(counts):
    """Start offsets of consecutive runs with the given lengths (in their type)."""
    out = np.cumsum(counts, dtype=counts.dtype)
    out -= counts
    return out


def _segment_sums(flags, starts, counts, out=None):
    """Number of true flags in each run [start, start + count) (into ``out``, a slice
    of runs at a time, if given)."""
    total = np.zeros(flags.size + 1, np.int32 if flags.size < 2 ** 31 else np.int64)
    np.cumsum(flags, dtype=total.dtype, out=total[1:])
    if out is None:
        return total[starts + counts] - total[starts]
    step = 1 << 16
    for a in range(0, starts.size, step):
        s, c = starts[a:a + step], counts[a:a + step]
        np.subtract(total[s + c], total[s], out=out[a:a + step])
    return out


def _ranges(starts, lengths):
    """Concatenated aranges [s, s+len) for each run: (index, run id)."""
    ends = np.cumsum(lengths)
    total = int(ends[-1]) if ends.size else 0
    pos = np.arange(total)
    # Run id = number of runs ended at or before pos: a cumsum of end marks
    # (several times faster than np.repeat or searchsorted here).
    run = np.cumsum(np.bincount(ends, minlength=total + 1)[:total])
    return (starts - (ends - lengths))[run] + pos, run
