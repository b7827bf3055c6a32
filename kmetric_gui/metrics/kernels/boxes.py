"""Boxes: IoUs, greedy matching by confidence, average precision, points in boxes.

Matching, per image and class, predictions taken by decreasing confidence
(ties in file order), at each IoU threshold t:
* "coco": a prediction takes the best still unmatched truth box with
  IoU >= t (pycocotools' COCOeval; of equal IoUs the later box);
* "voc" / "voc11": a prediction looks at the truth box of highest IoU; it
  is a true positive when that IoU > t and the box is not yet taken.
Average precision of a class from its predictions' confidences and hits:
101 recall points ("coco"), every recall step ("voc", VOC 2010 on) or 11
points ("voc11"), each on the precision envelope. mAP: the mean over
classes with at least one truth box, then over thresholds.

Each image is a unit: a score of image weights ``w`` (a bootstrap's counts)
weights each image's predictions and truth boxes, which is exact for these
envelope-based APs. Boxes are (x1, y1, x2, y2), area (x2 - x1)(y2 - y1).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

STYLES = ("coco", "voc", "voc11")
BATCH = 4096


@dataclass(frozen=True, eq=False)
class BoxImage:
    """One image's boxes: class labels, confidences (1 for truth), (k, 4) x1 y1 x2 y2, and
    the cell's text as in the file."""
    labels: tuple
    conf: np.ndarray
    xyxy: np.ndarray
    text: str = ""
    size: tuple = (0, 0)       # (height, width) when known (drawing only)

    def __len__(self):
        return len(self.labels)

    def typed_text(self):
        """The text that, typed into its cell, gives these boxes back (a project's edit)."""
        return self.text

    def __eq__(self, other):      # the same boxes (the text may differ in spacing)
        return isinstance(other, BoxImage) and self.labels == other.labels and \
            np.array_equal(self.conf, other.conf) and np.array_equal(self.xyxy, other.xyxy)

    __hash__ = None


def _iou(a, b):
    """IoUs of boxes a (..., P, 4) against b (..., T, 4): (..., P, T); 0 for an empty union."""
    lo = np.maximum(a[..., :, None, :2], b[..., None, :, :2])
    hi = np.minimum(a[..., :, None, 2:], b[..., None, :, 2:])
    inter = np.clip(hi - lo, 0, None).prod(axis=-1)
    area_a = (a[..., 2] - a[..., 0]) * (a[..., 3] - a[..., 1])
    area_b = (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])
    union = area_a[..., :, None] + area_b[..., None, :] - inter
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)


def box_iou(a, b):
    """(len(a), len(b)) IoUs of x1 y1 x2 y2 boxes; 0 where the union is empty."""
    return _iou(np.asarray(a, np.float64).reshape(-1, 4), np.asarray(b, np.float64).reshape(-1, 4))


@dataclass(frozen=True)
class Detections:
    """Every prediction's image, class, confidence and hit at each threshold, in ranking
    order (confidence down; ties: image order, then the image's own order)."""
    image: np.ndarray          # (D,)
    cls: np.ndarray            # (D,) class code
    conf: np.ndarray           # (D,)
    hit: np.ndarray            # (D, T) bool
    gt: np.ndarray             # (n, C) truth boxes per image and class
    thresholds: np.ndarray     # (T,)
    classes: tuple             # class names by code
    style: str
    best_iou: np.ndarray       # (D,) the prediction's best IoU with a truth box of its class
    gt_hit: np.ndarray         # (G, T) bool: each truth box matched (image order)
    gt_image: np.ndarray       # (G,)
    gt_cls: np.ndarray         # (G,)
    within: "np.ndarray | None" = None   # (D,) the prediction's place in its image's string


def _codes(truths, preds):
    names = {}
    for side in (truths, preds):
        for im in side:
            for lab in im.labels:
                names.setdefault(lab, len(names))
    return names


def _flat(images, code):
    counts = np.fromiter((len(im) for im in images), np.int64, len(images))
    image = np.repeat(np.arange(len(images)), counts)
    cls = np.fromiter((code[lab] for im in images for lab in im.labels), np.int64, int(counts.sum()))
    xy = np.concatenate([im.xyxy.reshape(-1, 4) for im in images]) if len(images) else np.zeros((0, 4))
    conf = np.concatenate([np.asarray(im.conf, np.float64) for im in images]) if len(images) \
        else np.zeros(0)
    return image, cls, xy.reshape(-1, 4).astype(np.float64), conf


