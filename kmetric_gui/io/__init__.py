"""Reading, layout detection, validation and id alignment (pyarrow)."""
from .prepare import Prepared, prepare
from .problems import Problem, ValidationFailed
from .read import read_header, read_table

__all__ = ["read_table", "read_header", "prepare", "Prepared", "Problem", "ValidationFailed"]
