"""An edit rescored from the result's sufficient statistics (the family and additive
metrics share this; kappa, LwLRAP and F-beta have their own).

A few edited units (rows, queries) change the sums of each split they are in (all
scored rows, and Public or Private): the split's statistics lose the units' old
values and gain the new ones, and the score is a function of the sums. Work is
O(edited units), whatever the size of the data, so the score, Public and
Private follow an edit at once. The per-row details of a result (what
intervals, the anatomy, fix first and compare read) are those of the edited
data, made on first use on the worker that asks (``EditedResult``,
``LazyInputs``), never on the edit's path.

``rescore_splits`` drives it: it reads the edited units' old and new values,
finds their splits, and asks the metric for each split's new result
(``update``); ``Unfit`` anywhere means "score again from scratch".
"""
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..fields import FieldSpec, LazyPrepared
from .base import split_rows

MAX_UNITS = 1000          # more edited units at once (a paste): the full rescore
MAX_TOUCHED = 5000        # more edited units in the data's history: the full rescore


class Unfit(Exception):
    """This edit cannot be rescored from the statistics (the full path decides)."""


class EditedResult:
    """A core result after a few edited units: ``fields`` (the score, the counts the app
    shows) are exact at once; any other field is the full result's, computed from the
    edited data on first use (``full()``, once, on whichever thread asks first)."""

    def __init__(self, fields, state, full):
        self.__dict__.update(_fields=dict(fields), state=state, _full=full, _made=None,
                             _lock=threading.Lock())

    @property
    def made(self):
        """Whether the full result was computed (tests: never on an edit's path)."""
        return self._made is not None

    def full_result(self):
        with self._lock:
            if self._made is None:
                self.__dict__["_made"] = self._full()
            return self._made

    def __getattr__(self, name):
        fields = self.__dict__.get("_fields", {})
        if name in fields:
            return fields[name]
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.full_result(), name)

    def __repr__(self):
        return f"EditedResult(score={self._fields.get('score')!r})"


class LazyInputs(Sequence):
    """(truth, predictions) of a split of a data version, read on first use (a result's
    ``data``: the inputs as given, for the statistics that resample them)."""

    def __init__(self, version, split):
        self._version, self._split, self._made = version, split, None
        self._lock = threading.Lock()

    def _pair(self):
        with self._lock:
            if self._made is None:
                from .base import take
                prep = self._version.prepared()
                rows = split_rows(prep.usage, self._split)
                self._made = (take(prep.truth, rows), take(prep.pred, rows))
            return self._made

    def __len__(self):
        return 2

    def __getitem__(self, i):
        return self._pair()[i]


def field_rows(version, name, units):
    """The values of field ``name`` at ``units`` in a data version (edits applied as
    ``DataVersion.prepared`` applies them), shaped like the field: an array of the
    units' values or rows, or a list. Unfit when a row was edited both whole and
    by part (the order of the two would matter)."""
    base = getattr(version.base, name)
    whole = FieldSpec(name)
    if not isinstance(base, np.ndarray):
        return [version.value(whole, u) for u in units]
    if base.ndim == 1:
        values = [version.value(whole, u) for u in units]
        return np.array(values) if base.dtype.kind == "U" else np.array(values, dtype=base.dtype)
    rows = np.empty((len(units),) + base.shape[1:], dtype=base.dtype)
    for k, u in enumerate(units):
        parts = [j for j in range(base.shape[1]) if version.edited(FieldSpec(name, j), u)]
        if parts and version.edited(whole, u):
            raise Unfit("a row edited whole and by class")
        try:
            rows[k] = version.value(whole, u)
            for j in parts:
                rows[k, j] = version.value(FieldSpec(name, j), u)
        except (TypeError, ValueError):
            raise Unfit("a value of another shape") from None
    return rows


def pick(values, at):
    """values at positions ``at`` (arrays and lists)."""
    if isinstance(values, np.ndarray):
        return values[np.asarray(at, dtype=np.int64)]
    return [values[k] for k in at]


def split_membership(usage, units, names):
    """{split name: positions in ``units`` of the units it scores}, for the splits in
    ``names`` ("all", "public", "private"); an Ignored unit is in none. O(units)."""
    out = {name: [] for name in names}
    for k, u in enumerate(units):
        code = 0 if usage is None else int(usage[u])
        if usage is not None and code == 2:
            continue
        out["all"].append(k)
        if usage is not None:
            split = ("public", "private")[code]
            if split in out:
                out[split].append(k)
    return out


def edited_units(cells):
    return sorted({int(u) for _, u, _ in cells})


