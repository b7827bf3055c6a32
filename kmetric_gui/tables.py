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
    meta: dict = field(default_factory=dict)

    @property
    def editable(self):
        return self.spec is not None
