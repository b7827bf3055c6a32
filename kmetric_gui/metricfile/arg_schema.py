"""A metric file's extra arguments as declared options (metrics/schema.py), so the
app's options panel and the project file treat them as they treat a built-in
metric's options. Made from ``worker.inspect_metric``'s parameter tuples
(name, kind, annotation, has default, default); no Qt, no pandas.
"""
from ..metrics.schema import Option

_TYPES = {"int": int, "float": float, "bool": bool, "str": str}
SKIPPED = ("VAR_POSITIONAL", "VAR_KEYWORD")


def arg_options(info, file_name=""):
    """One Option per argument of score() after the three fixed ones, typed as
    ``--metric-arg`` types it: the annotation, else the default's type, else text."""
    out = []
    for name, kind, ann, has_default, default in info.get("params", ())[3:]:
        if kind in SKIPPED:
            continue
        typ = _TYPES.get(ann) if ann else None
        if typ is None and has_default and type(default) in _TYPES.values():
            typ = type(default)
        typ = typ or str
        value = default if has_default and isinstance(default, typ) else None
        if typ is float and isinstance(default, int) and not isinstance(default, bool):
            value = float(default)
        need = "" if has_default else " (required)"
        out.append(Option(name, typ, value, help=f"argument '{name}' of score() in {file_name}{need}",
                          label=name))
    return out


def required(options, values):
    """Names of arguments without a default and without a value."""
    return [o.name for o in options if o.default is None and values.get(o.name) is None
            and o.help.endswith("(required)")]


def as_texts(values):
    """NAME=VALUE texts, as ``--metric-arg`` takes them (None: left to the default)."""
    out = []
    for name, v in values.items():
        if v is None:
            continue
        text = v if isinstance(v, str) else "true" if v is True else "false" if v is False else repr(v)
        out.append(f"{name}={text}")
    return out
