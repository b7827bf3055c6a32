"""The one way a command prints JSON: strict (no NaN or Infinity, which JSON has not).

Fields that can be undefined carry ``null`` and their reason where they are made
(``undefined_reason``, an interval's ``warnings``); any non-finite number that
still reaches here is written as ``null`` rather than as invalid JSON.
"""
import json
import math


def finite(x):
    """``x`` with every non-finite float (and numpy scalar) made JSON's: null or a number."""
    if isinstance(x, bool) or x is None or isinstance(x, (str, int)):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [finite(v) for v in x]
    item = getattr(x, "item", None)          # numpy scalars
    if item is not None and getattr(x, "ndim", 1) == 0:
        return finite(item())
    return x


def dumps(d):
    """Strict JSON text of ``d`` (raises on anything JSON cannot hold but a number)."""
    return json.dumps(finite(d), allow_nan=False)
