"""What a metric module provides, outside the numpy core: the metric contract.

One module per metric subclasses ``Metric`` and is registered with one line
in ``metrics/__init__.py`` (``register(MY_METRIC)``). Everything else (io,
scoring, CLI, app, reports) asks the registry; nothing branches on a name.

A metric declares:
  name, label, unit        registry key / --metric value, words, what is resampled
  higher_is_better         the direction every layer follows
  options                  metrics.schema.Option tuple: CLI flags, panel, JSON, projects
  detect / fit             why a layout is this metric's (metrics/detect.py)
  build, plan, score       aligned inputs, then the core result over some rows
  units                    per-unit additive statistics (bootstrap, shake-up, compare)
  reference                the score by an independent definition (conformance test)
  output hooks             json_fields, json_options, summary_lines, human_lines,
                           report_tables, submission_rows, table_columns, parse
  optional                 fixes, gains, fix_details, blend, differ, paired,
                           rescore_cells, honest, lean_load, class_units, edit_note,
                           edit_cells (what else an edit sets: KL keeps rows summing to 1),
                           json_costly (JSON fields a pass costs: left out of human output)
  analyses (defaults here; metrics.family_analyses.StatsAnalyses fills them from
  per-unit statistics for the family and additive metrics)
                           blend_sets (curves of several row sets at once: the held-out
                           halves), blend_prediction (the blended predictions shown or
                           saved), blend_why_not (words when nothing blends), fix_words
                           (what a fix is), fix_rows (the app's "fix this unit" edit)
  demo                     demo_label, demo_paths (resources/demo/<name>_*.csv)
Its view is registered in gui/views (``register_view``) or named by kind
(``view``); without one the app shows the generic view. metrics.additive.AdditiveMetric fills most of this for
metrics made of per-row statistics. tests/metrics/test_conformance.py holds
every registered metric to the contract.
"""
from dataclasses import dataclass, field

import numpy as np

from ..fields import FieldSpec  # noqa: F401 (re-exported: metric modules name fields)
from ..numbers import parse_number, parse_rating  # noqa: F401 (one grammar: files, CLI, edits)


@dataclass(frozen=True)
class Plan:
    """Inputs ready for scoring, shared by every split (all, Public, Private)."""
    truth: object
    pred: object
    params: dict = field(default_factory=dict)   # keyword arguments for the core call
    cuts: "np.ndarray | None" = None             # kappa: cut points of continuous predictions


