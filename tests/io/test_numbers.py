"""numbers.py: the one strict number grammar (METRICS.md section 4)."""
import warnings

import numpy as np
import pyarrow as pa
import pytest

from kmetric_gui.numbers import column_numbers, parse_number, parse_rating, why_not_number

GOOD = {"3": 3.0, "+3": 3.0, "-0": 0.0, "2.0": 2.0, "1e0": 1.0, ".5": 0.5, "5.": 5.0,
        " 7 ": 7.0, "\t-2.5e-1": -0.25, "1E3": 1000.0, "007": 7.0, "1e308": 1e308}
BAD = {"0x3": "hexadecimal", "-0X1f": "hexadecimal", "1_0": "underscores", "1,000": "commas",
       "\uff13": "digits 0-9", "\u0663": "digits 0-9", "three": "not a decimal number",
       "true": "true/false", "": "empty", "   ": "empty", "nan": "not a finite",
       "-inf": "not a finite", "Infinity": "not a finite", "1e400": "too large",
       "1.2.3": "not a decimal number", "e5": "not a decimal number", "+": "not a decimal",
       "3 4": "not a decimal"}


@pytest.mark.parametrize("text", GOOD)
def test_accepted(text):
    assert parse_number(text) == GOOD[text]
    assert why_not_number(text) is None


@pytest.mark.parametrize("text", BAD)
def test_rejected_in_words(text):
    with pytest.raises(ValueError) as e:
        parse_number(text)
    assert BAD[text] in str(e.value)
    assert "np." not in str(e.value) and "float(" not in str(e.value)


def test_python_float_is_laxer_than_the_grammar():
    # the reference: every one of these passes float() or int(x, 0) yet must be rejected
    for text in ("1_0", "nan", "inf", "\uff13", "0x3"):
        try:
            float(text)
        except ValueError:
            assert int(text, 0) == 3
        with pytest.raises(ValueError):
            parse_number(text)


@pytest.mark.parametrize("text,value", [("3", 3), ("2.0", 2), ("-1", -1), ("1e2", 100),
                                        ("9007199254740991", 2 ** 53 - 1), (" +4 ", 4)])
def test_rating_accepted(text, value):
    v = parse_rating(text)
    assert v == value and isinstance(v, int)


@pytest.mark.parametrize("text,why", [("2.5", "whole"), ("9007199254740993", "too large"),
                                      ("9007199254740992", "too large"), ("1e308", "too large"),
                                      ("18446744073709551616", "too large"), ("0x3", "hexadecimal"),
                                      ("1e400", "too large"), ("nan", "finite")])
def test_rating_rejected(text, why):
    with pytest.raises(ValueError, match=why):
        parse_rating(text)


def _col(values, integer=False):
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # no numpy RuntimeWarning may leak
        return column_numbers(pa.array(values), integer=integer)


def test_column_text_matches_scalar_grammar():
    texts = list(GOOD) + list(BAD) + [None]
    cv = _col(texts)
    expect_bad = [i for i, t in enumerate(texts) if t is None or t in BAD]
    assert cv.bad.tolist() == expect_bad
    for i, t in enumerate(texts):
        if i not in expect_bad:
            assert cv.values[i] == GOOD[t]
    assert "hexadecimal" in cv.reason(texts.index("0x3"))
    assert cv.reason(len(texts) - 1) == "empty"


def test_column_ratings_from_text_and_numbers():
    cv = _col(["1", "2.0", "2.5", "9007199254740993", "1e308", "x", " 4"], integer=True)
    assert cv.values.dtype == np.int64
    assert cv.bad.tolist() == [5]
    assert cv.fraction.tolist() == [2]
    assert cv.too_large.tolist() == [3, 4]
    assert cv.values[[0, 1, 6]].tolist() == [1, 2, 4]
    ints = _col(pa.array([1, 2 ** 63 - 1, -(2 ** 53), 3]), integer=True)
    assert ints.too_large.tolist() == [1, 2] and ints.bad.size == 0
    u = column_numbers(pa.array([2 ** 64 - 1, 1], pa.uint64()), integer=True)
    assert u.too_large.tolist() == [0]
    fl = _col(pa.array([1.0, np.nan, 1e308, 2.0 ** 64, None]), integer=True)
    assert fl.bad.tolist() == [1, 4] and fl.too_large.tolist() == [2, 3]


def test_column_non_numeric_types_rejected():
    for arr in (pa.array([True, False]), pa.array([1, 2], pa.timestamp("s")),
                pa.array([[1], [2]])):
        cv = column_numbers(arr)
        assert cv.bad.tolist() == [0, 1]


def test_column_scores_float():
    cv = _col(pa.array([0.5, None, 1e308]))
    assert cv.bad.tolist() == [1] and cv.values[2] == 1e308
    cv = _col(pa.chunked_array([[1, 2], [3]]))
    assert cv.values.tolist() == [1.0, 2.0, 3.0] and cv.ok


def test_missing_numbers_are_called_empty():
    cv = column_numbers(pa.array([1, None, 3]), integer=True)
    assert cv.bad.tolist() == [1] and cv.reason(1) == "empty"
    cv = column_numbers(pa.array([1.5, None]))
    assert cv.bad.tolist() == [1] and cv.reason(1) == "empty"


def test_chunked_numeric_columns_read_like_their_combined_copy():
    import pyarrow as pa
    from kmetric_gui.numbers import column_numbers
    rng = np.random.default_rng(3)
    floats = [rng.normal(size=k) for k in (5, 0, 7, 3)]
    floats[2][4], floats[3][0] = np.nan, -np.inf
    ints = [rng.integers(-2 ** 62, 2 ** 62, k) for k in (4, 6, 1)]
    for parts, typ in ((floats, pa.float64()), (ints, pa.int64()),
                       ([f.astype(np.float32) for f in floats], pa.float32())):
        col = pa.chunked_array([pa.array(p, type=typ) for p in parts], type=typ)
        got, want = column_numbers(col), column_numbers(col.combine_chunks())
        assert got.values.dtype == want.values.dtype
        np.testing.assert_array_equal(got.values, want.values)
        np.testing.assert_array_equal(got.bad, want.bad)
        assert [got.reason(r) for r in got.bad] == [want.reason(r) for r in want.bad]
        assert [str(got.raw(r)) for r in got.bad] == [str(want.raw(r)) for r in want.bad]
    assert column_numbers(pa.chunked_array([floats[0], floats[2]])).bad.tolist() == [9]
