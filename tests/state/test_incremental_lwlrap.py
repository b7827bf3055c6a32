"""An LwLRAP edit rescored from one sample's ranks equals scoring from scratch
(score_prepared) and the plain-loop reference, after every step of random
edit/undo sequences (ties, samples without labels, Usage splits with Ignored)."""

import numpy as np
import pytest

from kmetric_gui.gui.controller import changed_cells
from kmetric_gui.metrics import FieldSpec
from kmetric_gui.analysis.scoring import Options, load, score_prepared
from kmetric_gui.state import Session
from appedit import edit_in_app
from samedata import assert_same, rescore_since, split_rows
from reference import close, lwlrap_ref

TRUTH = FieldSpec("truth")
C = 5


def files(tmp_path, seed, n=60, usage=True):
    rng = np.random.default_rng(seed)
    t = (rng.random((n, C)) < 0.3).astype(int)              # some samples have no label
    s = rng.integers(0, 4, (n, C)) / 4                      # few values: many ties
    cls = [f"c{j}" for j in range(C)]
    head = "id," + ",".join(cls)
    u = rng.choice(["Public", "Private", "Ignored"], n, p=[0.4, 0.45, 0.15])
    sol, sub = tmp_path / "sol.csv", tmp_path / "sub.csv"
    sol.write_text(head + (",Usage" if usage else "") + "\n" + "".join(
        f"s{i}," + ",".join(map(str, t[i])) + (f",{u[i]}" if usage else "") + "\n"
        for i in range(n)))
    sub.write_text(head + "\n" + "".join(
        f"s{i}," + ",".join(map(str, s[i])) + "\n" for i in rng.permutation(n)))
    return sol, sub


def random_edit(s, rng):
    unit = int(rng.integers(0, len(s.data)))
    if rng.random() < 0.4:
        row = (rng.random(C) < 0.3).astype(np.int8)
        if rng.random() < 0.2:
            row[:] = 0                                       # a sample loses every label
        s.edit_value(TRUTH, unit, row)
    else:
        s.edit_value(FieldSpec("pred", int(rng.integers(0, C))), unit,
                     float(rng.integers(0, 4) / 4))
    if rng.random() < 0.2:
        s.undo()


@pytest.mark.parametrize("ties", ["worst", "original"])
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("usage", [True, False])
def test_incremental_lwlrap_equals_full_rescore(tmp_path, ties, seed, usage):
    opts = Options(ties=ties)
    s = Session(opts)
    s.load(load(*files(tmp_path, seed, usage=usage), opts))
    report, version = score_prepared(s.data.prepared(), opts), s.data
    rng = np.random.default_rng(100 + seed)
    used = changed = 0
    for step in range(40):
        random_edit(s, rng)
        cells = changed_cells(version.overlay, s.data.overlay)
        fast = report.definition.rescore_cells(report, cells, version, s.data)
        full = score_prepared(s.data.prepared(), opts)
        assert fast is not None                # one or two edited cells: always incremental
        used += 1
        changed += not np.array_equal(fast.result.sample_scores, report.result.sample_scores,
                                      equal_nan=True)
        assert_same(fast.result, full.result)
        assert set(fast.splits) == set(full.splits)
        for name in full.splits:
            assert_same(fast.splits[name], full.splits[name])
        # The independent loop, on the edited data as the report now holds it.
        p = fast.prepared
        for name, res in [("all", fast.result), *fast.splits.items()]:
            rows = split_rows(p.usage, len(p), name)
            assert close(res.score, lwlrap_ref(p.truth[rows].tolist(), p.pred[rows].tolist(), ties),
                         1e-12)
        assert fast.to_json() == full.to_json()
        report, version = fast, s.data
    assert used == 40 and changed >= 8        # the edits did move sample scores


def test_a_stale_report_is_never_updated(tmp_path):
    """A report that is not the old version's (e.g. scored before another edit) is
    scored again in full, not patched into a wrong number."""
    opts = Options()
    s = Session(opts)
    s.load(load(*files(tmp_path, 7, usage=False), opts))
    report, version = score_prepared(s.data.prepared(), opts), s.data
    unit = int(np.flatnonzero(s.data.prepared().truth.any(axis=1))[0])
    row = np.asarray(s.data.value(TRUTH, unit))
    j = int(np.flatnonzero(row)[0])
    s.edit_value(FieldSpec("pred", j), unit, 0.125)          # changes this positive's rank
    middle = s.data
    s.edit_value(FieldSpec("pred", j), unit, 0.875)
    cells = changed_cells(middle.overlay, s.data.overlay)
    # The report belongs to `version`, not to `middle`: its stored ranks disagree.
    assert report.definition.rescore_cells(report, cells, middle, s.data) is None
    fast = rescore_since(report, version, s.data)
    assert_same(fast.result, score_prepared(s.data.prepared(), opts).result)


def test_invalid_edited_values_go_to_the_full_score(tmp_path):
    """A value the full score refuses (not 0/1, not finite) is not accepted quietly."""
    opts = Options()
    s = Session(opts)
    s.load(load(*files(tmp_path, 8, usage=False), opts))
    report, version = score_prepared(s.data.prepared(), opts), s.data
    s.edit_value(FieldSpec("pred", 0), 3, float("nan"))
    assert rescore_since(report, version, s.data) is None
    s.undo()
    s.edit_value(TRUTH, 3, np.array([2, 0, 0, 0, 0], dtype=np.int8))
    assert rescore_since(report, version, s.data) is None
    s.undo()
    s.edit_value(FieldSpec("pred", 1), 3, "high")          # through the API, not the table
    assert rescore_since(report, version, s.data) is None


def test_the_app_scores_an_lwlrap_edit_incrementally(qtbot, tmp_path, monkeypatch):
    calls, on_ui, new_score, p = edit_in_app(qtbot, monkeypatch, tmp_path, files(tmp_path, 9), "0.3")
    assert calls == []                         # no full rescore
    assert on_ui and not any(on_ui)            # the views made the edited data on a worker
    keep = p.usage != 2
    assert close(new_score, lwlrap_ref(p.truth[keep].tolist(), p.pred[keep].tolist()), 1e-12)
