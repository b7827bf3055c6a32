"""A report's data that is materialized only when something reads the arrays.

An incremental rescore (a few edited cells) gives a new score in K x K work;
copying million-row arrays for it would cost more than the score itself.
"""
from .data import FIELDS


class LazyPrepared:
    def __init__(self, version):
        self._version = version

    def __getattr__(self, name):
        if name in FIELDS:
            return getattr(self._version.prepared(), name)
        return getattr(self._version.base, name)

    def __len__(self):
        return len(self._version.base)
