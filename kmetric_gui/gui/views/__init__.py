"""The GUI side of the metric registry: one anatomy view per metric.

Every view takes a ViewContext, has ``set_report(report, new_data)`` and may
emit the generic requests below; the tabs forward them, nobody branches on
a metric's name.
"""
from dataclasses import dataclass

from .fbeta_view import FbetaView
from .kappa_view import KappaView
from .lwlrap_view import LwlrapView

VIEWS = {
    "qwk": ("Kappa anatomy", KappaView),
    "lwlrap": ("LwLRAP anatomy", LwlrapView),
    "fbeta": ("F-beta anatomy", FbetaView),
}
REQUESTS = ("option_changed", "rows_requested", "transform_requested")


@dataclass(frozen=True)
class ViewContext:
    jobs: object          # gui.jobs.JobController
    session: object       # state.Session (read only: generations, current data)
