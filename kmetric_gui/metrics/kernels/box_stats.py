"""Intervals, comparison and fix first of mAP with the image as the unit.

mAP is no sum over images, but it is a function of image weights: a
resample counts each image c times, which counts its predictions and truth
boxes c times (exact for the envelope-based APs, boxes.py). So:
* bootstrap / shake-up: ``Units`` whose cells are the images (counts in);
* paired comparison: A's and B's predictions ranked together, each weighted
  by its own image's count; a permutation gives an image's predictions to the
  other side by swapping those weights;
* fix first: an image fixed = its predictions replaced by its truth boxes,
  found at the top of the ranking (a weight moved to perfect predictions).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .boxes import Detections, map_of

_BLOCK = 1 << 22


def _blocks(total, width):
    step = max(1, _BLOCK // max(width, 1))
    for a in range(0, total, step):
        yield a, min(step, total - a)


class MapUnits:
    """mAP of one submission as the statistics layer sees it: it draws its own replicates
    (image counts as weights), as rank statistics do."""
    kind = "image"
    cells = None
    stats = None
    # The precision envelope is a running maximum: with few images the sample's mAP sits
    # above the population's and the bootstrap, a maximum of its own, does not undo it
    # (bench/coverage.py, map-boxes: 0.908 at 50 images, 0.932 at 200; BCa 0.915 at 50).
    # core/cautions.py says so below ``narrow_below`` images.
    narrow_below = 200
    narrow_words = ("mAP's precision envelope, a running maximum, is biased upward with few "
                    "images and resampling does not correct it (measured on simulated boxes: "
                    "95% intervals covered 91% at 50 images, 93% at 200, bench/coverage.py)")

    def __init__(self, det: Detections):
        self.det = det

    @property
    def n(self):
        return int(self.det.gt.shape[0])

    @property
    def collapsed(self):
        return self

    def point(self):
        return float(map_of(self.det)[0])

    def score(self, counts):
        """mAP of image counts (R, n)."""
        counts = np.asarray(counts, np.float64).reshape(-1, self.n)
        out = np.empty(counts.shape[0])
        for a, b in _blocks(counts.shape[0], max(self.det.cls.size, self.n)):
            out[a:a + b] = map_of(self.det, counts[a:a + b])
        return out

    def replicates(self, replicates, seed=0, cancel=None):
        """The same draws as MapPairs.bootstrap: images with replacement, ``default_rng(seed)``."""
        from ...core.resample import check_cancel
        rng = np.random.default_rng(seed)
        out = np.empty(replicates)
        for a, b in _blocks(replicates, max(self.det.cls.size, self.n)):
            check_cancel(cancel)
            idx = rng.integers(0, self.n, size=(b, self.n))
            out[a:a + b] = self.score(_counts(idx, self.n))
        return out

    def jackknife(self):
        out = np.empty(self.n)
        for a, b in _blocks(self.n, max(self.det.cls.size, self.n)):
            w = np.ones((b, self.n))
            w[np.arange(b), np.arange(a, a + b)] = 0
            out[a:a + b] = map_of(self.det, w)
        return out, None

    def split_scores(self, n_public, splits, seed=0, cancel=None):
        """(public (S,), private (S,)) mAPs over random splits of the images."""
        rng = np.random.default_rng(seed)
        base = np.arange(self.n) < n_public
        pub = rng.permuted(np.broadcast_to(base, (splits, self.n)), axis=1).astype(np.float64)
        return self.score(pub), self.score(1 - pub)


def _counts(idx, n):
    """(R, n) how often each image is drawn in each row of indices (R, n)."""
    r = idx.shape[0]
    return np.bincount((idx + (np.arange(r) * n)[:, None]).ravel(), minlength=r * n) \
        .reshape(r, n).astype(np.float64)


def map_units(det: Detections):
    return MapUnits(det)


def joined(dets):
    """Several submissions' detections on one truth, ranked together: (Detections, source
    of each prediction)."""
    src = np.concatenate([np.full(d.cls.size, k) for k, d in enumerate(dets)])
    conf = np.concatenate([d.conf for d in dets])
    image = np.concatenate([d.image for d in dets])
    order = np.lexsort((image, -conf))
    d0 = dets[0]
    # Class codes may differ per submission: each is mapped to the first one's names.
    names = list(d0.classes)
    cls = []
    for d in dets:
        code = {c: names.index(c) if c in names else names.append(c) or len(names) - 1
                for c in d.classes}
        cls.append(np.array([code[d.classes[k]] for k in d.cls.tolist()], np.int64))
    gt = np.zeros((d0.gt.shape[0], len(names)))
    gt[:, :d0.gt.shape[1]] = d0.gt
    det = replace(d0, image=image[order], cls=np.concatenate(cls)[order], conf=conf[order],
                  hit=np.concatenate([d.hit for d in dets])[order], gt=gt, classes=tuple(names),
                  best_iou=np.concatenate([d.best_iou for d in dets])[order],
                  within=None)
    return det, src[order]


class MapPairs:
    """core.compare's engine API for mAP of several submissions on one truth."""

    def __init__(self, dets):
        self.dets = list(dets)
        self.n = self.dets[0].gt.shape[0]
        self.det, self.src = joined(self.dets)
        self._boot = {}

    def _score(self, img_w, side_w):
        """mAP of replicates: img_w (R, n) truth weights; side_w {source: (R, n)}."""
        dw = np.zeros((img_w.shape[0], self.src.size))
        for s, w in side_w.items():
            sel = self.src == s
            dw[:, sel] = w[:, self.det.image[sel]]
        return map_of(self.det, img_w, dw)

    def scores(self):
        one = np.ones((1, self.n))
        return np.array([self._score(one, {k: one})[0] for k in range(len(self.dets))])

    def bootstrap(self, replicates, seed):
        key = (replicates, seed)
        if key not in self._boot:
            rng = np.random.default_rng(seed)
            out = np.empty((replicates, len(self.dets)))
            for a, b in _blocks(replicates, max(self.src.size, self.n)):
                w = _counts(rng.integers(0, self.n, size=(b, self.n)), self.n)
                for k in range(len(self.dets)):
                    out[a:a + b, k] = self._score(w, {k: w})
            self._boot[key] = out
        return self._boot[key]

    def single_bootstrap(self, i, replicates, seed):
        return self.bootstrap(replicates, seed)[:, i]

    def pair_bootstrap(self, i, j, replicates, seed):
        return self.bootstrap(replicates, seed)[:, [i, j]]

    def _loo(self, k):
        return MapUnits(self.dets[k]).jackknife()[0]

    def single_jackknife(self, i):
        return self._loo(i), None

    def pair_jackknife(self, i, j):
        return self._loo(j) - self._loo(i), None

    def permutation(self, i, j, permutations, seed):
        from ...core.compare import swap_mask
        rng = np.random.default_rng([seed, 1])
        out = np.empty(permutations)
        for a, b in _blocks(permutations, max(self.src.size, self.n)):
            s = swap_mask(rng, self.n, b).astype(np.float64)
            one = np.ones_like(s)
            out[a:a + b] = self._score(one, {j: 1 - s, i: s}) - self._score(one, {i: 1 - s, j: s})
        return out

    def splits(self, i, j, n_public, splits, seed):
        rng = np.random.default_rng([seed, 2])
        out = np.empty((splits, 4))
        base = np.arange(self.n) < n_public
        for a, b in _blocks(splits, max(self.src.size, self.n)):
            pub = rng.permuted(np.broadcast_to(base, (b, self.n)), axis=1).astype(np.float64)
            for k, w in enumerate((pub, 1 - pub)):
                out[a:a + b, 2 * k] = self._score(w, {i: w})
                out[a:a + b, 2 * k + 1] = self._score(w, {j: w})
        return out


