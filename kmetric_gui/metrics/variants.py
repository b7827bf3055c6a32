"""Variants of the built-in metrics, declared once for every metric built on the shared
bases (metrics/_family.py ``FamilyMetric``, metrics/additive.py ``AdditiveMetric``):

* ``weights_column``: a solution column of row weights (>= 0). Every score here is
  a function of sums of per-row statistics that does not change when all sums are
  scaled (a mean, a root mean, a ratio of counts), so the weighted score is that
  function of the weighted sums: weighted log loss, accuracy, F1 (scikit-learn's
  ``sample_weight``), regression errors, MAP@K. AUC brings its own (weighted ranks);
* ``mask_column``: a solution column of 1/0 (true/false): only rows holding 1 are
  scored; the others are left out once read (every row is still checked);
* ``round``: predictions rounded to N decimals (0: whole numbers) before scoring,
  half to even as numpy rounds; the file keeps its values;
* ``group_by`` (+ ``group_transform``): the metric of each group of rows, then the
  mean over groups (log of each group's score first: CHAMPS's log-MAE by type).
  The unit stays the row: each row's statistics go to its group's block of
  columns, so a bootstrap of rows (and a Public/Private split) is exact.

The metric keeps its own result (``VariantResult.base``) for its views; JSON and the
summary say the variant's score and parts, not the plain metric's details.
"""
import functools
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..errors import InputError
from .base import take
from .variant_options import (FLAGS, VARIANT_NAMES, VARIANT_OPTIONS, declares,  # noqa: F401
                              option, with_variants)

# Expanded per-group statistics above this many values: the score only (no intervals).
MAX_GROUP_VALUES = 1 << 25
LOG_FLOOR = 1e-9


def solution_columns(metric, options):
    """[(column, flag)] of the solution columns the variants in force read."""
    out = []
    for name, flag in FLAGS.items():
        v = option(metric, options, name)
        if v:
            out.append((v, flag))
    return out


# -- scoring ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Variant:
    """What a variant changes, over the prepared rows (all of them, in solution order)."""
    weights: "np.ndarray | None"
    groups: "np.ndarray | None"
    group_names: tuple
    transform: str
    digits: "int | None"
    columns: dict = field(default_factory=dict)

    @property
    def active(self):
        """True when the score itself is not the plain metric's of the (rounded) rows."""
        return self.weights is not None or self.groups is not None or self.transform != "none"

    def words(self):
        parts = []
        if self.weights is not None:
            parts.append(f"weighted by '{self.columns.get('weights_column')}'")
        if self.groups is not None:
            how = "log of each group's score" if self.transform == "log" else "each group's score"
            parts.append(f"mean over groups of '{self.columns.get('group_by')}' ({how})")
        elif self.transform == "log":
            parts.append("log of the score")
        if self.columns.get("mask_column"):
            parts.append(f"rows where '{self.columns['mask_column']}' is 1")
        if self.digits is not None:
            parts.append(f"predictions rounded to {self.digits} decimal(s)")
        return "; ".join(parts)


def variant_of(metric, prep, options):
    """The Variant in force (None: the plain metric). InputError when the data were read
    for other variant columns (read the files again)."""
    have = getattr(prep, "variant_columns", {}) or {}
    for name in FLAGS:
        want = option(metric, options, name)
        if (want or None) != have.get(name):
            raise InputError(f"{FLAGS[name]} is {want or 'not set'} but the files were read "
                             f"with {have.get(name) or 'none'}: read them again")
    digits = option(metric, options, "round")
    transform = option(metric, options, "group_transform") or "none"
    rv = prep.row_values
    if digits is None and transform == "none" and not have:
        return None
    return Variant(rv.get("weights"), rv.get("groups"), tuple(getattr(prep, "group_names", ())),
                   transform, digits, dict(have))


def rounded(pred, digits):
    """Predictions rounded to ``digits`` decimals (numbers only); the same object if None."""
    if digits is None:
        return pred
    if not (isinstance(pred, np.ndarray) and pred.dtype.kind in "fiu"):
        raise InputError("--round: the predictions are not numbers")
    if pred.dtype.kind in "iu":
        return pred
    return np.round(pred, digits)


