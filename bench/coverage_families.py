"""Coverage populations of the families added after the first twelve (issue 35's metrics),
for bench/coverage.py; bench/coverage_populations.py lists them with the others.

Each draws n units and returns the metric module's own statistics, as `kmetric score`
builds them (its kernel, then its ``units`` hook: ``family_units``). The true score is
exact where the population has one in closed form or as a one-dimensional integral
(scipy quad) or finite sum; Levenshtein's is the score of one large simulated data set.
tests/test_coverage_populations.py checks every true score against a large sample.
"""
import math
from statistics import NormalDist

import numpy as np

from coverage_base import Joint, Population, _neighbour_joint

LARGE = 100_000          # Levenshtein's simulated data set: its own error ~0.005 (sd 1.6)
PHI = NormalDist().cdf


def _quad(fn, a, b):
    from scipy.integrate import quad
    return quad(fn, a, b, limit=200, epsabs=1e-12, epsrel=1e-10)[0]


def _normal_pdf(z):
    return math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)


class Correlation(Population):
    """Truth and prediction from a standard bivariate normal with correlation rho; the
    rank correlations see the prediction through exp (ranks unchanged, skewed values)."""
    rho = 0.6
    exact = {"pearson": lambda r: r,                                     # the population r
             "spearman": lambda r: 6 / math.pi * math.asin(r / 2),       # Pearson (1907)
             "kendall": lambda r: 2 / math.pi * math.asin(r)}            # Greiner's relation

    def __init__(self, family, label):
        self.name = self.family = family
        self.value = self.exact[family](self.rho)
        how = "" if family == "pearson" else ", prediction exp(y)"
        self.words = f"{label}, bivariate normal, rho = {self.rho}{how}"

    def units(self, rng, n):
        x = rng.standard_normal(n)
        y = self.rho * x + math.sqrt(1 - self.rho ** 2) * rng.standard_normal(n)
        return self.family_units(x, y if self.family == "pearson" else np.exp(y))


def _mcc():
    """3 classes (50/30/20 %), 75 % right, else a neighbouring class. The true MCC is
    Gorodkin's formula on the joint probabilities (it is scale free: counts or shares)."""
    j = _neighbour_joint([0.5, 0.3, 0.2], 0.75)
    t, p = j.sum(axis=1), j.sum(axis=0)
    value = (np.trace(j) - t @ p) / math.sqrt((1 - t @ t) * (1 - p @ p))
    return Joint("mcc", "mcc", "MCC, 3 classes (50/30/20%), 75% right, else one class off",
                 j, float(value))


class Smape(Population):
    """10 % of rows: truth 0 and a positive forecast (200 each, as in sparse sales);
    else truth log-normal, forecast truth x exp(0.25 u): 200 tanh(0.25 |u| / 2) a row."""
    name, family = "smape", "smape"
    words = "SMAPE, 10% zero truths, else forecasts off by x exp(N(0, 0.25))"
    zero, s = 0.1, 0.25

    def __init__(self):
        e = 2 * _quad(lambda u: math.tanh(self.s * u / 2) * _normal_pdf(u), 0, 40)
        self.value = 200 * (self.zero + (1 - self.zero) * e)

    def units(self, rng, n):
        a = np.exp(3 + 0.5 * rng.standard_normal(n))
        f = a * np.exp(self.s * rng.standard_normal(n))
        z = rng.random(n) < self.zero
        a[z] = 0.0
        return self.family_units(a, f)


class Mape(Population):
    """Additive N(0, 1) errors on log-normal truths (small truths weigh much):
    E|e| / A = sqrt(2 / pi) x E[1 / A] = sqrt(2 / pi) exp(-mu + sd^2 / 2)."""
    name, family = "mape", "mape"
    words = "MAPE, truth log-normal (mu 1.5, sd 0.8), additive N(0, 1) errors"
    mu, sd = 1.5, 0.8

    def __init__(self):
        self.value = math.sqrt(2 / math.pi) * math.exp(-self.mu + self.sd ** 2 / 2)

    def units(self, rng, n):
        a = np.exp(self.mu + self.sd * rng.standard_normal(n))
        return self.family_units(a, a + rng.standard_normal(n))


