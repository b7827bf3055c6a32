"""KL divergence's rows of fractions keep summing to 1 through an edit (issue 34): the
typed class keeps its value, the row's other classes are rescaled in proportion (evenly
when they are all 0), as one undo step, and the saved submission reads back. Checked
against hand-computed rows and scores."""
import math

import numpy as np
import pytest

from kmetric_gui.analysis.scoring import Options, load, score_files, score_prepared
from kmetric_gui.fields import FieldSpec
from kmetric_gui.gui.save_text import _csv
from kmetric_gui.io.keep import as_in_file
from kmetric_gui.state import Session

SOLUTION = "id,a,b,c\nr1,1,0,0\nr2,0.5,0.5,0\n"
SUBMISSION = "id,a,b,c\nr1,0.5,0.3,0.2\nr2,0.25,0.25,0.5\n"


@pytest.fixture
def files(tmp_path):
    sol, sub = tmp_path / "solution.csv", tmp_path / "submission.csv"
    sol.write_text(SOLUTION)
    sub.write_text(SUBMISSION)
    return sol, sub


def _session(files):
    opts = Options(metric="kl_divergence")
    s = Session(opts)
    s.load(load(*files, opts))
    return s


def _row(s, field, unit):
    return [float(s.data.value(FieldSpec(field, j), unit)) for j in range(3)]


def _score(s):
    return score_prepared(s.data.prepared(), s.options).score


def test_an_edited_probability_rescales_the_rest_of_its_row(files, tmp_path):
    s = _session(files)
    # by hand: sum of t ln(t / p) per row, mean over rows; each row here gives ln 2
    assert _score(s) == pytest.approx(math.log(2), abs=1e-12)
    assert s.edit_text(FieldSpec("pred", 0), 0, "0.8") is None
    # the other 0.5 of row 1 (0.3, 0.2) scaled to fill 0.2: 0.12, 0.08
    assert _row(s, "pred", 0) == pytest.approx([0.8, 0.12, 0.08], abs=1e-15)
    assert _row(s, "pred", 1) == [0.25, 0.25, 0.5]
    edited = (math.log(1 / 0.8) + math.log(2)) / 2
    assert _score(s) == pytest.approx(edited, abs=1e-12)
    # saved as Ctrl+S writes it, the file is a submission KL reads, with the same score
    header, rows = s.metric.submission_rows(s.data.prepared())
    header, rows, _ = as_in_file(files[1], header, rows, file_order=True)
    saved = tmp_path / "edited.csv"
    saved.write_text(_csv(header, rows))
    assert score_files(files[0], saved, s.options).score == pytest.approx(edited, abs=1e-12)
    # one step: undo gives the whole row and the first score back
    s.undo()
    assert not s.can_undo and _row(s, "pred", 0) == [0.5, 0.3, 0.2]
    assert _score(s) == pytest.approx(math.log(2), abs=1e-12)


def test_a_fraction_typed_where_the_rest_are_0_spreads_the_rest_evenly(files):
    s = _session(files)
    assert s.edit_text(FieldSpec("truth", 0), 0, "0.5") is None
    assert _row(s, "truth", 0) == [0.5, 0.25, 0.25]
    row1 = 0.5 * math.log(0.5 / 0.5) + 0.25 * math.log(0.25 / 0.3) + 0.25 * math.log(0.25 / 0.2)
    assert _score(s) == pytest.approx((row1 + math.log(2)) / 2, abs=1e-12)


def test_a_value_typed_as_it_was_changes_nothing(files):
    s = _session(files)
    assert s.edit_text(FieldSpec("pred", 1), 0, "0.3") is None
    assert not s.can_undo


def test_a_pasted_row_keeps_its_values_and_a_row_past_1_is_refused(files):
    s = _session(files)
    pred = [FieldSpec("pred", j) for j in range(3)]
    # a whole row summing to 1 is taken as typed
    assert s.edit_texts([(pred[0], 1, "0.1"), (pred[1], 1, "0.2"), (pred[2], 1, "0.7")],
                        "Paste") == []
    assert _row(s, "pred", 1) == [0.1, 0.2, 0.7]
    # two of three typed: the third fills the rest
    assert s.edit_texts([(pred[0], 0, "0.6"), (pred[1], 0, "0.1")], "Paste") == []
    assert _row(s, "pred", 0) == pytest.approx([0.6, 0.1, 0.3], abs=1e-15)
    before = s.data
    for cells, said in (([(pred[0], 0, "0.7"), (pred[1], 0, "0.6")], "row 1: the probabilities "
                         "typed sum to 1.3"), ([(p, 1, "0.2") for p in pred], "row 2: the "
                                               "probabilities typed sum to 0.6")):
        refused = s.edit_texts(cells, "Paste")
        assert len(refused) == 1 and refused[0][2].startswith(said) and "\n" not in refused[0][2]
        assert s.data is before
    s.undo()
    s.undo()
    assert _row(s, "pred", 0) == [0.5, 0.3, 0.2] and _row(s, "pred", 1) == [0.25, 0.25, 0.5]
    assert not np.isnan(_score(s))
