"""The explicit schema of a `.kmetric` project: every field's type, range and size is
checked before anything of the project is used (no Qt here).

A check returns problems as lines ``field 'a.b' <what is wrong>``; the caller refuses
the project when there is any. Nothing unknown is let through: an unknown key is a
problem, so a project written by a newer kmetric is refused in words, not half read.
"""
import math
import re

from ..numbers import RATING_LIMIT, shown
from ..analysis.scoring import Options

MAX_TEXT = 4096               # a path, a column name, a label
MAX_EDITS = 1_000_000         # edits in one project
MAX_CELLS = 10_000_000        # cells over all the edits
MAX_COMPARED = 64
MAX_PROBLEMS = 20
CELL_KEYS = {"field", "unit", "part", "value"}
SCALARS = (int, float, str, bool, type(None))             # lines said; the rest counted
SHA256 = re.compile(r"[0-9a-f]{64}")


class Problems(list):
    def add(self, where, what):
        self.append(f"field '{where}' {what}")


def key_text(key):
    """A key of the file for a message: cut, and control characters escaped (no line breaks)."""
    text = str(key)[:60]
    return text if text.isprintable() else text.encode("unicode_escape").decode("ascii")


def _int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _finite(v):
    return _number(v) and (isinstance(v, int) and abs(v) < 2 ** 63 or
                           isinstance(v, float) and math.isfinite(v))


def _text(v, longest=MAX_TEXT):
    return isinstance(v, str) and 0 < len(v) <= longest and "\x00" not in v


def _whole(v, lo, hi):
    return _int(v) and lo <= v <= hi


def check_top(d, problems, version_max, fmt):
    known = ("format", "format_version", "files", "options", "edits", "view", "compare",
             "statistics", "final", "metric_file", "competition")
    if not isinstance(d, dict):
        problems.add("format", f"must be '{fmt}' (is this a kmetric project?)")
        return False
    if d.get("format") != fmt:
        problems.add("format", f"must be '{fmt}' (is this a kmetric project?)")
        return False
    v = d.get("format_version")
    if not _int(v) or v < 1:
        problems.add("format_version", "must be a whole number of at least 1")
        return False
    if v > version_max:
        problems.add("format_version", f"is {v}; this kmetric reads version {version_max} at "
                                       "most (the project was saved by a newer kmetric)")
        return False
    for key in d:
        if key not in known:
            problems.add(key_text(key), f"is not a field of a kmetric project; known: {', '.join(known)}")
    return True


def check_file(f, where, problems, role):
    """A file reference: {path, absolute, size, sha256} (the hash and size optional for
    compared submissions)."""
    if not isinstance(f, dict):
        problems.add(where, "is missing or not an object")
        return False
    ok = True
    for key in f:
        if key not in ("path", "absolute", "size", "sha256"):
            problems.add(f"{where}.{key_text(key)}", "is not a field of a file")
            ok = False
    if not _text(f.get("path")):
        problems.add(f"{where}.path", f"must be a text of 1 to {MAX_TEXT} characters")
        ok = False
    if f.get("absolute") is not None and not _text(f["absolute"]):
        problems.add(f"{where}.absolute", f"must be empty or a text of 1 to {MAX_TEXT} characters")
        ok = False
    needed = role != "compare"
    if (needed or "size" in f) and not _whole(f.get("size"), 0, 2 ** 63 - 1):
        problems.add(f"{where}.size", "must be a whole number of bytes")
        ok = False
    sha = f.get("sha256")
    if (needed or sha not in (None, "")) and not (isinstance(sha, str) and SHA256.fullmatch(sha)):
        problems.add(f"{where}.sha256", "must be 64 hexadecimal digits")
        ok = False
    return ok


def check_options(raw, problems):
    """Keyword arguments for scoring.Options, or None (problems said). Every value is
    checked by its declaration (metrics/schema.py), as the CLI and the panel check it."""
    if not isinstance(raw, dict):
        problems.add("options", "must be an object")
        return None
    before = len(problems)
    metric = raw.get("metric")
    try:
        Options(metric=metric)
    except (ValueError, TypeError) as e:
        problems.add("options.metric", _without_name(str(e), "metric"))
        metric = None
    for key, v in raw.items():
        if key == "metric":
            continue
        where = f"options.{key_text(key)}"
        if not _scalar(v) and not (isinstance(v, list) and len(v) <= 1000):
            problems.add(where, "must be a single value or a list of numbers; got an object")
            continue
        try:
            Options(metric=metric, **{str(key): v})
        except (ValueError, TypeError) as e:
            problems.add(where, _without_name(str(e), str(key)))
    if len(problems) != before:
        return None
    return {k: (tuple(v) if isinstance(v, list) else v) for k, v in raw.items()}


