"""The app's state model (Qt-free): data versions, edits, results, generations."""
from .data import Change, DataVersion
from .session import Generation, Results, Session, Snapshot, StatsResults, CompareResults

__all__ = ["Session", "Generation", "Results", "Snapshot", "StatsResults", "CompareResults",
           "DataVersion", "Change"]
