"""The `.kmetric` project format (JSON), without Qt: files, options, edits, view.

    {"format": "kmetric-project", "format_version": 1,
     "files": {"truth": {"path", "absolute", "size", "sha256"}, "submission": {...}},
     "options": {...scoring.Options...},
     "edits": [{"label", "cells": [{"field", "unit", "part", "value"}]} |
               {"label", "field", "values"}],
     "view": {...},
     "final": {...the final-submissions dialog's inputs, project_final.py...}}   (optional)

Paths are written relative to the project's folder where possible. Every
problem is a ProjectError naming the project file and the field.
"""
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..io.saving import save_atomic
from ..numbers import RATING_LIMIT
from ..analysis.scoring import Options
from ..state import Change
from .project_refs import FileRef, _ref, file_ref, locate  # noqa: F401 -- names of this module

FORMAT, FORMAT_VERSION, SUFFIX = "kmetric-project", 1, ".kmetric"
ROLES = ("truth", "submission")


class ProjectError(Exception):
    """A project file that cannot be used; the message names the file and the field."""


@dataclass
class Project:
    path: str
    files: dict               # role -> FileRef
    options: Options
    edits: list               # raw JSON edits (checked against the data once it is loaded)
    view: dict = field(default_factory=dict)
    compare: list = field(default_factory=list)   # FileRefs of the compared submissions
    statistics: dict = field(default_factory=dict)   # {"group_column": name or None}
    final: "dict | None" = None   # the final-submissions dialog's inputs (project_final.py)
    metric_file: "dict | None" = None             # {path, absolute, sha256, args, higher_is_better}
    competition: "str | None" = None              # the options panel's competition (a slug)


# -- writing ---------------------------------------------------------------------------

def _plain(v):
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if hasattr(v, "typed_text"):   # a value that is no number (masks, boxes): its typed text
        return v.typed_text()
    return v


def encode_change(change):
    if change.field_name is not None:
        return {"label": change.label, "field": change.field_name, "values": _plain(change.array)}
    return {"label": change.label, "cells": [
        {"field": name, "unit": int(unit), "part": part, "value": _plain(value)}
        for (name, unit, part), value in change.cells]}


def project_json(refs, options, changes, view, compare=(), statistics=None, metric_file=None,
                 competition=None):
    extra = {"statistics": dict(statistics)} if statistics else {}
    if competition:
        extra["competition"] = competition
    if metric_file:
        extra["metric_file"] = metric_file
    return {**extra, "format": FORMAT, "format_version": FORMAT_VERSION,
            "compare": [{"path": r.path, "absolute": r.absolute, "size": r.size, "sha256": r.sha256}
                        for r in compare],
            "files": {r.role: {"path": r.path, "absolute": r.absolute, "size": r.size,
                               "sha256": r.sha256} for r in refs},
            "options": _plain(options.to_dict()),
            "edits": [encode_change(c) for c in changes],
            "view": view}


def write_project(path, data):
    save_atomic(path, json.dumps(data, indent=1) + "\n")


# -- reading ---------------------------------------------------------------------------

MAX_BYTES = 256 * 2 ** 20      # a project of 100,000 edits is ~20 MB


