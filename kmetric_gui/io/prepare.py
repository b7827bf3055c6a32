"""From two Kaggle tables to validated, id-aligned arrays for the core.

Every problem found is collected (not only the first); nothing is aligned
for scoring when there is one.
"""
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core import is_continuous
from ..errors import InputError
from .ids import align

METRICS = ("qwk", "lwlrap", "fbeta")
USAGE = ("public", "private", "ignored")
LABEL_COLUMNS = ("cleaned_label", "dataset_label", "labels", "label",
                 "predictionstring", "dataset_title")
SHOW = 5  # ids or rows quoted per problem


@dataclass(frozen=True)
class Problem:
    file: str                 # "solution x.csv" / "submission y.csv"
    message: str
    rows: tuple = ()          # rows involved (0-based), in the file named by ``role``
    role: str = ""            # "solution" or "submission": the table ``rows`` index

    def __str__(self):
        return f"{self.file}: {self.message}"


class _Lazy:
    """Index into an Arrow array without converting all of it (error messages)."""

    def __init__(self, arr):
        self.arr = arr

    def __getitem__(self, i):
        return self.arr[int(i)].as_py()


@dataclass
class Prepared:
    """Aligned inputs in solution row order (what the core and the GUI use)."""
    metric: str
    reason: str               # why this metric / layout was chosen
    id_column: str
    target_columns: list      # submission columns holding the prediction
    id_array: object          # (n,) pyarrow string array: solution ids
    truth: object             # qwk: int array; lwlrap: (n, C) 0/1; fbeta: list of lists
    pred: object              # qwk: int array; lwlrap: (n, C) float; fbeta: list of lists
    usage: "np.ndarray | None" = None   # (n,) codes: 0 public, 1 private, 2 ignored
    classes: list = field(default_factory=list)   # lwlrap class names
    layout: str = ""          # human description of both files' layouts

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
        return len(self.id_array)


class _Collector:
    def __init__(self):
        self.problems = []

    def add(self, file, message, rows=(), role=None):
        role = role or file.split(" ", 1)[0]
        self.problems.append(Problem(file, message, tuple(int(r) for r in list(rows)[:SHOW]), role))

    def raise_if_any(self):
        if self.problems:
            raise ValidationFailed(self.problems)


class ValidationFailed(InputError):
    """Every problem found in a file pair (``.report`` holds Problem objects)."""

    def __init__(self, problems, tables=None):
        self.report = list(problems)
        self.tables = tables or {}
        super().__init__(str(problems[0]), [str(p) for p in problems])


def _quote(values):
    vals = list(values)
    shown = ", ".join(repr(str(v)) for v in vals[:SHOW])
    return shown + (", ..." if len(vals) > SHOW else "")


def _col_hint(cols):
    joined = ",".join(cols)
    for d, name in ((";", "semicolon"), ("\t", "tab"), ("|", "pipe")):
        if len(cols) == 1 and d in joined:
            return f" (one column holding {name}s: is the delimiter '{d}'? Kaggle files use commas)"
    return ""


def choose_metric(sol_cols, sub_cols, id_col, options):
    """(metric, reason) from the column layout, unless the user chose."""
    if options.metric:
        if options.metric not in METRICS:
            raise InputError(f"unknown metric {options.metric!r}; allowed: {', '.join(METRICS)}")
        return options.metric, f"metric {options.metric} chosen by the user"
    sub_targets = [c for c in sub_cols if c != id_col]
    if any(c.lower() == "predictionstring" for c in sub_targets):
        return "fbeta", "the submission has a PredictionString column (Jaccard F-beta)"
    if len(sub_targets) >= 2:
        return "lwlrap", (f"the submission has {len(sub_targets)} score columns, "
                          "one per class (LwLRAP)")
    return "qwk", "the submission has one target column (weighted kappa)"


def _usage(sol, sol_name, col):
    """Usage codes (0 public, 1 private, 2 ignored) or None; bad values collected."""
    names = [c for c in sol.column_names if c.lower() == "usage"]
    if not names:
        return None
    raw = pc.utf8_lower(pc.utf8_trim_whitespace(sol.column(names[0]).cast(pa.string())))
    codes = pc.fill_null(pc.index_in(raw, value_set=pa.array(USAGE)), -1)
    codes = codes.to_numpy(zero_copy_only=False).astype(np.int64)
    bad = np.flatnonzero(codes < 0)
    if bad.size:
        vals = raw.take(pa.array(bad[:SHOW])).to_pylist()
        col.add(sol_name, f"column '{names[0]}': {bad.size} value(s) are not Public, "
                f"Private or Ignored: rows {', '.join(str(r + 1) for r in bad[:SHOW])} "
                f"({_quote(vals)})", bad)
    return codes


