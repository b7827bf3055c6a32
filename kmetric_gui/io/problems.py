"""Validation problems: each names its file and the rows at fault; all are
collected before anything is reported."""
from dataclasses import dataclass

from ..errors import InputError

SHOW = 5  # ids or rows quoted per problem


@dataclass(frozen=True)
class Problem:
    file: str                 # "solution x.csv" / "submission y.csv"
    message: str
    rows: tuple = ()          # rows involved (0-based), in the file named by ``role``
    role: str = ""            # "solution" or "submission": the table ``rows`` index

    def __str__(self):
        return f"{self.file}: {self.message}"


class Collector:
    """Gathers every problem of a file pair; ``raise_if_any`` ends validation."""

    def __init__(self):
        self.problems = []
        self.notes = []               # Problems that do not stop scoring (said, then scored)
        self.extra_ids = "refuse"     # submission ids the solution lacks: "refuse" or "ignore"
        self.leave_out = None         # bool (n,): solution rows dropped once built (not scored)

    def add(self, file, message, rows=(), role=None):
        role = role or file.split(" ", 1)[0]
        self.problems.append(Problem(file, message, tuple(int(r) for r in list(rows)[:SHOW]), role))

    def raise_if_any(self):
        if self.problems:
            raise ValidationFailed(self.problems)


class ValidationFailed(InputError):
    """Every problem found in a file pair (``.report`` holds Problem objects)."""

    def __init__(self, problems, tables=None):
        self.report = list(problems)
        self.tables = tables or {}
        super().__init__(str(problems[0]), [str(p) for p in problems])


def quote(values):
    vals = list(values)
    shown = ", ".join(repr(str(v)) for v in vals[:SHOW])
    return shown + (", ..." if len(vals) > SHOW else "")


def names(values, limit=10, sep=", ", quoted=False):
    """Column names for a message: all of a short list; of a long one (a wide file's
    thousands of classes) the first few and how many there are."""
    vals = list(values)
    shown = [repr(str(v)) if quoted else str(v) for v in vals[:limit]]
    more = f"{sep}... ({len(vals):,} in all)" if len(vals) > limit else ""
    return sep.join(shown) + more


def column_hint(cols):
    joined = ",".join(cols)
    for d, name in ((";", "semicolon"), ("\t", "tab"), ("|", "pipe")):
        if len(cols) == 1 and d in joined:
            return f" (one column holding {name}s: is the delimiter '{d}'? Kaggle files use commas)"
    return ""