def _with_perfect(det: Detections):
    """Detections plus one perfect prediction per truth box (confidence above all, a hit at
    every threshold), and the source of each (0: the submission's, 1: perfect)."""
    g = det.gt_image.size
    order = np.argsort(det.gt_image, kind="stable")
    perfect = replace(det, image=det.gt_image[order], cls=det.gt_cls[order],
                      conf=np.full(g, np.inf), hit=np.ones((g, det.thresholds.size), bool),
                      best_iou=np.ones(g), within=None)
    return joined([det, perfect])


def map_fix_first(det: Detections, top, higher_is_better=True, candidates=400):
    """core.attribution.FixList of images in greedy fix-first order (single-fix gains of the
    ``candidates`` images with most misses; score_after exact along the order)."""
    from ...core.attribution import FixList, check_top, empty_fixes
    top = check_top(top)
    n = det.gt.shape[0]
    base = float(map_of(det)[0])
    if not np.isfinite(base):
        return empty_fixes(base, "the score is undefined", 0)
    misses = np.bincount(det.image[~det.hit[:, 0]], minlength=n) + \
        np.bincount(det.gt_image[~det.gt_hit[:, 0]], minlength=n)
    wrong = np.flatnonzero(misses > 0)
    if not wrong.size:
        return empty_fixes(base, "every image is already right")
    cand = wrong[np.argsort(-misses[wrong], kind="stable")][:candidates]
    both, src = _with_perfect(det)
    one = np.ones((1, n))

    def score(fixed):                       # fixed (R, n) 0/1
        w = np.where(src[None, :] == 0, 1 - fixed[:, both.image], fixed[:, both.image])
        return map_of(both, np.broadcast_to(one, fixed.shape), w)

    single = np.empty(cand.size)
    for a, b in _blocks(cand.size, both.cls.size):
        f = np.zeros((b, n))
        f[np.arange(b), cand[a:a + b]] = 1
        single[a:a + b] = score(f)
    gain = single - base if higher_is_better else base - single
    keep = gain > 0
    if not keep.any():
        return empty_fixes(base, "no single fix improves the score", int(wrong.size))
    order = cand[keep][np.argsort(-gain[keep], kind="stable")][:top]
    steps = np.zeros((order.size, n))
    for k in range(order.size):
        steps[k:, order[k]] = 1
    after = score(steps)
    diffs = np.diff(np.r_[base, after])
    return FixList(order.astype(np.int64), diffs if higher_is_better else -diffs, after, base,
                   int(wrong.size))
