"""The statistics core: numpy only (no pandas, no Qt, no I/O), and metric-agnostic.

Each metric's own numeric kernels live with it in ``kmetric_gui.metrics.kernels``;
the modules here take a metric's behaviour as a parameter and never name one.
Names are imported from their modules on first use (PEP 562): a plain score
never loads the bootstrap or attribution code.
"""
from ._lazy import lazy_names

# Modules named like one of their functions load now, so the function wins.
from .shakeup import Shakeup, shakeup  # noqa: E402

_WHERE = {
    "FixList": "attribution",
    "split_cell": "cells",
    "Interval": "intervals",
    "bca_interval": "intervals",
    "percentile_interval": "intervals",
    "Units": "resample",
    "bootstrap": "resample",
}


__getattr__, __dir__ = lazy_names(globals(), _WHERE)


__all__ = [
    "split_cell",
    # statistics (STATS.md): per-unit sums, bootstrap, intervals, shake-up
    "Units", "bootstrap", "Interval", "percentile_interval", "bca_interval", "Shakeup", "shakeup",
    # what moves the score: greedy fix-first lists
    "FixList",
]
