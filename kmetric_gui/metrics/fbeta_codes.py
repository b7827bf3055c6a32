"""Both F-beta columns coded as numbers for the core (``kernels.fbeta.Coded``), in little memory.

Every item gets the alphabetical rank of its (cleaned) string among the
distinct strings, and each distinct string its sorted token ids. Two ways
to find the distinct strings, chosen from a sample (same codes either way):

- few distinct strings (labels repeat, as in Kaggle files): Arrow's hash
  (``dictionary_encode``), then the small dictionary sorted;
- mostly distinct strings: Arrow's hash would hold about 90 bytes per
  string (its table and the growing dictionary: 287 MB over 56 MB of items
  at 3.25M strings), so the items are sorted instead (8 bytes each) and
  walked a slice at a time in that order: equal neighbours share a rank, and
  each slice's distinct strings are cut into tokens at once.

Tokens are numbered slice after slice against the vocabulary so far (one
Arrow hash over it and the slice), so no array of every token is built.
"""
import numpy as np
import pyarrow as pa

from ..numbers import arrow_ints, arrow_texts, bool_array, plain_array
from .fbeta_cells import _items, _mixed, _words

SAMPLE = 1 << 16          # items hashed to guess how many strings are distinct
SPARSE = 0.5              # distinct share of the sample above which items are sorted
SLICE = 1 << 14          # items (sorted path) or strings tokenized at a time


def code(truth, pred, clean=False, release=False):
    """``kernels.fbeta.Coded`` of two ``Cells`` (string ids in alphabetical order);
    ``release``: each column freed as its items are cut out (``Cells.release``)."""
    from .kernels.fbeta.coded import Coded, file_order
    from .kernels.fbeta.table import _segments, _sorted_within
    t_arrays, t_counts = _items(truth, release)
    p_arrays, p_counts = _items(pred, release)
    t_counts, p_counts = _narrow(t_counts), _narrow(p_counts)
    t_total = int(t_counts.sum())
    chunks = [a.cast(pa.large_string()) if _mixed(t_arrays + p_arrays) else a
              for a in t_arrays + p_arrays]
    del t_arrays, p_arrays
    tokens = _Tokens()
    if not chunks:
        sid = np.zeros(0, np.int32)
    elif _sparse(chunks):
        sid = _sorted_codes(chunks, clean, tokens)
    else:
        sid = _hashed_codes(chunks, clean, tokens)
    tok_ptr, tok_ids, vocab, s_count = tokens.finish()
    t_counts, p_counts = _widened(t_counts), _widened(p_counts)
    t_sid, nt = file_order(sid[:t_total], t_counts, truth.index)
    p_sid, npd = file_order(sid[t_total:], p_counts, pred.index)
    del sid
    # Truths sorted within their documents here, in place: the core needs no copy.
    _sorted_within(t_sid, nt, _segments(nt), max(s_count, 1), out=t_sid)
    _trim()
    return Coded(nt, npd, t_sid, p_sid, s_count, tok_ptr, tok_ids, vocab, truths_sorted=True)


def _trim():
    """Give glibc's freed heap pages back (the slices' small arrays leave holes)."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):     # not glibc
        pass


def _narrow(counts):
    """Items per document as uint8 while coding, when they fit (less held beside the sort)."""
    return counts.astype(np.uint8) if counts.size and counts.max() < 256 else counts


def _widened(counts):
    """Items per document as int32 when all the items' count fits (the core's
    running sums over items keep this type), int64 otherwise."""
    wide = np.int32 if counts.sum(dtype=np.int64) < 2 ** 31 - 1 else np.int64
    return counts.astype(wide)


def _sparse(chunks):
    import pyarrow.compute as pc
    sample = pa.chunked_array(chunks).slice(0, SAMPLE)
    return len(pc.unique(sample)) > SPARSE * len(sample)


def _cleaned(strings):
    """The competition's cleaning: non-alphanumerics to a space, lower case, trimmed."""
    import pyarrow.compute as pc
    return pc.utf8_trim(pc.ascii_lower(pc.replace_substring_regex(
        strings, pattern="[^A-Za-z0-9]+", replacement=" ")), " ")


def _hashed_codes(chunks, clean, tokens):
    """Ranks of the items through Arrow's hash; the sorted dictionary tokenized."""
    import pyarrow.compute as pc
    enc = pc.dictionary_encode(pa.chunked_array(chunks))
    chunks.clear()              # the caller's list too
    codes = np.concatenate([plain_array(c.indices) for c in enc.chunks])
    strings = enc.chunk(0).dictionary
    del enc                                     # the indices (copied) and the hash
    if clean:
        enc = pc.dictionary_encode(_cleaned(strings))
        codes = plain_array(enc.indices)[codes]
        strings = enc.dictionary
    order = plain_array(pc.sort_indices(strings)).astype(np.int64)
    rank = np.empty(len(strings), dtype=np.int32)      # dictionary indices are int32 too
    rank[order] = np.arange(len(strings), dtype=np.int32)
    sid = rank[codes]
    del codes, rank
    for at in _slices(order, tokens):
        tokens.add(strings.take(arrow_ints(at)))
    return sid


