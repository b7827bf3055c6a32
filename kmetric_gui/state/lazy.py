"""A report's data that is materialized only when something reads the arrays (the class
lives in kmetric_gui/fields.py, so metric modules use it without importing state)."""
from ..fields import LazyPrepared

__all__ = ["LazyPrepared"]