@dataclass(frozen=True)
class VariantResult:
    """The score of a variant, with per-row statistics that keep its analyses exact (made
    when the statistics layer first asks: the score needs only their sums)."""
    score: float
    undefined_reason: "str | None"
    base: object                      # the plain metric's result over the same rows
    make_stats: object                # () -> (n, m') statistics as scored, or None
    fn: object                        # sums (R, m') -> (R,)
    n: int
    variant: Variant
    group_scores: "np.ndarray | None" = None   # (G,) each group's score (before the transform)
    weight_total: "float | None" = None
    why_no_stats: "str | None" = None
    higher_is_better: bool = True

    @cached_property
    def stats(self):
        return None if self.make_stats is None else self.make_stats()

    def units(self):
        from ..core.resample import Units
        if self.stats is None:
            raise InputError(self.why_no_stats or "this variant has no per-row statistics")
        return Units(self.stats, self.fn, None, "row", mergeable=False)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(object.__getattribute__(self, "base"), name)


def transformed(values, transform):
    if transform == "log":
        with np.errstate(invalid="ignore"):
            return np.log(np.maximum(values, LOG_FLOOR))
    return values


def _group_fn(fn, m, g, transform):
    def score(sums):
        sums = np.asarray(sums, dtype=np.float64)
        r = sums.shape[0]
        with np.errstate(invalid="ignore", divide="ignore"):
            per = np.asarray(fn(sums.reshape(r * g, m)), np.float64).reshape(r, g)
        per = transformed(per, transform)
        ok = np.isfinite(per)
        total = np.where(ok, per, 0.0).sum(axis=1)
        count = ok.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(count > 0, total / np.maximum(count, 1), np.nan)
    return score


def weighted_sums(values, w, g, size):
    """Sums of per-row ``values`` (n,) or (n, m) weighted by ``w`` (None: 1): (m,), or
    (size, m) per group ``g`` (None: no groups). One pass a column; no (n, m) product."""
    v = np.asarray(values, dtype=np.float64)
    v = v.reshape(v.shape[0], -1)
    if g is None:
        return v.sum(axis=0) if w is None else np.einsum("i,ij->j", w, v)
    out = np.zeros((size, v.shape[1]))
    for j in range(v.shape[1]):
        col = v[:, j] if w is None else v[:, j] * w
        out[:, j] = np.bincount(g, weights=col, minlength=size)
    return out


def mean_sums(q, w, g, size):
    """Sums (2,) or (size, 2) of [q, 1] weighted: the statistics of a mean (or root mean)
    of one number a row, in one pass over q (no (n, 2) array)."""
    q = np.asarray(q)
    if g is None:
        if w is None:
            return np.array([float(np.add.reduce(q, dtype=np.float64)), float(q.size)])
        if q.dtype == np.bool_:
            return np.array([float(np.add.reduce(w, where=q)), float(w.sum())])
        return np.array([float(np.einsum("i,i->", w, q)), float(w.sum())])
    qw = q.astype(np.float64) if w is None else (w * q if q.dtype != np.bool_ else np.where(q, w, 0.0))
    return np.column_stack([np.bincount(g, weights=qw, minlength=size),
                            np.bincount(g, weights=w, minlength=size).astype(np.float64)])


def apply(variant, rows, higher_is_better, base, source, fast=None):
    """VariantResult over solution ``rows`` (None: all) from the plain result ``base``.

    ``source()``: (stats (n, m), fn) the plain metric's per-row statistics and the score
    of their sums; ``fast(w, g, size)``: (sums, fn) without making them ((m,), or per
    group (size, m)), or None. The statistics are made only when asked for."""
    w = take(variant.weights, rows) if variant.weights is not None else None
    g = take(variant.groups, rows) if variant.groups is not None else None
    n = int(len(w) if w is not None else len(g) if g is not None else base_rows(base))
    size = max(len(variant.group_names), int(g.max()) + 1 if g is not None and n else 0, 1)
    got = fast(w, g, size) if fast is not None else None
    if got is None:
        stats, fn = source()
        sums = weighted_sums(stats, w, g, size)
    else:
        sums, fn = got
        stats = None
    m = sums.shape[-1]
    wt = float(w.sum()) if w is not None else None

    def make():
        s = stats if stats is not None else source()[0]
        s = np.asarray(s, dtype=np.float64).reshape(n, -1)
        if w is not None:
            s = s * w[:, None]
        if g is None:
            return s
        wide = np.zeros((n, size * m))
        wide[np.arange(n)[:, None], g[:, None] * m + np.arange(m)] = s
        return wide
    if g is None:
        f = fn if variant.transform == "none" else \
            (lambda s, fn=fn: transformed(np.asarray(fn(s), np.float64), variant.transform))
        score = float(f(np.asarray(sums, np.float64)[None, :])[0]) if n else float("nan")
        return _result(score, n, base, make, f, variant, None, wt, None, higher_is_better)
    f = _group_fn(fn, m, size, variant.transform)
    with np.errstate(invalid="ignore", divide="ignore"):
        per = np.asarray(fn(sums), np.float64)
    score = float(f(sums.reshape(1, -1))[0]) if n else float("nan")
    if n * size * m > MAX_GROUP_VALUES:
        why = (f"intervals, comparisons, blends and fix first of a per-group mean take "
               f"{n:,} rows x {size:,} groups x {m} statistics: too many; the score is exact")
        return _result(score, n, base, None, f, variant, per, wt, why, higher_is_better)
    return _result(score, n, base, make, f, variant, per, wt, None, higher_is_better)


