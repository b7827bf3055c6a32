"""Checks shared by the lean-reader and incremental-rescore tests: which path ran, and
whether two results are the same field for field."""
from dataclasses import fields

import numpy as np
import pytest


def lean_only(monkeypatch):
    """The whole-table read fails the test: only the lean reader may run."""
    from kmetric_gui.io import read

    def no_full_read(*a, **k):
        raise AssertionError("the full read ran: the lean path gave up")
    monkeypatch.setattr(read, "read_pair", no_full_read)


def full_only(monkeypatch, module, name):
    """The lean reader ``module.name`` gives up at once: the whole-table read runs."""
    monkeypatch.setattr(module, name, lambda *a, **k: None)


def assert_same(fast, full):
    """Every field of two results equal: arrays of the same shape (floats to 1e-12,
    others exactly and of the same type), floats to 1e-12 (nan where nan)."""
    for f in fields(full):
        a, b = getattr(fast, f.name), getattr(full, f.name)
        if isinstance(b, np.ndarray):
            assert a.shape == b.shape, f.name
            if b.dtype.kind == "f":
                np.testing.assert_allclose(a, b, rtol=0, atol=1e-12, err_msg=f.name)
            else:
                assert a.dtype == b.dtype and np.array_equal(a, b), f.name
        elif isinstance(b, float):
            assert a == pytest.approx(b, abs=1e-12, nan_ok=True), f.name
        else:
            assert a == b, f.name


def split_rows(usage, n, name):
    """Rows of a split ('all' leaves out Ignored) of n rows with this Usage (None: all)."""
    if usage is None:
        return np.arange(n)
    return {"all": np.flatnonzero(usage != 2), "public": np.flatnonzero(usage == 0),
            "private": np.flatnonzero(usage == 1)}[name]


def rescore_since(report, old, new):
    """The metric's incremental rescore of ``report`` (of data ``old``) for data ``new``."""
    from kmetric_gui.gui.controller import changed_cells
    return report.definition.rescore_cells(report, changed_cells(old.overlay, new.overlay), old, new)
