"""The GUI side of the metric registry: one anatomy view per metric, and the report's
plots of each; a metric without its own gets the generic view (score and interval,
what each unit costs) and no plots.

Every view takes a ViewContext, has ``set_report(report, new_data)`` and may
emit the generic requests below; the tabs forward them, nobody branches on
a metric's name. A metric module adds its view with ``register_view``, or names a
shared one by its ``view`` attribute (VIEW_KINDS).
"""
from dataclasses import dataclass

from .fbeta_view import FbetaView
from .generic_view import GenericView
from .kappa_view import KappaView
from .lwlrap_view import LwlrapView

VIEWS = {
    "qwk": ("Kappa anatomy", KappaView),
    "lwlrap": ("LwLRAP anatomy", LwlrapView),
    "fbeta": ("F-beta anatomy", FbetaView),
}
# Report plots: metric name -> (module of gui/views, function of a report entry).
REPORT_PLOTS = {
    "qwk": ("anatomy_plots", "kappa_plots"),
    "lwlrap": ("anatomy_plots", "lwlrap_plots"),
    "fbeta": ("anatomy_plots", "fbeta_plots"),
}
REQUESTS = ("option_changed", "rows_requested", "transform_requested")
# Views shared by several metrics, named by the metric's ``view`` (made on first use).
VIEW_KINDS = {
    "confusion": ("confusion_view", "ConfusionView"),
    "probabilities": ("roc_view", "RocView"),
    "residuals": ("residual_view", "ResidualView"),
    "ranking": ("ranking_view", "RankingView"),
    "correlation": ("correlation_view", "CorrelationView"),
    "values": ("values_view", "ValuesView"),
}


def register_view(name, title, cls, plots=None):
    """A metric's own view (and report plots: a function entry -> [(key, title, widget)])."""
    VIEWS[name] = (title, cls)
    if plots is not None:
        REPORT_PLOTS[name] = plots


# Masks and boxes (issue 38): one view of images, worst first, and the worst images' pictures.
from .images_view import ImagesView  # noqa: E402
for _name in ("dice", "iou", "iou_precision", "fbeta_iou", "pixel_fbeta", "map_iou", "point_f1"):
    register_view(_name, "Images", ImagesView, ("images_view", "image_plots"))


def view_entry(name):
    """(tab title, view class) of a metric: its own, else the generic view."""
    if name in VIEWS:
        return VIEWS[name]
    from ...metrics import get_metric
    metric = get_metric(name)
    kind = VIEW_KINDS.get(getattr(metric, "view", ""))
    if kind is None:
        return f"{metric.label} anatomy", GenericView
    import importlib
    return f"{metric.label} anatomy", getattr(importlib.import_module(f".{kind[0]}", __name__),
                                              kind[1])


def report_plots(entry):
    """The report's plots of the entry's metric: [(key, title, widget)]: its own, else the
    plots its anatomy view offers to export (every view kind, drawn without a window)."""
    found = REPORT_PLOTS.get(entry.report.metric)
    if found is None:
        from .anatomy_plots import view_plots
        return view_plots(entry, view_entry(entry.report.metric)[1])
    if callable(found):
        return found(entry)
    import importlib
    module = importlib.import_module(f".{found[0]}", __name__)
    return getattr(module, found[1])(entry)


def demos():
    """(metric name, words) of every registered metric with a demo, in registry order."""
    from ...metrics import REGISTRY
    return [(m.name, sentence(m.demo_label or m.label)) for m in REGISTRY.values() if m.demo_paths()]


def sentence(text):
    """'log loss (multi-class)' -> 'Log loss (multi-class)', as 'ROC AUC (binary)' beside
    it; a name cased on purpose ('mAP (boxes)') is kept."""
    word = text.split(" ", 1)[0]
    return text[:1].upper() + text[1:] if word.islower() and word.isalpha() else text


@dataclass(frozen=True)
class ViewContext:
    jobs: object          # gui.jobs.JobController
    session: object       # state.Session (read only: generations, current data)
