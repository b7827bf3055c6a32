"""Which submission to choose: compare several submissions against one truth.

Every submission is read and validated against the truth like `kmetric
score` does (every problem of every file is collected); the valid ones are
scored and compared pairwise with the paired statistics of core/compare.py
(STATS.md, "Paired comparison"). Nothing here depends on which metric it is:
the metric module (kmetric_gui/metrics) supplies ``units``, ``paired``,
``differ`` and ``blend``.

    >>> cmp = compare_files("solution.csv", ["a.csv", "b.csv"], Options(), CompareOptions())
    >>> cmp.to_json()["pairs"][0]["delta"]
"""
import os
from dataclasses import dataclass, field, replace

import numpy as np

from ..core.compare import compare_pair
from ..core.intervals import CHOICES, METHODS, check_level
from ..core.resample import check_replicates
from ..errors import Cancelled, InputError
from .scoring import Options
from .submissions import (_check_layouts, _names, _noop, load_all,  # noqa: F401 (names kept)
                          problem_lines, too_few)
from .grouping import grouped_paired, read_groups
from .stats import DEFAULT_FRACTION, split_interval

SPLITS = ("public", "private")


@dataclass(frozen=True)
class CompareOptions:
    level: float = 0.95
    replicates: int = 2000           # paired bootstrap replicates (and each score's interval)
    permutations: int = 2000         # approximate randomisation test
    seed: int = 0
    method: str = "auto"             # the scores' intervals: auto, percentile, bca, calibrated
    public_fraction: "float | None" = None   # order flips: None -> the Usage share, else 0.3
    splits: int = 2000               # random Public/Private splits for the order flips
    blend: bool = True               # blend curves for score-like predictions
    alphas: "int | None" = None      # blend grid; None: the metric's (Metric.blend_points, else 101)
    coverage_check: int = 0          # simulated datasets of each score's coverage self-check

    def check(self):
        check_level(self.level)
        check_replicates(self.replicates)
        check_replicates(self.splits, "splits")
        if int(self.permutations) != self.permutations or not 0 <= self.permutations <= 1_000_000:
            raise InputError(f"permutations must be a whole number from 0 to 1,000,000; "
                             f"got {self.permutations}")
        if self.method not in CHOICES:
            raise InputError(f"interval method must be one of {', '.join(CHOICES)}; got {self.method!r}")
        if self.public_fraction is not None and not 0 < self.public_fraction < 1:
            raise InputError(f"public fraction must be between 0 and 1 (exclusive); "
                             f"got {self.public_fraction}")
        return self


@dataclass
class Submission:
    name: str                 # the file's name (made unique when two files share one)
    path: str
    report: object            # scoring.ScoreReport
    intervals: dict = field(default_factory=dict)   # "ci", "public_ci", "private_ci" -> Interval

    @property
    def score(self):
        return self.report.score

    def split_score(self, split):
        r = self.report.splits.get(split)
        return None if r is None else r.score


@dataclass
class Pair:
    a: int                    # index into Comparison.submissions
    b: int
    stats: object             # core.compare.PairStats over all scored units (delta = b - a)
    split_stats: dict = field(default_factory=dict)  # "public"/"private" -> PairStats (no permutations)
    differ: object = None     # kernels.differ object of the metric, or None
    blend: object = None      # core.blend.BlendCurve (alpha weighs A), or None
    same_file: bool = False
    blend_note: str = ""      # why there is no blend curve, in words


