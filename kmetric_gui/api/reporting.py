"""``km.report``: the report folder of `kmetric report`, from files or from frames.

The same entries (report/build.py), the same comparison of several submissions,
the same folder writing (cli/report.py's ``_write``: tables, the plots and the
PDF through Qt drawn offscreen, index.html, report.json). An input held in
memory is listed by its name, the bytes its table holds and the SHA-256 of its
Arrow IPC stream, where a file has its size and hash.
"""
from __future__ import annotations

import hashlib
import os
import warnings
from pathlib import Path
from typing import Any

from .errors import invalid, refuse
from .loading import check_given, load_pair, make_options, metric_in_use
from .scoring import (STATS_KEYWORDS, competition_options, group_labels, sources_of,
                      split_keywords)
from .settings import stats_settings, top_fixes_setting


def table_info(src, role):
    """report.build.file_info's dict for a table in memory."""
    import pyarrow as pa
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, src.table.schema) as w:
        w.write_table(src.table)
    digest = hashlib.sha256(memoryview(sink.getvalue())).hexdigest()
    return {"role": role, "name": src.name, "path": None, "size": int(src.table.nbytes),
            "sha256": digest, "rows": int(src.table.num_rows)}


def report(solution, *submissions, out: "str | os.PathLike[str]", force: bool = False,
           metric=None, names=None, competition=None, id_column=None, ci=None,
           shakeup=False, groups=None, leaderboard=None, **options: Any) -> Path:
    """Write the report folder of ``kmetric report`` to ``out``: index.html, report.json,
    report.pdf, plots and tables. The first submission is the one the report is about;
    with two or more they are compared. Keywords as ``km.score`` (``top_fixes``...);
    ``leaderboard`` adds where the first may land. ``force``: write into a folder that
    is not empty. Returns the path of index.html. Plots and the PDF need Qt; without
    it the rest is written and a warning says so."""
    from ..cli.report import _compare_options, _write
    from ..errors import InputError
    from ..report.folder import FolderError, check_folder
    from .decisions import _leaderboard, _submissions
    from .loading import is_metric_file
    if not submissions:
        raise refuse("report needs at least one submission")
    subs, names = _submissions(submissions, names)
    stats_kw = split_keywords(options, STATS_KEYWORDS)
    top = top_fixes_setting(options.pop("top_fixes", None))
    target, hib, ids = (options.pop(k, None) for k in ("target_column", "higher_is_better", "ids"))
    found = competition_options(competition)
    if found is not None:
        metric, options, id_column, target = found.apply(metric, options, id_column, target)
    if is_metric_file(metric):
        raise refuse("report with a metric file: not available from Python yet; use "
                     "kmetric report --metric-file")
    ci_opts, shake = stats_settings(ci=ci, shakeup=shakeup, **stats_kw)
    board = _leaderboard(leaderboard) if leaderboard is not None else None
    try:
        folder = check_folder(out, force)
    except FolderError as e:
        raise refuse(str(e)) from None
    sol, srcs = sources_of(solution, subs, ids, names)
    with metric_in_use(metric, [sol, *srcs], options, hib, id_column) as (name, own):
        opts = make_options(name, id_column, target, own)
        try:
            data = _data(sol, srcs, opts, ci_opts, shake, top, groups, _compare_options(ci_opts))
        except InputError as e:
            raise invalid(e) from None
        if board is not None:
            from ..analysis.ranking import add_to_report
            add_to_report(data, board)
        try:
            _write(data, folder)
        except (FolderError, OSError) as e:
            why = getattr(e, "reason", None) or e
            raise refuse(f"report not written to {folder}: {why} (nothing was changed there)") \
                from None
    for note in data.notes:
        warnings.warn(note, stacklevel=2)
    return Path(folder) / "index.html"


def _data(sol, srcs, opts, ci, shake, top, groups, compare):
    from ..analysis.scoring import score_prepared
    from ..errors import InputError
    from ..report import build_report, file_info, score_entry
    from ..report.build import load_counted
    entries, files, problems, labels = [], [], [], None
    for k, src in enumerate(srcs):
        try:
            if sol.in_memory or src.in_memory:
                prep = load_pair(sol, src, opts)
                n_sol = sol.table.num_rows if sol.in_memory else None
                n_sub = src.table.num_rows if src.in_memory else None
            else:
                prep, n_sol, n_sub = load_counted(sol.path, src.path, opts)
            rep = score_prepared(prep, opts)
            check_given(opts, rep.definition)
            if k == 0:
                labels = group_labels(groups, prep, sol, opts)
            first = k == 0
            entries.append(score_entry(src.path or src.name, rep, ci if first else None,
                                       shake if first else None, top if first else None,
                                       groups=labels))
            if not files:
                files.append(table_info(sol, "solution") if sol.in_memory
                             else file_info(sol.path, "solution", n_sol))
            files.append(table_info(src, "submission") if src.in_memory
                         else file_info(src.path, "submission", n_sub))
        except InputError as e:
            problems.extend(p for p in e.problems if p not in problems)
    if problems:
        raise InputError(problems[0], problems)
    return build_report(sol.path or sol.name, entries, files=files, compare=compare,
                        groups=labels)


__all__ = ["report"]
