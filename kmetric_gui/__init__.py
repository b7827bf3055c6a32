"""kmetric_gui: a desktop analyzer for Kaggle evaluation metrics.

From Python (docs/python-api.md)::

    import kmetric_gui as km
    result = km.score(solution_df, submission_df, ci=0.95)

The public names below load on first use (module ``__getattr__``): importing the
package itself imports nothing heavy and starts nothing, so the command-line
entry points can set numpy's CPU features before numpy is imported (cpu.py).
Every other module of the package is internal and may change without notice.
"""

__version__ = "0.2.0"

# The public Python API: name -> module of kmetric_gui.api defining it. Listed in
# docs/python-api.md; tests/api/test_public_names.py keeps the two equal.
_PUBLIC = {
    "score": "scoring", "detect": "scoring", "metrics": "scoring",
    "compare": "decisions", "select": "decisions", "rank": "decisions",
    "report": "reporting", "open": "launch",
    "InvalidInput": "errors",
    "Result": "results", "Comparison": "results", "Selection": "results",
    "Ranking": "results", "MetricInfo": "results", "Detection": "results",
    "Interval": "results", "OptionInfo": "results",
}

__all__ = ["__version__", *_PUBLIC]


# Two of them are also packages of kmetric_gui (the metric registry, the report writer):
# those packages are callable, calling the API's function (_calls.py).
_PACKAGES = ("metrics", "report")


def __getattr__(name):
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'kmetric_gui' has no attribute {name!r}")
    import importlib
    if name in _PACKAGES:
        return importlib.import_module(f".{name}", __name__)    # sets the attribute itself
    value = getattr(importlib.import_module(f".api.{module}", __name__), name)
    globals()[name] = value          # later lookups skip this function
    return value


def __dir__():
    return sorted(set(globals()) | set(_PUBLIC))
