"""Many submissions of one truth read with the truth read once (kmetric select).

``scoring.load`` reads both files of a pair: for 50 candidates the truth was
read, parsed and hashed 50 times, and each submission's ids were hashed
together with the truth's (a dictionary encoding of 2n strings) to align
them. Here the truth's table is read once and kept; each submission is read
alone and validated and aligned by the same ``io.prepare`` as a pair is (so
it is scored exactly as ``load`` would score it). A submission listing the
ids in the truth's order costs a memcmp to align (io.ids). Any problem sends
that submission through ``scoring.load`` again, whose messages name every
fault of both files as they always did.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from .scoring import load


class SharedTruth:
    """A ``loader`` for ``comparison.load_all``: scoring.load's result, the truth read once."""

    def __init__(self):
        self._tables = {}          # (truth path, id column kept as text) -> its Arrow table

    def __call__(self, truth_path, path, options, cancel=None):
        try:
            return self._load(truth_path, path, options)
        except (InputError, MemoryError, OSError):
            pass
        return load(truth_path, path, options, cancel=cancel)   # names every problem

    def _load(self, truth_path, path, options):
        from ..io.prepare import prepare
        from ..io.read import check_memory, read_header, read_table
        inflated = options.max_inflated
        keep = [options.id_column] if options.id_column else \
            read_header(path, "submission", inflated)[:1]
        if options.id_column and "," in options.id_column:    # a composite key's parts
            keep += [p.strip() for p in options.id_column.split(",") if p.strip()]
        key = (str(truth_path), tuple(keep))
        sol = self._tables.get(key)
        if sol is None:
            check_memory([truth_path, path])
            sol = read_table(truth_path, "solution", string_columns=keep, max_inflated=inflated)
            self._tables = {key: sol}       # one truth kept: its columns are shared by the reports
        else:
            check_memory([path])
        sub = read_table(path, "submission", string_columns=keep, max_inflated=inflated)
        return prepare(sol, sub, f"solution {Path(truth_path).name}",
                       f"submission {Path(path).name}", options)


__all__ = ["SharedTruth"]
