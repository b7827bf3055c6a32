"""Ids of fixed width packed into uint64 keys, piece by piece, one way for both files
(a metric's lean reader, e.g. of integer ratings)."""
import threading

import numpy as np

from ..errors import Cancelled
from .fixed_lines import plain_bytes
from .ids import _HEX, _fixed_width, _keys, row_keys
from .pieces import Off


class Keyer:
    """uint64 keys of fixed-width ids, one mode (hex digits or raw bytes) for both files:
    the solution's first piece decides it; the submission's keyer (``leader``: the
    solution's) waits for that choice, or for ``stop``."""

    @property
    def max_bits(self):
        """Bits a key can use (ids._keys: raw bytes, 4 hex digits a 16-bit word, or
        two digits a byte with a leading zero digit for an odd width)."""
        w = self.width
        return 8 * w if self.raw else 4 * w if w % 4 == 0 else 8 * ((w + 1) // 2)

    def __init__(self, leader=None, stop=None):
        self.width = self.digits = None
        self.raw = False
        self.decided = threading.Event()
        self._leader, self._stop = leader, stop

    def keys(self, ids, out=None):
        """Keys of an Arrow string column."""
        w = self._width(_fixed_width(ids))
        out = np.empty(len(ids), dtype=np.uint64) if out is None else out
        return self._pack(lambda digits: _keys(ids, w, digits, out), lambda: True)

    def lines(self, rows, sep, out=None):
        """Keys of the (rows, width) id bytes of fixed-width lines (fixed_lines.Lines.ids)."""
        self._width(rows.shape[1])
        out = np.empty(rows.shape[0], dtype=np.uint64) if out is None else out
        return self._pack(lambda digits: row_keys(rows, digits, out), lambda: plain_bytes(rows, sep))

    def _width(self, w):
        if w is None or (self.width is not None and w != self.width):
            raise Off
        self.width = w
        return w

    def _pack(self, pack, raw_ok):
        if self.digits is None and not self.raw:
            if self._leader is not None:
                self._follow()
            else:                                       # the first piece decides the mode
                for digits in (_HEX if self.width <= 16 else ()):
                    k = pack(digits)
                    if k is not None:
                        self.digits = digits
                        self.decided.set()
                        return k
                if self.width > 8:
                    raise Off
                self.raw = True
                self.decided.set()
        if self.raw and not raw_ok():
            raise Off
        k = pack(None if self.raw else self.digits)
        if k is None:
            raise Off
        return k

    def _follow(self):
        while not self._leader.decided.wait(0.02):
            if self._stop():
                raise Cancelled("reading the submission")
        if self._leader.width != self.width:
            raise Off
        self.digits, self.raw = self._leader.digits, self._leader.raw
