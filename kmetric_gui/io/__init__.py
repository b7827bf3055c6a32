"""Reading, layout detection, validation and id alignment (pandas/pyarrow)."""
from .prepare import METRICS, Prepared, Problem, ValidationFailed, prepare
from .read import read_header, read_table

__all__ = ["read_table", "read_header", "prepare", "Prepared", "Problem",
           "ValidationFailed", "METRICS"]