def base_rows(base):
    n = getattr(base, "n", None)
    return int(n) if n is not None else 0


def _result(score, n, base, make, fn, variant, per, wt, why, hib):
    reason = None if np.isfinite(score) else ("no rows to score" if n == 0 else
                                              getattr(base, "undefined_reason", None)
                                              or "undefined for these rows")
    return VariantResult(score, reason, base, make, fn, n, variant, per, wt, why, hib)


# -- output ----------------------------------------------------------------------------

def variant_fields(metric, report):
    """JSON of a variant's score: what it is and its parts (per-group scores)."""
    r = report.result
    v = r.variant
    out = {"higher_is_better": bool(metric.higher_is_better),
           "variant": {"what": v.words(), **{k: c for k, c in v.columns.items()}}}
    if v.digits is not None:
        out["variant"]["round"] = v.digits
    if r.weight_total is not None:
        out["variant"]["weight_total"] = r.weight_total
    if r.group_scores is not None:
        names = list(v.group_names) or [str(i) for i in range(len(r.group_scores))]
        out["variant"]["transform"] = v.transform
        out["group_scores"] = {str(k): (None if not np.isfinite(s) else float(s))
                               for k, s in zip(names, r.group_scores.tolist())}
    return out


def variant_lines(metric, report):
    r = report.result
    word = "higher" if metric.higher_is_better else "lower"
    lines = [f"{r.n:,} rows; {word} is better", r.variant.words()]
    if r.group_scores is not None:
        names = list(r.variant.group_names)
        shown = ", ".join(f"{n}: {s:.4g}" for n, s in zip(names[:8], r.group_scores.tolist()))
        lines.append(f"groups ({len(names)}): {shown}{', ...' if len(names) > 8 else ''}")
    return lines


def variant_human(metric, report, fields):
    r = report.result
    out = [f"variant: {r.variant.words()}"]
    if r.group_scores is not None:
        names = list(r.variant.group_names)
        for n, s in list(zip(names, r.group_scores.tolist()))[:20]:
            out.append(f"  group {n}: {s:.6f}")
        if len(names) > 20:
            out.append(f"  ... ({len(names)} groups)")
    return out


def plain_only(fn, kind):
    """Wrap a metric's output hook: a variant's result gets the variant's output (the
    plain metric's details would describe another score)."""
    if getattr(fn, "_variant_aware", False):
        return fn

    @functools.wraps(fn)
    def hook(self, report, *args):
        if isinstance(getattr(report, "result", None), VariantResult):
            if kind == "json_fields":
                return variant_fields(self, report)
            if kind == "summary_lines":
                return variant_lines(self, report)
            if kind == "human_lines":
                return variant_human(self, report, *args)
            return {}
        return fn(self, report, *args)
    hook._variant_aware = True
    return hook


OUTPUT_HOOKS = ("json_fields", "summary_lines", "human_lines", "json_costly")


def declare(cls):
    """Give a metric class its variant options and variant-aware output hooks (called
    from the shared bases' ``__init_subclass__``). A class scoring in its own ``score``
    without saying which variants it honours (``variants``) gets none: an option it
    would not honour is not declared."""
    if "score" in cls.__dict__ and "variants" not in cls.__dict__:
        cls.variants = ()
    cls.options = with_variants(cls.options, cls.variants)
    for name in OUTPUT_HOOKS:
        fn = cls.__dict__.get(name)
        if fn is not None:
            setattr(cls, name, plain_only(fn, name))


class VariantHooks:
    """The variants' hooks of a metric class (mixed into the shared bases): options,
    the columns read, the Variant in force."""
    # The variants this metric honours: their options are added to ``options``. A metric
    # whose score is not a function of per-row statistics leaves out what it cannot honour.
    variants = VARIANT_NAMES

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        declare(cls)

    def solution_columns(self, options):
        return solution_columns(self, options)

    def finish(self, prep, ctx):
        from .variant_columns import read_columns
        return read_columns(self, prep, ctx)

    def variant(self, report_or_prep, options=None):
        """The Variant in force for a report (or prepared data and options), or None."""
        prep = getattr(report_or_prep, "prepared", report_or_prep)
        return variant_of(self, prep, options if options is not None else report_or_prep.options)