@dataclass(frozen=True)
class SplitEdit:
    """What a split's update gets: the split, its edited units (rows of the data) and
    their (truth, pred) before and after, both data versions, and ``full()``: the
    split's result scored from scratch on the new data."""
    name: str
    units: list
    before: tuple
    after: tuple
    old: object
    new: object
    full: object


def rescore_splits(metric, report, cells, old, new, update):
    """The report for data ``new`` from ``report`` (of data ``old``) and the ``cells``
    that differ, or None: ``update(result, edit)`` gives a split's new result from its
    old one and a SplitEdit; it raises Unfit to give up."""
    units = edited_units(cells)
    if not units:                        # the same values (an edit undone before it was scored)
        return replace(report, prepared=LazyPrepared(new))
    if len(units) > MAX_UNITS:
        return None
    try:
        before = (field_rows(old, "truth", units), field_rows(old, "pred", units))
        after = (field_rows(new, "truth", units), field_rows(new, "pred", units))
        results = {"all": report.result, **report.splits}
        member = split_membership(old.base.usage, units, results)
        out = {}
        for name, result in results.items():
            at = member[name]
            if not at:
                out[name] = result          # none of its units changed
                continue
            edit = SplitEdit(name, [units[k] for k in at], tuple(pick(v, at) for v in before),
                             tuple(pick(v, at) for v in after), old, new,
                             full_score(metric, new, report.options, name))
            out[name] = update(result, edit)
    except Unfit:
        return None
    return replace(report, result=out.pop("all"), splits=out, prepared=LazyPrepared(new))


def full_score(metric, version, options, split):
    """A thunk: the split's result scored from scratch on the data version."""
    def made():
        prep = version.prepared()
        return metric.score(metric.plan(prep, options), split_rows(prep.usage, split), options,
                            lambda: False)
    return made


class EditedDetail(Mapping):
    """An edited result's ``detail``: its counts and settings known at once (``known``),
    any other entry (a per-row array) the full result's, made on first use."""

    def __init__(self, known, full):
        self.known, self._full = known, full

    def __getitem__(self, key):
        if key in self.known:
            return self.known[key]
        return self._full().detail[key]

    def __iter__(self):
        return iter(self._full().detail)

    def __len__(self):
        return len(self._full().detail)


def edited_detail(result, r0, r1, full):
    """The ``detail`` of ``result`` after its units went from result ``r0`` to ``r1``:
    whole-number entries add over units (counts; a setting such as k or the number of
    classes is itself again), other numbers, words and flags are settings kept;
    arrays are left to the full result."""
    old = getattr(result, "detail", None)
    old = old.known if isinstance(old, EditedDetail) else old
    if not isinstance(old, Mapping) or r0 is None or r1 is None:
        raise Unfit("no detail to follow")
    known = {}
    for key, v in old.items():
        if isinstance(v, (bool, np.bool_, str, float, np.floating)):
            known[key] = v
        elif isinstance(v, (int, np.integer)):
            a, b = r0.detail.get(key), r1.detail.get(key)
            if isinstance(a, (int, np.integer)) and isinstance(b, (int, np.integer)):
                known[key] = int(v) - int(a) + int(b)
    return EditedDetail(known, full)


def split_fields(version, split):
    """(truth, pred) arrays of a split of a data version, its edits applied, without
    making (or keeping) the version's whole Prepared: for a metric that scores an
    edit again from scratch (the rank correlations). O(rows + edits)."""
    from .base import take
    base = version.base
    rows = split_rows(base.usage, split)
    out = []
    for name in ("truth", "pred"):
        src = getattr(base, name)
        if not isinstance(src, np.ndarray) or src.dtype.kind not in "fiu":
            raise Unfit("not an array of numbers")
        arr = np.array(take(src, rows), dtype=np.float64)
        for (field, unit, part), value in version.overlay.items():
            if field != name:
                continue
            at = unit if rows is None else int(np.searchsorted(rows, unit))
            if rows is not None and (at >= rows.size or rows[at] != unit):
                continue                       # a row of another split
            if part is None:
                arr[at] = value
            else:
                arr[at, part] = value
        out.append(arr)
    return tuple(out)


def checked_state(result, state, score_fn):
    """``state`` derived from a plain result, if it gives back the result's score (a guard
    on the derivation: a metric whose statistics are not what it says is scored again)."""
    if state is None:
        raise Unfit("no statistics")
    state = np.asarray(state, dtype=np.float64)
    got, want = float(score_fn(state[None, :])[0]), float(result.score)
    if not (np.isfinite(got) and np.isfinite(want)) or abs(got - want) > 1e-9 * max(1.0, abs(want)):
        raise Unfit("statistics do not give the score")
    return state
