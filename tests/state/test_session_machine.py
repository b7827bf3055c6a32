"""The Session (Qt-free) driven by Hypothesis through random sequences of loads,
typed edits, pastes, whole-field changes, undo, redo, saves, holds, option changes
and results of any generation, against a plain model: the list of arrays along
the history, the index and the saved index.

Invariants after every step: the data is the model's state at the index (truth
and pred, element by element); ``dirty`` is exactly "not the state saved, or
solution cells edited"; a hold refuses every change and leaves everything as it
was; results are accepted only for the data and options shown, and the score
accepted is the score of that data (sklearn's kappa as the reference); undo all
then redo all returns the same data.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from sklearn.metrics import cohen_kappa_score

from kmetric_gui.metrics import FieldSpec
from kmetric_gui.analysis.scoring import Options, load, score_prepared
from kmetric_gui.state import Results, Session

TRUTH, PRED = FieldSpec("truth"), FieldSpec("pred")
_LOADED = {}


def demo(name):
    if name not in _LOADED:
        from kmetric_gui.paths import resources_dir
        d = resources_dir() / "demo"
        files = (str(d / "qwk_solution.csv"), str(d / f"{name}.csv"))
        _LOADED[name] = (files, load(*files, Options(allow_continuous=True)))
    return _LOADED[name]


def kappa_ref(truth, pred, usage, weights):
    m = usage != 2 if usage is not None else slice(None)
    return cohen_kappa_score(truth[m], pred[m], weights=weights, labels=range(5))


class SessionMachine(RuleBasedStateMachine):
    @initialize(name=st.sampled_from(["qwk_submission", "qwk_submission_b"]))
    def start(self, name):
        self.s = Session(Options(allow_continuous=True))
        self.held_reason = None
        self.holds = {}
        self.old_snapshots = []
        self._load(name)

    def _load(self, name):
        files, prep = demo(name)
        self.s.load(prep, *files)
        self.model = [(prep.truth.astype(np.int64), prep.pred.astype(np.int64), "")]
        self.index, self.saved = 0, 0
        self.n = len(prep)

    def _push(self, truth, pred, label):
        del self.model[self.index + 1:]
        if self.saved > self.index:
            self.saved = -1
        self.model.append((truth, pred, label))
        self.index += 1

    # -- changes --------------------------------------------------------------------
    @rule(name=st.sampled_from(["qwk_submission", "qwk_submission_b"]))
    def load_files(self, name):
        if self.s.held:
            return                       # the app reads files only through its hold
        self._load(name)

    @rule(field=st.sampled_from(["truth", "pred"]), row=st.integers(0, 10 ** 6),
          value=st.integers(0, 4), text_kind=st.sampled_from(["int", "junk", "float"]))
    def edit(self, field, row, value, text_kind):
        spec, row = FieldSpec(field), row % self.n
        text = {"int": str(value), "junk": "abc", "float": f"{value}.5"}[text_kind]
        before = self.s.data
        why = self.s.edit_text(spec, row, text)
        if self.s.held:
            assert why == self.held_reason and self.s.data is before
            return
        if text_kind != "int":                      # kappa ratings are whole numbers
            assert why and self.s.data is before
            return
        assert why is None
        truth, pred, _ = self.model[self.index]
        arr = (truth if field == "truth" else pred).copy()
        if arr[row] == value:
            assert self.s.data is before            # no change, no history step
            return
        arr[row] = value
        self._push(arr if field == "truth" else truth, arr if field == "pred" else pred,
                   "edit")

    @rule(cells=st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, 4)), min_size=1,
                         max_size=5), bad=st.booleans())
    def paste(self, cells, bad):
        rows = [(PRED, r % self.n, str(v)) for r, v in cells]
        if bad:
            rows.append((PRED, 0, "x"))
        before = self.s.data
        refused = self.s.edit_texts(rows, "Paste")
        if bad or self.s.held:
            assert refused and self.s.data is before    # all or nothing
            return
        assert refused == []
        truth, pred, _ = self.model[self.index]
        new = pred.copy()
        for _, r, v in rows:
            new[r] = int(v)
        if np.array_equal(new, pred):
            assert self.s.data is before
            return
        self._push(truth, new, "paste")

    @rule(shift=st.integers(1, 4))
    def replace_field(self, shift):
        truth, pred, _ = self.model[self.index]
        new = (pred + shift) % 5
        why = self.s.replace_field("pred", new.astype(pred.dtype), "Apply cut points")
        if self.s.held:
            assert why == self.held_reason
            return
        assert why is None
        self._push(truth, new, "field")

    @rule()
    def undo(self):
        before = self.s.data
        self.s.undo()
        if self.s.held or self.index == 0:
            assert self.s.data is before
            return
        self.index -= 1

    @rule()
    def redo(self):
        before = self.s.data
        self.s.redo()
        if self.s.held or self.index == len(self.model) - 1:
            assert self.s.data is before
            return
        self.index += 1

    @rule()
    def save(self):
        self.s.mark_saved(self.s.history_index)
        self.saved = self.index

    @rule(owner=st.sampled_from(["load", "save"]),
          reason=st.sampled_from(["new files are being read", "the edits are being saved"]))
    def hold(self, owner, reason):
        self.s.hold(reason, owner)
        self.holds.pop(owner, None)
        self.holds[owner] = reason
        self.held_reason = self.s.held

    @rule(owner=st.sampled_from(["load", "save"]))
    def release(self, owner):
        """Ending one hold keeps the other (a save ending while files load)."""
        self.s.release(owner)
        self.holds.pop(owner, None)
        self.held_reason = self.s.held
        assert bool(self.s.held) == bool(self.holds)

    @rule(weights=st.sampled_from(["quadratic", "linear"]))
    def options(self, weights):
        self.s.set_options(Options(weights=weights, allow_continuous=True))

    # -- results ----------------------------------------------------------------------
    @rule()
    def score(self):
        snap = self.s.snapshot()
        self.old_snapshots.append(snap)
        report = score_prepared(snap.data.prepared(), snap.options)
        assert self.s.accept(Results(snap.generation, report))
        truth, pred, _ = self.model[self.index]
        ref = kappa_ref(truth, pred, snap.data.base.usage, snap.options.weights)
        assert report.score == pytest.approx(ref, abs=1e-12) or (np.isnan(ref) and
                                                                 np.isnan(report.score))

    @precondition(lambda self: self.old_snapshots)
    @rule(pick=st.integers(0, 100))
    def late_result(self, pick):
        snap = self.old_snapshots[pick % len(self.old_snapshots)]
        shown = self.s.results
        accepted = self.s.accept(Results(snap.generation, object()))
        assert accepted == self.s.is_current(snap.generation)
        if not accepted:
            assert self.s.results is shown

    @rule()
    def undo_all_redo_all(self):
        if self.s.held:
            return
        data = self.s.data.prepared()
        steps = self.s.history_index
        top = len(self.model) - 1
        for _ in range(steps):
            self.s.undo()
        for _ in range(top):
            self.s.redo()
        self.index = top
        end = self.model[top]
        assert np.array_equal(self.s.data.prepared().pred, end[1])
        for _ in range(top - steps):
            self.s.undo()
        self.index = steps
        assert np.array_equal(self.s.data.prepared().pred, data.pred)
        assert np.array_equal(self.s.data.prepared().truth, data.truth)

    # -- invariants -------------------------------------------------------------------
    @invariant()
    def data_is_the_models_state(self):
        truth, pred, _ = self.model[self.index]
        got = self.s.data.prepared()
        assert np.array_equal(np.asarray(got.truth, np.int64), truth)
        assert np.array_equal(np.asarray(got.pred, np.int64), pred)
        assert self.s.history_index == self.index

    @invariant()
    def dirty_is_exact(self):
        base = self.model[0][0]
        truth_edited = bool(self.s.data.overlay) and any(k[0] == "truth"
                                                          for k in self.s.data.overlay)
        assert self.s.submission_dirty == (self.index != self.saved)
        assert self.s.dirty == (self.index != self.saved or truth_edited)
        if not truth_edited:
            assert np.array_equal(self.model[self.index][0], base) or self.index > 0

    @invariant()
    def results_are_current_or_not_shown_as_such(self):
        r = self.s.results
        if r is not None and self.s.is_current(r.generation):
            assert r.generation.data_id == self.s.data.id

    @invariant()
    def held_means_no_undo(self):
        if self.s.held:
            assert not self.s.can_undo and not self.s.can_redo


TestSession = SessionMachine.TestCase
TestSession.settings = settings(max_examples=25, stateful_step_count=30, deadline=None,
                                suppress_health_check=[HealthCheck.too_slow])
