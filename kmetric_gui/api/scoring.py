"""``km.score``, ``km.detect`` and ``km.metrics``: one submission against its solution.

The numbers and the JSON are `kmetric score`'s: the same reading and validation
(io/prepare.py), the same scoring (analysis/scoring.py), the same statistics
(analysis/stats.py) put together in the same order as cli/score.py does.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import invalid, refuse
from .inputs import Source, is_path, source
from .loading import check_given, load_pair, make_options, metric_in_use, readable
from .settings import stats_settings, top_fixes_setting, words

if TYPE_CHECKING:
    from .results import Detection, MetricInfo, Result

STATS_KEYWORDS = ("bootstrap", "ci_method", "coverage_check", "seed", "public_fraction", "splits")


def competition_options(competition):
    """The catalog's settings for ``competition`` (a slug), or None when none is named;
    InvalidInput listing the closest slugs for an unknown one, or naming why no built-in
    scores it."""
    if competition is None:
        return None
    from ..analysis.competitions import resolve
    from ..errors import InputError
    try:
        return CompetitionSettings(resolve(competition, flag="competition="))
    except InputError as e:
        raise invalid(e) from None


class CompetitionSettings:
    """A catalog competition applied to a call's keywords: what the call gives wins."""

    def __init__(self, comp):
        self.comp = comp
        self.metric, self.options = comp.metric, dict(comp.options)

    def apply(self, metric, options, id_column, target):
        """(metric, options, id_column, target_column) with the competition's filled in."""
        from ..analysis.competitions import merged, needs_metric_file
        from ..errors import InputError
        c = self.comp
        if metric is None or metric == c.metric:
            try:
                needs_metric_file(c, flag="competition=")
            except InputError as e:
                raise invalid(e) from None
            metric, options = c.metric, merged(c, options)
        options = dict(options)
        if c.extra_ids != "refuse":
            options.setdefault("extra_ids", c.extra_ids)
        return metric, options, id_column or c.id_column, target or c.target_column

    def check_layout(self, sources, id_column, target):
        """InvalidInput when the files' headers are not the competition's."""
        if id_column or target:
            return
        from ..errors import InputError
        headers = [_header(s) for s in sources]
        for h in headers[1:]:
            problem = self.comp.layout_problem(headers[0], h, flag="competition=")
            if problem:
                raise invalid(InputError(problem))

    def to_json(self, rep):
        own = {o.name for o in rep.definition.options}
        names = [k for k in self.comp.options if k in own and rep.definition.name == self.metric]
        names += [k for k, _ in rep.options.params if k not in names]
        values = {k: getattr(rep.options, k) for k in names}
        d = self.comp.to_json({k: list(v) if isinstance(v, tuple) else v
                               for k, v in values.items()})
        d["metric"] = rep.definition.name
        if self.comp.metric_file_needed:
            d["metric_file_needed"] = self.comp.metric_file_needed
        return d


def _header(src):
    if src.in_memory:
        return list(src.table.column_names)
    from ..io.read import read_header
    return read_header(src.path, src.role)


def sources_of(solution, submissions, ids=None, names=None):
    """Sources of the solution and each submission (``names``: the user's names)."""
    sol = source(solution, "solution", ids=ids)
    several = len(submissions) > 1
    subs = [source(s, "submission", ids=ids, number=k if several else None,
                   name=names[k - 1] if names else None)
            for k, s in enumerate(submissions, 1)]
    return sol, subs


def group_labels(groups, prep, sol: Source, options):
    """Group label per aligned solution row of ``prep``, or None: ``groups`` is a column of
    the solution, a file of id,group rows, or one label per solution row."""
    import numpy as np
    if groups is None:
        return None
    from ..errors import InputError
    import os
    try:
        column = isinstance(groups, str) and (
            sol.table.column_names.count(groups) if sol.in_memory else not os.path.isfile(groups))
        if column and not sol.in_memory:
            from ..analysis.grouping import read_groups
            return read_groups(prep, truth_path=sol.path, column=groups,
                               max_inflated=options.max_inflated)
        if column:
            labels = sol.table.column(groups).to_pylist()
        elif is_path(groups) and os.path.isfile(groups):
            from ..analysis.grouping import read_groups
            return read_groups(prep, path=groups, max_inflated=options.max_inflated)
        elif is_path(groups):
            raise InputError(f"groups: '{groups}' is neither a column of the {sol.label} nor "
                             "a file of id,group rows")
        else:
            labels = list(np.asarray(groups, dtype=object).ravel())
        ids = _solution_ids(sol, prep, options)
        if len(labels) != len(ids):
            raise InputError(f"groups: {len(labels):,} label(s) for the solution's "
                             f"{len(ids):,} rows")
        return by_id(ids, labels, prep, "groups")
    except InputError as e:
        raise invalid(e) from None


def _solution_ids(sol, prep, options):
    from .inputs import table_of
    table = table_of(sol, [prep.id_column], options.max_inflated)
    col = table.column(prep.id_column)
    return [None if v is None else str(v) for v in col.to_pylist()]


def by_id(ids, labels, prep, label):
    """Labels of the solution's rows (by their ids) for the rows of ``prep``."""
    import numpy as np

    from ..errors import InputError
    mapping = {}
    for i, g in zip(ids, labels):
        g = "" if g is None else str(g)
        if mapping.setdefault(str(i), g) != g:
            raise InputError(f"{label}: id '{i}' is in two groups ('{mapping[str(i)]}' and '{g}')")
    out = np.empty(len(prep), dtype=object)
    for k, i in enumerate(prep.ids.tolist()):
        out[k] = mapping.get(str(i))
    return out


