"""What a metric module provides, outside the numpy core.

One module per metric subclasses ``Metric`` and is listed once in
``metrics/__init__.py``. Everything else (io, scoring, CLI, app) asks the
registry; nothing branches on a metric's name.
"""
from dataclasses import dataclass, field

import numpy as np

from ..numbers import parse_number, parse_rating  # noqa: F401 (one grammar: files, CLI, edits)


@dataclass(frozen=True)
class Plan:
    """Inputs ready for scoring, shared by every split (all, Public, Private)."""
    truth: object
    pred: object
    params: dict = field(default_factory=dict)   # keyword arguments for the core call
    cuts: "np.ndarray | None" = None             # kappa: cut points of continuous predictions


@dataclass(frozen=True)
class FieldSpec:
    """An editable field of a unit: the truth or the prediction (``part``: class)."""
    name: str           # "truth" or "pred"
    part: "int | None" = None


class Metric:
    name = ""           # registry key and CLI value: "qwk", "lwlrap", "fbeta"
    label = ""          # shown to users
    unit = "row"        # what Kaggle splits and the bootstrap resamples
    ids_in_views = True  # the app's views index ids as Python strings (made on the worker)

    # -- layout ------------------------------------------------------------------
    def detect(self, sub_targets):
        """Why this metric fits a submission's non-id columns, or None."""
        return None

    def build(self, ctx):
        """Validated, id-aligned ``io.Prepared`` from two tables (see io/prepare.py)."""
        raise NotImplementedError

    # -- scoring -----------------------------------------------------------------
    def plan(self, prep, options):
        return Plan(prep.truth, prep.pred)

    def score(self, plan, rows, options, cancel):
        """Core result over ``rows`` (an index array, or None for every row)."""
        raise NotImplementedError

    # -- statistics (STATS.md) ---------------------------------------------------
    def units(self, result):
        """Per-unit additive statistics (``core.resample.Units``) of a core result."""
        raise NotImplementedError

    def class_units(self, report):
        """(class names, ``core.units.ClassUnits``) for per-class intervals, or None."""
        return None

    # -- comparison of submissions (STATS.md, "Paired comparison") ----------------
    def paired(self, reports, split="all"):
        """Paired statistics (a core.compare engine) of reports on one truth and split."""
        from ..core.compare import UnitPairs
        units = [self.units(r.result if split == "all" else r.splits[split]) for r in reports]
        return UnitPairs([u.stats for u in units], units[0].score)

    def differ(self, report_a, report_b, engine, i, j):
        """Where two submissions differ (a core.differ object), or None."""
        return None

    def blend(self, report_a, report_b, alphas=None):
        """Score of alpha*A + (1-alpha)*B (core.blend.BlendCurve) for score-like predictions, or None."""
        return None

    def rescore_cells(self, report, cells, old, new):
        """The report after a few edited cells, from its sufficient statistics, or None
        to score again from scratch. ``cells``: (field, unit, part) keys whose value
        differs between the data versions ``old`` (the report's) and ``new``."""
        return None

    def edit_note(self, report, spec, value):
        """What an accepted edit changed beyond its cell (e.g. the rating range), or None."""
        return None

    # -- output ------------------------------------------------------------------
    def json_fields(self, report):
        return {}

    def human_lines(self, report, fields):
        """Extra lines of `kmetric score` output (``fields``: the JSON object)."""
        return []

    def summary_lines(self, report):
        """Short HTML lines under the score in the app (counts, options in use)."""
        return []

    def submission_rows(self, prep):
        """(header, rows) of the submission as it stands, ids in solution order."""
        raise NotImplementedError

    # -- what moves the score (core/attribution.py) --------------------------------
    def fixes(self, report, rows, top):
        """FixList of the scored units (``rows``: as in ``score``) in greedy fix-first order."""
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
        """Qt-free column specs (kmetric_gui.tables.Column) of the joined table."""
        return []

    def parse(self, spec, text, prep):
        """A typed value for an edited cell; ValueError with a reason in words."""
        raise ValueError("this cell cannot be edited")


def split_rows(usage, split="all"):
    """Rows of a split ("all": every scored row, i.e. not Ignored); None for every row."""
    if usage is None:
        return None
    if split == "all":
        return np.flatnonzero(usage != 2) if (usage == 2).any() else None
    return np.flatnonzero(usage == ("public", "private").index(split))


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
