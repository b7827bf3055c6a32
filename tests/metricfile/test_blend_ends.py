"""A metric file's blend curve takes its two ends from the scores already known:
alpha 1 is A's own score and alpha 0 B's, so the file is called for the inner
alphas only. The file counts its own calls (one line each, the blended
predictions of the first row written), and the ends still equal the two scores."""
import textwrap
from pathlib import Path

import numpy as np
import pytest

from kmetric_gui import metrics
from kmetric_gui.analysis.scoring import Options, load, score_prepared
from kmetric_gui.metricfile.kaggle import direction, open_worker
from kmetric_gui.metricfile.metric import FileMetric
from kmetric_gui.metricfile.runner import Limits

EX = Path(__file__).resolve().parents[2] / "resources" / "metrics"
SOL, SUB, SUB_B = EX / "kl_solution.csv", EX / "kl_submission.csv", EX / "kl_submission_b.csv"


def counting(tmp_path):
    calls = tmp_path / "calls.txt"
    p = tmp_path / "counted.py"
    p.write_text(textwrap.dedent(f"""
        HIGHER_IS_BETTER = False
        def score(solution, submission, row_id_column_name):
            with open({str(calls)!r}, 'a') as f:
                f.write(repr(float(submission['class_0'].iloc[0])) + '\\n')
            cols = [c for c in submission.columns if c != row_id_column_name]
            return float((solution[cols] - submission[cols]).abs().to_numpy().mean())
        """))
    return p, calls


@pytest.fixture
def metric(tmp_path):
    path, calls = counting(tmp_path)

    def opened(truth, submission, id_col):       # the file writes its count outside its scratch
        return open_worker(path, (truth, submission), id_col, limits=Limits(sandbox="off"))
    first = opened("", "", None)
    info = first.inspect()
    m = FileMetric(first.source, info, direction(info, None, first.source.name), opened)
    first.close()
    metrics.register(m)
    yield m, calls
    metrics.unregister(m.name)
    m.close()


def _plain(alpha):
    """The metric by plain loops on the files: mean absolute difference of every cell."""
    import csv
    read = lambda p: {r["id"]: r for r in csv.DictReader(open(p, newline=""))}   # noqa: E731
    sol, a, b = read(SOL), read(SUB), read(SUB_B)
    cols = [c for c in next(iter(a.values())) if c != "id"]
    diffs = [abs(float(sol[i][c]) - (alpha * float(a[i][c]) + (1 - alpha) * float(b[i][c])))
             for i in sol if sol[i]["Usage"] in ("Public", "Private") for c in cols]
    return sum(diffs) / len(diffs)


def test_the_curve_ends_are_the_two_scores_not_calls(metric):
    m, calls = metric
    o = Options(metric=m.name)
    rep_a = score_prepared(load(SOL, SUB, o), o)
    rep_b = score_prepared(load(SOL, SUB_B, o), o)
    before = len(calls.read_text().splitlines())
    curve = m.blend(rep_a, rep_b, alphas=np.linspace(0, 1, 5))
    made = calls.read_text().splitlines()[before:]
    assert len(made) == 3                          # alphas 0.25, 0.5, 0.75 (was 5 calls)
    assert curve.scores[-1] == pytest.approx(rep_a.score, abs=1e-12) == _plain(1.0)
    assert curve.scores[0] == pytest.approx(rep_b.score, abs=1e-12) == _plain(0.0)
    for alpha, s in zip(curve.alphas, curve.scores):
        assert s == pytest.approx(_plain(alpha), abs=1e-9)


def test_an_edit_on_b_is_not_taken_for_its_file(metric):
    """B's edited cells do not travel to A's worker: alpha 0 is then called, not B's score."""
    m, calls = metric
    o = Options(metric=m.name)
    rep_a = score_prepared(load(SOL, SUB, o), o)
    prep_b = load(SOL, SUB_B, o)
    from dataclasses import replace
    pred = prep_b.pred.editable()
    pred[0, 0] = 0.9
    rep_b = score_prepared(replace(prep_b, pred=pred), o)
    before = len(calls.read_text().splitlines())
    curve = m.blend(rep_a, rep_b, alphas=np.linspace(0, 1, 5))
    assert len(calls.read_text().splitlines()) - before == 4      # alpha 1 only is known
    assert curve.scores[0] == pytest.approx(_plain(0.0), abs=1e-9) != rep_b.score


def test_a_splits_ends_are_its_scores(metric):
    """The held-out checks blend on Public or Private rows: their ends are the splits'
    scores, not calls."""
    from kmetric_gui.metrics.base import split_rows
    m, calls = metric
    o = Options(metric=m.name)
    rep_a = score_prepared(load(SOL, SUB, o), o)
    rep_b = score_prepared(load(SOL, SUB_B, o), o)
    for split in ("public", "private"):
        before = len(calls.read_text().splitlines())
        curve = m.blend(rep_a, rep_b, alphas=np.linspace(0, 1, 5),
                        rows=split_rows(rep_a.prepared.usage, split))
        assert len(calls.read_text().splitlines()) - before == 3
        assert curve.scores[-1] == rep_a.splits[split].score
        assert curve.scores[0] == rep_b.splits[split].score


def test_an_interval_and_the_pair_draws_are_the_same_calls(metric):
    """A score's bootstrap (its interval) and compare's paired bootstrap draw the same
    rows: the second asks the file nothing new for that score (before: every replicate
    called twice), and the values are the interval's."""
    from kmetric_gui.metricfile.units import FilePairs, FileUnits
    m, calls = metric
    o = Options(metric=m.name)
    rep_a = score_prepared(load(SOL, SUB, o), o)
    rep_b = score_prepared(load(SOL, SUB_B, o), o)
    before = len(calls.read_text().splitlines())
    own = FileUnits(m, rep_a.result).replicates(20, 4)
    assert len(calls.read_text().splitlines()) - before == 20
    both = FilePairs(m, [rep_a, rep_b]).bootstrap(20, 4)
    assert len(calls.read_text().splitlines()) - before == 40      # B's 20 only
    np.testing.assert_array_equal(both[:, 0], own)
    assert FileUnits(m, rep_a.result).replicates(20, 5).shape == (20,)   # another seed: called
    assert len(calls.read_text().splitlines()) - before == 60
