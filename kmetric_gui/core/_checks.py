"""Small validators shared by the metric modules (numpy only)."""
import numpy as np

from ..errors import InputError


def check_option(name, value, allowed):
    if value not in allowed:
        raise InputError(
            f"unknown {name} {value!r}; allowed: {', '.join(map(repr, allowed))}")
    return value


def as_numeric(values, what):
    """Return a 1-D or 2-D numeric array; text or objects are an InputError."""
    arr = np.asarray(values)
    if arr.dtype == bool:
        return arr.astype(np.int8)
    if arr.dtype.kind in "iuf":
        return arr
    if arr.dtype.kind == "O":
        try:
            return arr.astype(np.float64)
        except (TypeError, ValueError):
            pass
    bad = _first_non_number(arr.ravel())
    where = f" at position {bad[0]} (value {bad[1]!r})" if bad else ""
    raise InputError(f"{what} must be numbers; found {arr.dtype.name} data{where}")


def _first_non_number(flat):
    for i, v in enumerate(flat[:1_000_000]):
        try:
            float(v)
        except (TypeError, ValueError):
            return i, v
    return None


def position(index, shape):
    """Human-readable position of a flat index: 'row 3' or 'row 3, column 2'."""
    if len(shape) == 1:
        return f"position {int(index)}"
    r, c = np.unravel_index(int(index), shape)
    return f"row {int(r)}, column {int(c)}"


def check_finite(arr, what):
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr)
        if bad.any():
            i = int(np.flatnonzero(bad.ravel())[0])
            v = arr.ravel()[i]
            kind = "NaN" if np.isnan(v) else "an infinite value"
            raise InputError(
                f"{what} has {kind} at {position(i, arr.shape)} "
                f"({int(bad.sum())} such value(s) in all)")
    return arr
