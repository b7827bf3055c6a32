"""Detection from column names and values: the seeds keep their layouts; where several
metrics fit and none clearly, none is picked (the CLI names them and exits 2)."""
import numpy as np
import pytest

from filemaker import csv, write
from kmetric_gui import metrics
from kmetric_gui.cli import main
from kmetric_gui.errors import InputError
from kmetric_gui.metrics import AmbiguousMetric, Fit
from kmetric_gui.metrics.additive import AdditiveMetric
from kmetric_gui.analysis.scoring import Options, score_files


class ToySquared(AdditiveMetric):
    """Mean squared error; fits one real column (not clearly its own)."""
    name = "toymse"
    label = "Toy MSE"
    higher_is_better = False

    def fit(self, sub_targets, sample=None):
        if sample is None or len(sub_targets) != 1:
            return None
        s = sample.sub_column(sub_targets[0])
        if s is not None and s.kind in ("int", "real"):
            return Fit(f"one numeric column '{s.name}' ({s.kind}, {s.low:g}..{s.high:g})",
                       clear=False)
        return None

    def row_stats(self, truth, pred, options):
        return ((np.asarray(truth) - np.asarray(pred)) ** 2)[:, None]

    def score_sums(self, sums, n):
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(n > 0, sums[..., 0] / n, np.nan)


@pytest.fixture
def toymse():
    m = metrics.register(ToySquared())
    yield m
    metrics.unregister(m.name)


def _pair(tmp_path, truth, pred, col="y"):
    sol = write(tmp_path / "sol.csv", csv([["id", col]] + [[f"i{k}", v] for k, v in enumerate(truth)]))
    sub = write(tmp_path / "sub.csv", csv([["id", col]] + [[f"i{k}", v] for k, v in enumerate(pred)]))
    return sol, sub


def test_integer_ratings_stay_kappa(toymse, tmp_path):
    sol, sub = _pair(tmp_path, [1, 2, 3, 2], [1, 3, 3, 2])
    rep = score_files(sol, sub, Options())
    assert rep.metric == "qwk" and "weighted kappa" in rep.reason


def test_real_predictions_are_ambiguous(toymse, tmp_path):
    sol, sub = _pair(tmp_path, [1, 2, 3, 2], [1.2, 2.7, 3.1, 2.0])
    with pytest.raises(AmbiguousMetric) as e:
        score_files(sol, sub, Options())
    assert e.value.names == ["toymse", "qwk"]
    assert "cut points" in str(e.value) and "toymse (one numeric column 'y'" in str(e.value)
    rep = score_files(sol, sub, Options(metric="toymse"))
    assert rep.score == pytest.approx(np.mean((np.array([1, 2, 3, 2]) -
                                               np.array([1.2, 2.7, 3.1, 2.0])) ** 2))


def test_cli_names_the_choices_and_exits_2(toymse, tmp_path, capsys):
    sol, sub = _pair(tmp_path, [1, 2, 3, 2], [1.2, 2.7, 3.1, 2.0])
    assert main(["score", str(sol), str(sub)]) == 2
    err = capsys.readouterr().err
    assert "several metrics fit" in err and "--metric {toymse,qwk}" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert main(["score", str(sol), str(sub), "--metric", "toymse", "--json"]) == 0


def test_without_other_metrics_real_predictions_stay_kappa(tmp_path):
    # Only kappa fits: it is chosen, and its build names the non-integer ratings (as before).
    sol, sub = _pair(tmp_path, [1, 2, 3, 2], [1.2, 2.7, 3.1, 2.0])
    with pytest.raises(InputError) as e:
        score_files(sol, sub, Options())
    assert "non-integer rating" in str(e.value)


def test_seed_layouts_keep_their_choice(toymse):
    assert metrics.choose_metric(["a", "b", "c"])[0].name == "lwlrap"
    assert metrics.choose_metric(["PredictionString"])[0].name == "fbeta"
    assert metrics.choose_metric(["y"])[0].name == "qwk"       # header only: as before


def test_reading_values_leaves_the_table_as_it_was():
    # Detection reads the columns before the metric's build: a bad value zeroed in the
    # Arrow buffer itself made a 'nan' rating score as 0 (found by test_cli_files).
    import pyarrow as pa
    from kmetric_gui.numbers import column_numbers
    arr = pa.array([1.0, float("nan"), 2.0])
    cv = column_numbers(arr)
    assert cv.bad.tolist() == [1] and np.isnan(arr.to_pylist()[1])
