"""Kaggle's run-length encodings of masks: parsed, checked, decoded and encoded.

A cell holds "start length start length ...": starts are 1-based pixel
numbers, counted down the columns first (column-major: TGS salt, Airbus,
HuBMAP) or along the rows first (row-major), as each competition states. An
empty cell is an empty mask. Here a run is (start, length) with a 0-based
start; both files of a pair use the same order, so areas and intersections
never need the order, only drawing does.

Parsing is vectorised over many cells at once: the cells' bytes are scanned
as one uint8 array, numbers are summed from their digits, and runs are
tagged with their cell, so no Python loop runs per number.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ORDERS = ("column", "row")
_MAX_DIGITS = 15          # 10**15 pixels: far past any image, and exact in int64
_NEWLINE, _SPACE, _TAB, _CR = 10, 32, 9, 13


@dataclass(frozen=True)
class ParsedCells:
    """Numbers of many cells: ``values`` flat, ``ptr`` (cells + 1) the first value of each
    cell, ``bad`` the cells holding something other than whole numbers (their reason in
    ``why``: cell -> words)."""
    values: np.ndarray
    ptr: np.ndarray
    why: dict

    def counts(self):
        return np.diff(self.ptr)


def parse_cells(cells) -> ParsedCells:
    """Whole numbers of each text cell (spaces between them). A cell with another
    character, a sign, a fraction or a number too long is named in ``why``; its
    values are dropped (it counts as holding none)."""
    texts = ["" if c is None else str(c) for c in cells]
    n = len(texts)
    joined = "\n".join(texts)
    try:
        raw = joined.encode("ascii")
    except UnicodeEncodeError:
        raw = None
    why = {}
    if raw is None:        # rare: find the cells with non-ASCII text, scan the rest
        for i, t in enumerate(texts):
            if not t.isascii():
                why[i] = "holds characters other than digits and spaces"
        texts = ["" if i in why else t for i, t in enumerate(texts)]
        raw = "\n".join(texts).encode("ascii")
    b = np.frombuffer(raw, dtype=np.uint8)
    cell = np.cumsum(b == _NEWLINE)            # the cell of each byte (newlines end cells)
    digit = (b >= 48) & (b <= 57)
    space = (b == _SPACE) | (b == _TAB) | (b == _CR) | (b == _NEWLINE)
    other = ~(digit | space)
    if other.any():
        for c in np.unique(cell[other]).tolist():
            why.setdefault(c, "holds characters other than digits and spaces")
    start = digit & ~np.r_[False, digit[:-1]]
    end = digit & ~np.r_[digit[1:], False]
    s_at, e_at = np.flatnonzero(start), np.flatnonzero(end)
    length = e_at - s_at + 1
    if (length > _MAX_DIGITS).any():
        for c in np.unique(cell[s_at[length > _MAX_DIGITS]]).tolist():
            why.setdefault(c, "holds a number too large for a pixel position")
    # Each digit times 10**(its place from the number's end), summed per number.
    token = np.cumsum(start) - 1
    pos = np.flatnonzero(digit)
    place = np.minimum(e_at[token[pos]] - pos, _MAX_DIGITS)
    terms = (b[pos].astype(np.int64) - 48) * (10 ** place.astype(np.int64))
    values = np.zeros(0, np.int64)
    if s_at.size:
        values = np.add.reduceat(terms, np.r_[0, np.cumsum(length)[:-1]])
    tcell = cell[s_at]
    if why:
        keep = ~np.isin(tcell, np.fromiter(why, dtype=np.int64))
        values, tcell = values[keep], tcell[keep]
    ptr = np.searchsorted(tcell, np.arange(n + 1))
    return ParsedCells(values.astype(np.int64), ptr.astype(np.int64), why)


@dataclass(frozen=True)
class Runs:
    """Runs of many cells: 0-based ``starts``, ``lengths`` and ``ptr`` (cells + 1)."""
    starts: np.ndarray
    lengths: np.ndarray
    ptr: np.ndarray

    def cell(self, i):
        a, b = int(self.ptr[i]), int(self.ptr[i + 1])
        return self.starts[a:b], self.lengths[a:b]


def runs_of_cells(cells, pixels) -> "tuple[Runs, dict]":
    """Runs of RLE cells and {cell: why} for each cell that is not a valid encoding of an
    image of ``pixels[cell]`` pixels: an odd count of numbers, a start of 0, a length of
    0, a run past the image's end, runs out of order or overlapping."""
    parsed = parse_cells(cells)
    why = dict(parsed.why)
    counts = parsed.counts()
    odd = np.flatnonzero(counts % 2 == 1)
    for c in odd.tolist():
        why.setdefault(c, f"an odd number of values ({int(counts[c])}): an encoding is "
                          "pairs of start and length")
    n = counts.size
    pairs = counts // 2
    keep_vals = np.repeat(counts % 2 == 0, counts)
    v = parsed.values[keep_vals].reshape(-1, 2)
    pairs = np.where(counts % 2 == 0, pairs, 0)
    ptr = np.r_[0, np.cumsum(pairs)].astype(np.int64)
    run_cell = np.repeat(np.arange(n), pairs)
    starts, lengths = v[:, 0] - 1, v[:, 1]
    pix = np.asarray(pixels, dtype=np.int64)
    first = np.zeros(starts.size, dtype=bool)
    first[ptr[:-1][pairs > 0]] = True
    checks = (
        (starts < 0, "a run starts at pixel 0 (pixels are numbered from 1)"),
        (lengths <= 0, "a run of length 0"),
        (starts + lengths > pix[run_cell], "a run past the image's end"),
        (~first & (starts < np.r_[0, starts[:-1] + lengths[:-1]]),
         "runs out of order or overlapping (each run must start after the previous ends)"),
    )
    for bad, words in checks:
        if bad.any():
            for c in np.unique(run_cell[bad]).tolist():
                where = int(np.flatnonzero(bad & (run_cell == c))[0] - ptr[c])
                extra = f" (pixel {int(pix[c])} is the last)" if "past" in words else ""
                why.setdefault(c, f"{words}: run {where + 1}{extra}")
    return Runs(starts.astype(np.int64), lengths.astype(np.int64), ptr), why


