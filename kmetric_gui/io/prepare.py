"""From two Kaggle tables to validated, id-aligned arrays for the core.

Every problem found is collected (not only the first); nothing is aligned
for scoring when there is one. The metric's own module (kmetric_gui.metrics)
builds its inputs; this module checks what all metrics share.
"""
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pyarrow as pa

from ..numbers import arrow_ints, arrow_scalar, arrow_texts, plain_array
from .problems import SHOW, Collector, Problem, ValidationFailed, column_hint, names as listed, quote

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


def _usage(sol, sol_name, col):
    """Usage codes (0 public, 1 private, 2 ignored) or None; bad values collected."""
    names = [c for c in sol.column_names if c.lower() == "usage"]
    if not names:
        return None
    import pyarrow.compute as pc   # only here: a start without it is ~0.1 s faster
    raw = pc.utf8_lower(pc.utf8_trim_whitespace(sol.column(names[0]).cast(pa.string())))
    codes = pc.fill_null(pc.index_in(raw, value_set=arrow_texts(USAGE)), arrow_scalar(-1).cast(pa.int32()))
    codes = plain_array(codes).astype(np.int64)   # no to_numpy: it imports pandas
    bad = np.flatnonzero(codes < 0)
    if bad.size:
        vals = raw.take(arrow_ints(bad[:SHOW])).to_pylist()
        col.add(sol_name, f"column '{names[0]}': {bad.size} value(s) are not Public, "
                f"Private or Ignored: rows {', '.join(str(r + 1) for r in bad[:SHOW])} "
                f"({quote(vals)})", bad)
    return codes


def _headerless(cols):
    """A header with a number among its names is most likely a first data row."""
    from ..numbers import why_not_number
    return any(why_not_number(c) is None for c in cols)


def prepare(sol, sub, sol_name, sub_name, options):
    """Validate two pyarrow tables and align them; raise ValidationFailed."""
    try:
        return _prepare(sol, sub, sol_name, sub_name, options)
    except ValidationFailed as e:
        e.tables = {"solution": sol, "submission": sub}   # the GUI shows the rows at fault
        raise


def _prepare(sol, sub, sol_name, sub_name, options):
    from ..chooser import choose_metric
    col = Collector()
    sol_cols, sub_cols = sol.column_names, sub.column_names
    for name, cols in ((sol_name, sol_cols), (sub_name, sub_cols)):
        hint = column_hint(cols)
        if hint:
            col.add(name, f"one column '{cols[0]}'{hint}")
        elif len(cols) == 1:            # not a table: its first line is not echoed
            col.add(name, "has a single column, so it is not a table of ids and values "
                          "(is it a comma-separated file?)")
    col.raise_if_any()
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
    metric, reason = choose_metric([c for c in sub_cols if c != id_col], options.metric,
                                   (sol, sub, id_col))
    if sub_usage:
        reason += f"; the submission's '{sub_usage[0]}' column is ignored (Usage belongs to the solution)"
    for name, t in ((sol_name, sol), (sub_name, sub)):
        if t.num_rows == 0:
            col.add(name, "has a header but no data rows")
    col.raise_if_any()
    usage = _usage(sol, sol_name, col)
    ctx = BuildContext(sol, sub, sol_name, sub_name, id_col, options, col, usage, reason)
    return metric.build(ctx)


__all__ = ["Prepared", "Problem", "ValidationFailed", "prepare", "BuildContext"]