def _without_name(message, name):
    """The option's message without its leading name (the field is named before it)."""
    return message[len(name):].lstrip() if message.startswith(name + " ") else message


def _scalar(v):
    return v is None or isinstance(v, (bool, str)) or _number(v)


def check_edits(edits, problems):
    """Shape only (the values are read through the metric's parser once the data is
    loaded): a list of {label, cells: [{field, unit, part, value}]} or {label, field, values}."""
    from ..state.data import FIELDS
    if not isinstance(edits, list):
        problems.add("edits", "must be a list")
        return
    if len(edits) > MAX_EDITS:
        problems.add("edits", f"has {len(edits)} edits; at most {MAX_EDITS} are read")
        return
    cells_seen = 0
    for k, e in enumerate(edits):
        if len(problems) > MAX_PROBLEMS:
            return
        where = f"edits[{k}]"
        if not isinstance(e, dict):
            problems.add(where, "must be an object")
            continue
        if not isinstance(e.get("label", ""), str) or len(e.get("label", "")) > MAX_TEXT:
            problems.add(f"{where}.label", "must be a text")
        whole = "values" in e
        allowed = ("label", "field", "values") if whole else ("label", "cells")
        extra = [key_text(x) for x in e if x not in allowed]
        if extra:
            problems.add(where, f"has unknown field(s) {', '.join(extra)}")
            continue
        if whole:
            if e.get("field") not in FIELDS:
                problems.add(f"{where}.field", f"must be one of {', '.join(FIELDS)}")
            vals = e.get("values")
            if not isinstance(vals, list) or not all(
                    _scalar(x) or isinstance(x, list) and all(_scalar(y) for y in x) for x in vals):
                problems.add(f"{where}.values", "must be a list of values (numbers, or lists of them)")
            continue
        cells = e.get("cells")
        if not isinstance(cells, list) or not cells:
            problems.add(f"{where}.cells", "must be a non-empty list")
            continue
        cells_seen += len(cells)
        if cells_seen > MAX_CELLS:
            problems.add("edits", f"hold more than {MAX_CELLS} cells")
            return
        for j, c in enumerate(cells):
            # the common shape, checked at C speed; anything else gets the checks in words
            if type(c) is dict and c.keys() <= CELL_KEYS and c.get("field") in FIELDS \
                    and type(c.get("unit")) is int and 0 <= c["unit"] <= RATING_LIMIT \
                    and (c.get("part") is None or type(c["part"]) is int and 0 <= c["part"] <= 2 ** 31) \
                    and type(c.get("value")) in SCALARS:
                continue
            sub = f"{where}.cells[{j}]"
            if not isinstance(c, dict) or set(c) - {"field", "unit", "part", "value"}:
                problems.add(sub, "must be an object of field, unit, part and value")
                break
            if c.get("field") not in FIELDS:
                got = f"; got {shown(c.get('field'))}" if _scalar(c.get("field")) else ""
                problems.add(f"{sub}.field", f"must be one of {', '.join(FIELDS)}{got}")
            if not _whole(c.get("unit"), 0, RATING_LIMIT):
                problems.add(f"{sub}.unit", "must be a row number (a whole number from 0)")
            if c.get("part") is not None and not _whole(c["part"], 0, 2 ** 31):
                problems.add(f"{sub}.part", "must be empty or a class number (from 0)")
            v = c.get("value")
            if not (_scalar(v) or isinstance(v, list) and len(v) <= 1_000_000 and all(map(_scalar, v))):
                problems.add(f"{sub}.value", "must be a value or a list of values")


def check_statistics(stats, problems):
    """The statistics settings a project keeps: the row-group column (a name or empty)."""
    if not isinstance(stats, dict):
        problems.add("statistics", "must be an object")
        return
    for key, v in stats.items():
        where = f"statistics.{key_text(key)}"
        if key == "group_column":
            if not (v is None or _text(v, 1000)):
                problems.add(where, "must be empty or a column name (text)")
        else:
            problems.add(where, "is not a field of the statistics; known: group_column")


