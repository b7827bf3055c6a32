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

import re

import numpy as np

ORDERS = ("column", "row")
_NEWLINE = 10


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


CELLS = 1024              # cells parsed per pass: each C call short (the app's UI thread waits
                          # for the GIL while a worker is inside one)


def parse_cells(cells) -> ParsedCells:
    """Whole numbers of each text cell, in passes of CELLS cells (see ``_parse``)."""
    cells = list(cells)
    if len(cells) <= CELLS:
        return _parse(cells)
    parts = [_parse(cells[a:a + CELLS]) for a in range(0, len(cells), CELLS)]
    ptr = [np.zeros(1, np.int64)]
    why, base = {}, 0
    for k, p in enumerate(parts):
        ptr.append(p.ptr[1:] + base)
        base += int(p.ptr[-1])
        why.update({c + k * CELLS: w for c, w in p.why.items()})
    return ParsedCells(np.concatenate([p.values for p in parts]), np.concatenate(ptr), why)


def _parse(cells) -> ParsedCells:
    """Whole numbers of each text cell (spaces between them). A cell with another
    character, a sign, a fraction or a number too long is named in ``why``; its
    values are dropped (it counts as holding none)."""
    texts = ["" if c is None else str(c) for c in cells]
    why = {}
    joined = "\n".join(texts)
    found = _scan(joined)
    if found is None:                             # rare: name the cells, parse the rest
        for i, t in enumerate(texts):
            if _CHARS.search(t) is not None:
                why[i] = "holds characters other than digits and spaces"
            elif _LONG.search(t) is not None:
                why[i] = "holds a number too large for a pixel position"
        texts = ["" if i in why else t for i, t in enumerate(texts)]
        joined = "\n".join(texts)
        found = _scan(joined)
    return ParsedCells(found[0], found[1], why)


def _scan(joined):
    """(values, ptr) of cells joined by newlines, or None when a cell holds something else
    than digits and spaces, or a number of more than 15 digits."""
    try:
        raw = joined.encode("ascii")
    except UnicodeEncodeError:
        return None
    if raw.translate(None, b"0123456789 \t\r\n"):
        return None
    b = np.frombuffer(raw, dtype=np.uint8)
    digit = b >= 48                               # only digits and spaces are left
    first = np.flatnonzero(digit & ~np.r_[False, digit[:-1]])
    last = np.flatnonzero(digit & ~np.r_[digit[1:], False])
    if (last - first >= 15).any():
        return None
    # The numbers parsed in C in one pass; each cell's count from where its numbers start.
    values = np.fromstring(joined, dtype=np.int64, sep=" ") if first.size else \
        np.zeros(0, np.int64)
    ends = np.r_[np.flatnonzero(b == _NEWLINE), b.size]
    ptr = np.r_[0, np.searchsorted(first, ends)].astype(np.int64)
    return values, ptr


_LONG = re.compile(r"[0-9]{16,}")
_CHARS = re.compile(r"[^0-9 \t\r\n]")


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
