"""Writing a report folder: tables (CSV), report.json, index.html (no Qt here).

The plots and the PDF come from ``kmetric_gui.gui.report_render`` (Qt) and
are written between ``write_tables`` and ``write_index``.
"""
import json
import math

from ..io.saving import csv_text, save_atomic
from .folder import TABLES
from .html import render_html


def write_tables(data, folder):
    for name, rows in data.tables.items():
        save_atomic(folder / TABLES / name, csv_text(rows, spreadsheet=True))


def write_index(data, folder):
    """report.json (with the plots written so far) and index.html."""
    d = data.json
    d["tables"] = [f"{TABLES}/{n}" for n in sorted(data.tables)]
    d["plots"] = [f"plots/{p[k]}" for p in data.plots for k in ("png", "svg") if p.get(k)]
    if data.pdf:
        d["pdf"], d["pdf_pages"] = data.pdf, data.pdf_pages
    if data.notes:
        d["notes"] = list(data.notes)
    save_atomic(folder / "report.json", json.dumps(_finite(d), indent=1, allow_nan=False) + "\n")
    save_atomic(folder / "index.html", render_html(data))


def _finite(x):
    """JSON has no NaN: an undefined number is null (as `score --json` writes it)."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def write_plain(data, folder):
    """Everything but the plots and the PDF (when Qt cannot run)."""
    write_tables(data, folder)
    write_index(data, folder)
