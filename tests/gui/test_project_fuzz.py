"""Fuzz of project files: random types, sizes and nesting put in any field of a valid
project; reading it (and its edits against the data, and its view in a window) ends
in a project or a ProjectError in words, never another exception."""
import json
import math
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kmetric_gui.gui.main_window import demo_paths
from kmetric_gui.gui.project import restore_view
from kmetric_gui.gui.project_file import (ProjectError, decode_changes, file_ref, project_json,
                                          read_project)
from kmetric_gui.analysis.scoring import Options, load
from kmetric_gui.state.data import DataVersion, freeze


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    d = tmp_path_factory.mktemp("fuzz")
    truth, sub = (shutil.copy(p, d / n) for p, n in zip(demo_paths("qwk"), ("t.csv", "s.csv")))
    refs = [file_ref(truth, "truth", d), file_ref(sub, "submission", d)]
    edits = [{"label": "Edit pred of row 1",
              "cells": [{"field": "pred", "unit": 0, "part": None, "value": 3}]},
             {"label": "Apply cut points", "field": "pred", "values": [1] * 600}]
    proj = project_json(refs, Options(allow_continuous=True, min_rating=0, max_rating=4), [], {
        "splitters": {"main": [500, 300], "top": [200, 600, 600]}, "tab": 1,
        "class_names": "a, b", "selected_rows": [3]})
    proj["edits"] = edits
    data = DataVersion(1, freeze(load(truth, sub, Options(allow_continuous=True))))
    return d, proj, data


def paths(d, at=()):
    """Every field of a project (the places a mutation goes)."""
    yield at
    if isinstance(d, dict):
        for k, v in d.items():
            yield from paths(v, at + (k,))
    elif isinstance(d, list):
        for k, v in enumerate(d[:2]):
            yield from paths(v, at + (k,))


scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=2 ** 60)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30)
           | st.sampled_from(["pred", "truth", "qwk", "quadratic", "", "../../etc/passwd", "0" * 64]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=25)
# near misses: values of the right kind, in and out of range, so that more get past the schema
plausible = (st.integers(-3, 700) | st.floats(-1, 11) | st.sampled_from([None, True, 0.5, 2.5, 1e300])
             | st.lists(st.integers(-1, 6), max_size=4) | st.lists(st.text(max_size=3), max_size=3))


def nested(depth):
    return "[" * depth + "]" * depth


def put(d, at, value):
    if not at:
        return value
    cur = d
    for k in at[:-1]:
        cur = cur[k]
    cur[at[-1]] = value
    return d


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzzed_projects_open_or_are_refused_in_words(base, data, window, tmp_path_factory):
    folder, proj, loaded = base
    d = json.loads(json.dumps(proj))
    places = list(paths(d))
    for _ in range(data.draw(st.integers(1, 3))):
        places = list(paths(d))[1:]
        at = data.draw(st.sampled_from(places))
        d = put(d, at, data.draw(plausible if data.draw(st.booleans()) else values))
    text = json.dumps(d)
    if data.draw(st.booleans()):
        at = data.draw(st.sampled_from(list(paths(d))))
        marker = "\u0000MARK\u0000"
        text = json.dumps(put(d, at, marker)).replace(json.dumps(marker),
                                                       nested(data.draw(st.integers(1, 5000))))
    path = folder / "fuzz.kmetric"
    path.write_text(text)
    try:
        p = read_project(path)
    except ProjectError as e:
        assert str(e).startswith("project fuzz.kmetric") and "Traceback" not in str(e)
        return
    o = p.options
    assert o.beta is None or (math.isfinite(o.beta) and 0.05 <= o.beta <= 10)
    assert o.min_rating is None or isinstance(o.min_rating, int)
    assert all(isinstance(v, (str, type(None))) for v in (o.id_column, o.target_column))
    try:
        decode_changes(p, loaded)
    except ProjectError as e:
        assert str(e).startswith("project fuzz.kmetric")
    restore_view(window, p.view)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzzed_edits_apply_as_typed_or_are_refused(base, data):
    """Edits only (near misses mostly): what is accepted applies to whole ratings in range
    of the integers the typed path accepts; the rest is refused with a line per edit."""
    import numpy as np

    from kmetric_gui.state.data import apply
    folder, proj, loaded = base
    d = json.loads(json.dumps(proj))
    for _ in range(data.draw(st.integers(1, 3))):
        places = [p for p in paths(d) if p[:1] == ("edits",) and len(p) > 1]
        at = data.draw(st.sampled_from(places))
        d = put(d, at, data.draw(plausible | values if data.draw(st.booleans()) else plausible))
    path = folder / "fuzz.kmetric"
    path.write_text(json.dumps(d))
    try:
        changes = decode_changes(read_project(path), loaded)
    except ProjectError as e:
        assert all(line.startswith("project fuzz.kmetric") or line.startswith("...")
                   for line in str(e).splitlines())
        return
    version = loaded
    for k, change in enumerate(changes):
        version = apply(version, change, k + 2)
    pred = version.prepared().pred
    assert pred.dtype.kind in "iu" and np.abs(pred).max() < 2 ** 53
