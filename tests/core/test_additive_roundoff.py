"""RMSE after fixing every row is 0, not nan: the running sum of squared errors fell a
hair below zero (2.81² + 2.45² + ... less the same terms one by one) and its square
root was nan, with a RuntimeWarning (seen in the soak's log, issue 24)."""
import warnings

import numpy as np

from kmetric_gui.core.additive import column_root_mean_units, fix_first, root_mean_units


def test_fixing_every_row_leaves_an_rmse_of_zero():
    err = np.array([2.81, 2.45, 0.01, 2.57, 0.1])
    units = root_mean_units(err ** 2)
    fixed = np.column_stack([np.zeros(err.size), np.ones(err.size)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # no "invalid value in sqrt"
        fl = fix_first(units.stats, fixed, units.score, 100, higher_is_better=False)
    after = np.asarray(fl.score_after)
    assert after.size == err.size and np.all(np.isfinite(after))
    assert after[-1] == 0.0
    # each step against a plain loop: sqrt(mean of the squared errors left)
    left = list(err ** 2)
    for k, row in enumerate(np.asarray(fl.units)):
        left[row] = 0.0
        assert after[k] == np.float64(np.sqrt(sum(left) / err.size)) or \
            abs(after[k] - np.sqrt(sum(left) / err.size)) < 1e-12


def test_a_tiny_negative_mean_is_zero_and_nan_stays_nan():
    for units in (root_mean_units(np.array([1.0, 2.0])),
                  column_root_mean_units(np.array([[1.0], [2.0]]))):
        sums = np.array([[-1e-17, 2.0], [np.nan, 2.0], [8.0, 2.0]])
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = units.score(sums)
        assert got[0] == 0.0 and np.isnan(got[1]) and got[2] == 2.0
