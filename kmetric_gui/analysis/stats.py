"""How sure is the score: bootstrap intervals and the Public/Private shake-up.

Works on a ``scoring.ScoreReport`` through its metric's ``units`` hook
(kmetric_gui/metrics), so nothing here depends on which metric it is.
Semantics: the resampling unit is the metric's (row, sample, document); see
docs/statistics.md.

    report = scoring.score_files(truth_path, submission_path)
    st = analyze(report, StatsOptions(level=0.95, replicates=2000, seed=0), ShakeupOptions())
    st.intervals["ci"].low, st.shakeup.summary()["p95"], st.to_json()   # JSON keys of DESIGN.md
"""
from dataclasses import dataclass, field, replace

import numpy as np


from ..core.calibrated import auto_method, calibrated_interval
from ..core.cautions import cautions, few_units_note, rescored_note
from ..core.coverage import (check_simulable, coverage_check, coverage_note, widened_note,
                             widened_tail)
from ..core.intervals import (CHOICES, Interval, bca_interval, check_level, no_interval,
                              percentile_interval)
from ..core.resample import MAX_REPLICATES, bootstrap, check_replicates
from ..core.shakeup import Shakeup, check_fraction, public_size
from ..core.studentised import studentised_interval
from ..core.shakeup import shakeup as simulate
from ..errors import InputError
from .grouping import check_groups, report_units
from ..core.words import plural

DEFAULT_FRACTION = 0.3     # Public share when the solution has no Usage column
SPLIT_NAMES = ("public", "private")


@dataclass(frozen=True)
class StatsOptions:
    """Bootstrap interval settings (``level`` None: no interval)."""
    level: "float | None" = 0.95
    replicates: int = 2000
    seed: int = 0
    method: str = "auto"       # auto | percentile | bca | calibrated (auto: per case, says which)
    coverage_check: int = 0    # simulated datasets of the coverage self-check (0: none)
    group_column: "str | None" = None   # the app's: solution column of row groups (the CLI reads its flags)

    def check(self):
        if self.level is not None:
            check_level(self.level)
        check_replicates(self.replicates)
        if self.method not in CHOICES:
            raise InputError(f"interval method must be one of {', '.join(CHOICES)}; got {self.method!r}")
        return self


@dataclass(frozen=True)
class ShakeupOptions:
    fraction: "float | None" = None   # None: the Usage column's Public share, else DEFAULT_FRACTION
    splits: int = 2000
    seed: int = 0

    def check(self):
        if self.fraction is not None:
            check_fraction(self.fraction)
        check_replicates(self.splits, "splits")
        return self


@dataclass
class Stats:
    """Everything ``analyze`` computed for one report."""
    options: "StatsOptions | None" = None
    intervals: dict = field(default_factory=dict)        # "ci", "public_ci", "private_ci" -> Interval
    class_intervals: "dict | None" = None               # class name -> Interval (per-class metrics)
    class_points: "dict | None" = None                  # class name -> score (nan: no positives)
    shakeup: "Shakeup | None" = None
    shakeup_problem: "str | None" = None                # why no shake-up (analyze(strict=False))

    def to_json(self):
        """The keys DESIGN.md adds to `kmetric score --json`."""
        out = {}
        seed = self.options.seed if self.options else None
        for key, iv in self.intervals.items():
            out[key] = iv.to_dict(seed)
        if self.class_intervals is not None:
            out["per_class_ci"] = {n: iv.to_dict(seed) for n, iv in self.class_intervals.items()}
        if self.shakeup is not None:
            out["shakeup"] = self.shakeup.to_dict()
        if self.shakeup_problem:
            out["shakeup_problem"] = self.shakeup_problem
        return out


def interval_of(units, level=0.95, replicates=2000, seed=0, method="auto", cancel=None,
                coverage=0, progress=None):
    """Interval of one score from its Units (core.resample.Units); ``method`` "auto"
    picks per case (core/calibrated.py) and the Interval's ``method`` says which.
    Cautions that the data shows (core/cautions.py: a heavy tail, a rare class, few
    units) are among its warnings.
    coverage: simulated datasets of a coverage self-check (core/coverage.py), 0 for none."""
    why = getattr(units, "overflow", None)
    if why:
        # Replicates that draw the huge rows overflow and the others do not: no summary of
        # them is honest, so there is none (the score says why it is undefined, if it is).
        return no_interval(level, method if method in CHOICES[1:] else "percentile", why)
    iv = _interval(units, level, replicates, seed, method, cancel)
    iv = replace(iv, notes=iv.notes + cautions(units, iv.method))
    if not coverage:
        return iv
    return with_coverage(iv, units, level, replicates, cancel, coverage, seed, progress)


