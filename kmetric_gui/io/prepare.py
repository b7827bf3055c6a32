"""From two Kaggle tables to validated, id-aligned arrays for the core.

Every problem found is collected (not only the first); nothing is aligned
for scoring when there is one. The metric's own module (kmetric_gui.metrics)
builds its inputs; this module checks what all metrics share.
"""
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pyarrow as pa

from ..numbers import arrow_ints
from .problems import Collector, Problem, ValidationFailed, column_hint, names as listed

USAGE = ("public", "private", "ignored")


@dataclass
class Prepared:
    """Aligned inputs in solution row order (what the core and the GUI use)."""
    metric: str
    reason: str               # why this metric / layout was chosen
    id_column: str
    target_columns: list      # submission columns holding the prediction
    id_source: object         # (n,) pyarrow string array of solution ids, or ids.KeyIds
    truth: object             # the metric's shape: int array, (n, C) 0/1, lists of strings...
    pred: object              # the metric's shape: int array, (n, C) float, lists...
    usage: "np.ndarray | None" = None   # (n,) codes: 0 public, 1 private, 2 ignored
    classes: list = field(default_factory=list)   # class names of (n, C) columns
    layout: str = ""          # human description of both files' layouts
    # False: scored once and dropped (`kmetric score`), so a metric may free the
    # columns' text once coded (text cells); reading truth/pred afterwards raises.
    keep_columns: bool = True
    # io.Problem objects that do not stop scoring (the app's continuous predictions of ratings):
    # shown with the validation report, rows selectable.
    notes: list = field(default_factory=list)
    # How the app's table shows and edits the truth and prediction cells (a metrics
    # layout's cell description, metrics/_cells.py), or None: the metric's own columns.
    cells: object = None
    # Per solution row values the metric's options read (weights, groups), aligned with
    # the rows here; the metric's own (metrics/variants.py).
    row_values: dict = field(default_factory=dict)
    variant_columns: dict = field(default_factory=dict)   # option -> the column read for it
    group_names: tuple = ()                               # names of row_values["groups"] codes
    # How the submission's file names what is here: its key columns (a joined key, with
    # the separator) and its names of the scored columns (io/shapes.py ``as_written``).
    id_parts: tuple = ()
    id_sep: str = ""
    renamed: dict = field(default_factory=dict)

    @property
    def id_array(self):
        """Solution ids as a pyarrow string array (decoded from their keys on first use)."""
        src = self.id_source
        if not isinstance(src, (pa.Array, pa.ChunkedArray)):
            src = self.id_source = src.decode()
        return src

    @cached_property
    def ids(self):
        """Solution ids as a numpy object array (converted on first use).

        In slices: converting to Python strings holds the GIL, and a GUI
        thread waiting on it would freeze for the whole conversion.
        """
        arr, step = self.id_array, 100_000
        parts = [arr.slice(i, step).to_numpy(zero_copy_only=False)
                 for i in range(0, len(arr), step)]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=object)

    def __len__(self):
        return len(self.id_source)


@dataclass(frozen=True)
class BuildContext:
    """What a metric's builder gets: both tables, names, options, the collector."""
    sol: object
    sub: object
    sol_name: str
    sub_name: str
    id_col: str
    options: object
    col: Collector
    usage: "np.ndarray | None"
    reason: str
    # Scored columns named by --target-column (solution names; None: the metric's
    # layout decides), the solution columns the metric's options read (weights, mask,
    # groups), and the solution columns the layout read (filled by the builders that
    # say so: the others are listed in a note).
    targets: "list | None" = None
    keep: tuple = ()
    read: set = field(default_factory=set)


def _usage(sol, sol_name, col, usage_map=None):
    """Usage codes (0 public, 1 private, 2 ignored) or None; unknown spellings collected."""
    from .shapes import read_usage
    return read_usage(sol, sol_name, col, usage_map)


def _headerless(cols):
    """A header with a number among its names is most likely a first data row."""
    from ..numbers import why_not_number
    return any(why_not_number(c) is None for c in cols)


def prepare(sol, sub, sol_name, sub_name, options):
    """Validate two pyarrow tables and align them; raise ValidationFailed."""
    said = {}
    try:
        prep = _prepare(sol, sub, sol_name, sub_name, options, said)
    except ValidationFailed as e:
        e.tables = {"solution": sol, "submission": sub}   # the GUI shows the rows at fault
        _own_names(e.report, e.problems, sub_name, said.get("renamed"))
        raise
    if prep.renamed:
        prep.notes = _own_names(list(prep.notes), None, sub_name, prep.renamed)
    return prep


def _own_names(report, lines, sub_name, renamed):
    """Problems of the submission under its own column names (its scored columns were
    renamed to the solution's: ``renamed`` solution name -> submission name)."""
    if not renamed:
        return report
    from dataclasses import replace
    for i, p in enumerate(report):
        if getattr(p, "file", None) != sub_name:
            continue
        msg = p.message
        for s, u in renamed.items():
            msg = msg.replace(f"column '{s}'", f"column '{u}'")
        report[i] = replace(p, message=msg)
        if lines is not None and i < len(lines):
            lines[i] = str(report[i])
    return report


