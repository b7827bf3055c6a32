"""F-beta cells kept as the Arrow column that was read, and coded for the core.

``Cells`` is what ``Prepared.truth``/``pred`` hold for F-beta: the file's
'|'-separated column in solution row order (an index into the submission's
rows), split into a list of items only when one document is read (the app's
table, an edit, a drawing). ``fbeta_codes.code`` turns both columns into the core's
numbers (``kernels.fbeta.Coded``) without a Python string per item: cells are
split and blank items dropped on the raw UTF-8 bytes, distinct items and
tokens are hashed by Arrow, and only items or strings holding non-ASCII text
go through Python (its ``strip``, ``lower`` and ``split`` are Unicode-aware).
"""
import numpy as np
import pyarrow as pa

from ..core.cells import split_cell
from ..numbers import arrow_ints, arrow_scalar, arrow_texts

_BAR = ord("|")
_BLOCK = 1 << 13      # strings cut into tokens at a time (per-byte temporaries stay small)
# Python's str.split()/strip() whitespace among ASCII bytes (\x1c-\x1f included).
_WS = np.zeros(256, dtype=bool)
_WS[[9, 10, 11, 12, 13, 28, 29, 30, 31, 32]] = True
_SOLID = ~_WS
_SOLID[0x80:] = False
_LOWER = np.arange(256, dtype=np.uint8)
_LOWER[ord("A"):ord("Z") + 1] += 32


