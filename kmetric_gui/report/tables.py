"""The metric's aggregate tables for a report (rows, header first; no Qt): each metric
module gives its own (``Metric.report_tables``); this asks it."""
from ..core.shakeup import histogram  # noqa: F401 (one binning for the app and the report)


def metric_tables(entry):
    """{file name: (title, rows)} of the entry's metric (empty for a metric without tables)."""
    return entry.report.definition.report_tables(entry)
