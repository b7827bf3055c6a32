"""Pieces of text whose lines all have one width, cut into columns without a parser.

A typical Kaggle rating file is an id of fixed width and a one-digit rating on
every line ("9f1b3565bbfa,2"). When every line of a piece has the first
line's width, a delimiter at the same place, a digit for the rating and the
same line end, the piece is a (rows, width) grid of bytes: the ids are a
strided view of it, the ratings one column. That is what Arrow's parser
would find, for less work than building its strings. Any other piece (a
blank line, a two-digit rating, a missing final line break) is left to
Arrow's parser: the two give the same columns, so pieces may mix.

The id bytes are not checked here: the key packer checks them (hex digits
by a table; raw bytes with ``plain_bytes``).
"""
from dataclasses import dataclass

import numpy as np

_NL, _CR, _ZERO = 10, 13, 48


@dataclass(frozen=True)
class Lines:
    ids: np.ndarray         # (rows, width) uint8, a view of the piece's text
    values: np.ndarray      # int64 ratings
    lo: int
    hi: int


def layout(head, id_col, target, delim):
    """A function cutting a piece into Lines (or None), or None when the columns can't be."""
    if len(head) != 2 or id_col == target or set(head) != {id_col, target} or len(delim) != 1:
        return None
    id_first = head[0] == id_col
    sep = ord(delim)

    def cut(view):
        return _cut(view, id_first, sep)
    return cut


def _cut(view, id_first, sep):
    text = np.frombuffer(view, np.uint8)
    first = bytes(view[:256])
    width = first.find(b"\n") + 1
    if width < 4 or text.size % width:
        return None
    end = 2 if first[width - 2] == _CR else 1
    fields = first[:width - end].split(bytes([sep]))
    if len(fields) != 2:
        return None
    id_text, value = fields if id_first else fields[::-1]
    if len(value) != 1 or not id_text:
        return None
    w = len(id_text)
    grid = text.reshape(-1, width)
    at_sep, at_value = (w, w + 1) if id_first else (1, 0)
    digit = grid[:, at_value] - np.uint8(_ZERO)
    if not ((grid[:, -1] == _NL).all() and (grid[:, at_sep] == sep).all() and (digit < 10).all()):
        return None
    if end == 2 and not (grid[:, -2] == _CR).all():
        return None
    ids = grid[:, :w] if id_first else grid[:, 2:2 + w]
    values = digit.astype(np.int64)
    return Lines(ids, values, int(values.min()), int(values.max()))


_PLAIN = np.zeros(256, dtype=bool)
_PLAIN[0x20:0x7F] = True


def plain_bytes(ids, sep):
    """Every id byte printable ASCII (Arrow checks UTF-8; control bytes could end a line),
    none the delimiter."""
    return bool(_PLAIN[ids].all()) and not (ids == sep).any()
