"""Areas, intersections and instance IoUs of run-length masks, from the runs alone.

No mask is decoded to pixels for scoring. Each image's runs sit in one line
of pixel numbers, the images one after another (an image's offset is the
sum of the pixels before it), so one sorted array holds a whole batch:

* the intersection of a truth run with the prediction is C(end) - C(start),
  C(x) the prediction's pixels before x (a searchsorted and a cumulative
  sum), so Dice, IoU and per-pixel counts cost O(runs log runs);
* instance IoUs come from the overlapping (truth run, predicted run) pairs of
  two sorted disjoint run sets: at most truth runs + predicted runs - 1 pairs.

Images are taken in batches (``BATCH``), so memory follows one batch's runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .rle import decode, merge_runs

BATCH = 1024


@dataclass(frozen=True, eq=False)
class MaskImage:
    """One image's masks (its instances, one per file row): runs with 0-based starts,
    instance after instance (``ptr``: the first run of each instance), and its size."""
    texts: tuple
    starts: np.ndarray
    lengths: np.ndarray
    ptr: np.ndarray
    height: int
    width: int
    rows: tuple = field(default=())      # the file rows the instances came from

    def __eq__(self, other):      # the same encodings of an image of the same size
        return isinstance(other, MaskImage) and self.texts == other.texts and \
            (self.height, self.width) == (other.height, other.width)

    __hash__ = None

    @property
    def instances(self):
        return int(self.ptr.size - 1)

    def typed_text(self):
        """The text that, typed into its cell, gives these masks back (a project's edit)."""
        return " | ".join(self.texts)

    @property
    def pixels(self):
        return int(self.height) * int(self.width)

    @cached_property
    def union(self):
        """(starts, lengths) of the union of the instances, sorted, disjoint."""
        if self.instances <= 1:
            return self.starts, self.lengths
        s, n, _ = merge_runs(self.starts, self.lengths, np.zeros(self.starts.size, np.int64))
        return s, n

    @property
    def area(self):
        return int(self.union[1].sum())

    def instance_areas(self):
        return np.add.reduceat(self.lengths, self.ptr[:-1]) if self.lengths.size else \
            np.zeros(self.instances, np.int64)

    def labels(self, order="column"):
        """(height, width) int32: 0 background, k the k-th instance (drawing only)."""
        out = np.zeros((self.height, self.width), dtype=np.int32)
        for k in range(self.instances):
            a, b = int(self.ptr[k]), int(self.ptr[k + 1])
            out[decode(self.starts[a:b], self.lengths[a:b], self.height, self.width, order)] = k + 1
        return out

    def with_size(self, height, width):
        return MaskImage(self.texts, self.starts, self.lengths, self.ptr, int(height), int(width),
                         self.rows)


def empty_image(height, width):
    z = np.zeros(0, np.int64)
    return MaskImage((), z, z, np.zeros(1, np.int64), int(height), int(width))


def _batches(n):
    for a in range(0, n, BATCH):
        yield a, min(n, a + BATCH)


def _line(images, union, sizes):
    """(starts, ends, image of each run, instance of each run (global), offsets) of a batch
    of images laid on one line of pixels (``sizes``: each image's pixels, the truth's)."""
    offsets = np.r_[0, np.cumsum(sizes)[:-1]]
    parts = [im.union if union else (im.starts, im.lengths) for im in images]
    counts = np.fromiter((p[0].size for p in parts), np.int64, len(parts))
    if counts.sum() == 0:
        z = np.zeros(0, np.int64)
        return z, z, z, z, offsets
    starts = np.concatenate([p[0] for p in parts]).astype(np.int64)
    lengths = np.concatenate([p[1] for p in parts]).astype(np.int64)
    image = np.repeat(np.arange(len(images)), counts)
    starts = starts + offsets[image]
    inst = None
    if not union:
        per = np.concatenate([np.diff(im.ptr) for im in images])
        inst = np.repeat(np.arange(per.size), per)
    return starts, starts + lengths, image, inst, offsets


def _pixels(images):
    return np.fromiter((im.pixels for im in images), np.int64, len(images))


def _covered(b_start, b_end, x):
    """Pixels of sorted disjoint runs [b_start, b_end) before each position x."""
    if b_start.size == 0:
        return np.zeros(np.shape(x), np.int64)
    before = np.r_[0, np.cumsum(b_end - b_start)]
    k = np.searchsorted(b_start, x, side="right") - 1
    kk = np.maximum(k, 0)
    part = np.clip(x - b_start[kk], 0, b_end[kk] - b_start[kk])
    return np.where(k >= 0, before[kk] + part, 0)


def pixel_counts(truths, preds):
    """(n, 3) int64 per image: pixels in both, truth's pixels, prediction's pixels
    (instances of one image taken together, as their union)."""
    n = len(truths)
    out = np.zeros((n, 3), np.int64)
    for a, b in _batches(n):
        size = _pixels(truths[a:b])
        sides = []
        for images in (truths[a:b], preds[a:b]):
            parts = [im.union for im in images]
            counts = np.fromiter((p[0].size for p in parts), np.int64, len(parts))
            z = np.zeros(0, np.int64)
            s = np.concatenate([p[0] for p in parts]) if counts.sum() else z
            ln = np.concatenate([p[1] for p in parts]) if counts.sum() else z
            sides.append((s, ln, np.r_[0, np.cumsum(counts)]))
        out[a:b] = pixel_counts_flat(*sides[0], *sides[1], size)
    return out


def pixel_counts_flat(t_starts, t_lengths, t_ptr, p_starts, p_lengths, p_ptr, pixels):
    """pixel_counts of images given as flat runs (each image's runs sorted and disjoint,
    ``ptr`` the first run of each image) of ``pixels`` (n,) pixels each."""
    pixels = np.asarray(pixels, np.int64)
    n = pixels.size
    offsets = np.r_[0, np.cumsum(pixels)[:-1]]
    ti = np.repeat(np.arange(n), np.diff(t_ptr))
    pi = np.repeat(np.arange(n), np.diff(p_ptr))
    ts = np.asarray(t_starts, np.int64) + offsets[ti]
    te = ts + t_lengths
    ps = np.asarray(p_starts, np.int64) + offsets[pi]
    pe = ps + p_lengths
    inter = _covered(ps, pe, te) - _covered(ps, pe, ts)
    return np.column_stack([np.bincount(ti, inter, minlength=n), np.bincount(ti, te - ts, minlength=n),
                            np.bincount(pi, pe - ps, minlength=n)]).astype(np.int64)


def _pairs(a_s, a_e, b_s, b_e):
    """(i, j, overlap) of every overlapping pair of run i of A and run j of B, both sorted
    and disjoint."""
    lo = np.searchsorted(b_e, a_s, side="right")
    hi = np.searchsorted(b_s, a_e, side="left")
    k = np.maximum(hi - lo, 0)
    i = np.repeat(np.arange(a_s.size), k)
    j = np.arange(k.sum()) - np.repeat(np.cumsum(k) - k, k) + np.repeat(lo, k)
    ov = np.minimum(a_e[i], b_e[j]) - np.maximum(a_s[i], b_s[j])
    keep = ov > 0
    return i[keep], j[keep], ov[keep]


@dataclass(frozen=True)
class InstancePairs:
    """Overlapping (truth instance, predicted instance) pairs of a list of images."""
    image: np.ndarray         # (P,) image of each pair
    truth: np.ndarray         # (P,) the truth instance's number within its image
    pred: np.ndarray          # (P,) the predicted instance's number within its image
    iou: np.ndarray           # (P,)
    n_truth: np.ndarray       # (n,) instances per image
    n_pred: np.ndarray        # (n,)


def instance_pairs(truths, preds):
    """Instance IoUs of each image's overlapping pairs (instances of one side must not
    overlap each other: checked where the files are read)."""
    n = len(truths)
    nt = np.fromiter((im.instances for im in truths), np.int64, n)
    np_ = np.fromiter((im.instances for im in preds), np.int64, n)
    found = []
    for a, b in _batches(n):
        size = _pixels(truths[a:b])
        ts, te, _, t_inst, _ = _line(truths[a:b], False, size)
        ps, pe, _, p_inst, _ = _line(preds[a:b], False, size)
        t_first = np.r_[0, np.cumsum(nt[a:b])]
        p_first = np.r_[0, np.cumsum(np_[a:b])]
        t_area = np.bincount(t_inst, te - ts, minlength=t_first[-1]) if ts.size else np.zeros(0)
        p_area = np.bincount(p_inst, pe - ps, minlength=p_first[-1]) if ps.size else np.zeros(0)
        if ts.size == 0 or ps.size == 0:
            continue
        ot, op = np.argsort(ts, kind="stable"), np.argsort(ps, kind="stable")
        i, j, ov = _pairs(ts[ot], te[ot], ps[op], pe[op])
        ti, pj = t_inst[ot][i], p_inst[op][j]
        key, inv = np.unique(ti * max(p_first[-1], 1) + pj, return_inverse=True)
        inter = np.bincount(inv, ov)
        gt, gp = key // max(p_first[-1], 1), key % max(p_first[-1], 1)
        img = np.searchsorted(t_first, gt, side="right") - 1
        iou = inter / (t_area[gt] + p_area[gp] - inter)
        found.append((img + a, gt - t_first[img], gp - p_first[img], iou))
    if found:
        cols = [np.concatenate(c) for c in zip(*found)]
    else:
        cols = [np.zeros(0, np.int64)] * 3 + [np.zeros(0)]
    return InstancePairs(cols[0].astype(np.int64), cols[1].astype(np.int64),
                         cols[2].astype(np.int64), cols[3].astype(np.float64), nt, np_)


def threshold_counts(pairs, thresholds):
    """(n, T, 3) TP, FP, FN of each image at each IoU threshold (a match: IoU > t). For
    t >= 0.5 an instance has at most one match, so matching is one-to-one by itself."""
    t = np.asarray(thresholds, dtype=np.float64)
    n = pairs.n_truth.size
    out = np.zeros((n, t.size, 3), np.int64)
    for k, th in enumerate(t.tolist()):
        tp = np.bincount(pairs.image[pairs.iou > th], minlength=n)
        out[:, k, 0] = tp
        out[:, k, 1] = pairs.n_pred - tp
        out[:, k, 2] = pairs.n_truth - tp
    return out


def overlaps_within(image):
    """True when two instances of one image share a pixel."""
    if image.instances <= 1:
        return False
    return int(image.union[1].sum()) != int(image.lengths.sum())


# -- scores of the statistics -----------------------------------------------------------
def ratio_score(num, den, empty):
    """num / den per image; ``empty`` where den == 0 (nan: the image is skipped)."""
    num, den = np.asarray(num, np.float64), np.asarray(den, np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), empty)


def dice_of(counts, empty=1.0):
    """Dice per row of (intersection, truth area, prediction area)."""
    c = np.asarray(counts, np.float64)
    return ratio_score(2 * c[..., 0], c[..., 1] + c[..., 2], empty)


def iou_of(counts, empty=1.0):
    c = np.asarray(counts, np.float64)
    return ratio_score(c[..., 0], c[..., 1] + c[..., 2] - c[..., 0], empty)


def fbeta_of(tp, fp, fn, beta, empty=1.0):
    """F-beta of counts: (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP); ``empty`` when all 0."""
    b2 = float(beta) ** 2
    tp, fp, fn = (np.asarray(x, np.float64) for x in (tp, fp, fn))
    return ratio_score((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp, empty)