@dataclass
class Comparison:
    metric: str
    n_units: int
    unit: str                 # "row", "sample" or "document"
    submissions: list
    pairs: list
    options: CompareOptions
    warnings: list = field(default_factory=list)
    skipped: dict = field(default_factory=dict)     # file name -> its problems (not compared)
    public_fraction: "float | None" = None
    engine: object = None     # the core.compare engine over all scored units
    higher_is_better: bool = True   # the metric's direction ("better" in every pair)

    @property
    def best(self):
        """Index of the submission with the best score in the metric's direction, or None."""
        from ..metrics.base import best_index
        return best_index(self, [s.score for s in self.submissions])

    @property
    def problems(self):
        return problem_lines(self.skipped.values())

    def blend_prepared(self, pair, alpha):
        """A's aligned data with predictions alpha*A + (1-alpha)*B (the very floats the
        blend curve scored), for "Save blend as..."; InputError when the pair has no blend."""
        if pair.blend is None:
            raise InputError("these predictions cannot be blended (they are not scores)")
        alpha = float(alpha)
        if not 0 <= alpha <= 1:
            raise InputError(f"blend weight must be from 0 to 1; got {alpha}")
        rep = self.submissions[pair.a].report
        b = self.submissions[pair.b].report.prepared
        return replace(rep.prepared, pred=rep.definition.blend_prediction(rep.prepared, b.pred, alpha))

    def save_blend(self, pair, alpha, path):
        """Write the blend as a submission (atomic; ids and layout of A)."""
        from ..io.saving import csv_text, save_atomic
        prep = self.blend_prepared(pair, alpha)
        from ..io.shapes import as_written
        header, rows = as_written(prep, *self.submissions[pair.a].report.definition
                                  .submission_rows(prep))
        save_atomic(path, csv_text([header, *rows], spreadsheet=False))
        return prep

    def unit_rows(self, units):
        """Solution rows of unit positions (positions count scored units only)."""
        from ..metrics.base import split_rows
        rows = split_rows(self.submissions[0].report.prepared.usage)
        units = np.asarray(units, dtype=np.int64)
        return units if rows is None else rows[units]

    def cell_rows(self, pair, a, b):
        """Solution rows where A predicts code a and B code b (empty for an engine without cells)."""
        if not hasattr(self.engine, "cell_rows"):
            return np.zeros(0, dtype=np.int64)
        return self.unit_rows(self.engine.cell_rows(pair.a, pair.b, a, b))

    @property
    def ids(self):
        """Ids of the compared units, in the order of the per-unit arrays."""
        from ..metrics.base import split_rows, take
        prep = self.submissions[0].report.prepared
        return take(prep.ids, split_rows(prep.usage))

    def to_json(self):
        from .comparison_json import comparison_json
        return comparison_json(self)


def compare_reports(names, paths, reports, options=CompareOptions(), progress=None, cancel=None,
                    groups=None):
    """The comparison of two or more valid ScoreReports of one truth (the app passes its
    current reports; ``paths`` may hold None for data without a file). ``groups``: group
    label per solution row (grouping.read_groups): whole groups resampled, swapped, split."""
    progress, cancel = progress or _noop, cancel or _noop
    o = options.check()
    if len(reports) < 2:
        raise InputError(f"compare needs at least 2 valid submissions; got {len(reports)}")
    _check_same_truth(names, reports)
    metric = reports[0].definition
    subs = [Submission(n, p, r) for n, p, r in zip(names, paths, reports)]
    usage = reports[0].prepared.usage
    splits = [s for s in SPLITS if s in reports[0].splits]
    warnings = []
    for code, s in enumerate(SPLITS):
        if s in splits and not (usage == code).any():   # a Usage column without this side
            splits = [x for x in splits if x != s]
            warnings.append(f"the solution's Usage column has no {s.capitalize()} rows: no "
                            f"{s} scores or differences")
    rows_engine = metric.paired(reports, "all")       # where they differ: always by row
    if rows_engine.n < 1:
        raise InputError("there are no units to compare (no scored rows)")
    engines = {"all": rows_engine if groups is None else grouped_paired(reports, "all", groups)}
    n = engines["all"].n
    for s in splits:
        engines[s] = metric.paired(reports, s) if groups is None else grouped_paired(reports, s, groups)
    for k, sub in enumerate(subs):
        _tick(progress, cancel, 0.4 + 0.2 * k / len(subs), f"intervals of {sub.name}")
        for key, split in [("ci", "all")] + [(f"{s}_ci", s) for s in splits]:
            sub.intervals[key] = split_interval(sub.report, split, o, groups, cancel,
                                                o.coverage_check if key == "ci" else 0)
    fraction = o.public_fraction
    if fraction is None and usage is not None and splits:
        from ..metrics.base import public_share
        share = public_share(usage)
        fraction = share if share and share < 1 else None   # a Usage side empty: the default
    fraction = DEFAULT_FRACTION if fraction is None else fraction
    n_public = int(round(fraction * n))
    pairs = []
    todo = [(i, j) for i in range(len(subs)) for j in range(i + 1, len(subs))]
    for k, (i, j) in enumerate(todo):
        _tick(progress, cancel, 0.6 + 0.4 * k / len(todo), f"{subs[i].name} vs {subs[j].name}")
        # Differences: percentile unless BCa is asked (the calibrated form is for one score).
        kw = dict(level=o.level, replicates=o.replicates, seed=o.seed,
                  method=o.method if o.method in METHODS else "percentile",
                  higher_is_better=metric.higher_is_better)
        st = compare_pair(engines["all"], i, j, permutations=o.permutations, n_public=n_public,
                          splits=o.splits, **kw)
        split_stats = {s: compare_pair(engines[s], i, j, permutations=0, splits=0, **kw)
                       for s in splits}
        same = _same_file(paths[i], paths[j])
        if same:
            warnings.append(f"{subs[i].name} and {subs[j].name} are the same file: their "
                            "difference is 0")
        blend, note = None, ""
        if o.blend and not same:
            blend = blend_checked(metric, reports[i], reports[j], o)
            note = "" if blend is not None else metric.blend_why_not(reports[i], reports[j])
        elif same:
            note = "the same file: a blend of it with itself is itself"
        pairs.append(Pair(i, j, st, split_stats, metric.differ(reports[i], reports[j],
                                                               rows_engine, i, j), blend, same,
                          note))
    progress(1.0, "done")
    return Comparison(reports[0].metric, n, metric.unit if groups is None else "group", subs, pairs,
                      o, warnings, public_fraction=fraction, engine=rows_engine,
                      higher_is_better=bool(metric.higher_is_better))