def _slices(order, tokens):
    """``order`` a slice at a time: at least as long as the vocabulary so far, so
    hashing the vocabulary again with each slice stays linear in all."""
    a = 0
    while a < order.size:
        step = max(SLICE, tokens.size)
        yield order[a:a + step]
        a += step


def _sorted_codes(chunks, clean, tokens):
    """Ranks of the items from one sort of all of them, walked a slice at a time."""
    import pyarrow.compute as pc
    if clean:
        chunks[:] = [_cleaned(c) for c in chunks]
        if _mixed(chunks):
            chunks[:] = [c.cast(pa.large_string()) for c in chunks]
    order = plain_array(pc.sort_indices(pa.chunked_array(chunks)))
    # In parts, each freed once walked (the tokens take their place).
    narrow = np.int32 if order.size < 2 ** 31 else np.int64
    order = [order[a:a + SLICE].astype(narrow) for a in range(0, order.size, SLICE)]
    bounds = np.cumsum([0] + [len(c) for c in chunks])
    sid = np.empty(sum(o.size for o in order), np.int32)
    base, last = 0, None
    for at in _parts(order, tokens):
        strings = _take(chunks, bounds, at)
        new = np.ones(len(strings), bool)
        if len(strings) > 1:
            new[1:] = bool_array(pc.not_equal(strings.slice(1), strings.slice(0, len(strings) - 1)))
        if last is not None:
            new[0] = strings[0].as_py() != last
        last = strings[len(strings) - 1].as_py()
        rank = np.cumsum(new, dtype=np.int64)
        rank += base - 1
        sid[at] = rank
        base = int(rank[-1]) + 1
        tokens.add(strings.take(arrow_ints(np.flatnonzero(new))))
    chunks.clear()              # the caller's list too: the items go before the tokens are joined
    return sid


def _parts(order, tokens):
    """The parts of ``order`` (a list, emptied), joined to at least the vocabulary's
    size so far (see ``_slices``)."""
    while order:
        at = [order.pop(0)]
        while order and sum(a.size for a in at) < tokens.size:
            at.append(order.pop(0))
        yield at[0] if len(at) == 1 else np.concatenate(at)


def _take(chunks, bounds, at):
    """The items at positions ``at`` of the chunks (``bounds``: where each starts) as
    one array, taken chunk by chunk: Arrow's take on a chunked array joins all the
    chunks first (a copy of every item, at every call)."""
    k = np.searchsorted(bounds, at, side="right") - 1
    parts, where = [], []
    for c in np.unique(k).tolist():
        sel = np.flatnonzero(k == c)
        parts.append(chunks[c].take(arrow_ints(at[sel] - bounds[c])))
        where.append(sel)
    got = pa.concat_arrays(parts) if len(parts) > 1 else parts[0]
    if len(parts) == 1:
        return got
    back = np.empty(at.size, np.int64)
    back[np.concatenate(where)] = np.arange(at.size)
    return got.take(arrow_ints(back))


class _Tokens:
    """Distinct strings given in rank order, a slice at a time, as each string's
    sorted distinct token ids (``tok_ptr``, ``tok_ids``) over one numbering."""

    def __init__(self):
        self.vocab = arrow_texts([]).cast(pa.large_string())
        self.lens, self.ids = [], []

    @property
    def size(self):
        return len(self.vocab)

    def add(self, strings):
        import pyarrow.compute as pc
        if not len(strings):
            return
        words, owner = _words(strings)
        lens = np.zeros(len(strings), np.int32)
        if owner.size:
            # The vocabulary so far first: its tokens keep their numbers.
            enc = pc.dictionary_encode(pa.chunked_array(
                [self.vocab] + [w.cast(pa.large_string()) for w in words]))
            del words
            known = len(self.vocab)
            self.vocab = enc.chunk(0).dictionary
            tok = np.concatenate([plain_array(c.indices) for c in enc.chunks])[known:]
            del enc
            key = owner.astype(np.int64) << 32
            key |= tok
            del tok, owner
            key.sort()
            key = key[np.r_[True, key[1:] != key[:-1]]]        # a token once per string
            lens += np.bincount(key >> 32, minlength=lens.size).astype(np.int32)
            self.ids.append((key & 0xFFFFFFFF).astype(np.int16 if self.size < 2 ** 15
                                                      else np.int32))
        self.lens.append(lens.astype(np.uint8) if lens.max() < 256 else lens)

    def finish(self):
        """(tok_ptr, tok_ids, vocabulary size, strings)."""
        lens = np.concatenate(self.lens) if self.lens else np.zeros(0, np.int32)
        self.lens = None
        total = int(lens.sum(dtype=np.int64))
        tok_ptr = np.zeros(lens.size + 1, np.int32 if total < 2 ** 31 else np.int64)
        np.cumsum(lens, dtype=tok_ptr.dtype, out=tok_ptr[1:])
        tok_ids = np.empty(total, np.int16 if self.size < 2 ** 15 else np.int32)
        at = 0
        while self.ids:                         # each part freed once copied
            part = self.ids.pop(0)
            tok_ids[at:at + part.size] = part
            at += part.size
        return tok_ptr, tok_ids, max(self.size, 1), lens.size
