"""average_ranks (AUC's blend scale) against scipy's rankdata, ties averaged."""
import numpy as np
import pytest
from scipy.stats import rankdata

from kmetric_gui.metrics.kernels.auc_units import average_ranks


@pytest.mark.parametrize("shape, ties", [((1,), False), ((7,), False), ((1000,), True),
                                         ((1000,), False), ((300, 3), True)])
def test_average_ranks_equal_rankdata(shape, ties):
    rng = np.random.default_rng(sum(shape))
    x = rng.normal(size=shape)
    if ties:
        x = np.round(x, 1)
    got = average_ranks(x)
    want = rankdata(x, method="average", axis=0) / shape[0]
    assert got.shape == x.shape
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-15)


def test_all_tied_share_the_middle_rank():
    assert np.array_equal(average_ranks(np.full(4, 2.5)), np.full(4, 2.5 / 4))
