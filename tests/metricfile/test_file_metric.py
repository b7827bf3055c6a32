"""A metric file registered as a Metric of the contract: the table's edits are what it
scores, and the generic statistics, comparison, blends and fix first run through it.
References: score() called in this process on pandas frames (a plain script), and the
files themselves written with the edit and scored afresh."""
import csv
from pathlib import Path

import numpy as np
import pytest

from kmetric_gui import metrics
from kmetric_gui.analysis.comparison import CompareOptions, compare_reports
from kmetric_gui.analysis.scoring import Options, load, score_prepared
from kmetric_gui.analysis.stats import StatsOptions, analyze
from kmetric_gui.fields import FieldSpec
from kmetric_gui.metricfile.metric import file_metric
from kmetric_gui.metrics.base import split_rows
from kmetric_gui.state.session import Session

EX = Path(__file__).resolve().parents[2] / "resources" / "metrics"
SOL, SUB = EX / "kl_solution.csv", EX / "kl_submission.csv"


@pytest.fixture(scope="module")
def kl():
    m = file_metric(EX / "kl_divergence.py", paths=(SOL, SUB))
    metrics.register(m)
    yield m
    metrics.unregister(m.name)
    m.close()


def _written(tmp_path, path, edits):
    """A copy of a CSV with cells changed: {(row, column name): text}."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    for (r, col), text in edits.items():
        rows[r + 1][head.index(col)] = text
    out = tmp_path / Path(path).name
    with open(out, "w", newline="") as f:
        csv.writer(f).writerows(rows)
    return out


def test_scores_equal_a_plain_call(kl):
    o = Options(metric=kl.name)
    rep = score_prepared(load(SOL, SUB, o), o)
    assert rep.metric == kl.name and rep.definition.higher_is_better is False
    for split, result in [("all", rep.result), *rep.splits.items()]:
        rows = split_rows(rep.prepared.usage, split)
        assert result.score == pytest.approx(kl.reference(rep.prepared, o, rows), abs=1e-12)


def test_an_edit_is_what_it_scores(kl, tmp_path):
    """A submission cell and a solution cell edited in the session: the score equals
    the files written with those cells and scored afresh (another worker), and the
    plain call on the edited frames; undo gives the file's score back."""
    o = Options(metric=kl.name)
    prep = load(SOL, SUB, o)
    s = Session(o)
    s.load(prep, SOL, SUB)
    before = score_prepared(s.data.prepared(), o).score
    # two cells of a row each side, moved by the same amount: rows still sum to one
    sub_edits, sol_edits = {}, {}
    for side, block, row, edits in (("pred", prep.pred, 4, sub_edits),
                                    ("truth", prep.truth, 7, sol_edits)):
        j1, j2 = block.names.index("class_1"), block.names.index("class_2")
        v1, v2 = float(block[row, j1]), float(block[row, j2])
        d = min(0.03, v2 / 2)
        for j, v in ((j1, v1 + d), (j2, v2 - d)):
            assert s.edit_text(FieldSpec(side, j), row, repr(v)) is None
            edits[(row, block.names[j])] = repr(v)
    assert "not a number" in s.edit_text(FieldSpec("pred", 0), 5, "lots")   # refused: why
    edited = score_prepared(s.data.prepared(), o)
    sub2 = _written(tmp_path, SUB, sub_edits)
    (tmp_path / "s").mkdir()
    sol2 = _written(tmp_path / "s", SOL, sol_edits)
    fresh = score_prepared(load(sol2, sub2, o), o)
    assert edited.score == pytest.approx(fresh.score, abs=1e-12)
    assert edited.score == pytest.approx(kl.reference(s.data.prepared(), o), abs=1e-12)
    assert edited.score != pytest.approx(before)
    for split in ("public", "private"):
        assert edited.splits[split].score == pytest.approx(fresh.splits[split].score, abs=1e-12)
    for _ in range(4):
        s.undo()
    assert score_prepared(s.data.prepared(), o).score == pytest.approx(before, abs=1e-12)


