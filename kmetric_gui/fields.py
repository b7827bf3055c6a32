"""Names of a unit's editable fields, shared by io, metrics and state (imports nothing of
them): the neutral ground that keeps io -> metrics -> state free of import loops."""
from dataclasses import dataclass

FIELDS = ("truth", "pred")


@dataclass(frozen=True)
class FieldSpec:
    """An editable field of a unit: the truth or the prediction (``part``: class)."""
    name: str           # "truth" or "pred"
    part: "int | None" = None


def field_ndim(prep, name):
    """Dimensions of a field (1: a value a unit, 2: a row of classes or columns) without
    reading an edited report's arrays: edits never change a field's shape, so the file's
    data answers (a view asks on the UI thread, where nothing is computed)."""
    import numpy as np
    src = prep._version.base if isinstance(prep, LazyPrepared) else prep
    return np.ndim(getattr(src, name))


class LazyPrepared:
    """A report's data materialized only when something reads the arrays.

    An incremental rescore (a few edited cells) gives a new score in K x K work;
    copying million-row arrays for it would cost more than the score itself.
    ``version``: a state.data.DataVersion (``prepared()`` and ``base``).
    """

    def __init__(self, version):
        self._version = version

    def __getattr__(self, name):
        if name in FIELDS:
            return getattr(self._version.prepared(), name)
        return getattr(self._version.base, name)

    def __len__(self):
        return len(self._version.base)
