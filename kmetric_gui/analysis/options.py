"""What to score and how: the common settings and the metric's own options.

The common settings (which metric, the id and target columns, the app's
continuous ratings, the inflated-size limit) are fields; every other option
belongs to a metric and is declared once in its module (``Metric.options``,
metrics/schema.py). Whatever the source — a flag, a project file, the app's
panel — a value is checked against its declaration when an ``Options`` is
made, so a value in force is always a valid one. With a metric chosen, only
its own options may be given; with the metric left to the layout (``metric``
None), any registered metric's options may, and the detected metric reads its
own. Two metrics share an option name only with one meaning (``register``
refuses another), so a value or a default never means two things.

An option read as an attribute (``options.beta``) gives its value, else its
declared default. Values equal to their default are not kept, so two options
objects that score alike compare equal.
"""
from dataclasses import asdict, dataclass

from ..metrics.schema import Option

COMMON = (
    Option("metric", str, None, help="the metric (default: chosen from the files' layout)"),
    Option("id_column", str, None, help="the id column (default: the submission's first)"),
    Option("target_column", str, None, help="the scored column (default: from the layout)"),
    Option("max_inflated", int, None, minimum=1, maximum=2 ** 53 - 1, cli=False,
           help="bytes a .gz/.zip may inflate to (default: what memory holds)"),
    Option("allow_continuous", bool, False, cli=False,
           help="ratings: accept non-integer predictions and cut them into ratings (the app)"),
)
COMMON_NAMES = tuple(o.name for o in COMMON)
_COMMON = {o.name: o for o in COMMON}


_declared = [None, None]              # (registry version, its metrics' merged options)


def declared_options():
    """Every registered metric's declared options, by name (metrics/schema.py); made again
    only when the registry changes."""
    from ..metrics import REGISTRY, registry_version
    from ..metrics.schema import all_options
    key = registry_version()
    if _declared[0] != key:
        _declared[:] = [key, all_options(REGISTRY.values())]
    return _declared[1]


def _metric_of(name):
    from ..metrics import REGISTRY
    return REGISTRY.get(name)


def check_metric_name(name):
    from ..metrics import REGISTRY
    if name is not None and name not in REGISTRY:
        raise ValueError(f"metric must be empty (from the layout) or one of "
                         f"{', '.join(REGISTRY)}, got {str(name)[:60]}")
    return name


@dataclass(frozen=True, init=False)
class Options:
    metric: "str | None"
    id_column: "str | None"
    target_column: "str | None"
    max_inflated: "int | None"
    allow_continuous: bool
    params: tuple                      # ((name, value), ...): the metric options set

    def __init__(self, metric=None, id_column=None, target_column=None, max_inflated=None,
                 allow_continuous=False, params=(), **own):
        given = dict(params.items() if isinstance(params, dict) else params)
        given.update(own)
        common = dict(metric=metric, id_column=id_column, target_column=target_column,
                      max_inflated=max_inflated, allow_continuous=allow_continuous)
        for name, value in common.items():
            value = _COMMON[name].check(value)
            if name == "metric":
                value = check_metric_name(value)
            object.__setattr__(self, name, value)
        object.__setattr__(self, "params", _checked_params(given, common["metric"]))

    def __getattr__(self, name):
        # Only called for names that are not fields: a metric's option from params,
        # else its declared default.
        if name.startswith("__"):
            raise AttributeError(name)
        for k, v in object.__getattribute__(self, "params"):
            if k == name:
                return v
        metric = _metric_of(object.__getattribute__(self, "metric"))
        for o in metric.options if metric is not None else ():
            if o.name == name:
                return o.default                 # the chosen metric's own default
        declared = declared_options()
        if name in declared:
            return declared[name].default
        raise AttributeError(f"Options has no option {name!r}")

    def with_(self, **kw):
        """A copy with some settings changed (common or a metric's; each checked). A new
        metric keeps only the options it declares."""
        common = {n: kw.pop(n) if n in kw else getattr(self, n) for n in COMMON_NAMES}
        params = {**dict(self.params), **kw}
        if common["metric"] is not None and common["metric"] != self.metric:
            own = _own_names(common["metric"])
            params = {k: v for k, v in params.items() if k in own or k in kw}
        return Options(**common, params=params)

    def metric_options(self, metric):
        """{name: value} of the options ``metric`` declares (JSON ``options``, the report)."""
        return {o.name: getattr(self, o.name) for o in metric.options}

    def foreign(self, metric):
        """Names of the set options that ``metric`` does not declare."""
        own = {o.name for o in metric.options}
        return [k for k, _ in self.params if k not in own]

    def to_dict(self):
        """The settings as plain JSON values (project files, the app's settings): the
        common ones, then the metric options set."""
        out = {k: v for k, v in asdict(self).items() if k != "params"}
        out.update((k, list(v) if isinstance(v, tuple) else v) for k, v in self.params)
        return out

    @classmethod
    def from_dict(cls, d, strict=True):
        """Options from ``to_dict`` output, each value checked against its declaration:
        ValueError naming the option (``strict``), or the bad ones dropped (saved settings
        of another version)."""
        d = dict(d)
        if strict:
            if "params" in d:
                raise ValueError("params is not an option")
            return cls(**d)
        d.pop("params", None)
        try:
            metric = check_metric_name(_COMMON["metric"].check(d.pop("metric", None)))
        except ValueError:
            metric = None
        kw = {"metric": metric}
        for key, value in d.items():
            try:
                cls(metric=metric, **{key: value})
            except (ValueError, TypeError):
                continue
            kw[key] = value
        return cls(**kw)


def _own_names(metric_name):
    m = _metric_of(metric_name)
    return {o.name for o in m.options} if m is not None else set()


def _checked_params(given, metric_name):
    """The metric options as a sorted tuple, each value checked by its declaration and
    defaults left out; ValueError naming the first unknown or invalid one."""
    out = {}
    metric = _metric_of(metric_name) if metric_name is not None else None
    own = {o.name: o for o in metric.options} if metric is not None else None
    declared = declared_options() if own is None else own
    for name, value in given.items():
        name = str(name)
        if name in _COMMON or name == "params":
            raise ValueError(f"{name} is a common setting, not a metric option")
        option = declared.get(name)
        if option is None:
            if metric is not None:
                have = ", ".join(own) or "none"
                raise ValueError(f"{name} is not an option of {metric.label} ({metric.name}); "
                                 f"its options: {have}")
            known = ", ".join(sorted(set(COMMON_NAMES) | set(declared)))
            raise ValueError(f"{name} is not an option; known: {known}")
        value = option.check(value)
        if value != option.default:
            out[name] = value
    return tuple(sorted(out.items()))


__all__ = ["Options", "COMMON", "COMMON_NAMES", "declared_options"]
