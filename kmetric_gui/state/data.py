"""Immutable versions of the aligned data, and the edits between them.

A version is the loaded data (``io.Prepared``, never written) plus an overlay
of edited cells. Making a version is O(edits), whatever the size of the
files; ``prepared()`` applies the overlay to copies of the edited fields
only, once per version, on whichever thread first asks (a job's worker).
"""
import threading
from dataclasses import dataclass, field, replace
from types import MappingProxyType

import numpy as np

from ..fields import FIELDS, FieldSpec


def freeze(prep):
    """The loaded arrays made read-only: a job may be reading them."""
    for name in FIELDS:
        arr = getattr(prep, name)
        if isinstance(arr, np.ndarray):
            arr.flags.writeable = False
    return prep


@dataclass(frozen=True)
class DataVersion:
    id: int                          # increases with every change (edit, undo, redo, load)
    base: object                     # io.Prepared, read-only
    overlay: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    _cache: dict = field(default_factory=dict, compare=False, repr=False)
    _lock: object = field(default_factory=threading.Lock, compare=False, repr=False)

    @property
    def metric(self):
        return self.base.metric

    def __len__(self):
        return len(self.base)

    def value(self, spec, unit):
        """One cell of a field: the edited value, or the file's."""
        key = (spec.name, int(unit), spec.part)
        if key in self.overlay:
            return self.overlay[key]
        arr = getattr(self.base, spec.name)
        return arr[unit] if spec.part is None else arr[unit, spec.part]

    def edited(self, spec, unit):
        return (spec.name, int(unit), spec.part) in self.overlay

    def prepared(self):
        """The data with every edit applied (arrays read-only; computed once)."""
        with self._lock:
            if "prep" not in self._cache:
                self._cache["prep"] = self._materialize()
            return self._cache["prep"]

    def _materialize(self):
        if not self.overlay:
            return self.base
        changes = {}
        for (name, unit, part), value in self.overlay.items():
            arr = changes.get(name)
            if arr is None:
                src = getattr(self.base, name)
                if isinstance(src, np.ndarray):
                    # int64 for integer fields: an edited rating must never overflow a narrow type
                    arr = src.astype(np.int64) if src.dtype.kind in "iub" else \
                        src.astype(_text_width(src, name, self.overlay)) if src.dtype.kind == "U" \
                        else src.copy()
                elif hasattr(src, "editable"):
                    arr = src.editable()     # coded text cells: no list of every document
                else:
                    arr = list(src)
                changes[name] = arr
            if part is None:
                arr[unit] = value
            else:
                arr[unit, part] = value
        return freeze(replace(self.base, **changes))


def _text_width(src, name, overlay):
    """A text array's type wide enough for its edited values (numpy cuts longer text)."""
    width = max([len(str(v)) for (n, _, _), v in overlay.items() if n == name] + [1])
    return np.result_type(src.dtype, np.dtype(f"U{width}"))


@dataclass(frozen=True)
class Change:
    """One step of the history: cells set to new values, or a whole field replaced."""
    label: str
    cells: tuple = ()                # ((name, unit, part), value) pairs
    field_name: "str | None" = None  # a whole field replaced (cut points, a blend)
    array: object = None


def apply(version, change, new_id):
    """The version after ``change`` (pure: the old version is untouched)."""
    if change.field_name is not None:
        base = freeze(replace(version.base, **{change.field_name: change.array}))
        kept = {k: v for k, v in version.overlay.items() if k[0] != change.field_name}
        return DataVersion(new_id, base, MappingProxyType(kept))
    over = dict(version.overlay)
    for key, value in change.cells:
        over[key] = value
    return DataVersion(new_id, version.base, MappingProxyType(over))


def cell_change(version, spec, unit, value, label):
    """A Change setting one cell, or None when the value is what it already is."""
    old = version.value(spec, unit)
    if _same(old, value):
        return None
    return Change(label, (((spec.name, int(unit), spec.part), value),))


def _same(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b)
    return a == b


__all__ = ["DataVersion", "Change", "FieldSpec", "apply", "cell_change", "freeze", "FIELDS"]
