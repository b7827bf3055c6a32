"""An F-beta edit rescored by matching the edited document alone equals scoring
from scratch (score_prepared) and the plain-loop reference, after every step of
random edit/undo sequences (empty documents, Jaccard ties, Usage splits with
Ignored, both matchings, cleaning)."""

import numpy as np
import pytest

from kmetric_gui.gui.controller import changed_cells
from kmetric_gui.metrics import FieldSpec
from kmetric_gui.analysis.scoring import Options, load, score_prepared
from kmetric_gui.state import Session
from appedit import edit_in_app
from samedata import assert_same, rescore_since, split_rows
from reference import close, fbeta_ref

TRUTH, PRED = FieldSpec("truth"), FieldSpec("pred")
WORDS = ["alpha", "beta", "Gamma", "delta", "eps-ilon", "zeta"]


def phrase(rng):
    """Two or three words of a small vocabulary: many partial matches and ties."""
    return " ".join(rng.choice(WORDS, int(rng.integers(1, 4))))


def cell(rng, most=3):
    return "|".join(phrase(rng) for _ in range(int(rng.integers(0, most + 1))))


def files(tmp_path, seed, n=50, usage=True):
    rng = np.random.default_rng(seed)
    u = rng.choice(["Public", "Private", "Ignored"], n, p=[0.4, 0.45, 0.15])
    sol, sub = tmp_path / "sol.csv", tmp_path / "sub.csv"
    sol.write_text("Id,cleaned_label" + (",Usage" if usage else "") + "\n" + "".join(
        f"d{i},{cell(rng)}" + (f",{u[i]}" if usage else "") + "\n" for i in range(n)))
    sub.write_text("Id,PredictionString\n" + "".join(
        f"d{i},{cell(rng)}\n" for i in rng.permutation(n)))
    return sol, sub


@pytest.mark.parametrize("matching,clean,threshold", [("one-to-one", False, 0.5),
                                                      ("many-to-one", False, 0.5),
                                                      ("one-to-one", True, 0.34),
                                                      ("many-to-one", True, 1.0)])
@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("usage", [True, False])
def test_incremental_fbeta_equals_full_rescore(tmp_path, matching, clean, threshold, seed, usage):
    opts = Options(matching=matching, clean=clean, threshold=threshold)
    s = Session(opts)
    s.load(load(*files(tmp_path, seed, usage=usage), opts))
    report, version = score_prepared(s.data.prepared(), opts), s.data
    rng = np.random.default_rng(200 + seed)
    moved = 0
    for step in range(40):
        unit = int(rng.integers(0, len(s.data)))
        text = cell(rng) if rng.random() < 0.8 else " | |"   # blank items: no predictions
        assert s.edit_text(TRUTH if rng.random() < 0.4 else PRED, unit, text) is None
        if rng.random() < 0.2:
            s.undo()
        cells = changed_cells(version.overlay, s.data.overlay)
        fast = report.definition.rescore_cells(report, cells, version, s.data)
        full = score_prepared(s.data.prepared(), opts)
        assert fast is not None                # a cell or two: always incremental
        moved += not np.array_equal(fast.result.per_document, report.result.per_document)
        assert_same(fast.result, full.result)
        assert set(fast.splits) == set(full.splits)
        for name in full.splits:
            assert_same(fast.splits[name], full.splits[name])
        p = fast.prepared
        for name, res in [("all", fast.result), *fast.splits.items()]:
            rows = split_rows(p.usage, len(p), name)
            score, counts = fbeta_ref([p.truth[i] for i in rows], [p.pred[i] for i in rows],
                                      threshold=threshold, matching=matching, clean=clean)
            assert (res.tp, res.fp, res.fn) == counts
            assert close(res.score, score, 1e-12)
        assert fast.to_json() == full.to_json()
        report, version = fast, s.data
    assert moved >= 15                         # the edits did change documents' counts


def test_a_stale_report_is_never_updated(tmp_path):
    opts = Options()
    s = Session(opts)
    s.load(load(*files(tmp_path, 5, usage=False), opts))
    report, version = score_prepared(s.data.prepared(), opts), s.data
    s.edit_text(PRED, 4, "alpha beta|gamma")
    middle = s.data
    s.edit_text(TRUTH, 4, "alpha beta")
    # Scored for `version`, asked to go from `middle`: document 4's counts disagree.
    s.edit_text(PRED, 4, "zeta")
    assert rescore_since(report, middle, s.data) is None
    fast = rescore_since(report, version, s.data)
    assert_same(fast.result, score_prepared(s.data.prepared(), opts).result)


def test_a_value_the_score_refuses_goes_to_the_full_score(tmp_path):
    opts = Options()
    s = Session(opts)
    s.load(load(*files(tmp_path, 6, usage=False), opts))
    report, version = score_prepared(s.data.prepared(), opts), s.data
    s.edit_value(PRED, 2, [1, 2])                        # not strings (no file gives this)
    assert rescore_since(report, version, s.data) is None


