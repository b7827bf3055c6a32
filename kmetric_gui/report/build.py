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
from ..analysis.scoring import report_json
from .tables import histogram, metric_tables
from ..core.words import plural

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


def load_counted(truth_path, sub_path, options, cancel=None):
    """(io.Prepared, solution rows, submission rows): ``scoring.load``, keeping the row
    counts of the tables it read (so a report never reads a file twice)."""
    from concurrent.futures import ThreadPoolExecutor

    from ..errors import InputError
    from ..io import prepare, read_header, read_table
    from ..analysis.scoring import load_lean
    sol_name, sub_name = f"solution {Path(truth_path).name}", f"submission {Path(sub_path).name}"
    prep = load_lean(truth_path, sub_path, options, sol_name, sub_name, cancel=cancel)
    if prep is not None:            # valid: every id of each file once, in both
        return (prep, *getattr(prep, "file_rows", (len(prep), len(prep))))
    head = read_header(sub_path, "submission")
    id_col = options.id_column or (head[0] if head else None)
    keep = [id_col] if id_col else []
    with ThreadPoolExecutor(2, thread_name_prefix="kmetric-read") as pool:
        jobs = [pool.submit(read_table, p, role, string_columns=keep)
                for p, role in ((truth_path, "solution"), (sub_path, "submission"))]
        errors = []
        for job in jobs:
            try:
                job.result()
            except InputError as e:
                errors.extend(e.problems)
        if errors:
            raise InputError(errors[0], errors)
        sol, sub = (job.result() for job in jobs)
    if cancel is not None and cancel():
        raise Cancelled("reading")
    prep = prepare(sol, sub, sol_name, sub_name, options)
    return prep, sol.num_rows, sub.num_rows


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


def score_entry(path, report, ci=None, shake=None, top=None, cancel=None, groups=None):
    """The `score --json` object of one report, with statistics and top fixes as asked
    (``groups``: group label per solution row; statistics over whole groups)."""
    from ..analysis.stats import analyze
    d = report_json(report)
    st = fx = None
    if ci is not None or shake is not None:
        st = analyze(report, ci, shake, cancel, groups=groups)
        d.update(st.to_json())
    if groups is not None:
        d["groups"] = int(len(np.unique(np.asarray(groups).astype(str))))
    if top:
        from ..analysis.fixes import top_fixes
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


def build_report(truth_path, entries, *, files=None, edits=0, compare=None, comparison=None,
                 cancel=None, groups=None):
    """ReportData of scored submissions (``entries``: list of Entry, first is the main one).

    ``files``: file_info dicts when already known (else hashed here, rows counted);
    ``compare``: comparison.CompareOptions for two or more submissions (default ones if None);
    ``comparison``: a comparison.Comparison already made (the app's), used as it is.
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
    data = ReportData(d, entries)
    _add_tables(data)
    if comparison is not None:
        _add_comparison(data, comparison)
    elif len(entries) > 1:
        d["submissions"] = [dict(e.json, name=e.name) for e in entries]
        _compare(data, compare, cancel, groups)
        from ..analysis.select import add_to_report
        add_to_report(data, cancel)          # 3+ submissions: which to submit (`kmetric select`)
    d["tables"] = sorted(data.tables)
    return data


def _compare(data, options, cancel, groups=None):
    """`kmetric compare`'s JSON object as ``comparison`` (pairs of the same truth)."""
    from ..analysis.comparison import CompareOptions, _names, compare_reports
    from ..errors import InputError
    paths = [e.path for e in data.entries]
    try:
        cmp = compare_reports(_names(paths), paths, [e.report for e in data.entries],
                              options or CompareOptions(), cancel=cancel, groups=groups)
    except InputError as e:
        data.notes.append(f"submissions not compared: {e}")
        return
    _add_comparison(data, cmp)


def _add_comparison(data, cmp):
    d = data.json["comparison"] = cmp.to_json()
    head = ["a", "b", "delta", "delta_ci_low", "delta_ci_high", "p_b_better", "p_value",
            "p_order_flips", "public_delta", "private_delta"]
    rows = [head] + [[p.get("a"), p.get("b"), p.get("delta"), (p.get("delta_ci") or {}).get("low"),
                      (p.get("delta_ci") or {}).get("high"), p.get("p_b_better"), p.get("p_value"),
                      p.get("p_order_flips"), p.get("public_delta"), p.get("private_delta")]
                     for p in d.get("pairs", [])]
    data.tables["comparison_pairs.csv"] = rows
    way = "higher" if cmp.higher_is_better else "lower"
    data.titles["comparison_pairs.csv"] = (f"Comparison: B - A for each pair (paired bootstrap; "
                                           f"{way} is better)")


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
    titles["scores.csv"] = "Scores" if d.get("higher_is_better", True) else "Scores (lower is better)"
    main = data.main
    for name, (title, table) in metric_tables(main).items():
        t[name], titles[name] = table, title
    if main.fixes is not None and len(main.fixes.ids):
        t["top_fixes.csv"] = [["rank", "id", "gain", "score_after"]] + [
            [k, f["id"], f["gain"], f["score_after"]] for k, f in enumerate(main.fixes.to_json(), 1)]
        titles["top_fixes.csv"] = f"Fix first: the {plural(main.fixes.unit)} whose fix gains the most"
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
