"""Read a metric file: a module (.py) or a notebook (.ipynb).

A notebook's code cells are joined in order; IPython magics (``%``, ``%%``)
and shell lines (``!``) are dropped, as they mean nothing outside Jupyter.
Only text is read here: the code runs in the worker (runner.py).
"""
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError

MAX_BYTES = 20 << 20        # a metric file is code: 20 MB is far past any real one


@dataclass(frozen=True)
class MetricSource:
    path: str
    name: str          # file name, shown in messages
    sha256: str
    code: str          # Python source (a notebook's cells joined)
    line_map: tuple    # code line (1-based) -> (cell number, line in cell); () for .py


def _fail(path, why):
    raise InputError(f"metric file {Path(path).name}: {why}")


def _cells(path, raw):
    try:
        nb = json.loads(raw)
    except ValueError as e:
        _fail(path, f"not a notebook: the file is not valid JSON (line {getattr(e, 'lineno', '?')})")
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list):
        _fail(path, "not a notebook: no list of cells in it")
    for k, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        if isinstance(src, list):
            src = "".join(s for s in src if isinstance(s, str))
        if not isinstance(src, str):
            _fail(path, f"not a notebook: cell {k} has no text")
        yield k, src


def notebook_code(path, raw):
    """(code, line_map) of a notebook's code cells, magics and shell lines dropped."""
    lines, where = [], []
    for k, src in _cells(path, raw):
        in_magic_cell = src.lstrip().startswith("%%")
        for j, line in enumerate(src.splitlines(), 1):
            bare = line.lstrip()
            if in_magic_cell or bare.startswith(("%", "!")):
                line = ""           # kept as a blank line: error line numbers still map
            lines.append(line)
            where.append((k, j))
        lines.append("")
        where.append((k, 0))
    return "\n".join(lines) + "\n", tuple(where)


def load_source(path):
    """MetricSource of a .py or .ipynb file; InputError for what cannot be read."""
    p = Path(path)
    if not p.exists():
        _fail(path, "no such file")
    if not p.is_file():
        _fail(path, "not a regular file")
    try:
        raw = p.read_bytes() if p.stat().st_size <= MAX_BYTES else None
    except OSError as e:
        _fail(path, f"cannot be read ({e.strerror or e})")
    if raw is None:
        _fail(path, f"larger than {MAX_BYTES >> 20} MB; a metric file is code")
    sha = hashlib.sha256(raw).hexdigest()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        _fail(path, "not UTF-8 text")
    if p.suffix.lower() == ".ipynb":
        code, line_map = notebook_code(path, text)
    elif p.suffix.lower() == ".py":
        code, line_map = text, ()
    else:
        _fail(path, "expected a .py module or an .ipynb notebook")
    return MetricSource(str(p), p.name, sha, code, line_map)


def where(source, lineno):
    """'line N' of the file (or 'cell C, line N' of a notebook) for a code line."""
    if lineno is None:
        return "?"
    if source.line_map and 1 <= lineno <= len(source.line_map):
        cell, line = source.line_map[lineno - 1]
        return f"cell {cell}, line {line}"
    return f"line {lineno}"