def blend_checked(metric, report_a, report_b, o):
    """The blend curve of A and B over every scored row, its best alpha checked on held-out
    rows: fitted on Public and scored on Private (and the reverse), or on seeded random
    halves without a Usage column (core.blend.HeldOut). None when nothing blends."""
    from ..core.blend import held_out_checks
    from ..metrics.base import split_rows
    from .optimisers import _halves
    prep = report_a.prepared
    rows = split_rows(prep.usage)
    if prep.usage is not None and (prep.usage == 0).any() and (prep.usage == 1).any():
        parts, names = [split_rows(prep.usage, "public"), split_rows(prep.usage, "private")], \
            ("Public", "Private")
    else:
        idx = np.arange(len(prep)) if rows is None else rows
        first, second = _halves(idx.size, o.seed)
        parts, names = [idx[first], idx[second]], ("half 1", "half 2")
    points = o.alphas or metric.blend_points or 101
    curves = metric.blend_sets(report_a, report_b, np.linspace(0, 1, points), [None] + parts)
    if curves[0] is None:
        return None
    hib = metric.higher_is_better
    whole = curves[0].oriented(hib)
    if all(c is not None for c in curves[1:]) and min(len(p) for p in parts) > 0:
        whole = replace(whole, held_out=held_out_checks(
            [c.oriented(hib) for c in curves[1:]], names, hib))
    return whole


def _check_same_truth(names, reports):
    """Reports made elsewhere (the app) must share the metric, layout, rows and truth."""
    first, p0 = reports[0], reports[0].prepared
    for name, r in zip(names[1:], reports[1:]):
        p = r.prepared
        if r.metric != first.metric:
            raise InputError(f"{name}: its layout fits {r.metric}, but {names[0]} fits "
                             f"{first.metric}; compare like with like")
        if len(p) != len(p0) or list(p.classes) != list(p0.classes):
            raise InputError(f"{name}: its rows or class columns differ from {names[0]}'s")
        same = (np.array_equal(p.truth, p0.truth) if isinstance(p0.truth, np.ndarray)
                else p.truth == p0.truth)
        if not same or not _same_usage(p.usage, p0.usage):
            raise InputError(f"{name} was scored against another truth than {names[0]} (an "
                             "edited solution?): compare against one truth")


def _same_usage(u, v):
    return (u is None and v is None) or (u is not None and v is not None and np.array_equal(u, v))


def _same_file(p, q):
    if p is None or q is None:      # the app's unsaved data has no file
        return False
    try:
        return os.path.samefile(p, q)
    except OSError:
        return os.path.abspath(p) == os.path.abspath(q)


def _tick(progress, cancel, fraction, message):
    if cancel():
        raise Cancelled(message)
    progress(fraction, message)


def compare_files(truth_path, paths, options=Options(), compare=CompareOptions(), progress=None,
                  cancel=None, group_column=None, groups_file=None):
    """Read, validate, score and compare. InputError when fewer than 2 files are valid
    (its problems list every file's); else a Comparison whose ``skipped`` holds the
    invalid files' problems."""
    compare.check()
    if len(paths) < 2:
        raise InputError(f"compare needs at least 2 submissions; got {len(paths)}")
    names, reports, problems = load_all(truth_path, paths, options, progress, cancel)
    ok = [i for i, r in enumerate(reports) if r is not None]
    if len(ok) < 2:
        lines = too_few(problems, "compare", 2, len(paths))
        raise InputError(lines[0], lines)
    groups = None
    if group_column is not None or groups_file is not None:
        groups = read_groups(reports[ok[0]].prepared, truth_path=truth_path, column=group_column,
                             path=groups_file, max_inflated=options.max_inflated)
    cmp = compare_reports([names[i] for i in ok], [paths[i] for i in ok],
                          [reports[i] for i in ok], compare, progress, cancel, groups)
    cmp.skipped = {names[i]: problems[i] for i, r in enumerate(reports) if r is None}
    return cmp


__all__ = ["CompareOptions", "Comparison", "Submission", "Pair", "compare_files", "compare_reports",
           "load_all", "problem_lines", "too_few"]