def test_statistics_compare_blend_and_fixes_run_through_it(kl, tmp_path):
    o = Options(metric=kl.name)
    rep = score_prepared(load(SOL, SUB, o), o)
    st = analyze(rep, StatsOptions(level=0.9, replicates=100, seed=3), strict=True)
    iv = st.intervals["ci"]
    assert iv.low < rep.score < iv.high and iv.replicates == 100
    # B: A's predictions pulled towards the truth on every other row (better: lower KL)
    import pandas as pd
    a, t = pd.read_csv(SUB), pd.read_csv(SOL)
    b = a.copy()
    cols = [c for c in a.columns if c != "id"]
    b.loc[::2, cols] = 0.5 * a.loc[::2, cols].to_numpy() + 0.5 * t.loc[::2, cols].to_numpy()
    b_path = tmp_path / "b.csv"
    b.to_csv(b_path, index=False)
    rep_b = score_prepared(load(SOL, b_path, o), o)
    assert rep_b.score < rep.score
    cmp = compare_reports(["a", "b"], [str(SUB), str(b_path)], [rep, rep_b], CompareOptions(
        replicates=100, permutations=20, splits=20, seed=1, alphas=None))
    assert cmp.best == 1                            # lower is better: B
    pair = cmp.pairs[0]
    assert pair.stats.p_b_better > 0.5
    curve = kl.blend(rep, rep_b)
    assert curve.scores[-1] == pytest.approx(rep.score, abs=1e-12)     # alpha 1: A alone
    assert curve.scores[0] == pytest.approx(rep_b.score, abs=1e-12)    # alpha 0: B alone
    fl = kl.fixes(rep, split_rows(rep.prepared.usage), 3)
    assert len(fl) == 3 and (fl.gains > 0).all()
    # the score after fixing the first row: the plain call with that row set to its truth
    prep = rep.prepared
    row = int(split_rows(prep.usage)[fl.units[0]]) if prep.usage is not None and \
        split_rows(prep.usage) is not None else int(fl.units[0])
    fixed = prep.pred.editable()
    for j, name in enumerate(prep.pred.names):
        fixed[row, j] = prep.truth[row, prep.truth.names.index(name)]
    from dataclasses import replace
    want = kl.reference(replace(prep, pred=fixed), o, split_rows(prep.usage))
    assert fl.score_after[0] == pytest.approx(want, abs=1e-12)
    assert np.isfinite(fl.score_after).all()


def test_where_they_differ_by_rows(kl, tmp_path):
    """Rows whose predictions differ most, each with score(B) - score(B with A's row),
    equal to the plain call on B's frames with that row taken from A."""
    import pandas as pd
    o = Options(metric=kl.name)
    a = pd.read_csv(SUB)
    b = a.copy()
    cols = [c for c in a.columns if c != "id"]
    b.loc[[3, 10, 11], cols] = np.full((3, len(cols)), 1.0 / len(cols))
    b_path = tmp_path / "b.csv"
    b.to_csv(b_path, index=False)
    rep_a = score_prepared(load(SOL, SUB, o), o)
    rep_b = score_prepared(load(SOL, b_path, o), o)
    d = kl.differ(rep_a, rep_b, None, 0, 1)
    assert sorted(d.units.tolist()) == [3, 10, 11] and not d.higher_is_better
    from dataclasses import replace
    pb = rep_b.prepared
    row = int(d.units[0])
    mixed = pb.pred.editable()
    for j in range(len(mixed.names)):
        mixed[row, j] = rep_a.prepared.pred[row, j]
    want = rep_b.score - kl.reference(replace(pb, pred=mixed), o)
    assert d.delta[0] == pytest.approx(want, abs=1e-12)
    # Each listed row's predictions in words, beside the truth (the table's A and B).
    sol = pd.read_csv(SOL)
    words = lambda frame: ", ".join(f"{v:g}" for v in frame.loc[row, cols[:4]])  # noqa: E731
    assert d.a_text[0] == f"truth {words(sol)}; predicted {words(a)}"
    assert d.b_text[0] == f"truth {words(sol)}; predicted {words(b)}"
    assert len(d.a_text) == len(d.b_text) == d.units.size