def with_coverage(iv, units, level, replicates, cancel, coverage, seed=0, progress=None):
    """``iv`` with the coverage self-check of its method (core/coverage.py), or InputError
    when the data is too small for one. Where the tail is heavy the check runs twice,
    widened and from the sample alone, and measures their mid-point (the truth lay between
    the two on infinite-variance data: bench/coverage_check.py)."""
    check_simulable(units)

    def fn(u, k):
        return _interval(u, level, replicates, k, iv.method, cancel)

    def half(a):
        return None if progress is None else (lambda f, words: progress(a + f / 2, words))
    measured, sims, tail = coverage_check(units, fn, coverage, seed, cancel,
                                          half(0.0) if widened_tail(units) else progress)
    found = {"simulations": sims}
    if tail is not None:
        plain, _, _ = coverage_check(units, fn, coverage, seed, cancel, half(0.5), widen=False)
        found.update(widened=measured, sample_only=plain, widened_tail_index=float(tail.index))
        measured = (measured + plain) / 2.0
    found = {"measured": None if not np.isfinite(measured) else measured, **found}
    notes = tuple(x for x in (coverage_note(measured, sims, level),
                              widened_note(tail, found.get("widened"), found.get("sample_only")))
                  if x)
    return replace(iv, coverage=found, notes=iv.notes + notes)


def file_interval(values, level, n, kind="row"):
    """The interval of a score re-scored on resampled rows (a metric file, whose per-unit
    statistics are unknown): percentile, with the cautions that need no statistics."""
    iv = percentile_interval(values, level)
    notes = tuple(x for x in (few_units_note(n, kind), rescored_note(n, kind)) if x)
    return replace(iv, notes=iv.notes + notes)


def _interval(units, level, replicates, seed, method, cancel):
    if method == "auto":
        method = auto_method(units)[0] if units.n else "percentile"
    rank = hasattr(units, "replicates")       # a rank statistic draws its own rows
    if method == "score":
        found = units.score_interval(level) if hasattr(units, "score_interval") else None
        if found is not None:
            return found
        iv = _interval(units, level, replicates, seed, "percentile", cancel)
        return replace(iv, notes=iv.notes + ("the score interval is for one column of 0/1 "
                                             "truth and scores; this is the percentile one",))
    if method == "studentised" and units.n and not rank:
        return studentised_interval(units, level, replicates, seed, cancel)[0]
    reps = bootstrap(units, replicates, seed, cancel)
    if rank and method == "calibrated" and units.n:
        # Levels calibrated on the rank statistic's first-order additive form (its own
        # outer draws), read from the exact replicates.
        found = units.placement_units() if hasattr(units, "placement_units") else None
        if found is not None:
            return calibrated_interval(reps, found, level, seed, cancel=cancel)
    if rank and method in ("calibrated", "studentised"):
        # No additive sums to calibrate or studentise with.
        iv = percentile_interval(reps, level)
        return replace(iv, notes=iv.notes + (f"{method} needs additive statistics; this metric's "
                                             "interval is the percentile one",))
    if method == "bca":
        values, weights = units.jackknife() if units.n else (np.array([np.nan]), None)
        return bca_interval(reps, units.point() if units.n else np.nan, values, level, weights)
    if method == "calibrated":
        if not units.n:
            return replace(percentile_interval(reps, level), method="calibrated")
        return calibrated_interval(reps, units, level, seed, cancel=cancel)
    return percentile_interval(reps, level)


def score_intervals(report, options=StatsOptions(), cancel=None, groups=None, progress=None,
                    keys=None):
    """{"ci": overall, "public_ci", "private_ci" (with a Usage column)} -> Interval.
    groups: group label per solution row (grouping.read_groups): whole groups resampled.
    keys: only these intervals (the app's coverage check: "ci")."""
    o = options.check()
    out = {}
    for key, split in [("ci", "all")] + [(f"{s}_ci", s) for s in SPLIT_NAMES if s in report.splits]:
        if keys is not None and key not in keys:
            continue
        out[key] = split_interval(report, split, o, groups, cancel,
                                  o.coverage_check if key == "ci" else 0, progress)
    return out


def split_interval(report, split, o, groups=None, cancel=None, coverage=0, progress=None):
    """The Interval of one split's score ("all", "public", "private") under StatsOptions-like
    ``o`` (level, replicates, seed, method); whole groups resampled when ``groups``.
    Fewer than 2 groups: InputError for "all"; for a Usage side, no interval, said."""
    units = report_units(report, split, groups)
    if groups is not None:
        try:
            check_groups(units, split)
        except InputError as e:
            if split == "all":
                raise
            # One side of the Usage split in one group (e.g. the groups are the Usage
            # column): no interval for that side, said, while the others stand.
            nan = float("nan")
            return Interval(nan, nan, nan, o.level, o.method, 0, 0, (f"no interval: {e}",),
                            groups=units.n)
    iv = interval_of(units, o.level, o.replicates, o.seed, o.method, cancel, coverage, progress)
    return iv if groups is None else replace(iv, groups=units.n)


def class_intervals(report, options=StatsOptions(), cancel=None):
    """{class name: Interval} from the same draws as the overall interval, or None."""
    o = options.check()
    found = report.definition.class_units(report)
    if found is None:
        return None
    names, cu = found
    reps = cu.replicates(o.replicates, o.seed, cancel)
    points = cu.points()
    out = {}
    for c, name in enumerate(names):
        if o.method == "bca":
            values, weights = cu.jackknife(c)
            out[name] = bca_interval(reps[:, c], points[c], values, o.level, weights)
        else:
            out[name] = percentile_interval(reps[:, c], o.level)
    return out


