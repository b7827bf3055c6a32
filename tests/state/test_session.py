"""The state model without Qt: versions, edits, undo/redo, generations, saving marks."""
import subprocess
import sys

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from kmetric_gui.metrics import FieldSpec
from kmetric_gui.analysis.scoring import Options, load, score_prepared
from kmetric_gui.state import Results, Session

TRUTH, PRED = FieldSpec("truth"), FieldSpec("pred")


def demo(metric):
    from kmetric_gui.paths import resources_dir
    d = resources_dir() / "demo"
    return str(d / f"{metric}_solution.csv"), str(d / f"{metric}_submission.csv")


@pytest.fixture
def session():
    s = Session(Options(allow_continuous=True))
    s.load(load(*demo("qwk"), s.options))
    return s


def test_state_needs_no_qt():
    code = ("import sys; import kmetric_gui.state, kmetric_gui.analysis.scoring; "
            "bad = [m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph'))]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_edit_makes_a_new_version_and_never_touches_the_old(session):
    v1 = session.data
    before = v1.prepared().pred.copy()
    old = int(v1.value(PRED, 3))
    assert session.edit_text(PRED, 3, str((old + 1) % 5)) is None
    v2 = session.data
    assert v2.id != v1.id and v2.base is v1.base
    assert np.array_equal(v1.prepared().pred, before)          # a job reading v1 sees v1
    assert int(v2.prepared().pred[3]) == (old + 1) % 5
    assert not v2.prepared().pred.flags.writeable and not v1.base.pred.flags.writeable


def test_scores_follow_edits_undo_redo(session):
    m = session.data.base.usage != 2

    def kappa():
        p = session.data.prepared()
        return score_prepared(p, session.options).score, cohen_kappa_score(
            p.truth[m], p.pred[m], weights="quadratic", labels=range(5))
    k0, ref0 = kappa()
    assert k0 == pytest.approx(ref0)
    session.edit_text(TRUTH, 0, str((int(session.data.value(TRUTH, 0)) + 2) % 5))
    k1, ref1 = kappa()
    assert k1 == pytest.approx(ref1) and k1 != pytest.approx(k0)
    session.undo()
    assert kappa()[0] == pytest.approx(k0)
    session.redo()
    assert kappa()[0] == pytest.approx(k1)


@pytest.mark.parametrize("text,why", [("1_0", "underscores"), ("0x3", "hexadecimal"),
                                      ("1e308", "too large"), ("123456789012345678901234567890",
                                                                "too large"), ("2.5", "whole"),
                                      ("", "empty")])
def test_bad_edits_are_refused_with_the_file_grammar(session, text, why):
    v = session.data
    reason = session.edit_text(PRED, 0, text)
    assert reason and why in reason
    assert session.data is v and not session.can_undo


def test_truth_is_editable_for_every_metric():
    for metric, text in (("lwlrap", "Bark,Meow"), ("fbeta", "a b|c d")):
        s = Session(Options())
        s.load(load(*demo(metric), s.options))
        assert s.edit_text(TRUTH, 0, text) is None
        p = s.data.prepared()
        if metric == "lwlrap":
            want = [int(c in ("Bark", "Meow")) for c in p.classes]
            assert p.truth[0].tolist() == want
        else:
            assert p.truth[0] == ["a b", "c d"]
        assert score_prepared(p, s.options).score == score_prepared(p, s.options).score
    s = Session(Options())
    s.load(load(*demo("lwlrap"), s.options))
    assert "not a class" in s.edit_text(TRUTH, 0, "Bark,NoSuchClass")


def test_stale_results_are_dropped(session):
    gen = session.generation
    rep = score_prepared(session.data.prepared(), session.options)
    session.edit_text(PRED, 0, str((int(session.data.value(PRED, 0)) + 1) % 5))
    assert not session.accept(Results(gen, rep))                # computed before the edit
    assert session.results is None
    session.undo()                                              # same content, new version
    assert not session.accept(Results(gen, rep))
    assert session.accept(Results(session.generation, rep))
    before_options = session.generation
    session.set_options(session.options.with_(weights="linear"))
    assert not session.accept(Results(before_options, rep))    # options changed since


def test_saved_mark_is_the_state_submitted_not_the_state_at_finish(session):
    assert not session.dirty
    session.edit_text(PRED, 0, str((int(session.data.value(PRED, 0)) + 1) % 5))
    submitted = session.history_index                          # the save job starts here
    session.edit_text(PRED, 1, str((int(session.data.value(PRED, 1)) + 1) % 5))
    session.mark_saved(submitted)                               # ... and finishes now
    assert session.dirty                                        # the second edit is not on disk
    session.undo()
    assert not session.dirty
    session.redo()
    assert session.dirty


def test_a_new_load_or_a_failed_one_resets_the_history(session):
    session.edit_text(PRED, 0, str((int(session.data.value(PRED, 0)) + 1) % 5))
    session.clear(["submission x.csv: file is empty"])
    assert session.data is None and not session.can_undo and not session.dirty
    session.undo()                                              # nothing to undo: no crash
    assert session.problems == ["submission x.csv: file is empty"]


def test_replace_field_is_one_undoable_step(session):
    prep = session.data.prepared()
    new = (prep.pred + 1) % 5
    session.edit_text(PRED, 0, "4")
    session.replace_field("pred", new, "Apply cut points")
    assert np.array_equal(session.data.prepared().pred, new)
    assert session.undo_text == "Apply cut points"
    session.undo()
    assert int(session.data.prepared().pred[0]) == 4