class Ndcg(Population):
    """1-3 relevant of 40 items a query; each of the 5 slots holds a relevant item not yet
    listed with probability q (while any is left), else an irrelevant one. The true
    NDCG@5 is exact: the expected hits by slot from the count of relevant items used."""
    name, family = "ndcg", "ndcg"
    words = "NDCG@5, 1-3 relevant of 40 items, a relevant item at 35% per slot"
    q, k = 0.35, 5

    def __init__(self):
        total = 0.0
        for r in (1, 2, 3):
            used = np.zeros(r + 1)
            used[0] = 1.0                       # P(h relevant listed so far)
            dcg = 0.0
            for i in range(self.k):
                hit = used[:r] * self.q
                dcg += hit.sum() / math.log2(i + 2)
                used[:r] -= hit
                used[1:] += hit
            total += dcg / sum(1 / math.log2(i + 2) for i in range(min(r, self.k)))
        self.value = total / 3

    def units(self, rng, n):
        actual, pred = [], []
        for r in (1 + rng.integers(0, 3, size=n)).tolist():
            good = [f"r{j}" for j in range(r)]
            left, bad = list(rng.permutation(r)), iter(range(40))
            picks = [good[left.pop()] if left and h else f"x{next(bad)}"
                     for h in (rng.random(self.k) < self.q).tolist()]
            actual.append(" ".join(good))
            pred.append(" ".join(picks))
        return self.family_units(actual, pred)


def _typo(rng, text):
    """The text with each character substituted (5 %) or dropped (3 %), and a character
    inserted after it (3 %)."""
    out = []
    for c, u, v in zip(text, rng.random(len(text)).tolist(), rng.random(len(text)).tolist()):
        if u < 0.05:
            out.append(chr(97 + (ord(c) - 96) % 26))            # another letter
        elif u >= 0.08:
            out.append(c)
        if v < 0.03:
            out.append(chr(97 + int(26 * v / 0.03)))
    return "".join(out)


class Levenshtein(Population):
    name, family = "levenshtein", "levenshtein"
    words = "Levenshtein, 5-40 letters, 5% substituted, 3% dropped, 3% inserted"

    def draw(self, rng, n):
        lengths = rng.integers(5, 41, size=n)
        truth = ["".join(chr(97 + c) for c in rng.integers(0, 26, size=m).tolist())
                 for m in lengths.tolist()]
        return truth, [_typo(rng, t) for t in truth]

    def compute_value(self):
        from kmetric_gui.metrics import get_metric
        return float(get_metric(self.family).kernel(*self.draw(np.random.default_rng(94),
                                                                LARGE), None).score)

    def units(self, rng, n):
        return self.family_units(*self.draw(rng, n))


class JaccardWords(Population):
    """m = 1 + Binomial(9, 0.3) true words; the prediction keeps each with probability 0.8
    and adds Poisson(0.7) others: Jaccard K / (m + E), summed exactly over m, K and E."""
    name, family = "jaccard-words", "jaccard_words"
    words = "word Jaccard, 1-10 true words, 80% kept, Poisson(0.7) extra words"
    keep, extra = 0.8, 0.7

    def __init__(self):
        from scipy.stats import binom, poisson
        e = np.arange(60)
        pe = poisson.pmf(e, self.extra)
        total = 0.0
        for m in range(1, 11):
            k = np.arange(m + 1)
            pk = binom.pmf(k, m, self.keep)
            total += binom.pmf(m - 1, 9, 0.3) * float(pk @ (k[:, None] / (m + e[None, :])) @ pe)
        self.value = total

    def units(self, rng, n):
        m = 1 + rng.binomial(9, 0.3, size=n)
        kept = [rng.random(x) < self.keep for x in m.tolist()]
        extra = rng.poisson(self.extra, size=n).tolist()
        truth = [" ".join(f"w{j}" for j in range(x)) for x in m.tolist()]
        pred = [" ".join([f"W{j}" for j in np.flatnonzero(kp).tolist()]       # case differs
                         + [f"x{j}" for j in range(e)]) for kp, e in zip(kept, extra)]
        return self.family_units(truth, pred)