def detections(truths, preds, thresholds, style="coco") -> Detections:
    """Match every image's predictions to its truth boxes, class by class."""
    th = np.asarray(thresholds, np.float64).reshape(-1)
    code = _codes(truths, preds)
    n, c = len(truths), max(len(code), 1)
    gi, gc, gxy, _ = _flat(truths, code)
    pi, pc, pxy, pconf = _flat(preds, code)
    # Predictions ranked within their (image, class) group, then the groups laid out.
    p_order = np.lexsort((-pconf, pc, pi))
    g_order = np.lexsort((gc, gi))
    pg, gg = pi[p_order] * c + pc[p_order], gi[g_order] * c + gc[g_order]
    hit = np.zeros((pi.size, th.size), bool)
    best = np.zeros(pi.size)
    gt_hit = np.zeros((gi.size, th.size), bool)
    groups = np.unique(pg)
    for a in range(0, groups.size, BATCH):
        sel = groups[a:a + BATCH]
        _match(sel, pg, gg, pxy[p_order], gxy[g_order], th, style, p_order, g_order, hit, best,
               gt_hit)
    gt = np.bincount(gi * c + gc, minlength=n * c).reshape(n, c)
    rank = np.lexsort((np.arange(pi.size), -pconf))      # pi is in image order already
    counts = np.bincount(pi, minlength=n)
    within = np.arange(pi.size) - np.repeat(np.cumsum(counts) - counts, counts)
    return Detections(pi[rank], pc[rank], pconf[rank], hit[rank], gt, th,
                      tuple(code), style, best[rank], gt_hit, gi, gc, within[rank])


def _match(sel, pg, gg, pxy, gxy, th, style, p_order, g_order, hit, best, gt_hit):
    """Greedy matching of the groups ``sel`` (sorted keys), padded to one array."""
    p0, p1 = np.searchsorted(pg, sel), np.searchsorted(pg, sel, side="right")
    g0, g1 = np.searchsorted(gg, sel), np.searchsorted(gg, sel, side="right")
    has = g1 > g0
    if not has.any():
        return
    p0, p1, g0, g1 = p0[has], p1[has], g0[has], g1[has]
    np_, ng = p1 - p0, g1 - g0
    G, P, T = p0.size, int(np_.max()), int(ng.max())
    pr = np.arange(P)[None, :]
    gr = np.arange(T)[None, :]
    pidx = np.where(pr < np_[:, None], p0[:, None] + pr, -1)
    gidx = np.where(gr < ng[:, None], g0[:, None] + gr, -1)
    a = pxy[np.maximum(pidx, 0)]                     # (G, P, 4)
    b = gxy[np.maximum(gidx, 0)]                     # (G, T, 4)
    iou = _iou(a, b)                                 # (G, P, T)
    iou[(pidx < 0)[:, :, None] | (gidx < 0)[:, None, :]] = -1.0
    rows = np.arange(G)
    valid_p = pidx >= 0
    best[p_order[pidx[valid_p]]] = iou.max(axis=2)[valid_p]
    for k, t in enumerate(th.tolist()):
        taken = np.zeros((G, T), bool)
        got = np.zeros((G, P), bool)
        for r in range(P):
            cur = iou[:, r, :]
            if style == "coco":
                cand = np.where(~taken & (cur >= t), cur, -np.inf)
                j = T - 1 - np.argmax(cand[:, ::-1], axis=1)
                ok = np.isfinite(cand[rows, j])
            else:
                j = np.argmax(cur, axis=1)                  # the first box of highest IoU
                ok = (cur[rows, j] > t) & ~taken[rows, j]
            ok &= valid_p[:, r]
            got[:, r] = ok
            taken[rows[ok], j[ok]] = True
        hit[p_order[pidx[valid_p]], k] = got[valid_p]
        gt_hit[g_order[gidx[gidx >= 0]], k] = taken[gidx >= 0]