def read_project(path, max_bytes=MAX_BYTES):
    """A Project from a `.kmetric` file, checked against the schema (project_schema.py)
    before anything in it is used; edits not yet checked against the data. Slow for a
    big file: called on a worker."""
    from . import project_schema as schema
    name = Path(path).name
    try:
        with open(path, "rb") as f:
            raw = f.read(max_bytes + 1)
    except OSError as e:
        raise ProjectError(f"project {name} cannot be read: {e.strerror or e}") from None
    if len(raw) > max_bytes:
        raise ProjectError(f"project {name} is larger than {max_bytes // 2 ** 20} MB; "
                           "a kmetric project is smaller (is this a project file?)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProjectError(f"project {name} is not a kmetric project (not UTF-8 text)") from None
    del raw
    try:
        d = json.loads(text)
    except RecursionError:
        raise ProjectError(f"project {name} is nested too deeply to be a kmetric project") from None
    except ValueError as e:
        where = f": line {e.lineno}, column {e.colno}: {e.msg}" if hasattr(e, "lineno") else f" ({e})"
        raise ProjectError(f"project {name} is not JSON{where}") from None
    del text
    problems = schema.Problems()

    def refuse():
        more = len(problems) - schema.MAX_PROBLEMS
        lines = problems[:schema.MAX_PROBLEMS] + ([f"... and {more} more"] if more > 0 else [])
        raise ProjectError("\n".join(f"project {name}: {line}" for line in lines))
    if not schema.check_top(d, problems, FORMAT_VERSION, FORMAT):
        refuse()
    files = d.get("files")
    if not isinstance(files, dict):
        problems.add("files", "is missing or not an object")
        files = {}
    for key in files:
        if key not in ROLES:
            problems.add(f"files.{schema.key_text(key)}", f"is not a role; known: {', '.join(ROLES)}")
    oks = {role: schema.check_file(files.get(role), f"files.{role}", problems, role) for role in ROLES}
    compare = d.get("compare", [])
    if not isinstance(compare, list) or len(compare) > schema.MAX_COMPARED:
        problems.add("compare", f"must be a list of at most {schema.MAX_COMPARED} files")
        compare = []
    compare_ok = [schema.check_file(c, f"compare[{k}]", problems, "compare") for k, c in enumerate(compare)]
    options = schema.check_options(d.get("options", {}), problems)
    schema.check_edits(d.get("edits", []), problems)
    schema.check_view(d.get("view", {}), problems)
    schema.check_statistics(d.get("statistics", {}), problems)
    from .project_final import check_final
    final = check_final(d.get("final"), problems)
    schema.check_metric_file(d.get("metric_file"), problems)
    schema.check_competition(d.get("competition"), problems)
    if problems or not all(oks.values()) or not all(compare_ok) or options is None:
        refuse()
    refs = {role: _ref(role, files[role]) for role in ROLES}
    others = [_ref("compare", c) for c in compare]
    return Project(str(path), refs, Options().with_(**options), d.get("edits", []), d.get("view", {}),
                   others, d.get("statistics", {}), final, d.get("metric_file"),
                   d.get("competition"))


def decode_changes(project, data):
    """Changes of the project's edits, read as typed edits are (the metric's ``parse``
    of the text the value is written as) against the loaded data (a DataVersion).

    Runs of cell edits become one Change each: N edits cost O(N), where one history
    step per edit copied all earlier ones (10,000 edits took 2.1 GB). ProjectError
    with one line per refused edit when any is refused: then none is applied."""
    from ..metrics import FieldSpec, get_metric
    from ..numbers import shown
    name = Path(project.path).name
    base, n = data.base, len(data)
    metric = get_metric(data.metric)
    columns = {(c.spec.name, c.spec.part): c for c in metric.table_columns(base) if c.spec is not None}
    problems, out, run, run_edits = [], [], [], []

    def flush():
        if run:
            label = run_edits[0] if len(run_edits) == 1 else f"{len(run_edits)} edits of project {name}"
            out.append(Change(label, tuple(run)))
            run.clear()
            run_edits.clear()
    memo = {}                 # (field, part, type, value) -> value as parsed: a few texts, many edits

    def said(k, label):
        return f"project {name}: edit {k + 1} ({shown(label, 60)})"
    for k, e in enumerate(project.edits):
        label = e.get("label") or "Edit"
        if "values" in e:
            flush()
            try:
                out.append(Change(label, field_name=e["field"],
                                  array=_values(getattr(base, e["field"]), e["values"], n)))
            except ValueError as why:
                problems.append(f"{said(k, label)}: {why}")
            continue
        cells = []
        for c in e["cells"]:
            try:
                cells.append(_cell(metric, columns, base, n, c, FieldSpec, memo))
            except ValueError as why:
                row = f", row {c['unit'] + 1}" if c["unit"] < n else ""
                problems.append(f"{said(k, label)}{row}: {why}")
                break
        else:
            run.extend(cells)
            run_edits.append(label)
        if len(problems) > 20:
            break
    flush()
    if problems:
        raise ProjectError("\n".join(problems[:20] + (["... and more"] if len(problems) > 20 else [])))
    return out


def _cell(metric, columns, base, n, c, FieldSpec, memo):
    key = (c["field"], c["part"])
    if c["unit"] >= n:
        raise ValueError(f"row {c['unit'] + 1} is beyond the data's {n} rows")
    v = c.get("value")
    scalar = v is None or isinstance(v, (bool, int, float, str))
    mkey = (key, type(v), v) if scalar else None
    got = memo.get(mkey) if scalar else None
    if got is None:
        got = _parsed(metric, columns, base, key, v, FieldSpec)
        if scalar:
            memo[mkey] = got
    if isinstance(got, ValueError):
        raise got
    return ((c["field"], int(c["unit"]), c["part"]), got[0])


def _parsed(metric, columns, base, key, v, FieldSpec):
    """(value,) as the typed path reads ``v``'s text, or the ValueError refusing it."""
    col = columns.get(key)
    if col is None:
        where = key[0] if key[1] is None else f"{key[0]} class {key[1]}"
        return ValueError(f"{where} is not a cell the table can edit")
    from ..numbers import shown
    refusal = None
    # As the value is written; then as the table shows it (a class kept as its index is
    # typed by its name, a label as its text).
    for typed in (_typed, _shown):
        try:
            text = typed(v, col)
            value = metric.parse(FieldSpec(*key), text, base)      # refused as if typed
        except ValueError as e:
            refusal = refusal or e
            continue
        if _same(value, v):
            return (value,)
        refusal = refusal or ValueError(f"{shown(text)} reads as another value than the "
                                        "project's; refused")
    return refusal


def _shown(v, col):
    try:
        return str(col.fmt(v))
    except Exception:          # a value the column cannot show is not one the table takes
        raise ValueError("not a value of this column") from None


def _typed(v, col):
    """The text a user would type for a saved value."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    try:
        return str(col.fmt(v))
    except Exception:          # a value the column cannot show is not one the table takes
        raise ValueError("not a value of this column") from None


def _same(parsed, v):
    if isinstance(v, bool) or isinstance(parsed, bool):
        return False
    if hasattr(parsed, "typed_text"):      # saved as its text (encode_change)
        return isinstance(v, str) and parsed.typed_text() == v
    if isinstance(parsed, np.ndarray):
        try:
            return isinstance(v, list) and all(_number(x) for x in v) and \
                np.array_equal(parsed, np.asarray(v, dtype=float))
        except (TypeError, ValueError):
            return False
    if isinstance(parsed, (list, str)):
        return parsed == v
    return _number(v) and parsed == v


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _values(arr, values, n):
    """A whole field replaced (cut points applied): finite numbers, whole where the
    field holds whole numbers, one per row."""
    if len(values) != n:
        raise ValueError(f"has {len(values)} values where the data has {n} rows")
    if isinstance(arr, np.ndarray):
        if any(isinstance(x, bool) or isinstance(x, list) and any(isinstance(y, bool) for y in x)
               for x in values):
            raise ValueError("true/false is not a number")
        try:
            out = np.asarray(values)        # its own type: applied cut points turn floats to ratings
        except (TypeError, ValueError, OverflowError):
            out = np.asarray([], dtype=object)
        if out.dtype.kind not in "iuf" or out.shape[1:] != arr.shape[1:]:
            raise ValueError(f"must hold numbers in the shape of the data {arr.shape}")
        if out.dtype.kind == "f" and not np.isfinite(out).all():
            raise ValueError("holds a value that is not a finite number")
        if arr.dtype.kind in "iub":
            if out.dtype.kind == "f" and not (out == np.round(out)).all():
                raise ValueError("holds a rating that is not a whole number")
            if (np.abs(out) >= RATING_LIMIT).any():
                raise ValueError("holds a rating beyond 2^53")
            out = out.astype(np.int64)
        return out
    if not all(isinstance(v, list) and all(isinstance(x, str) for x in v) for v in values):
        raise ValueError("must be a list of lists of texts")
    return [list(v) for v in values]
