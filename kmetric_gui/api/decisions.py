"""``km.compare``, ``km.select`` and ``km.rank``: the end-of-competition decisions, as
`kmetric compare`, `kmetric select` and `kmetric rank` make them.

Files only: the commands' own functions (compare_files, select_files, rank_files).
Anything in memory: each submission validated against the solution as ``km.score``
validates it, then the same analysis functions on the reports (compare_reports,
select_reports, land). Invalid submissions are left out with their problems
(``.problems``), as the commands leave them out, while enough are valid.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import invalid, refuse
from .loading import check_given, load_pair, make_options, metric_in_use, readable
from .scoring import competition_options, group_labels, sources_of, split_keywords

if TYPE_CHECKING:
    from .results import Comparison, Ranking, Selection

COMPARE_KEYWORDS = ("bootstrap", "permutations", "ci_method", "seed", "coverage_check",
                    "public_fraction", "splits")


def _submissions(submissions, names):
    """(submissions, names): one dict {name: submission} or the submissions in order."""
    if len(submissions) == 1 and isinstance(submissions[0], dict):
        d = submissions[0]
        return list(d.values()), [str(k) for k in d]
    return list(submissions), names


def _load_all(sol, subs, options):
    """comparison.load_all over Sources: (names, reports, problems) with each invalid
    submission's problems, the solution's shared ones said once."""
    from ..analysis.comparison import load_all
    return load_all(sol, subs, options, names=[s.name for s in subs],
                    loader=lambda truth, sub, opts, cancel=None: load_pair(truth, sub, opts))


def _valid(sol, subs, options, need, what):
    from ..analysis.comparison import too_few
    names, reports, problems = _load_all(sol, subs, options)
    ok = [i for i, r in enumerate(reports) if r is not None]
    if len(ok) < need:
        raise refuse(*too_few(problems, what, need, len(subs)))
    skipped = {names[i]: problems[i] for i, r in enumerate(reports) if r is None}
    return [names[i] for i in ok], [reports[i] for i in ok], skipped


def compare(solution, *submissions, metric=None, names=None, competition=None, id_column=None,
            ci=None, groups=None, **options: Any) -> "Comparison":
    """Compare two or more submissions against one solution, as ``kmetric compare``.

    ``submissions``: two or more inputs (as ``km.score`` takes them), or one dict
    {name: input}; ``names``: their names otherwise (files: their file names).
    Keywords: ``ci`` (level), ``bootstrap``, ``permutations``, ``ci_method``, ``seed``,
    ``coverage_check``, ``public_fraction``, ``splits``, ``groups``, and the metric's
    options. ``to_dict()`` is `kmetric compare --json`'s object.
    """
    from ..errors import InputError
    from .results import Comparison
    from .settings import compare_settings
    subs, names = _submissions(submissions, names)
    kw = split_keywords(options, COMPARE_KEYWORDS)
    target, hib, ids = (options.pop(k, None) for k in ("target_column", "higher_is_better", "ids"))
    found = competition_options(competition)
    if found is not None:
        metric, options, id_column, target = found.apply(metric, options, id_column, target)
    copts = compare_settings(len(subs), ci=ci, **kw)
    sol, srcs = sources_of(solution, subs, ids, names)
    with metric_in_use(metric, [sol, *srcs], options, hib, id_column) as (name, own):
        sol, *srcs = readable(metric, [sol, *srcs])
        opts = make_options(name, id_column, target, own)
        try:
            if all(not s.in_memory for s in [sol, *srcs]) and name == metric and not names:
                cmp = _compare_files(sol, srcs, opts, copts, groups)
            else:
                valid, reports, skipped = _valid(sol, srcs, opts, 2, "compare")
                from ..analysis.comparison import compare_reports
                labels = group_labels(groups, reports[0].prepared, sol, opts)
                paths = [s.path for s in srcs if s.name in valid]
                cmp = compare_reports(valid, paths, reports, copts, groups=labels)
                cmp.skipped = skipped
            if cmp.submissions:
                check_given(opts, cmp.submissions[0].report.definition)
        except InputError as e:
            raise invalid(e) from None
        return Comparison(cmp)


def _compare_files(sol, srcs, opts, copts, groups):
    import os

    from ..analysis.comparison import compare_files
    column = groups if isinstance(groups, str) and not os.path.isfile(groups) else None
    path = os.fspath(groups) if groups is not None and column is None else None
    if groups is not None and not isinstance(groups, (str, os.PathLike)):
        raise refuse("groups: with files, give a solution column or a file of id,group rows")
    return compare_files(sol.path, [s.path for s in srcs], opts, copts, group_column=column,
                         groups_file=path)


def select(solution, *submissions, metric=None, pick=None, names=None, competition=None,
           id_column=None, ci=None, **options: Any) -> "Selection":
    """Which ``pick`` submissions to submit at the deadline, as ``kmetric select``: each
    candidate's score, interval and P(best), the set most likely to hold the best.
    Keywords: ``bootstrap``, ``seed``, ``draws`` (auto, exact, normal), the metric's
    options. ``to_dict()`` is `kmetric select --json`'s object."""
    from ..errors import InputError
    from .results import Selection
    from .settings import select_settings
    subs, names = _submissions(submissions, names)
    kw = split_keywords(options, ("bootstrap", "seed", "draws"))
    target, hib, ids = (options.pop(k, None) for k in ("target_column", "higher_is_better", "ids"))
    found = competition_options(competition)
    if found is not None:
        metric, options, id_column, target = found.apply(metric, options, id_column, target)
    sopts = select_settings(len(subs), pick=pick, ci=ci, **kw)
    sol, srcs = sources_of(solution, subs, ids, names)
    with metric_in_use(metric, [sol, *srcs], options, hib, id_column) as (name, own):
        sol, *srcs = readable(metric, [sol, *srcs])
        opts = make_options(name, id_column, target, own)
        try:
            if all(not s.in_memory for s in [sol, *srcs]) and name == metric and not names:
                from ..analysis.select import select_files
                adv = select_files(sol.path, [s.path for s in srcs], opts, sopts)
            else:
                from ..analysis.select import select_reports
                valid, reports, skipped = _valid(sol, srcs, opts, sopts.pick + 1,
                                                 f"picking {sopts.pick}")
                adv = select_reports(valid, reports, sopts)
                adv.skipped = skipped
            from ..metrics import REGISTRY
            check_given(opts, REGISTRY[adv.metric])
        except InputError as e:
            raise invalid(e) from None
        return Selection(adv)


