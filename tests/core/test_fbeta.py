import sys
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from kmetric_gui.metrics.kernels import document_matrices, jaccard, jaccard_fbeta, shared_tokens
from kmetric_gui.errors import InputError
from reference import close, fbeta_ref

# How the Jaccard of a block is computed, forced through the module's limits.
PATHS = {
    "table": {},                                          # one dense table
    "padded": {"_DENSE_MATMUL": 0},                       # padded tokens, bitset
    "padded-search": {"_DENSE_MATMUL": 0, "_BITSET_MAX": 0},
    "tokenwise": {"_DENSE_MATMUL": 0, "_PADDED_MAX": 0},
    "tokenwise-search": {"_DENSE_MATMUL": 0, "_PADDED_MAX": 0, "_BITSET_MAX": 0},
}


@contextmanager
def jaccard_path(name):
    mod = sys.modules["kmetric_gui.metrics.kernels.fbeta.table"]     # the Jaccard back-ends
    saved = {k: getattr(mod, k) for k in PATHS[name]}
    try:
        for k, v in PATHS[name].items():
            setattr(mod, k, v)
        yield
    finally:
        for k, v in saved.items():
            setattr(mod, k, v)

SEED_TRUTH = ("baccalaureate and beyond longitudinal study|baccalaureate and beyond|"
              "beginning postsecondary student|education longitudinal study|"
              "national education longitudinal study").split("|")
SEED_PRED = ["postsecondary student", "education longitudinal study", "xyz"]


@pytest.mark.parametrize("matching,counts,score", [
    ("many-to-one", (3, 1, 2), 0.714286),
    ("one-to-one", (2, 1, 3), 0.588235),
])
def test_seed_example(matching, counts, score):
    r = jaccard_fbeta([SEED_TRUTH], [SEED_PRED], matching=matching)
    assert (r.tp, r.fp, r.fn) == counts
    assert r.score == pytest.approx(score, abs=1e-6)
    assert r.per_document.tolist() == [list(counts)]


def test_document_matrices_seed():
    d = document_matrices(SEED_TRUTH, SEED_PRED, matching="many-to-one")
    assert d.predictions == sorted(SEED_PRED)
    assert d.truths == sorted(SEED_TRUTH)
    els = d.truths.index("education longitudinal study")
    assert d.jaccard[els, d.predictions.index("education longitudinal study")] == 1.0
    assert d.jaccard[d.truths.index("beginning postsecondary student"),
                     d.predictions.index("postsecondary student")] == pytest.approx(2 / 3)
    assert d.match.sum() == 3 and (d.tp, d.fp, d.fn) == (3, 1, 2)
    one = document_matrices(SEED_TRUTH, SEED_PRED)
    assert one.match.sum(axis=0).max() == 1 and (one.tp, one.fp, one.fn) == (2, 1, 3)


def test_alphabetically_first_prediction_wins_ties():
    d = document_matrices(["a b"], ["a c", "a d"], threshold=0.3)
    assert d.predictions == ["a c", "a d"]
    assert d.match.tolist() == [[True, False]]


def test_threshold_is_inclusive_and_jaccard_basics():
    assert jaccard("A b", "a c") == pytest.approx(1 / 3)
    assert jaccard("", "") == 0.0
    r = jaccard_fbeta([["a b"]], [["a c d b"]])  # 2/4 = 0.5
    assert r.tp == 1
    r = jaccard_fbeta([["a b"]], [["a c d b"]], threshold=0.51)
    assert (r.tp, r.fp, r.fn) == (0, 1, 1) and r.score == 0.0


def test_empty_prediction_and_undefined():
    r = jaccard_fbeta([["x y"], []], ["", ""])
    assert (r.tp, r.fp, r.fn) == (0, 0, 1)
    r = jaccard_fbeta([[]], [[]])
    assert np.isnan(r.score) and "nothing to score" in r.undefined_reason


def test_clean_option():
    r = jaccard_fbeta([["The U.S. Census"]], [["the u s census"]])
    assert r.tp == 0
    r = jaccard_fbeta([["The U.S. Census"]], [["the u s census"]], clean=True)
    assert r.tp == 1
    assert shared_tokens("The U.S.", "u s", clean=True) == ["s", "u"]


@pytest.mark.parametrize("kw,msg", [
    (dict(matching="greedy"), "unknown matching 'greedy'"),
    (dict(beta=0), "beta must be a positive number"),
    (dict(threshold=1.5), "threshold must be between 0 and 1"),
])
def test_bad_options(kw, msg):
    with pytest.raises(InputError, match=msg):
        jaccard_fbeta([["a"]], [["a"]], **kw)