def check_competition(slug, problems):
    """The competition picked in the options panel: empty or a slug of the catalog."""
    if slug is None:
        return
    from ..analysis.competitions import _by_slug
    if not _text(slug, 200) or slug.lower() not in _by_slug():
        problems.add("competition", "must be empty or a competition of the catalog "
                                    "('kmetric competitions' lists them)")


IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,99}")
MAX_ARGS = 100
METRIC_FILE_KEYS = ("path", "absolute", "sha256", "args", "higher_is_better", "python", "sandbox")
SANDBOX_MODES = ("auto", "off", "require")


def check_metric_file(mf, problems):
    """A competition's metric file: {path, absolute, sha256, args, higher_is_better, python,
    sandbox}. Its
    arguments are single values under Python names; the file itself is read (and its
    hash compared) only when the project is opened."""
    where = "metric_file"
    if mf is None:
        return True
    if not isinstance(mf, dict):
        problems.add(where, "must be an object")
        return False
    before = len(problems)
    for key in mf:
        if key not in METRIC_FILE_KEYS:
            problems.add(f"{where}.{key_text(key)}", f"is not a field of a metric file; known: "
                                                     f"{', '.join(METRIC_FILE_KEYS)}")
    path = mf.get("path")
    if not _text(path) or not path.lower().endswith((".py", ".ipynb")):
        problems.add(f"{where}.path", "must be the path of a .py or .ipynb file")
    if mf.get("absolute") is not None and not _text(mf["absolute"]):
        problems.add(f"{where}.absolute", f"must be empty or a text of 1 to {MAX_TEXT} characters")
    if not (isinstance(mf.get("sha256"), str) and SHA256.fullmatch(mf["sha256"])):
        problems.add(f"{where}.sha256", "must be 64 hexadecimal digits")
    if mf.get("higher_is_better") is not None and not isinstance(mf["higher_is_better"], bool):
        problems.add(f"{where}.higher_is_better", "must be true, false or empty")
    if mf.get("python") is not None and not _text(mf["python"]):
        problems.add(f"{where}.python", f"must be empty or the path of a Python, 1 to {MAX_TEXT} characters")
    if mf.get("sandbox") is not None and mf["sandbox"] not in SANDBOX_MODES:
        problems.add(f"{where}.sandbox", f"must be one of {', '.join(SANDBOX_MODES)}")
    args = mf.get("args", {})
    if not isinstance(args, dict) or len(args) > MAX_ARGS:
        problems.add(f"{where}.args", f"must be an object of at most {MAX_ARGS} arguments")
        return False
    for k, v in args.items():
        if not (isinstance(k, str) and IDENT.fullmatch(k)):
            problems.add(f"{where}.args.{key_text(k)}", "is not a Python argument name")
        elif not (v is None or isinstance(v, bool) or _finite(v) or _text(v)):
            problems.add(f"{where}.args.{k}", "must be a number, true/false or a text")
    return len(problems) == before


def check_view(view, problems):
    """The view state: only small whole numbers and texts (sizes pass to Qt as C ints)."""
    if not isinstance(view, dict):
        problems.add("view", "must be an object")
        return
    for key, v in view.items():
        where = f"view.{key_text(key)}"
        if key == "splitters":
            if not isinstance(v, dict) or set(v) - {"main", "top"} or not all(
                    isinstance(s, list) and len(s) <= 16 and all(_whole(x, 0, 100_000) for x in s)
                    for s in v.values()):
                problems.add(where, "must hold lists of at most 16 sizes from 0 to 100000 pixels")
        elif key == "tab":
            if not _whole(v, 0, 100):
                problems.add(where, "must be a tab number from 0 to 100")
        elif key == "class_names":
            if not (isinstance(v, str) and len(v) <= 100_000):
                problems.add(where, "must be a text")
        elif key == "selected_rows":
            if not (isinstance(v, list) and len(v) <= 1000 and all(_whole(x, 0, RATING_LIMIT) for x in v)):
                problems.add(where, "must be a list of at most 1000 row numbers")
        else:
            problems.add(where, "is not a field of the view")
