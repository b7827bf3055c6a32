"""Matching truths to predictions in every document at once, in dense blocks."""
import numpy as np

from ....errors import InputError

_BLOCK_CELLS = 12288     # cells per matching block: arrays small enough for malloc's heap
# Every truth of a document is compared with every prediction of it: past this
# many pairs in one document (about a second) it is refused, not left to run
# for minutes (200,000 x 200,000 would take hours).
MAX_DOCUMENT_PAIRS = 2_000_000


class DocumentTooLarge(InputError):
    """A document with more truth-prediction pairs than MAX_DOCUMENT_PAIRS;
    ``document`` is its position among the documents scored."""

    def __init__(self, document, truths, predictions):
        self.document = document
        super().__init__(f"document {document + 1:,} (in solution order) has {truths:,} truths "
                         f"and {predictions:,} predictions: {truths * predictions:,} pairs to "
                         f"compare; documents of up to {MAX_DOCUMENT_PAIRS:,} pairs are scored")


def check_sizes(nt, npd):
    """Raise DocumentTooLarge for the first document past MAX_DOCUMENT_PAIRS."""
    if not nt.size:
        return
    pairs = nt.astype(np.int64) * npd
    big = np.flatnonzero(pairs > MAX_DOCUMENT_PAIRS)
    if big.size:
        d = int(big[0])
        raise DocumentTooLarge(d, int(nt[d]), int(npd[d]))


def _pairs(nt, npd):
    """Truth-prediction pairs of all documents (in int64, a slice at a time: the
    counts may be int32)."""
    step = 1 << 16
    return sum(int(np.dot(nt[a:a + step].astype(np.int64), npd[a:a + step]))
               for a in range(0, nt.size, step))


def _width_class(widths):
    """ceil(log2(width)) of each width >= 1 (0 for width 1), as int8: a table of
    the few widths there are, not float temporaries per document."""
    top = int(widths.max())
    if top > 1 << 16:
        return np.frexp(widths - 1)[1].astype(np.int8)
    table = np.array([(w - 1).bit_length() if w else 0 for w in range(top + 1)], np.int8)
    return table[widths]


def _match(prep, threshold, matching):
    """Match truths to predictions in every document.

    Returns the chosen prediction of each truth (-1 when unmatched) and a
    'used' flag per prediction, with one extra always-used slot for padding.

    Documents are grouped by their prediction count rounded up to a power of
    two (the block width); within a group, step r takes the r-th truth
    (alphabetically) of every document that has one. Each step is one dense
    (width, documents) block, column-major so reductions over axis 0 are
    plain element-wise passes. One-to-one: documents are independent, so a
    step's truths each take the best prediction not used yet.
    """
    n_t, n_p, s_count = prep.t_sid.size, prep.p_sid.size, prep.s_count
    chosen = np.full(n_t, -1, dtype=np.int32 if n_p < 2 ** 31 else np.int64)
    used = np.zeros(n_p + 1, dtype=bool)
    used[n_p] = True
    one_to_one = matching == "one-to-one"
    nt, npd = prep.nt, prep.npd
    check_sizes(nt, npd)
    docs = np.flatnonzero((nt > 0) & (npd > 0))
    if docs.size == 0:
        return chosen, used
    if docs[-1] < 2 ** 31:
        docs = docs.astype(np.int32)             # per-document arrays below: 4 bytes each
    wclass = _width_class(npd[docs])
    # By width class, most truths first: the documents still holding a truth
    # of rank r are then a prefix of their class.
    most = int(nt.max())
    kind = np.int32 if most < 1 << 24 else np.int64     # width class < 64: no overflow
    key = wclass.astype(kind) * kind(most + 1)
    key += most
    key -= nt[docs]
    if key.max() < 32767:
        key = key.astype(np.int16)               # numpy's stable sort is a radix sort here
    order = np.argsort(key, kind="stable")
    del key
    docs, wclass = docs[order], wclass[order]
    del order
    bounds = np.flatnonzero(np.r_[True, wclass[1:] != wclass[:-1], True])
    # The padding slot reads the sentinel; ids stay as narrow as coded (each
    # block is widened to int64 for the arithmetic on it).
    wide = np.int32 if s_count < 2 ** 31 - 1 and prep.p_sid.dtype.itemsize <= 4 else np.int64
    p_sid = np.concatenate((prep.p_sid.astype(wide, copy=False), np.array([s_count], wide)))

    def blocks():
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            d = docs[lo:hi]
            col = np.arange(1 << int(wclass[lo]))[:, None]
            first, fewer = prep.t_start[d], -nt[d]           # fewer: ascending
            step = max(1, _BLOCK_CELLS // col.size)
            for r in range(int(nt[d[0]])):
                k = np.searchsorted(fewer, -r)                # documents with > r truths
                for j in range(0, k, step):
                    rows = first[j:min(k, j + step)] + r
                    # Prediction slots of a block's documents, made per block: for a
                    # whole class they would be a (width, documents) int64 array.
                    dd = d[j:j + rows.size]
                    sub = np.where(col < npd[dd], prep.p_start[dd] + col, n_p)
                    yield (prep.t_sid[rows].astype(np.int64), p_sid[sub].astype(np.int64),
                           rows, col, sub)

    for (_, b_sid, rows, col, idx), jac in prep.block_jaccard(blocks(), _pairs(nt, npd)):
        w = col.size
        top = jac.max(axis=0)
        # Among equal scores the alphabetically first prediction wins, then
        # the first column: the largest tie key, column in its low part.
        tie = (s_count - b_sid) * w + (w - 1 - col)
        first = w - 1 - ((jac == top) * tie).max(axis=0) % w
        ok = np.flatnonzero(top >= threshold)
        pick = idx[first[ok], ok]
        chosen[rows[ok]] = pick
        used[pick] = True
        if one_to_one:
            p_sid[pick] = s_count   # later blocks read a taken prediction as the sentinel
    return chosen, used