def prepare(sol, sub, sol_name, sub_name, options):
    """Validate two pyarrow tables and align them; raise ValidationFailed."""
    try:
        return _prepare(sol, sub, sol_name, sub_name, options)
    except ValidationFailed as e:
        e.tables = {"solution": sol, "submission": sub}   # the GUI shows the rows at fault
        raise


def _prepare(sol, sub, sol_name, sub_name, options):
    col = _Collector()
    sol_cols, sub_cols = sol.column_names, sub.column_names
    for name, cols in ((sol_name, sol_cols), (sub_name, sub_cols)):
        hint = _col_hint(cols)
        if hint:
            col.add(name, f"one column '{cols[0]}'{hint}")
    col.raise_if_any()
    id_col = options.id_column or (sub_cols[0] if sub_cols else None)
    for name, cols in ((sol_name, sol_cols), (sub_name, sub_cols)):
        if id_col not in cols:
            col.add(name, f"no id column '{id_col}'; found columns: "
                    f"{', '.join(cols)}{_col_hint(cols)}")
    col.raise_if_any()
    metric, reason = choose_metric(sol_cols, sub_cols, id_col, options)
    for name, t in ((sol_name, sol), (sub_name, sub)):
        if t.num_rows == 0:
            col.add(name, "has a header but no data rows")
    col.raise_if_any()
    build = {"qwk": _kappa, "lwlrap": _lwlrap, "fbeta": _fbeta}[metric]
    usage = _usage(sol, sol_name, col)
    return build(sol, sub, sol_name, sub_name, id_col, options, col, usage, reason)


def _array(table, name):
    """One column as a plain Arrow array (no copy when it is one chunk)."""
    col = table.column(name)
    if isinstance(col, pa.ChunkedArray):
        return col.chunk(0) if col.num_chunks == 1 else col.combine_chunks()
    return col


def _ids(table, id_col):
    arr = _array(table, id_col)
    return arr if pa.types.is_string(arr.type) else arr.cast(pa.string())


def _join(sol, sub, sol_name, sub_name, id_col, col, allow_sol_dups=False):
    sol_ids, sub_ids = _ids(sol, id_col), _ids(sub, id_col)
    for name, ids in ((sol_name, sol_ids), (sub_name, sub_ids)):
        if ids.null_count:
            rows = np.flatnonzero(ids.is_null().to_numpy(zero_copy_only=False))
            col.add(name, f"{rows.size} empty id(s) in column '{id_col}': rows "
                    f"{', '.join(str(r + 1) for r in rows[:SHOW])}", rows)
    if col.problems:
        return None, sol_ids
    al = align(sol_ids, sub_ids)
    if al.sol_duplicates.size and not allow_sol_dups:
        col.add(sol_name, f"{al.sol_duplicates.size} duplicate id(s): "
                f"{_quote(sol_ids.take(pa.array(al.sol_duplicates[:SHOW])).to_pylist())}",
                al.sol_duplicates)
    if al.sub_duplicates.size:
        col.add(sub_name, f"{al.sub_duplicates.size} duplicate id(s): "
                f"{_quote(sub_ids.take(pa.array(al.sub_duplicates[:SHOW])).to_pylist())}",
                al.sub_duplicates)
    if al.missing.size:
        col.add(sub_name, f"{al.missing.size} id(s) of the solution are missing: "
                f"{_quote(sol_ids.take(pa.array(al.missing[:SHOW])).to_pylist())}",
                al.missing, role="solution")
    if al.extra.size:
        col.add(sub_name, f"{al.extra.size} id(s) are not in the solution: "
                f"{_quote(sub_ids.take(pa.array(al.extra[:SHOW])).to_pylist())}", al.extra)
    return al, sol_ids


def _target(sol, sub, sol_name, sub_name, id_col, options, col):
    sub_targets = [c for c in sub.column_names if c != id_col]
    if options.target_column:
        name = options.target_column
    elif len(sub_targets) == 1:
        name = sub_targets[0]
    else:
        col.add(sub_name, f"expected one target column besides '{id_col}'; found "
                f"{len(sub_targets)}: {', '.join(sub_targets) or 'none'}"
                f"{_col_hint(sub.column_names)}")
        return None
    for fname, t in ((sol_name, sol), (sub_name, sub)):
        if name not in t.column_names:
            col.add(fname, f"no target column '{name}'; found columns: "
                    f"{', '.join(t.column_names)}")
    return None if col.problems else name


