"""``km.open(result)``: the desktop app on the same data and options.

The app is started as its own process (``kmetric-gui PROJECT.kmetric``) on a
project file written to a new temporary folder: the files, the options in
force, the group column, a metric file. Inputs held in memory are written
there as Parquet first (the app reads files), and the call says where. Files
given by path are hard-linked into that folder where the file system allows
(the app opens a project's own files without asking); otherwise the project
names them where they are, and the app asks once before opening files
outside the project's folder.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .errors import refuse


def app_command() -> "list[str]":
    """The app's command: the `kmetric-gui` script beside this Python, else ``-m``."""
    here = Path(sys.executable).parent
    for name in ("kmetric-gui", "kmetric-gui.exe"):
        if (here / name).is_file():
            return [str(here / name)]
    return [sys.executable, "-m", "kmetric_gui"]


def _place(src, folder, notes):
    """The path the app reads for one input (written, linked or as given)."""
    if src.in_memory:
        import pyarrow.parquet as pq
        path = os.path.join(folder, f"{src.role}.parquet")
        if os.path.exists(path):
            stem = Path(path).stem
            k = 2
            while os.path.exists(path):
                path = os.path.join(folder, f"{stem}_{k}.parquet")
                k += 1
        pq.write_table(src.table, path)
        notes.append(f"{src.label} written to {path} for the app")
        return path
    target = os.path.join(folder, Path(src.path).name)
    if os.path.exists(target):
        return os.path.abspath(src.path)
    try:
        os.link(src.path, target)
        return target
    except OSError:
        return os.path.abspath(src.path)


def project_for(result, folder):
    """(project path, notes): the project file of ``result`` written into ``folder``."""
    from ..gui.project_file import SUFFIX, file_ref, project_json, write_project
    from ..metricfile.metric import FileMetric
    call = result._call
    metric = result._definition
    if callable(call.get("metric")) and not isinstance(call.get("metric"), (str, os.PathLike)):
        raise refuse("a Python function as the metric runs only in this process: the app "
                     "cannot open it (save it as a metric file with score() in it, and pass "
                     "its path as metric=)")
    notes = []
    paths = [_place(s, folder, notes) for s in result._sources]
    refs = [file_ref(p, role, folder) for p, role in zip(paths, ("truth", "submission"))]
    options = result._report.options
    metric_file = None
    if isinstance(metric, FileMetric):
        src = metric.source
        metric_file = {"path": src.path, "absolute": os.path.abspath(src.path),
                       "sha256": src.sha256, "args": metric.call_args(options),
                       "higher_is_better": bool(metric.higher_is_better)}
        from ..analysis.scoring import Options
        options = Options(id_column=options.id_column, target_column=options.target_column)
    groups = call.get("groups")
    statistics = {"group_column": groups} if isinstance(groups, str) and not \
        os.path.isfile(groups) else None
    data = project_json(refs, options, [], {}, statistics=statistics, metric_file=metric_file)
    path = os.path.join(folder, f"analysis{SUFFIX}")
    write_project(path, data)
    return path, notes


def open(result) -> "subprocess.Popen":
    """Open the desktop app on the data and options of a ``km.score`` result (the app is
    a separate process; it needs a display). Inputs held in memory are written as
    Parquet to a temporary folder the app reads (said on standard error)."""
    from .results import Result
    if not isinstance(result, Result):
        raise refuse(f"open takes the result of km.score; got {type(result).__name__}")
    folder = tempfile.mkdtemp(prefix="kmetric-open-")
    path, notes = project_for(result, folder)
    for note in notes:
        print(f"kmetric: {note}", file=sys.stderr)
    return subprocess.Popen([*app_command(), path], start_new_session=True,
                            stdin=subprocess.DEVNULL)


__all__ = ["open", "project_for", "app_command"]
