"""Grouped rows (cluster bootstrap): resample, split and permute whole groups.

When units come in groups (both eyes of one patient, tiles of one slide) they
are not independent, and resampling single units understates the spread. The
scores here are functions of additive per-unit statistics, so a group is one
unit whose statistics are the sums over its members: the same machinery
(core.resample, core.shakeup, core.calibrated) then draws whole groups.
Units that are cells of identical rows (``stats`` None): a group's
statistics are its counts over those cells (``cell_of_unit`` says which cell
each row is in).
"""
from __future__ import annotations

import numpy as np

from .resample import Units


def group_codes(labels):
    """(codes (n,) in 0..G-1, G) of group labels (any hashable values, compared as text)."""
    lab = np.asarray(labels).astype(str)
    _, codes = np.unique(lab, return_inverse=True)
    codes = codes.ravel().astype(np.int64)
    return codes, int(codes.max()) + 1 if codes.size else 0


def grouped_units(units: Units, codes, n_groups, cell_of_unit=None) -> Units:
    """The Units of ``units`` with each group's members summed into one unit."""
    codes = np.asarray(codes, dtype=np.int64)
    if units.stats is None:
        if cell_of_unit is None:
            raise ValueError("cells of identical units need the cell of each unit")
        m = np.asarray(units.cells).size
        flat = codes * m + np.asarray(cell_of_unit, dtype=np.int64)
        stats = np.bincount(flat, minlength=n_groups * m).reshape(n_groups, m).astype(np.float64)
    else:
        s = np.asarray(units.stats)
        if s.shape[0] != codes.size:
            raise ValueError(f"{codes.size} group labels for {s.shape[0]} units")
        stats = np.column_stack([np.bincount(codes, s[:, j], n_groups) for j in range(s.shape[1])])
        if s.dtype.kind in "iub":
            stats = np.round(stats).astype(np.int64)      # counts stay integers (mergeable)
    return Units(stats, units.score, None, "group", mergeable=units.mergeable)


def group_draws(codes, replicates, seed=0):
    """Yield (replicate, row indices): whole groups drawn with replacement, all their rows
    (the cluster bootstrap of row-indexed statistics: optimisers' held-out checks)."""
    from .resample import check_replicates, rng_of
    codes = np.asarray(codes, dtype=np.int64)
    order = np.argsort(codes, kind="stable")
    sizes = np.bincount(codes)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    g = sizes.size
    rng = rng_of(seed)
    for r in range(check_replicates(replicates)):
        pick = rng.integers(0, g, size=g)
        lengths = sizes[pick]
        offsets = np.repeat(starts[pick] - np.cumsum(lengths) + lengths, lengths)
        yield r, order[offsets + np.arange(lengths.sum())]


def row_draws(n, replicates, seed=0, groups=None):
    """Bootstrap draws of ``n`` rows: single rows, or whole groups when ``groups``
    (group code per row) is given."""
    if groups is None:
        from .attribution import replicate_rows
        return replicate_rows(n, replicates, seed)
    if len(groups) != n:
        raise ValueError(f"{len(groups)} group codes for {n} rows")
    return group_draws(groups, replicates, seed)


def group_folds(codes, folds, seed=0):
    """Fold of each row with whole groups in one fold (fold_ids over the groups)."""
    from .honest import fold_ids
    codes = np.asarray(codes, dtype=np.int64)
    return fold_ids(int(codes.max()) + 1 if codes.size else 0, folds, seed)[codes]