class KlDivergence(Population):
    """HMS-like: 6 classes; a row's type (3 of them) sets its class probabilities pi;
    the truth is the share of V votes (V in 1, 3, 10, 20), the prediction Dirichlet(8 pi
    + 1), given the type independent of the votes. Exact: E[sum t log t] by binomial sums
    less sum_k pi_k (psi(8 pi_k + 1) - psi(8 + 7)), weighted over types."""
    name, family = "kl-divergence", "kl_divergence"
    words = "KL divergence, 6 classes, truths from 1-20 votes, Dirichlet predictions"
    types = np.array([[0.70, 0.10, 0.05, 0.05, 0.05, 0.05],
                      [0.10, 0.40, 0.30, 0.10, 0.05, 0.05],
                      [0.20, 0.20, 0.15, 0.15, 0.15, 0.15]])
    type_p = np.array([0.5, 0.3, 0.2])
    votes, votes_p = np.array([1, 3, 10, 20]), np.array([0.3, 0.3, 0.25, 0.15])
    c = 8.0

    def __init__(self):
        from scipy.special import digamma
        from scipy.stats import binom
        total = 0.0
        for w, pi in zip(self.type_p, self.types):
            tlogt = 0.0
            for v, pv in zip(self.votes.tolist(), self.votes_p):
                j = np.arange(1, v + 1)
                tlogt += pv * sum(float(binom.pmf(j, v, p) @ (j / v * np.log(j / v))) for p in pi)
            alpha = self.c * pi + 1
            total += w * (tlogt - float(pi @ (digamma(alpha) - digamma(alpha.sum()))))
        self.value = total

    def units(self, rng, n):
        kind = rng.choice(3, size=n, p=self.type_p)
        v = rng.choice(self.votes, size=n, p=self.votes_p)
        pi = self.types[kind]
        truth = rng.multinomial(v, pi) / v[:, None]
        pred = rng.gamma(self.c * pi + 1)
        return self.family_units(truth, pred / pred.sum(axis=1, keepdims=True))


class LaplaceLL(Population):
    """OSIC-like: FVC ~ N(2500, 700); each row's error N(0, s) with s log-normal around 150
    and its confidence s (the model knows its spread). Exact by quad over s:
    -sqrt(2) E[min(|e|, 1000) | s] / max(s, 70) - log(sqrt(2) max(s, 70))."""
    name, family = "laplace-ll", "laplace_ll"
    words = "Laplace log likelihood, errors N(0, s), s log-normal (150, 0.6), confidence s"
    center, spread, cap, least = math.log(150.0), 0.6, 1000.0, 70.0

    def __init__(self):
        def row(z):
            s = math.exp(self.center + self.spread * z)
            m = self.cap
            g = s * math.sqrt(2 / math.pi) * (1 - math.exp(-m * m / (2 * s * s))) \
                + 2 * m * (1 - PHI(m / s))
            sd = max(s, self.least)
            return (-math.sqrt(2) * g / sd - math.log(math.sqrt(2) * sd)) * _normal_pdf(z)
        self.value = _quad(row, -12, 12)

    def units(self, rng, n):
        t = 2500 + 700 * rng.standard_normal(n)
        s = np.exp(self.center + self.spread * rng.standard_normal(n))
        return self.family_units(t, np.column_stack([t + s * rng.standard_normal(n), s]))


