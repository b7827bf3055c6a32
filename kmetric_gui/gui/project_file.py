"""The `.kmetric` project format (JSON), without Qt: files, options, edits, view.

    {"format": "kmetric-project", "format_version": 1,
     "files": {"truth": {"path", "absolute", "size", "sha256"}, "submission": {...}},
     "options": {...scoring.Options...},
     "edits": [{"label", "cells": [{"field", "unit", "part", "value"}]} |
               {"label", "field", "values"}],
     "view": {...}}

Paths are written relative to the project's folder where possible. Every
problem is a ProjectError naming the project file and the field.
"""
import json
import os
from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np

from ..report.build import sha256_of
from ..saving import save_atomic
from ..scoring import Options
from ..state import Change
from ..state.data import FIELDS

FORMAT, FORMAT_VERSION, SUFFIX = "kmetric-project", 1, ".kmetric"
ROLES = ("truth", "submission")


class ProjectError(Exception):
    """A project file that cannot be used; the message names the file and the field."""


@dataclass
class FileRef:
    role: str
    path: str                 # as written: relative to the project's folder where possible
    absolute: str
    size: int
    sha256: str


@dataclass
class Project:
    path: str
    files: dict               # role -> FileRef
    options: Options
    edits: list               # raw JSON edits (checked against the data once it is loaded)
    view: dict = field(default_factory=dict)
    compare: list = field(default_factory=list)   # FileRefs of the compared submissions


# -- writing ---------------------------------------------------------------------------

def file_ref(path, role, folder, cancel=None):
    p = Path(path).resolve()
    try:
        rel = os.path.relpath(p, Path(folder).resolve())
    except ValueError:        # another drive (Windows)
        rel = str(p)
    return FileRef(role, Path(rel).as_posix(), str(p), p.stat().st_size, sha256_of(p, cancel))


def _plain(v):
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def encode_change(change):
    if change.field_name is not None:
        return {"label": change.label, "field": change.field_name, "values": _plain(change.array)}
    return {"label": change.label, "cells": [
        {"field": name, "unit": int(unit), "part": part, "value": _plain(value)}
        for (name, unit, part), value in change.cells]}


