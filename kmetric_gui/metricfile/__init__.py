"""A competition's own metric file (Kaggle's ``score(solution, submission,
row_id_column_name, **kwargs)``), run as Kaggle runs it, in a worker process.

The file's code never runs in the CLI's or the app's own process: ``runner``
starts a worker (``worker``) with time and memory limits, and ``kaggle``
holds the orchestration (aligned frames, Public/Private calls, error rules).
"""
from .source import MetricSource, load_source

__all__ = ["MetricSource", "load_source"]
