"""auto's line for confusion matrices (issue 36): at 50 rows a three-class MCC, macro F1
or kappa is calibrated (the percentile covered 0.923 for MCC where calibrated
covered 0.948, bench/coverage.py), a two-class table is not (calibrated covered 0.99:
too wide); three classes or more stay calibrated below 200 rows. Before, a 50-row
MCC got the percentile."""
import numpy as np
import pytest

from kmetric_gui.core.calibrated import AUTO_UNITS, AUTO_UNITS_CLASSES, auto_method
from kmetric_gui.metrics import get_metric
from kmetric_gui.metrics.kernels.kappa import kappa_from_confusion
from kmetric_gui.metrics.kernels.units import kappa_units


def labels(n, k, seed=0):
    """n rows of k classes, every class at least 10 times (no rare class), 75 % right."""
    rng = np.random.default_rng(seed)
    t = np.resize(np.arange(k), n)
    p = np.where(rng.random(n) < 0.75, t, (t + 1) % k)
    return t, p


def units(metric, t, p, **options):
    from types import SimpleNamespace
    m = get_metric(metric)
    return m.units(m.kernel(t, p, SimpleNamespace(**options) if options else None))


def test_a_fifty_row_three_class_mcc_is_calibrated():
    u = units("mcc", *labels(50, 3))
    assert u.n == 50 == AUTO_UNITS
    assert auto_method(u) == ("calibrated", "fewer than 200 rows with three classes or more")


@pytest.mark.parametrize("metric,options", [("mcc", {}), ("f1", {"average": "macro"})])
def test_three_classes_calibrated_below_200_rows_not_at_200(metric, options):
    for n in (50, 120, AUTO_UNITS_CLASSES - 1):
        assert auto_method(units(metric, *labels(n, 3), **options))[0] == "calibrated", n
    assert auto_method(units(metric, *labels(AUTO_UNITS_CLASSES, 3), **options)) == \
        ("percentile", "200 rows")


def test_accuracy_is_a_share_of_right_rows_whatever_the_classes():
    # Two cells (right, wrong): a proportion; its percentile covered 0.944 at 50 rows.
    u = units("accuracy", *labels(50, 3))
    assert np.size(u.cells) == 2 and auto_method(u) == ("percentile", "50 rows")


def test_three_class_kappa_follows_the_same_line():
    o = np.array([[12, 3, 1], [2, 12, 3], [1, 2, 14]])                 # 50 rows, no rare class
    assert auto_method(kappa_units(kappa_from_confusion(o, weights="none")))[0] == "calibrated"
    assert auto_method(kappa_units(kappa_from_confusion(4 * o, weights="none")))[0] == "percentile"


@pytest.mark.parametrize("metric", ["mcc", "f1"])
def test_two_classes_keep_the_percentile_from_50_rows(metric):
    t, p = labels(50, 2)
    assert auto_method(units(metric, t, p)) == ("percentile", "50 rows")
    assert auto_method(units(metric, t[:49], p[:49]))[0] == "calibrated"