def project_json(refs, options, changes, view, compare=()):
    return {"format": FORMAT, "format_version": FORMAT_VERSION,
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

def read_project(path):
    """A Project from a `.kmetric` file (edits not yet checked against the data)."""
    name = Path(path).name
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise ProjectError(f"project {name} cannot be read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ProjectError(f"project {name} is not a kmetric project (not UTF-8 text)") from None
    try:
        d = json.loads(text)
    except ValueError as e:
        raise ProjectError(f"project {name} is not JSON: line {e.lineno}, column {e.colno}: "
                           f"{e.msg}") from None

    def bad(where, what):
        return ProjectError(f"project {name}: field '{where}' {what}")
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise bad("format", f"must be '{FORMAT}' (is this a kmetric project?)")
    version = d.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise bad("format_version", "must be a whole number of at least 1")
    if version > FORMAT_VERSION:
        raise bad("format_version", f"is {version}; this kmetric reads version {FORMAT_VERSION} "
                                    "at most (the project was saved by a newer kmetric)")
    files = d.get("files")
    if not isinstance(files, dict):
        raise bad("files", "is missing")
    refs = {}
    for role in ROLES:
        f = files.get(role)
        if not isinstance(f, dict):
            raise bad(f"files.{role}", "is missing")
        for key, kind in (("path", str), ("sha256", str), ("size", int)):
            if not isinstance(f.get(key), kind):
                raise bad(f"files.{role}.{key}", "is missing or not a " +
                          ("whole number" if kind is int else "text"))
        refs[role] = FileRef(role, f["path"], str(f.get("absolute") or f["path"]), f["size"],
                             f["sha256"])
    options = _options(d.get("options", {}), bad)
    edits = d.get("edits", [])
    if not isinstance(edits, list):
        raise bad("edits", "must be a list")
    view = d.get("view", {})
    compare = d.get("compare", [])
    if not isinstance(compare, list) or not all(
            isinstance(c, dict) and isinstance(c.get("path"), str) for c in compare):
        raise bad("compare", "must be a list of files (objects with a path)")
    others = [FileRef("compare", c["path"], str(c.get("absolute") or c["path"]), c.get("size", 0),
                      str(c.get("sha256", ""))) for c in compare]
    return Project(str(path), refs, options, edits, view if isinstance(view, dict) else {}, others)


def _options(raw, bad):
    """Options checked against each metric's declared options (metrics/schema.py); the
    common fields (id column, cuts, ...) by their kind."""
    from ..scoring import declared_options
    if not isinstance(raw, dict):
        raise bad("options", "must be an object")
    declared = declared_options()
    known = {f.name: f.default for f in fields(Options) if f.name != "params"}
    kw = {}
    for key, value in raw.items():
        if key in declared:
            try:
                kw[key] = declared[key].check(value)
            except ValueError as e:
                raise bad(f"options.{key}", str(e)) from None
            continue
        if key not in known:
            names = sorted(set(known) | set(declared))
            raise bad(f"options.{key}", f"is not an option; known: {', '.join(names)}")
        default = known[key]
        if key == "cuts":
            if value is not None and not (isinstance(value, list) and all(
                    isinstance(x, (int, float)) and not isinstance(x, bool) for x in value)):
                raise bad("options.cuts", "must be a list of numbers")
            value = tuple(value) if value is not None else None
        elif value is not None and default is not None and not _same_kind(value, default):
            raise bad(f"options.{key}", f"must be {type(default).__name__}, got {value!r}")
        kw[key] = value
    return Options().with_(**kw)


def _same_kind(value, default):
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, type(default))


def locate(ref, project_path):
    """The file of a reference: relative to the project first, then the absolute path."""
    folder = Path(project_path).resolve().parent
    for candidate in (folder / ref.path, Path(ref.absolute)):
        if candidate.is_file():
            return str(candidate)
    return None


def decode_changes(project, data):
    """Changes of the project's edits, checked against the loaded data (DataVersion)."""
    name = Path(project.path).name
    base, n = data.base, len(data)
    out = []
    for k, e in enumerate(project.edits):
        where = f"edits[{k}]"

        def bad(sub, what):
            return ProjectError(f"project {name}: field '{where}{sub}' {what}")
        if not isinstance(e, dict) or not isinstance(e.get("label", ""), str):
            raise bad("", "must be an object with a label")
        if "field" in e and "values" in e:
            out.append(Change(e.get("label", "Edit"), field_name=_field(e["field"], bad, ".field"),
                              array=_values(getattr(base, e["field"]), e["values"], n, bad)))
            continue
        cells = e.get("cells")
        if not isinstance(cells, list) or not cells:
            raise bad(".cells", "must be a non-empty list")
        decoded = []
        for j, c in enumerate(cells):
            sub = f".cells[{j}]"
            if not isinstance(c, dict):
                raise bad(sub, "must be an object")
            fname = _field(c.get("field"), bad, sub + ".field")
            unit, part = c.get("unit"), c.get("part")
            if not isinstance(unit, int) or isinstance(unit, bool) or not 0 <= unit < n:
                raise bad(sub + ".unit", f"must be a row number from 0 to {n - 1}; got {unit!r}")
            arr = getattr(base, fname)
            width = arr.shape[1] if isinstance(arr, np.ndarray) and arr.ndim == 2 else 0
            if part is not None and not (isinstance(part, int) and 0 <= part < width):
                raise bad(sub + ".part", f"must be empty or a class from 0 to {width - 1}; got {part!r}")
            value = _value(arr, part, c.get("value"), bad, sub + ".value")
            decoded.append(((fname, unit, part), value))
        out.append(Change(e.get("label", "Edit"), tuple(decoded)))
    return out


def _field(value, bad, where):
    if value not in FIELDS:
        raise bad(where, f"must be one of {', '.join(FIELDS)}; got {value!r}")
    return value


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _value(arr, part, v, bad, where):
    if isinstance(arr, np.ndarray):
        if arr.ndim == 2 and part is None:
            row = np.asarray(v) if isinstance(v, list) else None
            if row is None or row.shape != (arr.shape[1],) or not all(_number(x) for x in v):
                raise bad(where, f"must be a list of {arr.shape[1]} numbers")
            return row.astype(arr.dtype)
        if not _number(v):
            raise bad(where, f"must be a number; got {v!r}")
        return v
    if not (isinstance(v, list) and all(isinstance(x, str) for x in v)):
        raise bad(where, "must be a list of texts")
    return v


def _values(arr, values, n, bad):
    if not isinstance(values, list) or len(values) != n:
        raise bad(".values", f"must be a list of {n} values (one per row)")
    if isinstance(arr, np.ndarray):
        try:
            out = np.asarray(values)        # its own type: applied cut points turn floats to ratings
        except (TypeError, ValueError):
            out = np.asarray([], dtype=object)
        if out.dtype.kind not in "biuf":
            raise bad(".values", "must hold numbers")
        if out.shape[1:] != arr.shape[1:]:
            raise bad(".values", f"must have the shape of the data {arr.shape}")
        return out
    return [list(map(str, v)) if isinstance(v, list) else [] for v in values]
