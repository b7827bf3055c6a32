"""Session.changes() and Session.replay(): the edits of a project, undoable after replay."""
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from kmetric_gui.metrics import FieldSpec
from kmetric_gui.analysis.scoring import Options, load, score_prepared
from kmetric_gui.state import Session

PRED, TRUTH = FieldSpec("pred"), FieldSpec("truth")


def demo(metric):
    from kmetric_gui.paths import resources_dir
    d = resources_dir() / "demo"
    return str(d / f"{metric}_solution.csv"), str(d / f"{metric}_submission.csv")


def fresh(metric="qwk"):
    s = Session(Options(allow_continuous=True))
    s.load(load(*demo(metric), s.options))
    return s


def kappa(s):
    p = s.data.prepared()
    m = p.usage != 2
    return cohen_kappa_score(p.truth[m], p.pred[m], weights="quadratic", labels=range(5))


def test_changes_follow_the_history():
    s = fresh()
    assert s.changes() == []
    s.edit_text(PRED, 3, str((int(s.data.value(PRED, 3)) + 1) % 5))
    s.edit_text(TRUTH, 10, str((int(s.data.value(TRUTH, 10)) + 2) % 5))
    s.replace_field("pred", np.zeros(len(s.data), dtype=np.int64), "All zero")
    ch = s.changes()
    assert [c.label for c in ch] == ["Edit pred of row 4", "Edit truth of row 11", "All zero"]
    s.undo()
    assert [c.label for c in s.changes()] == ["Edit pred of row 4", "Edit truth of row 11"]
    s.redo()
    assert len(s.changes()) == 3
    s.undo()
    s.undo()
    s.edit_text(PRED, 5, "4")           # a new branch: the redo-able changes are gone
    assert [c.label for c in s.changes()] == ["Edit pred of row 4", "Edit pred of row 6"]


def test_replay_gives_the_same_data_and_each_step_undoes():
    a = fresh()
    start = kappa(a)
    a.edit_text(PRED, 3, str((int(a.data.value(PRED, 3)) + 2) % 5))
    mid = kappa(a)
    a.edit_text(TRUTH, 7, str((int(a.data.value(TRUTH, 7)) + 3) % 5))
    b = fresh()
    b.replay(a.changes())
    assert np.array_equal(b.data.prepared().pred, a.data.prepared().pred)
    assert np.array_equal(b.data.prepared().truth, a.data.prepared().truth)
    rep = score_prepared(b.data.prepared(), b.options)
    assert rep.score == pytest.approx(kappa(a))
    assert b.dirty and b.undo_text == "Edit truth of row 8"
    b.undo()
    assert kappa(b) == pytest.approx(mid)
    b.undo()
    assert kappa(b) == pytest.approx(start) and not b.can_undo


def test_replay_needs_data():
    s = Session(Options())
    with pytest.raises(ValueError):
        s.replay([])
