"""A package's names imported from its modules on first use (PEP 562)."""
import importlib


def lazy_names(namespace, where):
    """(__getattr__, __dir__) for a package whose globals are ``namespace``: each name
    in ``where`` comes from the module it maps to, once, then stays in the namespace."""
    package = namespace["__name__"]

    def __getattr__(name):
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        namespace[name] = value
        return value

    def __dir__():
        return sorted(set(namespace) | set(where))

    return __getattr__, __dir__
