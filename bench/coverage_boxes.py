"""The box metrics' coverage populations (issue 38: map_iou, and point_f1 whose interval
is another kind, a ratio of per-image sums), for bench/coverage.py;
bench/coverage_families.py lists them with the later families.

Wheat-like images of one class: a 3 x 3 grid of 32-pixel cells, 20 % of images
empty, the others 1 + Binomial(4, 0.4) truth boxes (14-22 px a side), one a cell.
Each truth box is missed (15 %) or predicted shifted -2.63..3.37 px and resized -1.79..2.21 px
each way (steps of 1), with confidence sigmoid(-1 + 4 IoU + N(0, 1)) (the better box, the surer
model); every image gets Poisson(0.3) false boxes in free cells, confidence
sigmoid(N(-1, 1)). A prediction can only match its own truth box (the cells keep
the others far below IoU 0.5), so it is a hit at threshold t exactly when its IoU
with that box is >= t.

The true score is mAP@0.5:0.95 (COCO, 101 recall points) of the population itself,
computed, not sampled: the IoU takes finitely many equally likely values (every
size, shift and resize enumerated; none within 4e-7 of a threshold), and at a
confidence cut c the expected hits and false predictions an image are sums over
those values of normal tails. Precision and recall along a fine grid of cuts give
each threshold's envelope, read at the 101 recall points. Its only error is the
grid's: halving the step (80,001 cuts from logit -14 to 16) moves the value by
3e-6, pooling IoUs within 1e-4 of each other by 3e-10.
tests/test_coverage_populations.py checks it against samples drawn through the
metric's own kernel (10 x 3,000 images: 0.26096 +- 0.00050 against 0.26022; the
sample's own upward bias included).
"""
import numpy as np

from coverage_base import Population

CELL, GRID = 32, 3
SIDES = np.arange(14, 23)
SHIFTS = np.arange(-3, 4) + 0.37          # off the integers: no IoU equals a threshold
RESIZE = np.arange(-2, 3) + 0.21          # (the nearest is 4e-7 away)
THRESHOLDS = np.round(np.arange(0.5, 0.951, 0.05), 10)


def _pair_ious():
    """Every (side, shift, resize) combination's IoU, each equally likely."""
    w, h, dx, dy, sw, sh = np.meshgrid(SIDES, SIDES, SHIFTS, SHIFTS, RESIZE, RESIZE,
                                       indexing="ij")
    ix = np.clip(np.minimum(w, dx + w + sw) - np.maximum(0, dx), 0, None)
    iy = np.clip(np.minimum(h, dy + h + sh) - np.maximum(0, dy), 0, None)
    inter = ix * iy
    return (inter / (w * h + (w + sw) * (h + sh) - inter)).ravel().astype(np.float64)


def _grouped(ious, digits):
    """(IoU, probability) of the equally likely IoUs, those within 10^-digits of each
    other and on the same side of every threshold pooled at their mean."""
    side = np.searchsorted(THRESHOLDS, ious, side="right")
    _, key, count = np.unique(side * 10.0 ** (digits + 1) + np.round(ious, digits),
                              return_inverse=True, return_counts=True)
    return np.bincount(key, ious) / count, count / ious.size