def test_length_mismatch():
    with pytest.raises(InputError, match="differ in number of documents: 2 vs 1"):
        jaccard_fbeta([["a"], ["b"]], [["a"]])


words = st.sampled_from(["data", "survey", "study", "national", "census", "the", "of", "x"])
phrase = st.lists(words, min_size=0, max_size=4).map(" ".join)
docs = st.lists(st.tuples(st.lists(phrase, max_size=4), st.lists(phrase, max_size=4)),
                min_size=1, max_size=15)


@settings(max_examples=200, deadline=None)
@given(docs, st.sampled_from(["one-to-one", "many-to-one"]),
       st.sampled_from([0.0, 0.3, 0.5, 1.0]), st.sampled_from([0.5, 1.0, 2.0]))
def test_random_against_loop(d, matching, threshold, beta):
    truths = [a for a, _ in d]
    preds = [b for _, b in d]
    r = jaccard_fbeta(truths, preds, matching=matching, threshold=threshold, beta=beta)
    ref, counts = fbeta_ref(truths, preds, beta, threshold, matching)
    assert (r.tp, r.fp, r.fn) == counts
    assert close(r.score, ref, 1e-12)
    for i, (t, p) in enumerate(d):
        dm = document_matrices(t, p, matching=matching, threshold=threshold)
        assert [dm.tp, dm.fp, dm.fn] == r.per_document[i].tolist()


@settings(max_examples=60, deadline=None)
@given(docs, st.sampled_from(["one-to-one", "many-to-one"]))
def test_all_jaccard_paths_agree(d, matching):
    truths, preds = [a for a, _ in d], [b for _, b in d]
    got = {}
    for name in PATHS:
        with jaccard_path(name):
            got[name] = jaccard_fbeta(truths, preds, matching=matching).per_document.tolist()
    assert all(v == got["table"] for v in got.values()), got


def test_non_string_items_rejected():
    with pytest.raises(InputError, match="item 1 is not a string"):
        jaccard_fbeta([[1]], [["a"]])
    with pytest.raises(InputError, match=r"predictions: item \['x'\] is not a string"):
        jaccard_fbeta([["a"]], [["b", ["x"]]])    # unhashable, too


@settings(max_examples=60, deadline=None)
@given(docs, st.sampled_from(["one-to-one", "many-to-one"]))
def test_int_ids_path_agrees_with_char_ids(d, matching):
    mod = sys.modules["kmetric_gui.metrics.kernels.fbeta.text"]      # where ids are handed out
    truths, preds = [a for a, _ in d], [b for _, b in d]
    chars = jaccard_fbeta(truths, preds, matching=matching, clean=True)
    old = mod._CHAR_IDS
    try:
        mod._CHAR_IDS = 0
        ints = jaccard_fbeta(truths, preds, matching=matching, clean=True)
    finally:
        mod._CHAR_IDS = old
    assert chars.per_document.tolist() == ints.per_document.tolist()
    ref = fbeta_ref(truths, preds, matching=matching, clean=True)[1]
    assert (ints.tp, ints.fp, ints.fn) == ref


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("matching", ["one-to-one", "many-to-one"])
def test_wide_and_uneven_documents_against_loop(matching, path):
    # Widths from 0 to 300 predictions and up to 40 truths per document: many
    # padding classes and ranks, duplicates and ties inside one document.
    rng = np.random.default_rng(7)
    vocab = [f"w{i}" for i in range(12)]
    truths, preds = [], []
    for n_t, n_p in [(40, 300), (3, 0), (0, 5), (1, 1), (7, 33), (5, 64), (2, 65), (12, 9)]:
        truths.append([" ".join(rng.choice(vocab, rng.integers(1, 4))) for _ in range(n_t)])
        preds.append([" ".join(rng.choice(vocab, rng.integers(1, 4))) for _ in range(n_p)])
    for threshold in (0.0, 0.3, 0.5, 1.0):
        with jaccard_path(path):
            r = jaccard_fbeta(truths, preds, matching=matching, threshold=threshold)
        ref = fbeta_ref(truths, preds, threshold=threshold, matching=matching)[1]
        assert (r.tp, r.fp, r.fn) == ref


