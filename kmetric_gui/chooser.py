"""How io asks the metric registry which metric a pair of files is for.

io reads and validates; metrics build on io. So io never imports metrics:
kmetric_gui.metrics hands its chooser over here when it is imported (scoring,
comparison, the CLI and the app import it before any file is read).
"""
_chooser = []


def provide(choose):
    """Called once by kmetric_gui.metrics with its choose_metric."""
    _chooser[:] = [choose]


def choose_metric(sub_targets, chosen=None, sample=None):
    """(metric, reason): see kmetric_gui.metrics.choose_metric. ``sample``: a
    (solution table, submission table, id column) tuple when the values are known."""
    if not _chooser:
        raise RuntimeError("no metric registry: import kmetric_gui.metrics (or kmetric_gui."
                           "scoring) before reading files")
    return _chooser[0](sub_targets, chosen, sample)