class Metric:
    name = ""           # registry key and --metric value
    label = ""          # shown to users
    unit = "row"        # what Kaggle splits and the bootstrap resamples
    # Direction: which way a score is better. Every layer reads it (compare's
    # P(better) and star, the blend's best alpha, fix first's gains and order,
    # shake-up wording, JSON "higher_is_better"); nothing assumes "higher".
    higher_is_better = True
    # A metric of foreign code (a competition's metric file): its options are its own
    # arguments, under names of its own, never checked against other metrics'.
    foreign = False
    # Options schema (metrics.schema.Option): CLI flags, the app's panel, JSON,
    # project files and the report are made from it; values are read as
    # ``options.<name>`` (scoring.Options).
    options = ()
    # The app's demo: its words in the menu, and files resources/demo/<name>_solution.csv,
    # <name>_submission.csv (and <name>_submission_b.csv to compare).
    demo_label = ""
    demo_detected = True    # detection finds the demo's metric (else the app chooses it)
    ids_in_views = True  # the app's views index ids as Python strings (made on the worker)
    # The app's anatomy view of a kind shared by several metrics (gui/views VIEW_KINDS:
    # "confusion", "probabilities", "residuals", "ranking", "correlation"); "" for the metric's own
    # registered view, else the generic one.
    view = ""

    def demo_paths(self):
        """(solution, submission) paths of the metric's demo, or None without one."""
        from ..paths import resources_dir
        folder = resources_dir() / "demo"
        sol, sub = folder / f"{self.name}_solution.csv", folder / f"{self.name}_submission.csv"
        return (str(sol), str(sub)) if sol.is_file() and sub.is_file() else None

    # -- layout ------------------------------------------------------------------
    def detect(self, sub_targets):
        """Why this metric fits a submission's non-id columns (by their names), or None."""
        return None

    def fit(self, sub_targets, sample=None):
        """A metrics.detect.Fit (why, and whether the layout is clearly this metric's), or
        None. ``sample`` (metrics.detect.Sample: column kinds, ranges, 0/1 columns, rows
        summing to 1) is None when only the header is known (the fast readers). The
        default: ``detect`` by names, a clear fit."""
        from .detect import Fit
        reason = self.detect(sub_targets)
        return Fit(reason) if reason else None

    def lean_load(self, truth_path, submission_path, options, sol_name, sub_name, step):
        """The metric's fast reader (plain CSV pairs in pieces, a fraction of the memory):
        io.Prepared, or None for anything else and every invalid pair (the full read then
        names every problem). ``step(fraction, message)`` reports progress and raises
        Cancelled (``step.progress`` and ``step.cancel``: the caller's own). Default: none."""
        return None

    def build(self, ctx):
        """Validated, id-aligned ``io.Prepared`` from two tables (see io/prepare.py)."""
        raise NotImplementedError

    def solution_columns(self, options):
        """[(column, flag)] of the solution columns this metric's options name (a weights
        column, say): kept apart from the scored columns, checked to exist. Default: none."""
        return []

    def finish(self, prep, ctx):
        """The prepared data once built, completed from the options (metrics/variants.py
        reads weights, a mask, groups). Default: as built."""
        return prep

    # -- scoring -----------------------------------------------------------------
    def plan(self, prep, options):
        return Plan(prep.truth, prep.pred)

    def reference(self, prep, options, rows=None):
        """The score by an independent, plain definition (a loop, or a library such as
        scikit-learn imported here): the conformance test holds ``score`` to it.
        ``rows``: as in ``score``. Every registered metric gives one."""
        raise NotImplementedError(f"metric {self.name} declares no reference")

    def score(self, plan, rows, options, cancel):
        """Core result over ``rows`` (an index array, or None for every row)."""
        raise NotImplementedError

    def score_all(self, plan, row_sets, options, cancel):
        """{name: core result} of several row sets ({"all": rows, "public": ...}); the
        default scores them in turn, a metric that can batch them (a metric file's pool)
        does so."""
        return {name: self.score(plan, rows, options, cancel) for name, rows in row_sets.items()}

    def perfect(self, prep):
        """Predictions that score best, in ``prep.pred``'s shape: the conformance test
        holds the declared direction to them (a perfect submission never scores worse
        than another). Default: the truth itself (both files in one layout)."""
        return prep.truth

    # -- statistics (STATS.md) ---------------------------------------------------
    def units(self, result):
        """Per-unit additive statistics (``core.resample.Units``) of a core result."""
        raise NotImplementedError

    def unit_cells(self, report, split="all"):
        """When ``units`` are cells of identical units (stats None): the cell of each
        scored unit of ``split`` (for grouped rows, core/groups.py); else None."""
        return None

    def class_units(self, report):
        """(class names, ``kernels.units.ClassUnits``) for per-class intervals, or None."""
        return None

    # -- comparison of submissions (STATS.md, "Paired comparison") ----------------
    def paired(self, reports, split="all"):
        """Paired statistics (a core.compare engine) of reports on one truth and split."""
        from ..core.compare import UnitPairs
        units = [self.units(r.result if split == "all" else r.splits[split]) for r in reports]
        return UnitPairs([u.stats for u in units], units[0].score)

    def differ(self, report_a, report_b, engine, i, j):
        """Where two submissions differ (a kernels.differ object), or None."""
        return None

    def blend(self, report_a, report_b, alphas=None, rows=None):
        """Score of alpha*A + (1-alpha)*B (core.blend.BlendCurve) for score-like predictions, or
        None. The caller picks the best alpha in the metric's direction (BlendCurve.oriented).
        ``rows``: solution rows to score (None: every scored row)."""
        return None

    # Compare's blend grid: at most this many alphas (None: as many as asked; a
    # vectorised curve such as kappa's takes 101 at the cost of one).
    blend_points = None

    def blend_sets(self, report_a, report_b, alphas, row_sets):
        """The blend curve of each set of solution rows (None: every scored row): the
        whole and the held-out parts at once. Default: ``blend`` once per set."""
        return [self.blend(report_a, report_b, alphas, rows=r) for r in row_sets]

    def blend_prediction(self, prep_a, pred_b, alpha):
        """The predictions alpha*A + (1-alpha)*B as the curve scored them (to show or save)."""
        return alpha * np.asarray(prep_a.pred, np.float64) + (1 - alpha) * np.asarray(pred_b, np.float64)

    def blend_why_not(self, report_a, report_b):
        """Why two submissions have no blend curve, in words."""
        return f"{self.label} has no blend of these predictions"

    # What a fix does to a unit, in the metric's words (fix first's summary).
    fix_words = "prediction set to the truth"

    def fix_rows(self, prep, rows):
        """(field, new values): the app's edit fixing ``rows`` (what fix first counts)."""
        pred = np.array(prep.pred, copy=True)
        pred[rows] = np.asarray(prep.truth)[rows]
        return "pred", pred

    def rescore_cells(self, report, cells, old, new):
        """The report after a few edited cells, from its sufficient statistics, or None
        to score again from scratch. ``cells``: (field, unit, part) keys whose value
        differs between the data versions ``old`` (the report's) and ``new``. The family
        and additive metrics share one (metrics/_edits.py: each split's sums lose the
        units' old statistics and gain the new ones)."""
        return None

    def edit_cells(self, version, cells):
        """The cells an edit sets, from the typed ones ({(field, unit, part): value}) on the
        data version ``version``: those by default. A metric whose rows must keep a sum
        rescales the rest of each edited row; ValueError in words when it cannot."""
        return cells

    def edit_note(self, report, spec, value):
        """What an accepted edit changed beyond its cell (e.g. the rating range), or None."""
        return None

    # -- output ------------------------------------------------------------------
    def json_fields(self, report):
        return {}

    def json_options(self, report):
        """Settings in force beyond the declared options (JSON ``options``), e.g. cut points."""
        return {}

    def human_lines(self, report, fields):
        """Extra lines of `kmetric score` output (``fields``: the JSON object)."""
        return []

    def report_tables(self, entry):
        """{file name: (title, rows)} of the report's aggregate tables (report/build.py);
        ``entry``: the report's entry (``report``, ``stats``, ``fixes``). Default: none."""
        return {}

    def summary_lines(self, report):
        """Short HTML lines under the score in the app (counts, options in use)."""
        return []

    def submission_rows(self, prep):
        """(header, rows) of the submission as it stands, ids in solution order."""
        raise NotImplementedError

    # -- what moves the score (core/attribution.py) --------------------------------
    def fixes(self, report, rows, top):
        """FixList of the scored units (``rows``: as in ``score``) in greedy fix-first order.
        Gains are improvements in this metric's direction (core.attribution.as_fixlist,
        unit_fix_first and greedy_types take ``higher_is_better``)."""
        raise NotImplementedError

    def gains(self, report, rows):
        """Gains of single fixes for the app's views (the metric's own gains object)."""
        return None

    def fix_details(self, report, units, sol_rows):
        """What is wrong with each listed unit, in a few words (``units``: FixList units)."""
        return None

    def honest(self, report, rows, **kw):
        """optimisers.HonestReport of the metric's optimiser fitted on one part and scored
        on the other, or None when the metric has nothing to fit."""
        return None

    # -- the app's table and edits -----------------------------------------------
    def table_columns(self, prep):
        """Qt-free column specs (kmetric_gui.tables.Column) of the joined table. A metric
        on a shared layout gets them from ``prep.cells`` (metrics/_cells.py): one
        column per class or target, each editable through ``parse``."""
        return []

    def parse(self, spec, text, prep):
        """A typed value for an edited cell; ValueError with a reason in words."""
        raise ValueError("this cell cannot be edited")


