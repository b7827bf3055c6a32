"""What a report holds, computed without Qt: files, options, validation,
scores, intervals, shake-up, top fixes, and the tables (aggregates only).

``report.json`` is the ``kmetric score --json`` object of the first
submission (same keys, same values for the same flags) plus ``files``,
``validation``, ``tables``, ``plots`` and, with more than one submission,
``submissions``. Nothing here is per row: the size of a report does not
grow with the files.
"""
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import __version__
from ..errors import Cancelled
from ..scoring import report_json
from .tables import histogram, metric_tables

FORMAT = 1
_CHUNK = 1 << 20


def sha256_of(path, cancel=None):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            block = f.read(_CHUNK)
            if not block:
                break
            if cancel is not None and cancel():
                raise Cancelled("hashing")
            h.update(block)
    return h.hexdigest()


def file_info(path, role, rows=None, cancel=None):
    """{"role", "name", "path", "size", "sha256", "rows"} of a file on disk."""
    p = Path(path)
    return {"role": role, "name": p.name, "path": str(p.resolve()), "size": p.stat().st_size,
            "sha256": sha256_of(p, cancel), "rows": rows}


def count_rows(path, role):
    """Data rows of a table file (read as the scorer reads it)."""
    from ..io import read_table
    return int(read_table(path, role).num_rows)


@dataclass
class Entry:
    """One scored submission of the report."""
    path: str
    report: object                     # scoring.ScoreReport
    json: dict                         # the `score --json` object (with stats and fixes)
    stats: object = None               # stats.Stats or None
    fixes: object = None               # fixes.TopFixes or None

    @property
    def name(self):
        return Path(self.path).name


@dataclass
class ReportData:
    json: dict
    entries: list
    tables: dict = field(default_factory=dict)   # file name -> list of rows (header first)
    titles: dict = field(default_factory=dict)   # file name -> title in words
    plots: list = field(default_factory=list)    # filled by the renderer: dicts (title, png, svg, ...)
    pdf: "str | None" = None                     # file name of the PDF once written
    pdf_pages: int = 0
    notes: list = field(default_factory=list)    # what could not be made, in words

    @property
    def main(self):
        return self.entries[0]


def score_entry(path, report, ci=None, shake=None, top=None, cancel=None):
    """The `score --json` object of one report, with statistics and top fixes as asked."""
    from ..stats import analyze
    d = report_json(report)
    st = fx = None
    if ci is not None or shake is not None:
        st = analyze(report, ci, shake, cancel)
        d.update(st.to_json())
    if top:
        from ..fixes import top_fixes
        fx = top_fixes(report, top)
        d["top_fixes"] = fx.to_json()
        if fx.reason:
            d["top_fixes_reason"] = fx.reason
    return Entry(str(path), report, d, st, fx)


def validation_summary(report, edits=0):
    """In words: the files passed validation; ids, Usage split counts, edits."""
    prep = report.prepared
    out = {"status": "passed", "problems": [], "ids": len(prep), "id_column": prep.id_column,
           "target_columns": [str(c) for c in prep.target_columns][:50],
           "layout": report.layout, "chosen": report.reason}
    if prep.usage is not None:
        u = np.bincount(np.asarray(prep.usage, dtype=np.int64), minlength=3)
        out["usage"] = {"public": int(u[0]), "private": int(u[1]), "ignored": int(u[2])}
    if edits:
        out["unsaved_edits"] = int(edits)
    return out


def build_report(truth_path, entries, *, files=None, edits=0, cancel=None):
    """ReportData of scored submissions (``entries``: list of Entry, first is the main one).

    ``files``: file_info dicts when already known (else hashed here, rows counted).
    """
    main = entries[0]
    if files is None:
        files = [file_info(truth_path, "solution", count_rows(truth_path, "solution"), cancel)]
        files += [file_info(e.path, "submission", count_rows(e.path, "submission"), cancel)
                  for e in entries]
    d = dict(main.json)
    d["files"] = files
    d["validation"] = validation_summary(main.report, edits)
    d["kmetric_version"] = __version__
    d["report_format"] = FORMAT
    if len(entries) > 1:
        d["submissions"] = [dict(e.json, name=e.name) for e in entries]
    data = ReportData(d, entries)
    _add_tables(data)
    d["tables"] = sorted(data.tables)
    return data


def _add_tables(data):
    t, titles = data.tables, data.titles
    d = data.json
    t["files.csv"] = [["role", "name", "size_bytes", "rows", "sha256"]] + [
        [f["role"], f["name"], f["size"], f["rows"], f["sha256"]] for f in d["files"]]
    titles["files.csv"] = "Files"
    head = ["submission", "score", "public", "private"]
    has_ci = any("ci" in e.json for e in data.entries)
    if has_ci:
        head += ["ci_low", "ci_high", "ci_level"]
    rows = [head]
    for e in data.entries:
        j = e.json
        row = [e.name, j.get("score"), j.get("public"), j.get("private")]
        if has_ci:
            ci = j.get("ci") or {}
            row += [ci.get("low"), ci.get("high"), ci.get("level")]
        rows.append(row)
    t["scores.csv"] = rows
    titles["scores.csv"] = "Scores"
    main = data.main
    for name, (title, table) in metric_tables(main).items():
        t[name], titles[name] = table, title
    if main.fixes is not None and len(main.fixes.ids):
        t["top_fixes.csv"] = [["rank", "id", "gain", "score_after"]] + [
            [k, f["id"], f["gain"], f["score_after"]] for k, f in enumerate(main.fixes.to_json(), 1)]
        titles["top_fixes.csv"] = f"Fix first: the {main.fixes.unit}s whose fix gains the most"
    sh = main.stats.shakeup if main.stats is not None else None
    if sh is not None:
        edges, counts = histogram(sh.gap)
        t["shakeup_histogram.csv"] = [["gap_from", "gap_to", "splits"]] + [
            [float(edges[i]), float(edges[i + 1]), int(c)] for i, c in enumerate(counts)]
        titles["shakeup_histogram.csv"] = "Shake-up: simulated private - public gaps"


def folder_size(path):
    """Bytes of every file under ``path``."""
    total = 0
    for root, _, names in os.walk(path):
        total += sum(os.path.getsize(os.path.join(root, n)) for n in names)
    return total