def split_keywords(kw, names):
    return {k: kw.pop(k) for k in names if k in kw}


def score(solution, submission, metric=None, *, competition=None, id_column=None, ci=None,
          shakeup=False, groups=None, **options: Any) -> "Result":
    """Score a submission against its solution, as ``kmetric score`` does.

    ``solution``, ``submission``: paths (CSV, TSV, .gz, .zip, Parquet), pandas or
    polars DataFrames, pyarrow Tables, mappings of columns, or numpy arrays (1-D or
    2-D; ``ids=`` gives their ids, else the row numbers). ``metric``: a built-in
    name (``km.metrics()``), a metric file (.py/.ipynb: its code runs, in worker
    processes), a Python function ``score(solution, submission, row_id_column_name,
    **kw)`` (run here; give ``higher_is_better=``), or None to detect it from the
    layout. ``ci``: an interval level (0.95, or True); ``shakeup``: simulate
    Public/Private splits; ``groups``: a solution column, an id,group file or one
    label per row (whole groups resampled). Other keywords: ``bootstrap``,
    ``ci_method``, ``coverage_check``, ``seed``, ``public_fraction``, ``splits``,
    ``top_fixes``, ``target_column``, ``ids``, ``higher_is_better``, and the metric's
    own options (``km.metrics()``; a function's or file's extra arguments).

    Returns a ``Result`` whose ``to_dict()`` is `kmetric score --json`'s object.
    Raises ``InvalidInput`` listing every problem of the input.
    """
    from ..errors import InputError
    stats_kw = split_keywords(options, STATS_KEYWORDS)
    top = top_fixes_setting(options.pop("top_fixes", None))
    target = options.pop("target_column", None)
    hib = options.pop("higher_is_better", None)
    ids = options.pop("ids", None)
    found = competition_options(competition)
    if found is not None:
        metric, options, id_column, target = found.apply(metric, options, id_column, target)
    ci_opts, shake = stats_settings(ci=ci, shakeup=shakeup, **stats_kw)
    sol, (sub,) = sources_of(solution, [submission], ids)
    sources = [sol, sub]
    if found is not None:
        found.check_layout(sources, None if id_column == found.comp.id_column else id_column,
                           None if target == found.comp.target_column else target)
    with metric_in_use(metric, sources, options, hib, id_column) as (name, own):
        sources = readable(metric, sources)
        opts = make_options(name, id_column, target, own)
        prep = load_pair(sources[0], sources[1], opts)
        try:
            from ..analysis.scoring import report_json, score_prepared
            rep = score_prepared(prep, opts)
            check_given(opts, rep.definition)
            d = report_json(rep, costly=True)
            if found is not None:
                d["competition"] = found.to_json(rep)
            labels = group_labels(groups, prep, sol, opts) if ci_opts or shake or top else None
            st = None
            if ci_opts or shake:
                st = _statistics(rep, ci_opts, shake, labels)
                d.update(st.to_json())
            fixes = None
            if top:
                from ..analysis.fixes import top_fixes
                fixes = top_fixes(rep, top)
                d["top_fixes"] = fixes.to_json()
                if fixes.reason:
                    d["top_fixes_reason"] = fixes.reason
        except InputError as e:
            raise invalid(e) from None
        except Exception as e:
            from ..metricfile.runner import MetricFailed
            if isinstance(e, MetricFailed):
                raise refuse(words(str(e))) from None
            raise
        from .results import Result
        return Result(d, rep, st, fixes, sources, dict(
            metric=metric, id_column=id_column, target_column=target, ci=ci, shakeup=shakeup,
            groups=groups, top_fixes=top, higher_is_better=hib, ids=ids, options=own,
            stats=stats_kw))


def _statistics(rep, ci, shake, labels):
    from ..analysis.stats import analyze
    from ..errors import InputError
    try:
        return analyze(rep, ci, shake, strict=True, groups=labels)
    except InputError as e:
        raise refuse(f"shakeup: {e}") from None


def detect(solution, submission, *, id_column=None, ids=None) -> "Detection":
    """Which built-in metric the layout of the pair points to, and why (the inputs are
    validated as for ``score``). InvalidInput when none fits, or several fit and none
    clearly (it lists them: choose one with ``metric=``)."""
    from .results import Detection
    sol, (sub,) = sources_of(solution, [submission], ids)
    prep = load_pair(sol, sub, make_options(None, id_column, None, {}))
    from ..metrics import get_metric
    m = get_metric(prep.metric)
    from ..analysis.competitions import matching
    found = matching(_header(sol), _header(sub))
    return Detection(m.name, m.label, bool(m.higher_is_better), prep.reason, prep.layout,
                     found.slug if found is not None else None)


def metrics() -> "list[MetricInfo]":
    """Every registered metric: name, label, direction, unit and options."""
    from ..metrics import REGISTRY
    from .results import MetricInfo, OptionInfo
    out = []
    for m in REGISTRY.values():
        opts = tuple(OptionInfo(o.name, o.type.__name__, o.default, tuple(o.choices), o.help)
                     for o in m.options if o.cli or getattr(m, "foreign", False))
        out.append(MetricInfo(m.name, m.label, bool(m.higher_is_better), m.unit, opts))
    return out


__all__ = ["score", "detect", "metrics"]
