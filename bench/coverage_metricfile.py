"""A competition's own metric file in the coverage bench (bench/coverage.py).

resources/metrics/balanced_log_loss.py, called in this process the way the metric
file's workers call it for `kmetric score --metric-file F --ci`: each bootstrap
replicate re-scores the rows drawn (uniformly, with replacement; repeated ids made
unique, as the workers do) and the interval is read from those replicate scores
(kmetric_gui/cli/metricfile.py). ``FileUnits`` stands where the built-in metrics'
Units stand, with the method the command uses for a metric file.
"""
import importlib.util
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "kmetric_gui", "metricfile"))   # kaggle_metric_utilities

FILE = os.path.join(HERE, "..", "resources", "metrics", "balanced_log_loss.py")
LARGE = 1_000_000


def _load():
    spec = importlib.util.spec_from_file_location("balanced_log_loss_bench", FILE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.score


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


class FileUnits:
    """A metric file's score of one data set, re-scored on resampled rows."""
    kind = "row"

    def __init__(self, fn, y, p):
        self.fn, self.y, self.p = fn, y, p
        self.n = y.size

    def frames(self, rows=None):
        import pandas as pd
        y, p = (self.y, self.p) if rows is None else (self.y[rows], self.p[rows])
        ids = np.arange(y.size)
        sol = pd.DataFrame({"id": ids, "class_0": 1 - y, "class_1": y})
        sub = pd.DataFrame({"id": ids, "class_0": 1 - p, "class_1": p})
        return sol, sub

    def point(self):
        return float(self.fn(*self.frames(), "id"))

    def replicates(self, b, seed=0):
        rng = np.random.default_rng(seed)
        out = np.empty(b)
        for r in range(b):
            rows = rng.integers(0, self.n, size=self.n)
            try:
                out[r] = self.fn(*self.frames(rows), "id")
            except Exception:            # a failed call counts as undefined, as in the CLI
                out[r] = np.nan
        return out


class MetricFilePopulation:
    name, family = "metric-file", "metric file"
    words = "metric file (balanced log loss), 20% positives, calibrated predictions"
    value = None

    def __init__(self):
        self.fn = None

    def _draw(self, rng, n):
        p = _sigmoid(-1.6 + 1.5 * rng.standard_normal(n))
        y = (rng.random(n) < p).astype(np.int64)
        return y, np.clip(p, 1e-6, 1 - 1e-6)

    def compute_value(self):
        # Balanced log loss of the population: the mean over the two classes of
        # E[-log p(class) | class], from one large data set.
        y, p = self._draw(np.random.default_rng(95), LARGE)
        return float(0.5 * (np.mean(-np.log(p[y == 1])) + np.mean(-np.log1p(-p[y == 0]))))

    def units(self, rng, n):
        if self.fn is None:
            self.fn = _load()
        return FileUnits(self.fn, *self._draw(rng, n))