def _numbers(table, name, fname, ids, col, integer):
    """A numeric column as float64/int64; unparsable or missing values collected."""
    arr = _array(table, name)
    if pa.types.is_integer(arr.type) and not arr.null_count:
        return arr.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
    if pa.types.is_boolean(arr.type):
        return arr.to_numpy(zero_copy_only=False).astype(np.int64)
    if pa.types.is_floating(arr.type) or pa.types.is_integer(arr.type) or pa.types.is_null(arr.type):
        vals = arr.to_numpy(zero_copy_only=False).astype(np.float64)
        raw = None
    else:
        import pandas as pd  # only for text columns; keeps the CLI start fast
        raw = arr.to_numpy(zero_copy_only=False)
        vals = pd.to_numeric(pd.Series(raw), errors="coerce").to_numpy(np.float64)
    bad = np.flatnonzero(~np.isfinite(vals))
    if bad.size:
        shown = ", ".join(
            f"row {r + 1} (id {ids[r]!r}): "
            + (repr(raw[r]) if raw is not None and raw[r] is not None and raw[r] != "" else
               "empty" if raw is not None or np.isnan(vals[r]) else repr(vals[r]))
            for r in bad[:SHOW])
        col.add(fname, f"column '{name}': {bad.size} value(s) are not "
                f"{'ratings' if integer else 'finite numbers'}: {shown}", bad)
    if integer:
        with np.errstate(invalid="ignore"):
            frac = np.flatnonzero(np.isfinite(vals) & (vals != np.floor(vals)))
        if frac.size:
            shown = ", ".join(f"row {r + 1} (id {ids[r]!r}): {vals[r]:g}" for r in frac[:SHOW])
            col.add(fname, f"column '{name}': {frac.size} non-integer rating(s): {shown}; "
                    "continuous predictions need cut points (round them, or use the "
                    "threshold optimizer in the app)", frac)
            return None
    if bad.size:
        return None
    return vals.astype(np.int64) if integer else vals


def _check_range(vals, options, fname, name, ids, col):
    for bound, bad, word in ((options.min_rating, lambda v, b: v < b, "below the declared minimum"),
                             (options.max_rating, lambda v, b: v > b, "above the declared maximum")):
        if bound is None:
            continue
        rows = np.flatnonzero(bad(vals, bound))
        if rows.size:
            shown = ", ".join(f"row {r + 1} (id {ids[r]!r}): {vals[r]}" for r in rows[:SHOW])
            col.add(fname, f"column '{name}': {rows.size} rating(s) {word} {bound}: {shown}", rows)


def _kappa(sol, sub, sol_name, sub_name, id_col, options, col, usage, reason):
    name = _target(sol, sub, sol_name, sub_name, id_col, options, col)
    if name is None:
        raise ValidationFailed(col.problems)
    al, sol_ids = _join(sol, sub, sol_name, sub_name, id_col, col)
    sid = _Lazy(sol_ids)
    truth = _numbers(sol, name, sol_name, sid, col, integer=True)
    sub_id = _Lazy(_ids(sub, id_col))
    # The app may accept continuous predictions (it offers cut points); the CLI never.
    pred = _numbers(sub, name, sub_name, sub_id, col, integer=not options.allow_continuous)
    checks = ((sol_name, truth, sid), (sub_name, pred, sub_id))
    if options.allow_continuous and pred is not None and pred.dtype.kind == "f":
        if not is_continuous(pred):
            pred = pred.astype(np.int64)
        else:
            checks = checks[:1]
    for fname, vals, vid in checks:
        if vals is not None:
            _check_range(vals, options, fname, name, vid, col)
    col.raise_if_any()
    layout = f"id '{id_col}' + integer rating column '{name}'"
    return Prepared("qwk", reason, id_col, [name], sol_ids, truth, pred[al.sub_index],
                    usage, layout=layout)


