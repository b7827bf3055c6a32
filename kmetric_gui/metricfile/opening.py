"""Opening a metric file for a run: its worker (processes, limits) and its direction
(the flag, else the file's declaration). Apart from kaggle.py so that metric.FileMetric,
which kaggle.py builds, needs nothing of it."""
import importlib.util

from ..errors import InputError
from .runner import Limits, MetricWorker
from .source import load_source


def direction(info, flag, file_name):
    """higher_is_better from the flag, else the file's declaration; an error if neither."""
    declared = info.get("higher_is_better")
    if flag is not None:
        return flag
    if declared is not None:
        return declared
    raise InputError(f"metric file {file_name} does not say whether a higher or a lower score is "
                     "better: add --higher-is-better or --lower-is-better")


def open_worker(metric_file, paths, id_column=None, timeout=None, memory_gb=None, workers=1,
                executor="local", limits=None):
    """A MetricWorker of the file; ``limits`` (a runner.Limits: time, memory, another
    Python, the sandbox mode) replaces ``timeout`` and ``memory_gb``."""
    source = load_source(metric_file)
    own = limits is None or limits.python is None
    if own and importlib.util.find_spec("pandas") is None:
        raise InputError(f"metric file {source.name}: metric files take pandas DataFrames, and pandas is "
                         "not installed here: pip install 'kmetric_gui[metricfile]' (or pip install pandas)")
    if limits is None:
        limits = Limits(timeout if timeout is not None else Limits().timeout, memory_gb)
    return MetricWorker(source, paths, id_column, limits, workers, executor=executor)