class Cells:
    """A '|'-separated text column, one document per row, read lazily.

    ``cells[i]`` is document i's list of items (``split_cell``); ``index``
    maps documents to rows of the column (None: the same order).
    """

    def __init__(self, column, index=None):
        self._chunks = None
        chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
        self.chunks = [c if pa.types.is_string(c.type) or pa.types.is_large_string(c.type)
                       else c.cast(pa.string()) for c in chunks if len(c)]
        self.rows = sum(len(c) for c in self.chunks)
        self.bounds = np.cumsum([0] + [len(c) for c in self.chunks])
        self.index = None if index is None or _identity(index, self.rows) else \
            np.asarray(index, dtype=np.int64)

    def __len__(self):
        return self.rows if self.index is None else self.index.size

    @property
    def chunks(self):
        if self._chunks is None:
            raise RuntimeError("this F-beta column was handed over to be coded and is no "
                               "longer kept (Prepared.keep_columns is False)")
        return self._chunks

    @chunks.setter
    def chunks(self, chunks):
        self._chunks = chunks

    def release(self):
        """The column's chunks, handed over: this Cells keeps no text from now on
        (a one-shot score frees each chunk once its items are cut out)."""
        chunks, self._chunks = self.chunks, None
        return chunks

    def text(self, i):
        """Document i's cell as read (None for a missing value)."""
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        r = int(self.index[i]) if self.index is not None else int(i) % len(self)
        k = int(np.searchsorted(self.bounds, r, side="right")) - 1
        return self.chunks[k][r - int(self.bounds[k])].as_py()

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return split_cell(self.text(int(i)))

    def __iter__(self):
        step = 65536
        for a in range(0, len(self), step):
            if self.index is None:
                texts = self._file_texts(a, min(a + step, len(self)))
            else:
                texts = self._texts_at(self.index[a:a + step])
            yield from map(split_cell, texts)

    def _texts_at(self, rows):
        """Cells of the file rows ``rows``, one take per chunk."""
        out = [None] * rows.size
        chunk = np.searchsorted(self.bounds, rows, side="right") - 1
        for k in np.unique(chunk):
            sel = np.flatnonzero(chunk == k)
            vals = self.chunks[k].take(arrow_ints(rows[sel] - self.bounds[k])).to_pylist()
            for j, v in zip(sel.tolist(), vals):
                out[j] = v
        return out

    def _file_texts(self, a, b):
        out = []
        for k, c in enumerate(self.chunks):
            lo, hi = max(a, int(self.bounds[k])), min(b, int(self.bounds[k + 1]))
            if lo < hi:
                out += c.slice(lo - int(self.bounds[k]), hi - lo).to_pylist()
        return out

    def __eq__(self, other):
        if not isinstance(other, (Cells, list)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None

    def take(self, rows):
        """The documents ``rows`` (an index array), still unsplit."""
        rows = np.asarray(rows, dtype=np.int64)
        out = Cells.__new__(Cells)
        out.chunks, out.rows, out.bounds = self.chunks, self.rows, self.bounds
        out.index = rows if self.index is None else self.index[rows]
        return out

    def counts(self):
        """Items of each document (numpy), without splitting into Python lists."""
        counts = np.concatenate([_split(c, items=False)[1] for c in self.chunks]) if self.chunks else \
            np.zeros(0, np.int64)
        return counts if self.index is None else counts[self.index]

    def editable(self):
        """A copy to set documents of (the app's edited data), O(1): no Python
        list per document is made, nor freed when the edited version goes."""
        return EditedCells(self)


class EditedCells:
    """A ``Cells`` column with some documents replaced (unit -> list of items).

    Reads like a list of documents (``len``, ``[i]``, iteration, ``counts``);
    a full score of edited data makes it a ``Cells`` again (metrics.fbeta._as_cells:
    the edited documents '|'-joined in one more chunk) and codes it like the file.
    """

    def __init__(self, cells, edits=None):
        self.cells = cells
        self.edits = dict(edits or {})

    def __len__(self):
        return len(self.cells)

    def __setitem__(self, i, value):
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        self.edits[int(i) % len(self)] = value

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        i = int(i) % len(self)
        return self.edits[i] if i in self.edits else self.cells[i]

    def __iter__(self):
        edits = self.edits
        for i, doc in enumerate(self.cells):
            yield edits[i] if i in edits else doc

    def __eq__(self, other):
        if not isinstance(other, (Cells, EditedCells, list)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None

    def editable(self):
        return EditedCells(self.cells, self.edits)

    def counts(self):
        """Items of each document: the file's counts, the edited documents' own."""
        counts = self.cells.counts()
        for i, doc in self.edits.items():
            counts[i] = len(doc)
        return counts


def _identity(index, rows):
    """Whether ``index`` is 0, 1, ..., rows - 1 (a submission in the solution's order:
    no index to keep, no reordered copy of its items), checked a slice at a time."""
    if len(index) != rows:
        return False
    step = 1 << 16
    return all(np.array_equal(index[a:a + step], np.arange(a, min(a + step, rows)))
               for a in range(0, rows, step))


def _buffers(arr):
    """(bytes, offsets from 0) of one Arrow string array, without copies."""
    off_type = np.int64 if pa.types.is_large_string(arr.type) else np.int32
    off = np.frombuffer(arr.buffers()[1], dtype=off_type)[arr.offset:arr.offset + len(arr) + 1]
    base, end = (int(off[0]), int(off[-1])) if off.size else (0, 0)
    data = np.frombuffer(arr.buffers()[2], dtype=np.uint8)[base:end] if end > base else \
        np.zeros(0, np.uint8)
    return data, off.astype(np.int64) - base


def _any(mask, starts, ends):
    """Whether each non-empty segment [start, end) holds a True (False when empty).

    Segments are disjoint and ordered, and the bytes between them are False.
    """
    out = np.zeros(starts.size, dtype=bool)
    inner = int(np.searchsorted(starts, mask.size))    # segments starting at the end are empty
    if inner:
        out[:inner] = np.logical_or.reduceat(mask, starts[:inner])
    return out & (ends > starts)


def _split(arr, items=True):
    """One chunk's items: (Arrow string array of the kept items, items per row);
    with ``items`` False only the counts (None for the array: no copy of the text).

    '|' splits a cell; an item that is empty or all whitespace (Python's
    ``str.strip``) is dropped; a missing cell has no items (``split_cell``).
    """
    if arr.null_count:
        import pyarrow.compute as pc
        arr = pc.fill_null(arr, arrow_scalar(""))
    data, off = _buffers(arr)
    seps = np.flatnonzero(data == _BAR)
    starts = np.sort(np.concatenate((off[:-1], seps + 1)))
    ends = np.sort(np.concatenate((seps, off[1:])))
    per_row = 1 + np.searchsorted(seps, off[1:]) - np.searchsorted(seps, off[:-1])
    solid = _SOLID[data]                # an ASCII byte that is not whitespace
    solid[seps] = False
    keep = _any(solid, starts, ends)
    high = _any(data >= 0x80, starts, ends) & ~keep
    for k in np.flatnonzero(high):      # non-ASCII text: Python decides what is blank
        keep[k] = bool(bytes(data[starts[k]:ends[k]]).decode("utf-8").strip())
    first = np.concatenate(([0], np.cumsum(per_row)))
    kept = np.concatenate(([0], np.cumsum(keep)))
    counts = kept[first[1:]] - kept[first[:-1]]
    return (_joined(data, starts[keep], ends[keep]) if items else None), counts


def _joined(data, starts, ends):
    """An Arrow string array of the byte ranges [start, end) (disjoint, ordered)."""
    inside = np.zeros(data.size + 1, dtype=np.int8)
    inside[starts] = 1
    inside[ends] -= 1
    mask = np.cumsum(inside[:-1], dtype=np.int8).view(bool)
    body = data[mask]
    lens = ends - starts
    total = int(lens.sum())
    big = total >= 2 ** 31
    off = np.zeros(starts.size + 1, dtype=np.int64 if big else np.int32)
    np.cumsum(lens, out=off[1:])
    return pa.Array.from_buffers(pa.large_string() if big else pa.string(), starts.size,
                                 [None, pa.py_buffer(off), pa.py_buffer(body)])


def _items(cells, release=False):
    """(item arrays, items per file row) of a Cells' column, chunk by chunk; with
    ``release``, the column is handed over and each chunk freed once split."""
    # A copy of the list either way: a taken Cells may share it (and then keeps the text).
    chunks = list(cells.release() if release else cells.chunks)
    parts = []
    while chunks:
        parts.append(_split(chunks.pop(0)))
    arrays = [a for a, _ in parts if len(a)]
    counts = np.concatenate([c for _, c in parts]) if parts else np.zeros(0, np.int64)
    return arrays, counts


def _mixed(arrays):
    return len({a.type for a in arrays}) > 1


def _words(strings):
    """Tokens of some strings as Arrow arrays, and the string (int32) of each token.

    A block of strings at a time: the temporaries are a dozen bytes per byte
    of text (8 MB for a slice of 64k items), a block's only."""
    words, owners = [], []
    for a in range(0, len(strings), _BLOCK):
        w, o = _block_words(strings.slice(a, _BLOCK))
        words += w
        if a:
            o += np.int32(a)
        owners.append(o)
    owner = np.concatenate(owners) if owners else np.zeros(0, np.int32)
    return words, owner


def _block_words(strings):
    data, off = _buffers(strings)
    starts, ends = off[:-1], off[1:]
    odd = np.flatnonzero(_any(data >= 0x80, starts, ends))      # non-ASCII: Python
    tok = _SOLID[data]
    for k in odd:
        tok[starts[k]:ends[k]] = False
    brk = np.zeros(data.size + 1, dtype=bool)
    brk[off] = True
    t_start = np.flatnonzero(tok & (brk[:-1] | ~np.r_[False, tok[:-1]]))
    t_end = np.flatnonzero(tok & (brk[1:] | ~np.r_[tok[1:], False])) + 1
    del brk, tok
    owner = (np.searchsorted(off, t_start, side="right") - 1).astype(np.int32)
    words = [_joined(_LOWER[data], t_start, t_end)] if t_start.size else []
    if odd.size:
        lists = [strings[int(k)].as_py().lower().split() for k in odd]
        owner = np.concatenate((owner, np.repeat(odd.astype(np.int32), [len(x) for x in lists])))
        words.append(arrow_texts([w for x in lists for w in x]))
    return [w for w in words if len(w)], owner
