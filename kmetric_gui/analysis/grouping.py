"""Grouped rows: which group each solution row belongs to, and the grouped units.

Groups come from a column of the solution (``--group-column NAME``) or from a
separate file of ``id,group`` rows (``--groups FILE``). Intervals and the
shake-up then resample and split whole groups (core/groups.py).
"""
from __future__ import annotations

import numpy as np

from ..core.groups import group_codes, grouped_units
from ..errors import InputError
from ..metrics.base import split_rows, take


def _column(table, name, label):
    if name not in table.column_names:
        raise InputError(f"{label}: no column '{name}' (its columns: {', '.join(table.column_names)})")
    return np.asarray(table.column(name).to_pylist(), dtype=object)


def read_groups(prep, *, truth_path=None, column=None, path=None, max_inflated=None):
    """(n,) group label of every solution row of ``prep`` (as text)."""
    from ..io.read import read_table
    if column is not None:
        label = "solution"
        table = read_table(truth_path, label, string_columns=(prep.id_column, column),
                           max_inflated=max_inflated)
        ids, groups = _column(table, prep.id_column, label), _column(table, column, label)
    else:
        label = f"groups file {path}"
        table = read_table(path, label, string_columns=(), max_inflated=max_inflated)
        if table.num_columns < 2:
            raise InputError(f"{label}: expected two columns (id, group); found {table.num_columns}")
        names = table.column_names
        table = read_table(path, label, string_columns=tuple(names[:2]), max_inflated=max_inflated)
        ids, groups = _column(table, names[0], label), _column(table, names[1], label)
    mapping = {}
    for i, g in zip(ids.tolist(), groups.tolist()):
        g = "" if g is None else str(g)
        if mapping.setdefault(str(i), g) != g:
            raise InputError(f"{label}: id '{i}' is in two groups ('{mapping[str(i)]}' and '{g}')")
    out = np.empty(len(prep), dtype=object)
    missing = []
    for k, i in enumerate(prep.ids.tolist()):
        g = mapping.get(str(i))
        if g is None:
            missing.append(str(i))
        out[k] = g
    if missing:
        more = f" and {len(missing) - 1:,} more" if len(missing) > 1 else ""
        raise InputError(f"{label}: no group for id '{missing[0]}'{more}")
    return out


def report_units(report, split="all", groups=None):
    """The Units of ``report`` for ``split``; whole groups when ``groups`` (per solution row)."""
    metric = report.definition
    result = report.result if split == "all" else report.splits[split]
    units = metric.units(result)
    if groups is None:
        return units
    rows = split_rows(report.prepared.usage, split)
    codes, n = group_codes(np.asarray(take(groups, rows)))
    cells = metric.unit_cells(report, split) if units.stats is None else None
    return grouped_units(units, codes, n, cells)


def check_groups(units, split="all"):
    """InputError when grouped units cannot give an interval: one group has nothing to
    resample against (fewer than 10 get a caution beside the interval, core/cautions.py)."""
    if units.n < 2:
        rows = "scored row" if split == "all" else f"scored {split.capitalize()} row"
        raise InputError(f"an interval needs at least 2 groups to resample; every {rows} is "
                         f"in one group" if units.n else
                         f"an interval needs at least 2 groups to resample; there is no {rows}")


def grouped_paired(reports, split, groups):
    """A paired engine (core.compare.UnitPairs) over whole groups: each submission's
    statistics summed per group, so bootstrap draws, random swaps and splits move groups.
    Cells of identical rows: the metric's own engine sums its cells per group (``grouped``)."""
    from ..core.compare import UnitPairs
    metric = reports[0].definition
    rows = split_rows(reports[0].prepared.usage, split)
    codes, n = group_codes(np.asarray(take(groups, rows)))
    units = [metric.units(r.result if split == "all" else r.splits[split]) for r in reports]
    if units[0].stats is not None:
        stats = [grouped_units(u, codes, n).stats for u in units]
        return UnitPairs(stats, units[0].score)
    return metric.paired(reports, split).grouped(codes, n)
