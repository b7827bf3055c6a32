"""The Python API's implementation: ``import kmetric_gui as km`` is its public face.

The names users call are listed in kmetric_gui/__init__.py and docs/python-api.md;
the modules here are internal. Nothing is imported here: each public name loads
its own module on first use.
"""