def test_ties_go_to_the_alphabetically_first_prediction_in_any_input_order():
    # "a c" and "a b" score 1/3 against "a d"; unsorted input must not matter.
    for preds in (["a c", "a b"], ["a b", "a c"]):
        d = document_matrices(["a d"], preds, threshold=0.3)
        assert d.predictions == ["a b", "a c"]
        assert d.match.tolist() == [[True, False]]
    # One-to-one: the first truth (alphabetically) takes "a b", the second gets "a c".
    r = jaccard_fbeta([["a e", "a d"]], [["a c", "a b"]], threshold=0.3)
    assert (r.tp, r.fp, r.fn) == (2, 0, 0)
    d = document_matrices(["a e", "a d"], ["a c", "a b"], threshold=0.3)
    assert d.truths == ["a d", "a e"] and d.match.tolist() == [[True, False], [False, True]]


def test_document_kinds_mixed():
    # A '|'-joined cell, None, a tuple and lists, in one call: the same as lists.
    truths = [["abc def"], "abc def|x y", None, ("p q",), "a|b"]
    preds = [["abc def"], "abc def", ["z"], ["p q"], ["a"]]
    as_lists = [["abc def"], ["abc def", "x y"], [], ["p q"], ["a", "b"]]
    pred_lists = [["abc def"], ["abc def"], ["z"], ["p q"], ["a"]]
    r = jaccard_fbeta(truths, preds)
    assert (r.tp, r.fp, r.fn) == fbeta_ref(as_lists, pred_lists)[1] == (4, 1, 2)
    assert r.per_document.tolist() == jaccard_fbeta(as_lists, pred_lists).per_document.tolist()
    with pytest.raises(InputError, match="document 0 is not a list of strings"):
        jaccard_fbeta([5], [["a"]])


big_docs = st.lists(st.tuples(st.lists(phrase, max_size=12), st.lists(phrase, max_size=40)),
                    min_size=1, max_size=6)


@settings(max_examples=80, deadline=None)
@given(big_docs, st.sampled_from(["one-to-one", "many-to-one"]),
       st.floats(0, 1), st.booleans(), st.sampled_from(list(PATHS)))
def test_larger_documents_against_loop(d, matching, threshold, clean, path):
    # Up to 12 truths x 40 predictions per document: many width classes,
    # ranks and ties, on every Jaccard path.
    truths, preds = [a for a, _ in d], [b for _, b in d]
    with jaccard_path(path):
        r = jaccard_fbeta(truths, preds, matching=matching, threshold=threshold, clean=clean)
    ref, counts = fbeta_ref(truths, preds, threshold=threshold, matching=matching, clean=clean)
    assert (r.tp, r.fp, r.fn) == counts


def test_dense_table_stays_small():
    # Many spellings of three words: S is large, V tiny. The S x S table would
    # be S^2 floats; the padded path must take over, with the same counts.
    import itertools
    from kmetric_gui.metrics.kernels.fbeta.table import _Prepared
    strs = [" ".join(p) for n in (4, 5, 6) for p in itertools.product("aAbBc", repeat=n)][:6000]
    prep = _Prepared([strs[:3000]], [strs[3000:]], False)
    assert len(prep.strings) == 6000 and prep.vocab_size <= 4
    assert not prep.dense(3000 * 3000)
    truths, preds = [strs[i:i + 3] for i in range(0, 600, 3)], [strs[i + 1:i + 4] for i in range(0, 600, 3)]
    r = jaccard_fbeta(truths, preds)
    assert (r.tp, r.fp, r.fn) == fbeta_ref(truths, preds)[1]


def test_dense_table_skipped_for_a_few_very_long_strings(monkeypatch):
    # S x S x V within the limit but the S x V token matrix over its share:
    # (scaled down: the real limits need strings of millions of words).
    import kmetric_gui.metrics.kernels.fbeta.table as mod
    monkeypatch.setattr(mod, "_DENSE_MATMUL", 1 << 14)
    long_a = " ".join(f"w{i}" for i in range(600))
    long_b = " ".join(f"w{i}" for i in range(300, 900))
    truths, preds = [[long_a, "x y"]] * 3, [[long_b, "x z"]] * 3
    prep = mod._Prepared(truths, preds, False)
    assert len(prep.strings) == 4 and prep.vocab_size > 900
    assert len(prep.strings) ** 2 * prep.vocab_size <= 1 << 14
    assert not prep.dense(100)
    r = jaccard_fbeta(truths, preds, threshold=0.3)
    assert (r.tp, r.fp, r.fn) == fbeta_ref(truths, preds, threshold=0.3)[1] == (6, 0, 0)