def test_the_app_scores_an_fbeta_edit_incrementally(qtbot, tmp_path, monkeypatch):
    calls, on_ui, new_score, p = edit_in_app(qtbot, monkeypatch, tmp_path, files(tmp_path, 9),
                                             "alpha beta|delta")
    assert calls == []                         # no full rescore
    assert on_ui and not any(on_ui)            # the views made the edited data on a worker
    rows = np.flatnonzero(p.usage != 2)
    score, _ = fbeta_ref([p.truth[i] for i in rows], [p.pred[i] for i in rows])
    assert close(new_score, score, 1e-12)


def test_edited_fbeta_data_is_not_a_list_of_every_document(tmp_path, monkeypatch):
    """The edited data holds the file's column plus the edited documents: making it
    (and later freeing it, on the UI thread) never walks every document."""
    from kmetric_gui.metrics.fbeta_cells import Cells
    opts = Options()
    s = Session(opts)
    s.load(load(*files(tmp_path, 7, usage=False), opts))
    n = len(s.data)
    truths = [s.data.base.truth[i] for i in range(n)]      # one document at a time
    preds = [s.data.base.pred[i] for i in range(n)]
    s.edit_text(PRED, 3, "alpha beta| |zeta")
    s.edit_text(TRUTH, 5, "")
    s.edit_text(PRED, n - 1, "delta")
    preds[3], truths[5], preds[n - 1] = ["alpha beta", "zeta"], [], ["delta"]

    def walked(self):
        raise AssertionError("every document split into a list")
    monkeypatch.setattr(Cells, "__iter__", walked)
    prep = s.data.prepared()
    assert not isinstance(prep.pred, list) and not isinstance(prep.truth, list)
    assert [prep.pred[i] for i in range(n)] == preds
    assert [prep.truth[i] for i in range(n)] == truths
    assert prep.pred[-1] == ["delta"] and prep.pred[2:4] == preds[2:4]
    assert prep.pred.counts().tolist() == [len(p) for p in preds]
    assert prep.truth.counts().tolist() == [len(t) for t in truths]
    monkeypatch.undo()
    assert list(prep.pred) == preds and list(prep.truth) == truths
    # The full score of the edited data: the plain-loop reference.
    score, counts = fbeta_ref(truths, preds)
    res = score_prepared(prep, opts).result
    assert (res.tp, res.fp, res.fn) == counts and close(res.score, score, 1e-12)
    s.undo(), s.undo(), s.undo()
    assert list(s.data.prepared().pred) == [s.data.base.pred[i] for i in range(n)]


def test_a_full_rescore_of_edited_fbeta_data_stays_on_the_coded_path(qtbot, tmp_path,
                                                                     monkeypatch):
    """A full rescore of edited data (a paste of over 1,000 documents, or an edit the
    incremental path refuses) codes the file's columns plus the edited documents with
    Arrow and numpy. It took the path of Python lists, whose long C calls (sorting
    every distinct string) hold the GIL: the app's event loop froze 1.7 s at 1M
    documents although the score ran on a worker."""
    from kmetric_gui.metrics.kernels.fbeta import table
    from kmetric_gui.metrics.fbeta import Fbeta
    monkeypatch.setattr(Fbeta, "rescore_cells", lambda self, *a: None)    # the full path
    listed = []
    real = table._Prepared.__init__

    def lists(self, truths, preds, clean):
        listed.append(len(truths))
        real(self, truths, preds, clean)
    monkeypatch.setattr(table._Prepared, "__init__", lists)
    calls, _, new_score, p = edit_in_app(qtbot, monkeypatch, tmp_path, files(tmp_path, 9),
                                         "alpha beta|delta")
    assert calls == [1]                        # the edit was scored from scratch
    # ... never as lists of documents (the edit's note may match the edited one alone)
    assert all(k <= 1 for k in listed), listed
    assert ["alpha beta", "delta"] in [p.pred[i] for i in range(len(p))]
    rows = np.flatnonzero(p.usage != 2)
    score, _ = fbeta_ref([p.truth[i] for i in rows], [p.pred[i] for i in rows])
    assert close(new_score, score, 1e-12)


@pytest.mark.parametrize("clean", [False, True])
def test_edited_fbeta_cells_score_like_their_lists(tmp_path, clean):
    """The edited columns coded as Arrow cells (an extra chunk of the edited documents)
    score exactly as the plain-loop reference of the documents as lists."""
    from kmetric_gui.metrics.fbeta import _as_cells
    opts = Options(clean=clean, matching="many-to-one")
    s = Session(opts)
    s.load(load(*files(tmp_path, 11, n=80, usage=False), opts))
    rng = np.random.default_rng(3)
    for _ in range(30):
        field = TRUTH if rng.random() < 0.4 else PRED
        assert s.edit_text(field, int(rng.integers(0, len(s.data))), cell(rng)) is None
    prep = s.data.prepared()
    truths, preds = list(prep.truth), list(prep.pred)
    assert list(_as_cells(prep.truth)) == truths and list(_as_cells(prep.pred)) == preds
    res = score_prepared(prep, opts).result
    score, counts = fbeta_ref(truths, preds, matching="many-to-one", clean=clean)
    assert (res.tp, res.fp, res.fn) == counts and close(res.score, score, 1e-12)