def better(metric, a, b):
    """True when score ``a`` is strictly better than ``b`` for ``metric`` (nan is never better)."""
    if not (np.isfinite(a) and np.isfinite(b)):
        return bool(np.isfinite(a) and not np.isfinite(b))
    return a > b if metric.higher_is_better else a < b


def best_index(metric, scores):
    """Index of the best finite score in the metric's direction (the first of ties), or None."""
    best = None
    for i, s in enumerate(scores):
        if s is not None and np.isfinite(s) and (best is None or better(metric, s, scores[best])):
            best = i
    return best


def split_rows(usage, split="all"):
    """Rows of a split ("all": every scored row, i.e. not Ignored); None for every row.
    The one place that reads Usage codes (0 Public, 1 Private, 2 Ignored) into rows."""
    if usage is None:
        return None
    if split == "all":
        return np.flatnonzero(usage != 2) if (usage == 2).any() else None
    return np.flatnonzero(usage == ("public", "private").index(split))


def split_row_sets(usage):
    """{"all": rows, "public": rows, "private": rows} as scoring scores them (only "all",
    None for every row, without a Usage column)."""
    if usage is None:
        return {"all": None}
    return {name: split_rows(usage, name) for name in ("all", "public", "private")}


def public_share(usage):
    """Public's share of the Public and Private rows, or None (no Usage column or no rows)."""
    if usage is None:
        return None
    pub, priv = int((usage == 0).sum()), int((usage == 1).sum())
    return pub / (pub + priv) if pub + priv else None
def per_row(values, usage, fill):
    """Values of the scored rows (every row but Ignored ones) spread over all the
    table's rows, ``fill`` on Ignored rows: a table column as long as the table."""
    rows = split_rows(usage, "all")
    if rows is None:
        return values
    values = np.asarray(values)
    out = np.full((len(usage),) + values.shape[1:], fill, dtype=np.result_type(values, fill))
    out[rows] = values
    return out


def split_positions(usage, units, results):
    """For each result name ("all", "public", "private" as in ``results``): the edited
    units it scores, as (position among its units, index in ``units``). An Ignored
    unit is in none; positions count the split's units before it (O(units) each)."""
    out = {name: [] for name in results}
    if usage is None:
        out["all"] = [(int(u), k) for k, u in enumerate(units)]
        return out
    ignored = bool((usage == 2).any())
    for k, u in enumerate(units):
        code = int(usage[u])
        if code == 2:
            continue
        out["all"].append((int(np.count_nonzero(usage[:u] != 2)) if ignored else int(u), k))
        name = ("public", "private")[code]
        if name in out:
            out[name].append((int(np.count_nonzero(usage[:u] == code)), k))
    return out


def take(values, rows):
    """values[rows] for arrays and lists; the values themselves when rows is None."""
    if rows is None:
        return values
    if isinstance(values, np.ndarray):
        return values[rows]
    return [values[i] for i in rows]
