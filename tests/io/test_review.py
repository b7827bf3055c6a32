"""Review findings of issue 17: one '|' splitter, long F-beta Usage, a submission's Usage."""
import numpy as np
import pytest

from kmetric_gui.metrics.kernels import jaccard_fbeta, split_cell
from kmetric_gui.errors import InputError
from kmetric_gui.metrics import fbeta as fbeta_metric
from kmetric_gui.analysis.scoring import Options, score_files


def test_one_splitter_everywhere(tmp_path):
    # "a b| |": the blank item is not a prediction through the core API and from a file alike
    assert split_cell("a b| |") == ["a b"]
    assert split_cell("") == [] and split_cell(None) == [] and split_cell(" ") == []
    assert split_cell("x|| y ") == ["x", " y "]           # items stay byte-exact
    assert fbeta_metric.split_cell is split_cell
    core = jaccard_fbeta(["a b"], ["a b| |"])
    sol, sub = tmp_path / "sol.csv", tmp_path / "sub.csv"
    sol.write_text("Id,PredictionString\nd1,a b\n")
    sub.write_text("Id,PredictionString\nd1,a b| |\n")
    rep = score_files(sol, sub)
    assert (core.tp, core.fp, core.fn) == (rep.result.tp, rep.result.fp, rep.result.fn) == (1, 0, 0)
    # the field as the app parses an edit
    assert fbeta_metric.FBETA.parse(None, "a b| |", None) == ["a b"]


def test_long_solution_id_in_two_usage_splits_is_a_problem(tmp_path):
    sol, sub = tmp_path / "sol.csv", tmp_path / "sub.csv"
    sol.write_text("Id,cleaned_label,Usage\nd1,alpha,Public\nd1,beta,Private\nd2,gamma,Public\n"
                   "d2,delta,Public\n")
    sub.write_text("Id,PredictionString\nd1,alpha\nd2,gamma\n")
    with pytest.raises(InputError) as e:
        score_files(sol, sub)
    assert e.value.problems == ["solution sol.csv: column 'Usage': 1 id(s) have rows in more than one "
                                "of Public, Private and Ignored: id 'd1' (rows 1, 2)"]
    sol.write_text("Id,cleaned_label,Usage\nd1,alpha,Public\nd1,beta,Public\nd2,gamma,Private\n")
    rep = score_files(sol, sub)
    assert rep.splits["public"].fn == 1 and rep.splits["private"].tp == 1


def test_submission_usage_column_is_ignored_with_a_note(tmp_path):
    sol, sub = tmp_path / "sol.csv", tmp_path / "sub.csv"
    sol.write_text("id,rating,Usage\na,1,Public\nb,2,Private\nc,0,Public\n")
    sub.write_text("id,rating,Usage\na,1,Public\nb,2,Private\nc,1,Public\n")
    rep = score_files(sol, sub)
    assert rep.metric == "qwk"                     # before: detected as LwLRAP (two "classes")
    assert "the submission's 'Usage' column is ignored" in rep.reason
    from sklearn.metrics import cohen_kappa_score
    assert rep.score == pytest.approx(cohen_kappa_score([1, 2, 0], [1, 2, 1], weights="quadratic"))
    assert rep.splits["private"].undefined_reason    # one row: undefined, never 1.0


def test_optimize_cuts_options_reach_the_core():
    from kmetric_gui.metrics.kernels import optimize_cuts
    with pytest.raises(InputError, match="outside the declared range 1..2"):
        optimize_cuts(np.array([0, 1, 2]), np.array([0.0, 1.0, 2.0]), min_rating=1, max_rating=2)
    assert Options().max_inflated is None