class BoxMap(Population):
    name, family = "map-boxes", "map_iou"
    words = ("box mAP@0.5:0.95 (COCO), 0-5 boxes an image (20% empty), shifted -2.6..3.4 px, "
             "resized -1.8..2.2 px, 15% missed, Poisson(0.3) false boxes")
    empty, more, missed, false = 0.2, (4, 0.4), 0.15, 0.3
    slope, base, false_mean = 4.0, -1.0, -1.0

    def compute_value(self):
        return self.exact()

    def exact(self, points=80_001, digits=4):
        from scipy.special import ndtr
        u, p = _grouped(_pair_ious(), digits)
        truth = (1 - self.empty) * (1 + self.more[0] * self.more[1])   # truth boxes an image
        found = truth * (1 - self.missed)                                # predicted ones
        x = np.linspace(-14.0, 16.0, points)[::-1]                       # logit cuts, down
        good = (u[:, None] >= THRESHOLDS[None, :]) * p[:, None]        # (U, T)
        tp, fp = np.empty((x.size, THRESHOLDS.size)), np.empty((x.size, THRESHOLDS.size))
        for a in range(0, x.size, 1000):
            tail = ndtr(self.base + self.slope * u[None, :] - x[a:a + 1000, None])
            tp[a:a + 1000] = tail @ good
            fp[a:a + 1000] = tail @ (p[:, None] - good)
        tp, fp = found * tp, found * fp + self.false * ndtr(self.false_mean - x)[:, None]
        levels = np.linspace(0, 1, 101)
        aps = []
        for k in range(THRESHOLDS.size):
            rec = tp[:, k] / truth
            prec = tp[:, k] / (tp[:, k] + fp[:, k])
            env = np.maximum.accumulate(prec[::-1])[::-1]
            at = np.searchsorted(rec, levels, side="left")
            aps.append(np.where(at < x.size, env[np.minimum(at, x.size - 1)], 0.0).mean())
        return float(np.mean(aps))

    def draw(self, rng, n):
        from kmetric_gui.metrics.kernels.boxes import BoxImage
        k = np.where(rng.random(n) < self.empty, 0, 1 + rng.binomial(*self.more, size=n))
        truth, pred = [], []
        for m, extra in zip(k.tolist(), rng.poisson(self.false, size=n).tolist()):
            cells = rng.permutation(GRID * GRID)
            origin = np.column_stack([cells % GRID, cells // GRID]) * CELL
            side = rng.choice(SIDES, size=(m + extra, 2))
            x1 = origin[:m + extra] + (rng.random((m + extra, 2)) * (CELL - side + 1)).astype(int)
            t = np.column_stack([x1[:m], x1[:m] + side[:m]]).astype(np.float64)
            keep = rng.random(m) >= self.missed
            shift = rng.choice(SHIFTS, size=(m, 2))
            p1 = x1[:m] + shift
            p = np.column_stack([p1, p1 + side[:m] + rng.choice(RESIZE, size=(m, 2))])[keep]
            iou = _box_ious(t[keep], p)
            z = np.r_[self.base + self.slope * iou + rng.standard_normal(iou.size),
                      self.false_mean + rng.standard_normal(extra)]
            # false boxes: free cells (after the m truth cells), several in one cell allowed
            free = origin[m:][rng.integers(0, GRID * GRID - m, size=extra)] if extra else \
                np.zeros((0, 2), int)
            f1 = free + (rng.random((extra, 2)) * (CELL - side[m:] + 1)).astype(int)
            boxes = np.r_[p, np.column_stack([f1, f1 + side[m:]])].astype(np.float64)
            order = rng.permutation(len(boxes))        # the file's order says nothing
            truth.append(BoxImage(("",) * m, np.ones(m), t))
            pred.append(BoxImage(("",) * len(boxes), 1 / (1 + np.exp(-z[order])), boxes[order]))
        return truth, pred

    def units(self, rng, n):
        from kmetric_gui.metrics import get_metric
        from kmetric_gui.metrics.base import Plan
        m = get_metric(self.family)
        return m.units(m.score(Plan(*self.draw(rng, n)), None, None, lambda: False))


def _box_ious(a, b):
    """IoU of each truth box with its own prediction (rows paired), x1 y1 x2 y2."""
    ix = np.clip(np.minimum(a[:, 2], b[:, 2]) - np.maximum(a[:, 0], b[:, 0]), 0, None)
    iy = np.clip(np.minimum(a[:, 3], b[:, 3]) - np.maximum(a[:, 1], b[:, 1]), 0, None)
    inter = ix * iy
    area = (a[:, 2:] - a[:, :2]).prod(axis=1) + (b[:, 2:] - b[:, :2]).prod(axis=1)
    return inter / (area - inter)


class PointF1(Population):
    """Kuzushiji-like: a 5 x 5 grid of 40-pixel cells, 10 % of pages empty, the others
    min(Poisson(6), 20) characters of 3 labels, each a box of 10-30 px a side centred in
    its own cell. Each character is missed (10 %) or predicted as a point off its centre
    by U(-12, 12) px each way, 5 % of them with another label; Poisson(0.5) false points
    a page in free cells. A point can only fall in its own box (the next one starts at
    least 25 px away), so the expected counts are exact: a point is inside with
    probability (mean over sides of min(1, side / 24))^2 and F1 = 2TP / (2TP + FP + FN)
    of the expected counts (the pooled F1's limit)."""
    name, family = "point-f1", "point_f1"
    words = ("point-in-box F1 (Kuzushiji), 0-20 characters a page (10% empty), points off "
             "centre U(-12, 12) px, 10% missed, 5% mislabelled, Poisson(0.5) false points")
    cell, grid, reach, labels = 40, 5, 12.0, ("a", "b", "c")
    empty, mean, most, missed, wrong, false = 0.1, 6.0, 20, 0.1, 0.05, 0.5

    def __init__(self):
        from scipy.stats import poisson
        k = np.arange(self.most + 1)
        pk = poisson.pmf(k, self.mean)
        pk[-1] += 1 - pk.sum()                                   # min(Poisson, 20)
        boxes = (1 - self.empty) * float(k @ pk)                 # characters a page
        inside = float(np.mean(np.minimum(1, np.arange(10, 31) / (2 * self.reach)))) ** 2
        pointed = 1 - self.missed
        tp = boxes * pointed * (1 - self.wrong) * inside
        fp, fn = boxes * pointed - tp + self.false, boxes - tp
        self.value = 2 * tp / (2 * tp + fp + fn)

    def draw(self, rng, n):
        from kmetric_gui.metrics.kernels.boxes import BoxImage
        k = np.where(rng.random(n) < self.empty, 0,
                     np.minimum(rng.poisson(self.mean, size=n), self.most))
        truth, pred = [], []
        for m, extra in zip(k.tolist(), rng.poisson(self.false, size=n).tolist()):
            cells = rng.permutation(self.grid ** 2)
            centre = (np.column_stack([cells % self.grid, cells // self.grid]) + 0.5) * self.cell
            half = rng.integers(10, 31, size=(m, 2)) / 2
            lab = rng.integers(0, 3, size=m)
            keep = rng.random(m) >= self.missed
            plab = np.where(rng.random(m) < self.wrong, (lab + rng.integers(1, 3, size=m)) % 3, lab)
            pts = centre[:m] + rng.uniform(-self.reach, self.reach, (m, 2))
            free = centre[m:][rng.integers(0, self.grid ** 2 - m, size=extra)] + \
                rng.uniform(-self.cell / 2, self.cell / 2, (extra, 2)) * 0.99 if extra else \
                np.zeros((0, 2))
            xy = np.r_[pts[keep], free]
            names = [self.labels[x] for x in plab[keep].tolist()] + \
                [self.labels[x] for x in rng.integers(0, 3, size=len(free)).tolist()]
            order = rng.permutation(len(xy))
            truth.append(BoxImage(tuple(self.labels[x] for x in lab.tolist()), np.ones(m),
                                  np.column_stack([centre[:m] - half, centre[:m] + half])))
            pred.append(BoxImage(tuple(names[i] for i in order.tolist()), np.ones(len(xy)),
                                 np.column_stack([xy[order], xy[order]])))
        return truth, pred

    def units(self, rng, n):
        from kmetric_gui.metrics import get_metric
        from kmetric_gui.metrics.base import Plan
        m = get_metric(self.family)
        return m.units(m.score(Plan(*self.draw(rng, n)), None, None, lambda: False))
