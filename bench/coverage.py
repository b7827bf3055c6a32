"""Measured coverage of the bootstrap intervals on populations with a known value.

    PYTHONPATH=. nice .venv/bin/python bench/coverage.py [--datasets D] [--n 50 200 1000]

For each population and n, D datasets of n units are drawn (seeds fixed), the
95 % interval of each method is computed from each (2,000 replicates, as the
CLI does by default), and the share of intervals that contain the population
value is printed. D datasets give a binomial error of about
sqrt(0.95 x 0.05 / D): +-2.2 points at D = 100, +-1.5 at D = 200.
An interval that cannot be made (undefined score) counts as a miss.

Populations (the value is exact, computed from the population's probabilities):
  kappa-binary-5%   truth 1 with probability 0.05; prediction 1 with probability
                    0.7 when the truth is 1, 0.03 when it is 0 (quadratic = plain kappa)
  kappa-5-rare      5 classes with probabilities .60 .25 .10 .04 .01; prediction
                    the truth with probability 0.7, else one class up or down
  kappa-near-perfect 5 classes .30 .25 .20 .15 .10; prediction the truth with
                    probability 0.97, else one class up or down
  fbeta-heavy       documents with 1 + Zipf(2.2) labels (at most 300); each label
                    found with probability 0.7; Poisson(0.3 x labels) false
                    positives; micro F0.5 = 0.7 exactly whatever the label law
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from kmetric_gui.core.calibrated import auto_method  # noqa: E402
from kmetric_gui.metrics.kernels.kappa import kappa_from_confusion, weight_matrix  # noqa: E402
from kmetric_gui.core.resample import Units  # noqa: E402
from kmetric_gui.metrics.kernels.units import kappa_units  # noqa: E402
from kmetric_gui.analysis.stats import interval_of  # noqa: E402

METHODS = ("percentile", "bca", "calibrated", "auto")
LEVEL = 0.95


def _neighbour_joint(p_true, agree):
    """Joint (truth, prediction) probabilities: the truth with prob. agree, else +-1."""
    k = len(p_true)
    j = np.zeros((k, k))
    for t, p in enumerate(p_true):
        j[t, t] += p * agree
        nb = [x for x in (t - 1, t + 1) if 0 <= x < k]
        for x in nb:
            j[t, x] += p * (1 - agree) / len(nb)
    return j


def _kappa_of(p):
    w = weight_matrix(p.shape[0], "quadratic")
    e = np.outer(p.sum(axis=1), p.sum(axis=0))
    return float(1 - (w * p).sum() / (w * e).sum())


class KappaPopulation:
    def __init__(self, name, joint):
        self.name, self.joint = name, joint / joint.sum()
        self.value = _kappa_of(self.joint)

    def units(self, rng, n):
        o = rng.multinomial(n, self.joint.ravel()).reshape(self.joint.shape)
        return kappa_units(kappa_from_confusion(o))


class FbetaPopulation:
    name = "fbeta-heavy"
    beta2 = 0.25
    value = 0.7

    def units(self, rng, n):
        labels = 1 + np.minimum(rng.zipf(2.2, size=n), 300)
        tp = rng.binomial(labels, 0.7)
        fp = rng.poisson(0.3 * labels)
        stats = np.column_stack([tp, fp, labels - tp]).astype(np.int64)
        b2 = self.beta2

        def score(s):
            tp, fp, fn = s[:, 0], s[:, 1], s[:, 2]
            with np.errstate(invalid="ignore", divide="ignore"):
                out = (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)
            out[tp + fp + fn == 0] = np.nan
            return out
        return Units(stats, score, None, "document")


def populations():
    b = np.array([[0.95 * 0.97, 0.95 * 0.03], [0.05 * 0.3, 0.05 * 0.7]])
    return [KappaPopulation("kappa-binary-5%", b),
            KappaPopulation("kappa-5-rare", _neighbour_joint([.60, .25, .10, .04, .01], 0.7)),
            KappaPopulation("kappa-near-perfect", _neighbour_joint([.30, .25, .20, .15, .10], 0.97)),
            FbetaPopulation()]


def coverage(pop, n, datasets, methods, replicates=2000, seed=0):
    """{method: (covered share, zero-width share)} over ``datasets`` datasets of n units."""
    rng = np.random.default_rng([seed, n])
    hits = {m: 0 for m in methods}
    zero = {m: 0 for m in methods}
    for d in range(datasets):
        u = pop.units(rng, n)
        done = {}
        for m in methods:
            # auto is one of the others, chosen per dataset: reuse that one's interval
            pick = auto_method(u, u.minority)[0] if m == "auto" else m
            if pick not in done:
                done[pick] = interval_of(u, LEVEL, replicates, seed=d, method=pick)
            iv = done[pick]
            if np.isfinite(iv.low) and iv.low <= pop.value <= iv.high:
                hits[m] += 1
            if np.isfinite(iv.low) and iv.low == iv.high:
                zero[m] += 1
    return {m: (hits[m] / datasets, zero[m] / datasets) for m in methods}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", type=int, default=200)
    ap.add_argument("--n", type=int, nargs="+", default=[50, 200, 1000])
    ap.add_argument("--only", help="population name to run alone")
    a = ap.parse_args(argv)
    print(f"95% intervals, {a.datasets} datasets per cell, 2000 replicates; coverage "
          "(zero-width share); auto: calibrated below 200 units or a kappa class under 10 rows")
    print(f"{'population':<20} {'value':>7} {'n':>5}  " + "  ".join(f"{m:>15}" for m in METHODS)
          + "  seconds")
    for pop in populations():
        if a.only and pop.name != a.only:
            continue
        for n in a.n:
            t0 = time.perf_counter()
            res = coverage(pop, n, a.datasets, METHODS)
            cells = "  ".join(f"{res[m][0]:>7.3f} ({res[m][1]:.3f})" for m in METHODS)
            print(f"{pop.name:<20} {pop.value:>7.4f} {n:>5}  {cells}  {time.perf_counter() - t0:.0f}",
                  flush=True)


if __name__ == "__main__":
    main()
