"""Column specs of the app's tables, Qt-free (metric modules build them)."""
from dataclasses import dataclass, field


@dataclass
class Column:
    name: str
    values: object = None          # numpy array (or list) indexed by source row
    spec: object = None            # metrics.base.FieldSpec: read from the data, editable
    fmt: object = str              # value -> display text
    sort_key: object = None        # values -> numpy array for argsort
    tooltip: str = ""
    align_right: bool = False
    derived: object = None         # report -> values: refreshed after every score
    meta: dict = field(default_factory=dict)   # "short": a few words, never the spare width

    @property
    def editable(self):
        return self.spec is not None


class ArrowRows:
    """A string column read one row at a time from an Arrow array (the table's ids).

    A numpy array of Python strings costs about 70 bytes and 0.2 us a row to make
    (5M ids: 1.2 s of the app's load and 350 MB); the table reads only the
    rows in sight, and filters and sorts with Arrow's kernels on the array itself.
    """

    def __init__(self, arr):
        self.arr = arr

    def __len__(self):
        return len(self.arr)

    def __getitem__(self, row):
        return self.arr[int(row)].as_py()

    def __iter__(self):
        step = 100_000
        for a in range(0, len(self.arr), step):
            yield from self.arr.slice(a, step).to_pylist()