def _prepare(sol, sub, sol_name, sub_name, options, said):
    from ..chooser import choose_metric
    from . import shapes
    col = Collector()
    col.extra_ids = getattr(options, "extra_ids", "refuse")
    sol_cols, sub_cols = sol.column_names, sub.column_names
    for name, cols in ((sol_name, sol_cols), (sub_name, sub_cols)):
        hint = column_hint(cols)
        if hint:
            col.add(name, f"one column '{cols[0]}'{hint}")
        elif len(cols) == 1:            # not a table: its first line is not echoed
            col.add(name, "has a single column, so it is not a table of ids and values "
                          "(is it a comma-separated file?)")
    col.raise_if_any()
    parts = shapes.id_parts(options.id_column, sol, sub)
    sep = ""
    if parts:
        # A composite key: its parts joined into one key column, the first of each table.
        sol, sub, sep = shapes.join_key(sol, sub, parts, options.id_column, sol_name,
                                        sub_name, col)
        col.raise_if_any()
        sol_cols, sub_cols = sol.column_names, sub.column_names
    id_col = options.id_column or (sub_cols[0] if sub_cols else None)
    if not options.id_column and id_col not in sol_cols:
        for name, cols in ((sub_name, sub_cols), (sol_name, sol_cols)):
            if _headerless(cols):
                col.add(name, f"the first line looks like data, not a header ({', '.join(cols[:4])}"
                        f"{', ...' if len(cols) > 4 else ''}): is the header row missing?")
        col.raise_if_any()
    if not options.id_column and id_col not in sol_cols and sol_cols \
            and sol_cols[0] not in sub_cols:
        id_col = sol_cols[0]    # the solution names the ids: the submission lacks them
    for name, cols in ((sol_name, sol_cols), (sub_name, sub_cols)):
        if id_col not in cols:
            col.add(name, f"no id column '{id_col}'; found columns: "
                    f"{listed(cols)}{column_hint(cols)}")
    col.raise_if_any()
    sub_usage = [c for c in sub_cols if c.lower() == "usage" and c != id_col]
    if sub_usage:
        # Usage belongs to the solution; in a submission it is not a class or a target.
        sub = sub.drop_columns(sub_usage)
        sub_cols = sub.column_names
    try:
        pairs = shapes.target_pairs(options.target_column, sol_cols, sub_cols)
    except ValueError as e:
        col.add(sub_name, f"--{str(e).replace('_', '-', 1)}")
        col.raise_if_any()
    renamed, given = {}, set(sub_cols)
    if pairs:
        # The submission's names of the scored columns become the solution's.
        renamed = {s: u for s, u in pairs if s != u and u in given}
        back = {u: s for s, u in renamed.items()}
        if back:
            sub = sub.rename_columns([back.get(c, c) for c in sub_cols])
            sub_cols = sub.column_names
    said["renamed"] = renamed
    metric, reason = choose_metric([c for c in sub_cols if c != id_col], options.metric,
                                   (sol, sub, id_col))
    if sub_usage:
        reason += f"; the submission's '{sub_usage[0]}' column is ignored (Usage belongs to the solution)"
    for name, t in ((sol_name, sol), (sub_name, sub)):
        if t.num_rows == 0:
            col.add(name, "has a header but no data rows")
    col.raise_if_any()
    keep = tuple(metric.solution_columns(options))
    for c, flag in keep:
        if c not in sol_cols:
            col.add(sol_name, f"no column '{c}' ({flag}); found columns: {', '.join(sol_cols)}")
    keep = tuple(c for c, _ in keep)
    col.raise_if_any()
    targets, build_options = None, options
    if pairs:
        here = [(s, s) if u in given else (s, u) for s, u in pairs]
        sol, sub = shapes.scored_columns(sol, sub, here, keep, id_col, sol_name, sub_name, col,
                                         col.notes)
        col.raise_if_any()
        targets = [s for s, _ in pairs]
        build_options = options.with_(target_column=targets[0] if len(targets) == 1 else None)
    usage = _usage(sol, sol_name, col, getattr(options, "usage_map", None))
    ctx = BuildContext(sol, sub, sol_name, sub_name, id_col, build_options, col, usage, reason,
                       targets, keep)
    prep = metric.build(ctx)
    if options.unscored_value is not None and not getattr(col, "unscored_read", False):
        col.add(sol_name, f"--unscored-value: {metric.label}'s layout ({prep.layout}) does not "
                "read it; mark the rows Ignored in the Usage column")
        col.raise_if_any()
    prep = metric.finish(prep, ctx)
    notes = list(col.notes)
    if not pairs and ctx.read:
        note = shapes.unscored_note(sol, ctx.read, keep, id_col, sol_name)
        if note is not None:
            notes.append(note)
    if notes:
        prep.notes = list(prep.notes) + notes
    if parts:
        prep.id_parts, prep.id_sep = tuple(parts), sep
    if renamed:
        prep.renamed = dict(renamed)
    if col.leave_out is not None and col.leave_out.any():
        prep = drop_rows(prep, np.flatnonzero(~col.leave_out))
    return prep


def drop_rows(prep, keep):
    """The prepared data of the solution rows ``keep`` (an index array) only: rows left
    out of scoring (unscored marks, a mask) are gone from every per-row field."""
    from dataclasses import replace

    def take(values):
        if values is None:
            return None
        if isinstance(values, np.ndarray):
            return values[keep]
        return [values[i] for i in keep.tolist()]
    ids = prep.id_array.take(arrow_ints(keep))
    return replace(prep, id_source=ids, truth=take(prep.truth), pred=take(prep.pred),
                   usage=take(prep.usage),
                   row_values={k: take(v) for k, v in prep.row_values.items()})


__all__ = ["Prepared", "Problem", "ValidationFailed", "prepare", "BuildContext"]
