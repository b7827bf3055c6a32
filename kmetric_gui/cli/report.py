"""`kmetric report TRUTH SUB [MORE...] --out DIR`: a folder to send or keep.

Writes DIR/index.html, DIR/report.json (the `score --json` object of the
first submission and more), DIR/report.pdf, DIR/plots/*.png|svg and
DIR/tables/*.csv. The plots and the PDF need Qt, imported here only (with
the offscreen platform when there is no display).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import os
import sys

from .fixes import add_fix_options
from .options import (add_metric_options, check_competition_layout, check_given,
                      options_from_args, print_problems)
from .stats import add_stats_options, groups_of, stats_options

if TYPE_CHECKING:
    import argparse


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    s = sub.add_parser("report", help="write a report folder (HTML, PDF, JSON, plots, tables)")
    s.add_argument("truth", help="solution file (CSV, TSV, .gz, .zip, Parquet)")
    s.add_argument("submissions", nargs="+", metavar="submission",
                   help="submission file(s); the first is the one the report is about")
    s.add_argument("--out", required=True, metavar="DIR", help="report folder (made if missing)")
    s.add_argument("--force", action="store_true", help="write into a folder that is not empty")
    add_metric_options(s)
    add_stats_options(s, groups=True)
    add_fix_options(s)
    from .metricfile import add_metric_file_options
    add_metric_file_options(s)
    s.add_argument("--leaderboard", metavar="LB.csv",
                   help="public leaderboard: add where the first submission may land (kmetric rank)")
    s.set_defaults(run=run)
    return s


def _compare_options(ci):
    """The comparison of several submissions uses the bootstrap flags when given."""
    from ..analysis.comparison import CompareOptions
    if ci is None:
        return CompareOptions()
    return CompareOptions(level=ci.level, replicates=ci.replicates, seed=ci.seed, method=ci.method)


def _qt_environment():
    """Plots are drawn offscreen: no window, and no display needed."""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                 or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _write(data, folder):
    """Every file into a staging folder, then moved into ``folder`` (report/folder.py)."""
    from ..report.folder import discard, publish, stage
    from ..report.write import write_index, write_tables
    staging = stage(folder)
    try:
        write_tables(data, staging)
        try:
            _qt_environment()
            from ..gui.report_render import render_report
            render_report(data, staging)
        except (ImportError, RuntimeError) as e:     # no Qt: the HTML, JSON and CSV still stand
            data.notes.append(f"plots and PDF not made: {e}")
            print(f"kmetric: plots and PDF not made: {e}", file=sys.stderr)
        write_index(data, staging)
        publish(staging, folder)
    finally:
        discard(staging)


def _metric_file_report(args, ci, shake, board, folder):
    """The report of a metric file: the file registered as a Metric (the app's), so the
    report is the built-in one: plots, shake-up, fix first, comparison and leaderboard."""
    from dataclasses import replace

    from ..errors import InputError
    from ..metricfile.kaggle import plan_replicates
    from ..metricfile.runner import MetricFailed
    from .metricfile import refusal, start, unavailable
    from .metricfile_metric import capped_compare, file_json, file_metric_in_use
    limits = start(args, unavailable(args))
    if limits is None:
        return 2
    w, notes = None, []
    try:
        with file_metric_in_use(args, limits) as (metric, options, w, fs, usage):
            if ci is not None:           # the interval's calls within the time limit
                b, _ = plan_replicates(w, fs.call_seconds, ci.replicates)
                if b < ci.replicates:
                    notes.append(f"{b} of {ci.replicates} bootstrap replicates: as many as fit "
                                 "in the time limit")
                    ci = replace(ci, replicates=max(2, b))
            compare = capped_compare(args, _compare_options(ci), w, fs, usage, notes)

            def also(data):
                data.json["metric_file"] = file_json(fs, w)
                data.notes.extend(notes)
            return _report(args, options, ci, shake, board, folder, compare, also)
    except (InputError, MetricFailed) as e:
        return refusal(e, w)


PARTIAL = 3        # exit code: the report was written without its plots and PDF


def run(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..report import FolderError
    from ..report.folder import check_folder
    ci, shake, problems = stats_options(args)
    for line in problems:
        print(f"kmetric: {line}", file=sys.stderr)
    if problems:
        return 2
    from ..analysis.ranking import read_board_arg
    board = read_board_arg(getattr(args, "leaderboard", None), sys.stderr)
    if board is False:
        return 2
    try:
        folder = check_folder(args.out, args.force)      # made once the input is valid
    except FolderError as e:
        print(f"kmetric: {e}", file=sys.stderr)
        return 2
    if args.metric_file:
        return _metric_file_report(args, ci, shake, board, folder)
    try:
        options = options_from_args(args)
        check_competition_layout(args, args.truth, args.submissions)
    except InputError as e:
        print_problems(e, sys.stderr)
        return 2
    return _report(args, options, ci, shake, board, folder, _compare_options(ci))


def _report(args, options, ci, shake, board, folder, compare, also=None):
    """Score, analyse and write the folder of ``options``' metric; the exit code.
    ``also(data)``: what the caller adds before it is written."""
    from ..errors import InputError
    from ..report import FolderError, build_report, file_info, folder_size, score_entry
    from ..report.build import load_counted
    from ..analysis.scoring import score_prepared
    entries, files, failed, groups = [], [], False, None
    for k, path in enumerate(args.submissions):
        try:
            prep, n_sol, n_sub = load_counted(args.truth, path, options)     # as `score` reads
            rep = score_prepared(prep, options)
            check_given(options, rep.definition)
            if k == 0:
                groups = groups_of(rep, args)     # whole groups resampled, split and swapped
            entries.append(score_entry(path, rep, ci if k == 0 else None, shake if k == 0 else None,
                                       args.top_fixes if k == 0 else None, groups=groups))
            if not files:
                files.append(file_info(args.truth, "solution", n_sol))
            files.append(file_info(path, "submission", n_sub))
        except InputError as e:
            print_problems(e, sys.stderr)
            failed = True
    if failed:
        return 2
    data = build_report(args.truth, entries, files=files, compare=compare, groups=groups)
    if also is not None:
        also(data)
    if board is not None:
        from ..analysis.ranking import add_to_report
        add_to_report(data, board)
    try:
        _write(data, folder)
    except (FolderError, OSError) as e:
        from ..io.saving import reason_in_words
        why = getattr(e, "reason", None) or (reason_in_words(e) if isinstance(e, OSError) else e)
        print(f"kmetric: report not written to {folder}: {why} (nothing was changed there)",
              file=sys.stderr)
        return 2
    size = folder_size(folder)
    print(f"report written to {folder}: index.html, report.json"
          f"{', report.pdf' if data.pdf else ''}, {len(data.plots)} plots, "
          f"{len(data.tables)} tables ({size / 1024:.0f} KB)")
    # Written, but without its plots and PDF (Qt could not start): a script must hear it.
    return PARTIAL if any(n.startswith("plots and PDF not made") for n in data.notes) else 0
