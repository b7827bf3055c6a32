"""From the API's inputs to validated, aligned data: the path of `kmetric` for two
files, io/prepare.py on Arrow tables for anything in memory; the options made
and checked as the CLI's flags are; which metric a ``metric=`` names."""
from __future__ import annotations

import os
from contextlib import contextmanager

from .errors import invalid, refuse
from .inputs import Source, is_path, table_of
from .settings import words

METRIC_FILE_SUFFIXES = (".py", ".ipynb")


def ids_as_text(table, id_col):
    """The id column as text, as the CLI reads it (``string_columns``)."""
    import pyarrow as pa
    if id_col not in table.column_names:
        return table
    col = table.column(id_col)
    if pa.types.is_string(col.type):
        return table
    return table.set_column(table.column_names.index(id_col), id_col, col.cast(pa.string()))


def load_pair(sol: Source, sub: Source, options):
    """io.Prepared of a solution and a submission (InvalidInput listing every problem)."""
    from ..errors import InputError
    try:
        if not sol.in_memory and not sub.in_memory:
            from ..analysis.scoring import load
            return load(sol.path, sub.path, options)      # exactly `kmetric score`'s read
        return _prepare(sol, sub, options)
    except InputError as e:
        raise _api_words(e) from None


def _prepare(sol, sub, options):
    from ..errors import InputError
    from ..io import prepare
    from ..io.read import read_header
    inflated = options.max_inflated
    id_col = options.id_column
    if id_col is None:
        id_col = (sub.table.column_names[:1] if sub.in_memory else
                  read_header(sub.path, "submission", inflated)[:1])
        id_col = id_col[0] if id_col else None
    keep = [id_col] if id_col else []
    tables, problems = [], []
    for src in (sol, sub):
        try:
            tables.append(ids_as_text(table_of(src, keep, inflated), id_col))
        except InputError as e:
            problems.extend(e.problems)
    if problems:
        raise InputError(problems[0], problems)
    return prepare(tables[0], tables[1], sol.label, sub.label, options)


def _api_words(error):
    """An InputError in the API's words: 'choose one with metric=' where the CLI names
    its --metric flag."""
    from ..metrics import AmbiguousMetric
    if isinstance(error, AmbiguousMetric):
        return refuse(f"several metrics fit these inputs: {error.listing}; choose one with "
                      f"metric= (one of {', '.join(error.names)})")
    return invalid(error)


def make_options(metric_name, id_column, target_column, own):
    """scoring.Options of the API's keywords (each checked by its declaration)."""
    from ..analysis.scoring import Options
    try:
        return Options(metric=metric_name, id_column=id_column, target_column=target_column,
                       **own)
    except (ValueError, TypeError) as e:
        raise refuse(str(e)) from None


def check_given(options, metric):
    """A keyword the metric in use does not declare changes nothing: refused, as the CLI
    refuses the flag."""
    foreign = options.foreign(metric)
    if foreign:
        raise refuse(f"{', '.join(foreign)}: not an option of {metric.label} ({metric.name}), "
                     "the metric in use; drop it or choose the metric with metric=")


def is_metric_file(metric) -> bool:
    return is_path(metric) and os.fspath(metric).lower().endswith(METRIC_FILE_SUFFIXES)


@contextmanager
def metric_in_use(metric, sources, own, higher_is_better=None, id_column=None):
    """Yields (registered metric name or None, options for it): a built-in by name, a
    metric file or a Python callable registered for the call (and unregistered after,
    the name's earlier metric put back). ``own``: the keyword options; for a file or a
    callable they are its score()'s extra arguments."""
    from ..metrics import REGISTRY, register, unregister
    if metric is None or (isinstance(metric, str) and metric in REGISTRY):
        if higher_is_better is not None:
            raise refuse("higher_is_better is for a metric file or a Python function; "
                         "a built-in metric has its own direction")
        yield metric, own
        return
    if is_metric_file(metric):
        defined = _file_metric(metric, sources, higher_is_better, id_column)
    elif callable(metric):
        from .callables import callable_metric
        defined = callable_metric(metric, higher_is_better)
    elif isinstance(metric, str):
        raise refuse(f"metric must be a built-in name ({', '.join(REGISTRY)}), a metric file "
                     f"(.py or .ipynb) or a Python function; got {metric[:60]!r}")
    else:
        raise refuse(f"metric must be a name, a metric file or a Python function; got "
                     f"{type(metric).__name__}")
    from ..metricfile.metric import PREFIX
    names = {o.name[len(PREFIX):] for o in defined.options}
    args = {}
    for k, v in own.items():
        if k not in names:
            known = ", ".join(sorted(names)) or "none"
            raise refuse(f"{k}: score() of {defined.label} has no such argument (its "
                         f"arguments: {known})")
        args[PREFIX + k] = v
    before = REGISTRY.get(defined.name)
    register(defined)
    try:
        yield defined.name, args
    finally:
        unregister(defined.name)
        if before is not None:
            register(before)
        close = getattr(defined, "close", None)
        if close is not None:
            close()


def _file_metric(path, sources, higher_is_better, id_column):
    """A FileMetric of ``path`` whose worker reads the pair's files (written to a temporary
    folder first when they are in memory: the worker reads files)."""
    from ..errors import InputError
    from ..metricfile.metric import file_metric
    from ..metricfile.runner import MetricFailed
    paths = tuple(spill(s) for s in sources[:2])
    try:
        return file_metric(os.fspath(path), higher_is_better, paths=paths, id_column=id_column)
    except (InputError, MetricFailed) as e:
        raise refuse(*[words(p) for p in (getattr(e, "problems", None) or [str(e)])]) from None


def readable(metric, sources):
    """The Sources as paths when ``metric`` is a metric file (its worker reads files)."""
    if not is_metric_file(metric):
        return list(sources)
    return [Source(s.role, s.name, path=spill(s)) for s in sources]


_SPILLED = {}


def spill(src: Source) -> str:
    """A path of the Source: its own, or a Parquet file of its table in a temporary folder
    (kept for the session: a metric file's worker and the app read it)."""
    if not src.in_memory:
        return src.path
    key = id(src.table)
    found = _SPILLED.get(key)
    if found is not None and found[0] is src.table:
        return found[1]
    import tempfile

    import pyarrow.parquet as pq
    folder = tempfile.mkdtemp(prefix="kmetric-api-")
    path = os.path.join(folder, f"{src.role}.parquet")
    pq.write_table(src.table, path)
    _SPILLED[key] = (src.table, path)
    return path


__all__ = ["load_pair", "make_options", "check_given", "metric_in_use", "spill", "ids_as_text",
           "readable"]
