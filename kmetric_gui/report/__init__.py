"""Reports of a scored analysis, without Qt: data, tables, HTML, JSON.

    entry = score_entry(sub_path, score_report, ci=StatsOptions(), top=20)
    data = build_report(truth_path, [entry])
    folder = prepare_folder(out_dir, force=False)
    write_tables(data, folder); ...plots and PDF (gui.report_render)...; write_index(data, folder)
"""
from .build import Entry, ReportData, build_report, file_info, folder_size, score_entry, sha256_of
from .folder import FolderError, is_nonempty, prepare_folder
from .html import render_html
from .write import write_index, write_plain, write_tables

__all__ = ["Entry", "ReportData", "build_report", "file_info", "folder_size", "score_entry",
           "sha256_of", "FolderError", "is_nonempty", "prepare_folder", "render_html",
           "write_index", "write_plain", "write_tables"]

from .._calls import make_callable  # noqa: E402 (km.report(...) is the Python API's, _calls.py)
make_callable(__name__, "kmetric_gui.api.reporting", "report")