def rank(solution, submission, leaderboard, *, metric=None, competition=None, id_column=None,
         correlation=None, simulations=None, seed=None, team=None, submission_time=None,
         **options: Any) -> "Ranking":
    """Where the submission may land on the private leaderboard, and its medal odds, as
    ``kmetric rank``. ``leaderboard``: Kaggle's public leaderboard download (a path), or
    a table of team and score columns (a DataFrame...). ``submission_time``: "first",
    "last" (the default) or a time, as ``--submission-time`` (equal scores go to the
    earlier submission). ``to_dict()`` is `kmetric rank --json`'s object."""
    from ..errors import InputError
    from .results import Ranking
    from .settings import rank_settings
    target, hib, ids = (options.pop(k, None) for k in ("target_column", "higher_is_better", "ids"))
    found = competition_options(competition)
    if found is not None:
        metric, options, id_column, target = found.apply(metric, options, id_column, target)
    ropts = rank_settings(correlation, simulations, seed, team, submission_time)
    board = _leaderboard(leaderboard)
    sol, (sub,) = sources_of(solution, [submission], ids)
    with metric_in_use(metric, [sol, sub], options, hib, id_column) as (name, own):
        sol, sub = readable(metric, [sol, sub])
        opts = make_options(name, id_column, target, own)
        try:
            from ..analysis.ranking import land
            from ..analysis.scoring import score_prepared
            report = score_prepared(load_pair(sol, sub, opts), opts)
            check_given(opts, report.definition)
            where = land(report, board, ropts)
        except InputError as e:
            raise invalid(e) from None
        return Ranking(where)


def _leaderboard(board):
    """analysis.ranking.Leaderboard of a path (read as `kmetric rank` reads it) or of a
    table in memory (written as CSV to a temporary file, then read the same way)."""
    import os
    import tempfile

    from ..analysis.ranking import read_leaderboard
    from ..errors import InputError
    from .inputs import is_path, to_table
    try:
        if is_path(board):
            return read_leaderboard(os.fspath(board))
        table, kind = to_table(board, "leaderboard")
        import pyarrow.csv as pacsv
        with tempfile.TemporaryDirectory(prefix="kmetric-api-") as folder:
            path = os.path.join(folder, "leaderboard.csv")
            pacsv.write_csv(table, path)
            got = read_leaderboard(path)
        return type(got)(f"({kind})", got.teams, got.scores)
    except InputError as e:
        raise invalid(e) from None


__all__ = ["compare", "select", "rank"]
