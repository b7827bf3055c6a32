"""Two public functions of the Python API share their names with packages of
kmetric_gui: ``km.metrics()`` (the package of the metric registry) and
``km.report(...)`` (the package writing reports). Once such a package is imported,
Python's import system makes ``kmetric_gui.metrics`` that package; so each of the
two packages is made callable here, calling the API's function. Importing either
package, and ``from kmetric_gui import metrics``, still give the package."""
import importlib
import sys
import types


class CallableModule(types.ModuleType):
    """A package whose call is one function of kmetric_gui.api (``_api``: module, name)."""

    def __call__(self, *args, **kwargs):
        module, name = self._api
        return getattr(importlib.import_module(module), name)(*args, **kwargs)


def make_callable(package, module, name):
    mod = sys.modules[package]
    mod.__class__ = CallableModule
    mod._api = (module, name)
