"""Bad input through the API: one InvalidInput listing every problem, in the CLI's words
for the same data written to files (a frame is named where the file's name would be)."""
import numpy as np
import pandas as pd
import pytest

import kmetric_gui as km
from helpers import demo, kmetric, problems_of


def frames(metric="rmse"):
    sol, sub, _ = demo(metric)
    head = pd.read_csv(sol, nrows=0).columns
    return (pd.read_csv(sol, dtype={head[0]: str}, keep_default_na=False),
            pd.read_csv(sub, dtype={head[0]: str}, keep_default_na=False))


def spoiled():
    """Submissions with each kind of fault: missing and extra ids, a repeated id, NaN and
    infinity, text among numbers, a column renamed."""
    sol, sub = frames()
    missing = sub.drop(index=[3, 8])
    extra = sub.copy()
    extra.loc[5, "id"] = "nobody"
    repeated = sub.copy()
    repeated.loc[7, "id"] = repeated.loc[6, "id"]
    nan = sub.copy()
    nan["price"] = nan["price"].astype(float)
    nan.loc[[2, 9], "price"] = [np.nan, np.inf]
    text = sub.astype({"price": object})
    text.loc[4, "price"] = "12,5"
    renamed = sub.rename(columns={"price": "cost"})
    return sol, {"missing": missing, "extra": extra, "repeated": repeated, "nan": nan,
                 "text": text, "renamed": renamed}


@pytest.mark.parametrize("case", ["missing", "extra", "repeated", "nan", "text", "renamed"])
def test_frames_fail_with_the_problems_of_files(tmp_path, case):
    sol, subs = spoiled()
    sub = subs[case]
    sol.to_csv(tmp_path / "sol.csv", index=False)
    sub.to_csv(tmp_path / "sub.csv", index=False, na_rep="nan")
    code, _, err = kmetric("score", tmp_path / "sol.csv", tmp_path / "sub.csv", "--metric", "rmse")
    assert code == 2
    want = [p.replace("submission sub.csv", "submission (DataFrame)")
             .replace("solution sol.csv", "solution (DataFrame)") for p in problems_of(err)]
    with pytest.raises(km.InvalidInput) as e:
        km.score(sol, sub, "rmse")
    assert e.value.problems == want
    assert str(e.value).splitlines() == want
    assert isinstance(e.value, ValueError)


def test_every_problem_of_both_inputs_at_once():
    sol, subs = spoiled()
    bad = subs["missing"].copy()
    bad.loc[bad.index[0], "id"] = "nobody"
    with pytest.raises(km.InvalidInput) as e:
        km.score(sol, bad, "rmse")
    text = str(e.value)
    assert "id(s) of the solution are missing" in text and "are not in the solution" in text
    assert len(e.value.problems) == 2


def test_a_function_that_raises_is_one_line_naming_it():
    sol, sub = frames()

    def strict_rmse(solution, submission, row_id_column_name):
        raise ValueError("submission has  a negative\nprice")
    with pytest.raises(km.InvalidInput) as e:
        km.score(sol, sub, strict_rmse, higher_is_better=False)
    assert e.value.problems == ["metric strict_rmse (Python function): ValueError: submission "
                                "has a negative price"]


def test_a_function_returning_no_number_and_a_participant_error():
    sol, sub = frames()

    class ParticipantVisibleError(Exception):
        pass

    def words(solution, submission, row_id_column_name):
        return "good"

    def visible(solution, submission, row_id_column_name):
        raise ParticipantVisibleError("Submission column price must be positive")
    with pytest.raises(km.InvalidInput, match="score\\(\\) returned str, not a number"):
        km.score(sol, sub, words, higher_is_better=True)
    with pytest.raises(km.InvalidInput) as e:
        km.score(sol, sub, visible, higher_is_better=True)
    assert e.value.problems == ["metric visible: Submission column price must be positive"]


@pytest.mark.parametrize("call, words", [
    (lambda s, u: km.score(s, u, "rmse", ci=1.5), "ci must be between 0 and 1"),
    (lambda s, u: km.score(s, u, "rmse", bootstrap=0), "bootstrap must be between 1"),
    (lambda s, u: km.score(s, u, "rmse", beta=2), "beta is not an option of RMSE"),
    (lambda s, u: km.score(s, u, "nope"), "metric must be a built-in name"),
    (lambda s, u: km.score(s, u, lambda a, b: 1.0, higher_is_better=True),
     "must take (solution, submission, row_id_column_name"),
    (lambda s, u: km.score(s, u, lambda a, b, c: 1.0), "does not say whether a higher"),
    (lambda s, u: km.score(s, u, "rmse", competition="some-slug"), "competition catalog"),
    (lambda s, u: km.score(s, [1, 2, 3], "rmse"), "expected a path, a pandas or polars"),
    (lambda s, u: km.score(s, u, "rmse", top_fixes=0), "top_fixes expects a whole number"),
    (lambda s, u: km.score(s, u, "rmse", public_fraction=0.2), "add shakeup"),
])
def test_bad_settings_are_one_line_in_words(call, words):
    sol, sub = frames()
    with pytest.raises(km.InvalidInput) as e:
        call(sol, sub)
    assert words in str(e.value)
    assert "Traceback" not in str(e.value) and "--" not in str(e.value)


def test_a_missing_file_and_a_bad_frame_are_both_listed(tmp_path):
    sol, _ = frames()
    with pytest.raises(km.InvalidInput) as e:
        km.score(tmp_path / "absent.csv", sol.rename(columns={"id": "other"}), "rmse")
    assert any("absent.csv" in p for p in e.value.problems)


def test_duplicate_column_names_of_a_frame():
    sol, sub = frames()
    dup = pd.concat([sub, sub[["price"]]], axis=1)
    with pytest.raises(km.InvalidInput, match="duplicate column name"):
        km.score(sol, dup, "rmse")