def _ap(tp_cum, fp_cum, npos, style):
    """AP of (R, D) cumulative weighted hits and misses of one class; npos (R,)."""
    r, d = tp_cum.shape
    with np.errstate(invalid="ignore", divide="ignore"):
        rec = tp_cum / npos[:, None]
        prec = np.where(tp_cum + fp_cum > 0, tp_cum / np.maximum(tp_cum + fp_cum, 1e-300), 0.0)
    env = np.maximum.accumulate(prec[:, ::-1], axis=1)[:, ::-1]   # the precision envelope
    if style == "voc":
        steps = np.diff(np.concatenate([np.zeros((r, 1)), rec], axis=1), axis=1)
        return (steps * env).sum(axis=1)
    points = np.linspace(0, 1, 101 if style == "coco" else 11)
    out = np.empty(r)
    for i in range(r):
        k = np.searchsorted(rec[i], points, side="left")          # rec never decreases
        out[i] = np.where(k < d, env[i][np.minimum(k, d - 1)], 0.0).sum() / points.size
    return out


def map_scores(det: Detections, weights=None, det_weights=None):
    """(R, T, C) AP of each class at each threshold for image weights (R, n) (None: one
    replicate of weight 1 each) and, when given, each prediction's own weights (R, D)
    (default: its image's); nan for a class without truth boxes."""
    n, c = det.gt.shape
    w = np.ones((1, n)) if weights is None else np.asarray(weights, np.float64).reshape(-1, n)
    r = w.shape[0]
    out = np.full((r, det.thresholds.size, c), np.nan)
    npos = w @ det.gt                                     # (R, C)
    for k in range(c):
        sel = det.cls == k
        wd = w[:, det.image[sel]] if det_weights is None else det_weights[:, sel]   # (R, Dk)
        for t in range(det.thresholds.size):
            h = det.hit[sel, t]
            tp, fp = np.cumsum(wd * h, axis=1), np.cumsum(wd * ~h, axis=1)
            ap = _ap(tp, fp, npos[:, k], det.style) if tp.shape[1] else np.zeros(r)
            out[:, t, k] = np.where(npos[:, k] > 0, ap, np.nan)
    return out


def map_of(det: Detections, weights=None, det_weights=None):
    """mAP per replicate: mean over classes with truth boxes, then over thresholds."""
    ap = map_scores(det, weights, det_weights)
    has = np.isfinite(ap)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_t = np.where(has, ap, 0).sum(axis=2) / has.sum(axis=2)
    out = per_t.mean(axis=1)
    out[~has.any(axis=(1, 2))] = np.nan
    return out


# -- points in boxes (a predicted centre inside a truth box of its label) ---------------
def point_matches(truth: BoxImage, points: BoxImage):
    """(tp, fp, fn, matched pred of each truth box or -1): truth boxes in file order each
    take the first unused point strictly inside them with the same label."""
    t, p = truth.xyxy.reshape(-1, 4), points.xyxy.reshape(-1, 4)
    px, py = p[:, 0], p[:, 1]
    tl, pl = np.asarray(truth.labels, dtype=object), np.asarray(points.labels, dtype=object)
    inside = ((t[:, None, 0] < px[None]) & (t[:, None, 2] > px[None])
              & (t[:, None, 1] < py[None]) & (t[:, None, 3] > py[None])
              & (tl[:, None] == pl[None, :])) if t.size and p.size else np.zeros((len(t), len(p)), bool)
    unused = np.ones(len(p), bool)
    match = np.full(len(t), -1, np.int64)
    for i in np.flatnonzero(inside.any(axis=1)).tolist():
        m = inside[i] & unused
        if m.any():
            j = int(np.argmax(m))
            match[i], unused[j] = j, False
    tp = int((match >= 0).sum())
    return tp, int(unused.sum()), len(t) - tp, match


def pr_curve(det: Detections, cls, t=0):
    """(recall, precision) of class code ``cls`` at threshold index ``t``, ranking order."""
    sel = det.cls == cls
    h = det.hit[sel, t]
    tp, fp = np.cumsum(h), np.cumsum(~h)
    npos = max(int(det.gt[:, cls].sum()), 1)
    return tp / npos, tp / np.maximum(tp + fp, 1)