class Angular(Population):
    """IceCube-like: true directions uniform on the sphere (azimuth, zenith); the
    prediction von Mises-Fisher around the truth, 75 % well found (kappa 30), 25 % poorly
    (kappa 1). The angle's cosine w has density kappa e^(kappa w) / (2 sinh kappa):
    E[angle] = the integral of acos(w) against it (quad)."""
    name, family = "angular", "angular"
    words = "angular distance, 75% of events kappa 30, 25% kappa 1 (von Mises-Fisher)"
    mix = ((0.75, 30.0), (0.25, 1.0))

    def __init__(self):
        def mean_angle(k):
            return _quad(lambda w: math.acos(w) * k * math.exp(k * (w - 1))
                         / (1 - math.exp(-2 * k)), -1, 1)
        self.value = sum(p * mean_angle(k) for p, k in self.mix)

    def units(self, rng, n):
        az, zen = rng.uniform(0, 2 * math.pi, n), np.arccos(rng.uniform(-1, 1, n))
        t = np.column_stack([np.sin(zen) * np.cos(az), np.sin(zen) * np.sin(az), np.cos(zen)])
        k = np.where(rng.random(n) < self.mix[0][0], self.mix[0][1], self.mix[1][1])
        u = rng.random(n)
        w = 1 + np.log(u + (1 - u) * np.exp(-2 * k)) / k         # cos(angle), inverse cdf
        e1 = np.cross(t, np.where(np.abs(t[:, :1]) < 0.9, [[1.0, 0, 0]], [[0, 1.0, 0]]))
        e1 /= np.linalg.norm(e1, axis=1, keepdims=True)
        e2 = np.cross(t, e1)
        phi = rng.uniform(0, 2 * math.pi, n)[:, None]
        p = w[:, None] * t + np.sqrt(1 - w * w)[:, None] * (np.cos(phi) * e1 + np.sin(phi) * e2)
        pz = np.arccos(np.clip(p[:, 2], -1, 1))
        pa = np.mod(np.arctan2(p[:, 1], p[:, 0]), 2 * math.pi)
        return self.family_units(np.column_stack([az, zen]), np.column_stack([pa, pz]))


def families():
    from coverage_boxes import BoxMap, PointF1
    return [Correlation("pearson", "Pearson r"), Correlation("spearman", "Spearman rho"),
            Correlation("kendall", "Kendall tau-b"), _mcc(), Smape(), Mape(), Ndcg(),
            Levenshtein(), JaccardWords(), KlDivergence(), LaplaceLL(), Angular(), Dice(),
            BoxMap(), PointF1()]


class Dice(Population):
    """Masks (the image is the unit), 20x20 images, Dice per image (the default mean over
    images; an empty truth and prediction scores 1). 30 % of images hold no mask, and
    20 % of those get a false square of side 3; the others a square of side 3-8 and a
    prediction of it shifted by -2..2 pixels each way (none missed: it stays inside), or
    nothing (10 %). Exact: the mean over sides and shifts of 2(s - |dx|)(s - |dy|) / 2s^2."""
    name, family = "dice", "dice"
    words = "Dice (masks), 20x20 images, 30% empty, squares shifted -2..2 px, 10% missed"
    size, empty, false, missed = 20, 0.3, 0.2, 0.1

    def __init__(self):
        d = np.arange(-2, 3)
        found = np.mean([np.mean(np.outer(s - abs(d), s - abs(d))) / (s * s)
                         for s in range(3, 9)])
        self.value = self.empty * (1 - self.false) + (1 - self.empty) * (1 - self.missed) * found

    def _square(self, r0, c0, s):
        from kmetric_gui.metrics.kernels.masks import MaskImage
        h = self.size
        starts = np.arange(c0, c0 + s, dtype=np.int64) * h + r0     # one run a column
        lengths = np.full(s, s, np.int64)
        return MaskImage((f"{r0},{c0},{s}",), starts, lengths, np.array([0, s]), h, h)

    def units(self, rng, n):
        from kmetric_gui.metrics import get_metric
        from kmetric_gui.metrics.base import Plan
        from kmetric_gui.metrics.kernels.masks import empty_image
        h, truth, pred = self.size, [], []
        for _ in range(n):
            if rng.random() < self.empty:
                truth.append(empty_image(h, h))
                pred.append(self._square(*rng.integers(0, h - 3, 2).tolist(), 3)
                            if rng.random() < self.false else empty_image(h, h))
                continue
            s = int(rng.integers(3, 9))
            r0, c0 = rng.integers(2, h - s - 1, 2).tolist()
            truth.append(self._square(r0, c0, s))
            dr, dc = rng.integers(-2, 3, 2).tolist()
            pred.append(empty_image(h, h) if rng.random() < self.missed
                        else self._square(r0 + dr, c0 + dc, s))
        m = get_metric(self.family)
        return m.units(m.score(Plan(truth, pred), None, None, lambda: False))