def usage_counts(report):
    """(Public rows, Private rows) of the Usage column, or None without one."""
    usage = getattr(report.prepared, "usage", None)
    if usage is None or "public" not in report.splits:
        return None
    return int((usage == 0).sum()), int((usage == 1).sum())


def usage_fraction(report):
    """Public share of the scored units from the Usage column, or None without one."""
    found = usage_counts(report)
    if found is None or not sum(found):
        return None
    return found[0] / sum(found)


MIN_SIDE = 10     # units each side of a simulated split needs (fewer: mostly undefined)


def shakeup(report, options=ShakeupOptions(), cancel=None, groups=None):
    """Simulated Private - Public gaps over random splits of the scored units.

    With a Usage column the splits take its Public share and the actual gap is
    ranked among them; a different ``fraction`` is a separate simulation (the
    actual gap is shown, not ranked). A share leaving fewer than MIN_SIDE units
    on a side, or a Usage column without Public (or Private) rows and no
    fraction, is refused (InputError) rather than simulated.
    """
    o = options.check()
    units = report_units(report, "all", groups)
    kind = units.kind
    if units.n < 2:
        raise InputError(f"a shake-up needs at least 2 {plural(kind)} to split; this input has {units.n}")
    counts = usage_counts(report)
    actual = float("nan")
    if counts is not None:
        for side, c in zip(SPLIT_NAMES, counts):
            if c == 0 and o.fraction is None:
                raise InputError(f"the solution's Usage column has no {side.capitalize()} rows, so "
                                 f"there is no actual split to compare with; give "
                                 f"--public-fraction F to simulate splits at share F")
        if all(counts):
            actual = report.splits["private"].score - report.splits["public"].score
    f = o.fraction if o.fraction is not None else (usage_fraction(report) or DEFAULT_FRACTION)
    n = units.n
    k = public_size(n, f)
    if min(k, n - k) < MIN_SIDE:
        if n < 2 * MIN_SIDE:
            raise InputError(f"a shake-up needs at least {MIN_SIDE} {plural(kind)} on each side; this "
                             f"input has {n} {plural(kind)} in all")
        lo, hi = MIN_SIDE / n, 1 - MIN_SIDE / n
        raise InputError(f"a Public share of {f:g} puts {k} of {n} {plural(kind)} in Public and "
                         f"{n - k} in Private; each side needs at least {MIN_SIDE} {plural(kind)} for "
                         f"its score to be defined; use a share from {lo:.3g} to {hi:.3g}")
    usage_share = usage_fraction(report) if counts is not None and all(counts) else None
    own = counts is not None and (k == counts[0] if groups is None else
                                  abs(k / n - (usage_share or 0)) <= 0.5 / n)
    direction = bool(report.definition.higher_is_better)
    if usage_share is not None and not own:
        # Another share than the real split's: the actual gap is not one of these splits.
        sh = simulate(units, f, o.splits, o.seed, float("nan"), cancel)
        return replace(sh, actual_gap=actual, rankable=False, usage_fraction=usage_share,
                       higher_is_better=direction)
    sh = simulate(units, f, o.splits, o.seed, actual, cancel)
    return replace(sh, usage_fraction=usage_share, higher_is_better=direction)


def analyze(report, ci=None, shake=None, cancel=None, strict=False, groups=None):
    """Intervals (``ci``: StatsOptions) and shake-up (``shake``: ShakeupOptions) of a report.

    A shake-up that cannot be made (fewer than 2 units) raises InputError when
    ``strict`` (the CLI: exit 2); otherwise the intervals are kept and the
    reason is in ``Stats.shakeup_problem`` (the app).
    """
    st = Stats(options=ci)
    if ci is not None and ci.level is not None:
        st.intervals = score_intervals(report, ci, cancel, groups)
        if groups is None:      # per-class draws are of single samples
            st.class_intervals = class_intervals(report, ci, cancel)
        found = report.definition.class_units(report)
        if found is not None and groups is None:
            st.class_points = dict(zip(found[0], found[1].points().tolist()))
    if shake is not None:
        try:
            st.shakeup = shakeup(report, shake, cancel, groups)
        except InputError as e:
            if strict:
                raise
            st.shakeup_problem = str(e)
    return st


# -- human output ----------------------------------------------------------------


from .stats_text import (_decimals, compact_text, coverage_short, coverage_text,  # noqa: E402,F401
                         interval_text, shakeup_lines)

__all__ = ["StatsOptions", "ShakeupOptions", "Stats", "Interval", "Shakeup", "analyze",
           "interval_of", "score_intervals", "split_interval", "class_intervals", "shakeup", "usage_fraction",
           "interval_text", "coverage_text", "coverage_short", "compact_text", "shakeup_lines",
           "DEFAULT_FRACTION", "MAX_REPLICATES"]