def _lwlrap(sol, sub, sol_name, sub_name, id_col, options, col, usage, reason):
    classes = [c for c in sub.column_names if c != id_col]
    sol_extra = [c for c in sol.column_names if c != id_col and c.lower() != "usage"]
    wide = [c for c in classes if c in sol_extra]
    al, sol_ids = _join(sol, sub, sol_name, sub_name, id_col, col)
    sid = _Lazy(sol_ids)
    sub_id = _Lazy(_ids(sub, id_col))
    if len(wide) >= 2 or (len(sol_extra) > 1 and not options.target_column):
        missing = [c for c in sol_extra if c not in classes]
        if missing:
            col.add(sub_name, f"missing class column(s): {', '.join(missing)}")
        extra = [c for c in classes if c not in sol_extra]
        if extra:
            col.add(sub_name, f"class column(s) not in the solution: {', '.join(extra)}")
        truth = np.zeros((sol.num_rows, len(wide)), dtype=np.int8)
        for j, c in enumerate(wide):
            v = _numbers(sol, c, sol_name, sid, col, integer=True)
            if v is not None:
                bad = np.flatnonzero((v != 0) & (v != 1))
                if bad.size:
                    col.add(sol_name, f"class column '{c}' must be 0/1; row {bad[0] + 1} "
                            f"(id {sid[bad[0]]!r}) has {v[bad[0]]}", bad)
                truth[:, j] = v
        classes_used = wide
        layout = f"id '{id_col}' + {len(wide)} class columns (0/1 truth, scores)"
    else:
        label_col = options.target_column or (sol_extra[0] if sol_extra else None)
        if label_col is None or label_col not in sol.column_names:
            col.add(sol_name, f"no labels column; found columns: {', '.join(sol.column_names)}")
            raise ValidationFailed(col.problems)
        truth = _label_matrix(sol.column(label_col), classes, sol_name, label_col, sid, col)
        classes_used = classes
        layout = (f"solution '{id_col},{label_col}' with comma-joined class names; "
                  f"submission one score column per class ({len(classes)})")
    scores = np.zeros((sub.num_rows, len(classes_used)))
    for j, c in enumerate(classes_used):
        v = _numbers(sub, c, sub_name, sub_id, col, integer=False)
        if v is not None:
            scores[:, j] = v
    col.raise_if_any()
    return Prepared("lwlrap", reason, id_col, classes_used, sol_ids, truth,
                    scores[al.sub_index], usage, classes=list(classes_used), layout=layout)


def _label_matrix(arr, classes, fname, label_col, sid, col):
    index = {c: j for j, c in enumerate(classes)}
    values = arr.cast(pa.string()).to_pylist()
    truth = np.zeros((len(values), len(classes)), dtype=np.int8)
    unknown = {}
    for i, cell in enumerate(values):
        for lab in (cell or "").split(","):
            lab = lab.strip()
            if not lab:
                continue
            j = index.get(lab)
            if j is None:
                unknown.setdefault(lab, i)
            else:
                truth[i, j] = 1
    if unknown:
        shown = ", ".join(f"{k!r} (row {r + 1}, id {sid[r]!r})" for k, r in list(unknown.items())[:SHOW])
        col.add(fname, f"column '{label_col}': {len(unknown)} label(s) have no score "
                f"column in the submission: {shown}", list(unknown.values()))
    return truth


def _split_cells(values):
    return [[s for s in (v or "").split("|") if s.strip()] for v in values]


def _fbeta(sol, sub, sol_name, sub_name, id_col, options, col, usage, reason):
    sub_targets = [c for c in sub.column_names if c != id_col]
    pred_col = next((c for c in sub_targets if c.lower() == "predictionstring"),
                    sub_targets[0] if len(sub_targets) == 1 else None)
    if pred_col is None:
        col.add(sub_name, f"no PredictionString column; found: {', '.join(sub.column_names)}")
    lower = {c.lower(): c for c in sol.column_names}
    label_col = options.target_column or next(
        (lower[c] for c in LABEL_COLUMNS if c in lower), None)
    if label_col is None or label_col not in sol.column_names:
        looked = options.target_column or ", ".join(LABEL_COLUMNS)
        col.add(sol_name, f"no label column (looked for {looked}); "
                f"found: {', '.join(sol.column_names)}")
    col.raise_if_any()
    ids = _ids(sol, id_col)
    labels = sol.column(label_col).cast(pa.string()).to_pylist()
    long = len(pc.unique(ids)) < len(ids)
    if long:
        # One row per (Id, label), as in Coleridge's train.csv: group labels per id.
        import pandas as pd
        frame = pd.DataFrame({"id": ids.to_numpy(zero_copy_only=False), "label": labels})
        grouped = frame.groupby("id", sort=False)["label"].agg(
            lambda s: sorted({x for v in s for x in (v or "").split("|") if x.strip()}))
        if usage is not None:
            first = pd.Series(usage).groupby(frame["id"], sort=False).first()
            usage = first.loc[grouped.index].to_numpy()
        sol = pa.table({id_col: pa.array(grouped.index.astype(str)),
                        label_col: pa.array(["|".join(v) for v in grouped.to_numpy()])})
        truths = [list(v) for v in grouped.to_numpy()]
        layout = f"solution one row per ('{id_col}', '{label_col}'), grouped by id"
    else:
        truths = _split_cells(labels)
        layout = f"solution '{id_col},{label_col}' with '|'-joined labels"
    al, sol_ids = _join(sol, sub, sol_name, sub_name, id_col, col)
    col.raise_if_any()
    preds = _split_cells(sub.column(pred_col).cast(pa.string()).to_pylist())
    preds = [preds[i] for i in al.sub_index]
    layout += f"; submission '{id_col},{pred_col}' with '|'-separated predictions"
    return Prepared("fbeta", reason, id_col, [pred_col], sol_ids,
                    truths, preds, usage, layout=layout)