def decode(starts, lengths, height, width, order="column"):
    """(height, width) bool mask of runs (0-based starts) in the stated pixel order."""
    flat = np.zeros(int(height) * int(width) + 1, dtype=np.int8)
    s = np.asarray(starts, dtype=np.int64)
    e = s + np.asarray(lengths, dtype=np.int64)
    np.add.at(flat, s, 1)
    np.add.at(flat, e, -1)
    mask = np.cumsum(flat[:-1], dtype=np.int32) > 0
    if order == "column":
        return mask.reshape(int(width), int(height)).T
    return mask.reshape(int(height), int(width))


def encode(mask, order="column"):
    """Kaggle's RLE text (1-based starts) of a (height, width) bool mask; '' when empty."""
    m = np.asarray(mask, dtype=bool)
    flat = (m.T if order == "column" else m).ravel()
    edges = np.flatnonzero(np.diff(np.r_[False, flat, False].astype(np.int8)))
    starts, ends = edges[0::2], edges[1::2]
    return " ".join(f"{s + 1} {e - s}" for s, e in zip(starts.tolist(), ends.tolist()))


def runs_text(starts, lengths):
    """RLE text of runs (0-based starts)."""
    return " ".join(f"{int(s) + 1} {int(n)}" for s, n in zip(np.asarray(starts).tolist(),
                                                               np.asarray(lengths).tolist()))


def merge_runs(starts, lengths, group):
    """Union of runs sharing a ``group`` (sorted by group then start here): the merged
    (starts, lengths, group) with no overlap, touching runs joined."""
    s = np.asarray(starts, dtype=np.int64)
    e = s + np.asarray(lengths, dtype=np.int64)
    g = np.asarray(group, dtype=np.int64)
    if s.size == 0:
        return s, e - s, g
    order = np.lexsort((s, g))
    s, e, g = s[order], e[order], g[order]
    # Running max of ends within a group: a run starting after it opens a new union run.
    key_end = e + g * (int(e.max()) + 1)
    run_max = np.maximum.accumulate(key_end) - g * (int(e.max()) + 1)
    new = np.r_[True, (g[1:] != g[:-1]) | (s[1:] > run_max[:-1])]
    idx = np.flatnonzero(new)
    out_e = np.maximum.reduceat(e, idx)
    return s[idx], out_e - s[idx], g[idx]
