"""The newer families' tables (issue 34, item 1): one value a cell, every cell editable,
what a cell shows typed back gives the same value; edits where the statistics cannot
follow them (a weights column, a MAPE row of truth 0, a column left constant, a class
new to a split) equal scoring from scratch and the metric's independent reference."""
import numpy as np
import pandas as pd
import pytest
from filemaker import write

from kmetric_gui import metrics
from kmetric_gui.analysis.scoring import Options, load, score_prepared
from kmetric_gui.gui.controller import changed_cells
from kmetric_gui.metrics.base import split_rows
from kmetric_gui.metrics.references import same
from kmetric_gui.state import Session

NEW = ("pearson", "spearman", "kendall", "mcc", "smape", "mape", "ndcg", "levenshtein",
       "jaccard_words", "kl_divergence", "laplace_ll", "angular")


def _demo(name):
    m = metrics.get_metric(name)
    sol, sub = m.demo_paths()
    opts = Options(metric=name)
    s = Session(opts)
    s.load(load(sol, sub, opts))
    return s


def _equal(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b))
    return list(a) == list(b) if isinstance(a, list) else a == b


@pytest.mark.parametrize("name", NEW)
def test_every_column_is_one_editable_value_named_by_its_file_column(name):
    s = _demo(name)
    prep = s.data.base
    cols = s.metric.table_columns(prep)
    assert cols and all(c.spec is not None for c in cols)
    heads = " ".join(c.name for c in cols)
    assert all(t in heads for t in prep.target_columns)
    for c in cols:
        for u in range(0, len(s.data), max(1, len(s.data) // 7)):
            value = s.data.value(c.spec, u)
            text = c.fmt(value)
            assert not text.startswith("[")            # not a row of several values
            assert _equal(s.metric.parse(c.spec, text, prep), value), (c.name, u, text)


def _session(tmp_path, name, sol, sub, **options):
    s_path = write(tmp_path / "sol.csv", pd.DataFrame(sol).to_csv(index=False))
    p_path = write(tmp_path / "sub.csv", pd.DataFrame(sub).to_csv(index=False))
    opts = Options(metric=name).with_(**options)
    s = Session(opts)
    s.load(load(s_path, p_path, opts))
    return s


def _edit_and_check(s, edits):
    """Each (field, row, part, text) typed in turn; the report each edit gives (rescored
    from the one before when the metric can) equals the full score and the reference."""
    from kmetric_gui.fields import FieldSpec
    report, version = score_prepared(s.data.prepared(), s.options), s.data
    for field, row, part, text in edits:
        assert s.edit_text(FieldSpec(field, part), row, text) is None
        cells = changed_cells(version.overlay, s.data.overlay)
        fast = s.metric.rescore_cells(report, cells, version, s.data)
        prep = s.data.prepared()
        full = score_prepared(prep, s.options)
        fast = full if fast is None else fast
        for split in ("all", *full.splits):
            a = fast.result if split == "all" else fast.splits[split]
            b = full.result if split == "all" else full.splits[split]
            assert same(a.score, b.score, 1e-12), (field, row, text, split)
        report, version = fast, s.data
    return report


def _rows(n, seed):
    rng = np.random.default_rng(seed)
    ids = [f"r{i:03d}" for i in range(n)]
    usage = np.where(np.arange(n) % 3 == 0, "Private", "Public")
    return rng, ids, usage


@pytest.mark.parametrize("name", ["pearson", "spearman", "smape", "mcc", "ndcg"])
def test_edits_with_a_weights_column_are_scored_again(tmp_path, name):
    rng, ids, usage = _rows(60, 1)
    w = np.round(rng.uniform(0.5, 2, 60), 3)
    if name == "mcc":
        y, p = rng.choice(["a", "b", "c"], 60), rng.choice(["a", "b", "c"], 60)
        edits = [("pred", 3, None, "b"), ("truth", 5, None, "c"), ("pred", 4, None, "a")]
    elif name == "ndcg":
        y = [" ".join(rng.choice(list("abcdef"), 2, replace=False)) for _ in ids]
        p = [" ".join(rng.choice(list("abcdef"), 4, replace=False)) for _ in ids]
        edits = [("pred", 3, None, "a b c"), ("truth", 5, None, "d")]
    else:
        y = np.round(rng.normal(5, 2, 60), 3)
        p = np.round(y + rng.normal(0, 1, 60), 3)
        edits = [("pred", 3, None, "2.5"), ("truth", 5, None, "7"), ("pred", 4, None, "-1")]
    s = _session(tmp_path, name, {"id": ids, "y": y, "weight": w, "Usage": usage},
                 {"id": ids, "y": p}, weights_column="weight")
    _edit_and_check(s, edits)


def test_mape_rows_of_truth_zero_follow_their_edits_exactly(tmp_path):
    rng, ids, usage = _rows(40, 2)
    y = np.round(rng.uniform(1, 9, 40), 2)
    y[[2, 7, 11]] = 0.0                     # each weighs |prediction| / 2.2e-16
    p = np.round(y + rng.normal(0, 0.5, 40), 2)
    s = _session(tmp_path, "mape", {"id": ids, "y": y, "Usage": usage}, {"id": ids, "y": p})
    rep = _edit_and_check(s, [("pred", 2, None, "3.5"), ("pred", 4, None, "1.25"),
                              ("truth", 7, None, "2"), ("truth", 5, None, "0"),
                              ("pred", 11, None, "0")])
    from sklearn.metrics import mean_absolute_percentage_error
    prep = s.data.prepared()
    assert same(rep.score, mean_absolute_percentage_error(prep.truth, prep.pred), 1e-12)
    lines = s.metric.summary_lines(rep)
    assert lines == s.metric.summary_lines(score_prepared(prep, s.options))
    assert lines[-1].startswith("3 row(s) with truth 0")          # 7 left 0, 5 came to it


def test_a_column_edited_to_one_value_says_why_as_a_full_score_does(tmp_path):
    rng, ids, usage = _rows(8, 3)
    y = np.round(rng.normal(5, 2, 8), 3)
    s = _session(tmp_path, "pearson", {"id": ids, "y": y, "Usage": usage},
                 {"id": ids, "y": np.round(y + 1, 3)})
    rep = _edit_and_check(s, [("pred", i, None, "4") for i in range(8)] + [("pred", 0, None, "5")])
    assert np.isfinite(rep.score)
    prep = s.data.prepared()
    assert same(rep.score, s.metric.reference(prep, s.options, split_rows(prep.usage)))


def test_mcc_edits_that_bring_or_empty_a_class_equal_scikit_learn(tmp_path):
    ids = [f"r{i}" for i in range(9)]
    y = ["a", "a", "b", "b", "c", "a", "b", "a", "c"]
    p = ["a", "b", "b", "b", "a", "a", "a", "a", "b"]
    s = _session(tmp_path, "mcc", {"id": ids, "y": y}, {"id": ids, "y": p})
    rep = _edit_and_check(s, [("pred", 0, None, "c"),        # a class new to the predictions
                              ("truth", 4, None, "a"), ("truth", 8, None, "a"),   # c leaves
                              ("pred", 1, None, "a"), ("pred", 2, None, "a")])
    from sklearn.metrics import matthews_corrcoef
    prep = s.data.prepared()
    assert same(rep.score, matthews_corrcoef(prep.truth, prep.pred), 1e-12)
    assert s.metric.summary_lines(rep) == s.metric.summary_lines(score_prepared(prep, s.options))
