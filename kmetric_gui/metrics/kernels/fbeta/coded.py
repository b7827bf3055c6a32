"""Documents already coded as numbers: what the matching needs, without strings.

A file's cells become string ids and token keys once (kmetric_gui.metrics:
from the Arrow columns, no Python string per item); every split is then
a selection of documents of the same codes.
"""
from dataclasses import dataclass

import numpy as np

from .table import _ranges


@dataclass(frozen=True)
class Coded:
    """Items of every document as string ids, and each string's token set.

    String ids follow the alphabetical order of the (cleaned) strings, as in
    ``jaccard_fbeta``; a string's tokens are its lower-cased whitespace
    tokens, as sorted token ids ``tok_ids[tok_ptr[s]:tok_ptr[s + 1]]``.
    """
    nt: np.ndarray             # (D,) truths of each document
    npd: np.ndarray            # (D,) predictions of each document
    t_sid: np.ndarray          # truths' string ids, document after document
    p_sid: np.ndarray          # predictions' string ids, document after document
    s_count: int               # distinct strings
    tok_ptr: np.ndarray        # (s_count + 1,) where each string's tokens start
    tok_ids: np.ndarray        # token ids, string after string, sorted within each
    vocab_size: int
    truths_sorted: bool = False   # t_sid already sorted within each document

    def __len__(self):
        return self.nt.size

    def take(self, rows):
        """The documents ``rows`` (an index array; None: all of them)."""
        if rows is None:
            return self
        rows = np.asarray(rows, dtype=np.int64)
        return Coded(self.nt[rows], self.npd[rows], _pick(self.t_sid, self.nt, rows),
                     _pick(self.p_sid, self.npd, rows), self.s_count, self.tok_ptr,
                     self.tok_ids, self.vocab_size, self.truths_sorted)


def _pick(sid, counts, rows):
    """The items of documents ``rows``, in that order (documents of ``counts`` items,
    one after the other in ``sid``), a slice of documents at a time."""
    starts = np.cumsum(counts) - counts
    sizes = counts[rows]
    out = np.empty(int(sizes.sum()), dtype=sid.dtype)
    at, step = 0, 1 << 16
    for a in range(0, rows.size, step):
        idx, _ = _ranges(starts[rows[a:a + step]], sizes[a:a + step])
        out[at:at + idx.size] = sid[idx]
        at += idx.size
    return out


def file_order(sid, counts, index):
    """Items of file rows (``counts`` each, in file order) put in the order ``index``."""
    if index is None:
        return sid, counts
    return _pick(sid, counts, index), counts[index]
