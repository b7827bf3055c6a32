"""Synthetic pairs shaped as a masks-and-boxes competition's files, and the competition's
number from a plain reference written from its published rules: masks decoded to pixel
sets, IoU matrices, the per-image rule of each competition. Nothing here imports
kmetric_gui's kernels.

Masks are rectangles, one per cell of a grid laid over the image, so the masks of one
image never overlap (the competitions forbid it); a prediction is its truth moved or
resized inside the same cell, so IoUs spread over the thresholds.
"""
import numpy as np
import pandas as pd

N_IMAGES = 12
IMAGE_METRICS = {"dice", "iou_precision", "fbeta_iou", "point_f1"}
PER_IMAGE = {"severstal-steel-defect-detection": ["1", "2", "3", "4"],
             "understanding_cloud_organization": ["Fish", "Flower", "Gravel", "Sugar"]}
ONE_MASK = {"tgs-salt-identification-challenge"}      # one row an image: its mask is one object
SMALL_SIZES = [(20, 30), (24, 24), (16, 40)]       # DSB's images differ in size


def _size(c):
    text = c["options"].get("image_size")
    return tuple(int(v) for v in text.split("x")) if text else None


def rle(rect, h):
    """Kaggle's run-length encoding of a rectangle (rows r0..r1, columns c0..c1, inclusive),
    pixels numbered down each column, then across: one run per column."""
    r0, r1, c0, c1 = rect
    return " ".join(f"{c * h + r0 + 1} {r1 - r0 + 1}" for c in range(c0, c1 + 1))


def pixels(text, h, w):
    """The set of 0-based pixel numbers a run-length cell covers."""
    v = [int(x) for x in str(text).split()] if isinstance(text, str) and text.strip() else []
    out = set()
    for start, length in zip(v[0::2], v[1::2]):
        assert 1 <= start and start + length - 1 <= h * w
        out.update(range(start - 1, start - 1 + length))
    return out


def _cells(h, w, k):
    """k grid cells (row range, column range) of an image, side by side."""
    cols = np.linspace(0, w, k + 1).astype(int)
    return [(0, h - 1, int(cols[j]), int(cols[j + 1]) - 1) for j in range(k)]


def _inside(rng, cell, shrink):
    """A rectangle inside ``cell``; ``shrink`` of its sides trimmed at random."""
    r0, r1, c0, c1 = cell
    dr, dc = max(1, int((r1 - r0) * shrink)), max(1, int((c1 - c0) * shrink))
    a, b = int(rng.integers(0, dr + 1)), int(rng.integers(0, dr + 1))
    e, f = int(rng.integers(0, dc + 1)), int(rng.integers(0, dc + 1))
    return (r0 + a, max(r0 + a, r1 - b), c0 + e, max(c0 + e, c1 - f))


def _instances(rng, h, w, k_truth, always_truth):
    """(truth rects, predicted rects) of one image: up to 3 objects, each predicted as a
    perturbed copy, sometimes missed, sometimes one extra."""
    k = 3
    cells = _cells(h, w, k)
    n = int(rng.integers(1 if always_truth else 0, k_truth + 1))
    truth = [_inside(rng, cells[j], 0.4) for j in range(n)]
    pred = []
    for j, t in enumerate(truth):
        if rng.random() < 0.8:
            pred.append(_inside(rng, cells[j], 0.5) if rng.random() < 0.6 else t)
    if n < k and rng.random() < 0.4:
        pred.append(_inside(rng, cells[n], 0.5))           # a false positive
    return truth, pred


def make_pair(c, folder):
    """(solution path, submission path, reference score) for a catalog entry ``c``."""
    import zlib
    rng = np.random.default_rng(zlib.crc32(c["slug"].encode()))
    if c["metric"] == "point_f1":
        sol, sub, value = _points(c, rng)
    else:
        sol, sub, value = _masks(c, rng)
    sp, pp = folder / "solution.csv", folder / "submission.csv"
    pd.DataFrame(sol).to_csv(sp, index=False)
    pd.DataFrame(sub).sample(frac=1, random_state=1).to_csv(pp, index=False)
    return sp, pp, value


def _usage(rng, images):
    return {i: ("Public" if rng.random() < 0.5 else "Private") for i in images}


def _masks(c, rng):
    idc, col = c["id"][0], c["targets"][0]
    extra = c.get("solution_columns") or []
    sol = {idc: [], col: [], **{e: [] for e in extra}, "Usage": []}
    sub = {idc: [], col: []}
    size = _size(c)
    images = [f"img{k:02d}" for k in range(N_IMAGES)]
    usage = _usage(rng, images)
    scores = []
    for k, image in enumerate(images):
        h, w = size or SMALL_SIZES[k % len(SMALL_SIZES)]
        ids = [f"{image}.jpg_{p}" for p in PER_IMAGE[c["slug"]]] if c["slug"] in PER_IMAGE \
            else [image]
        for i in ids:
            if c["metric"] == "dice":       # one mask a row, the whole of its (image, class)
                truth, pred = _instances(rng, h, w, 1, False)
            else:
                truth, pred = _instances(rng, h, w, 3, extra != [])   # DSB: nuclei everywhere
            joined = c["metric"] == "dice" or c["slug"] in ONE_MASK
            for rects, side in ((truth, sol), (pred, sub)):
                rows = [rle(r, h) for r in rects] or [""]
                if joined:
                    rows = [" ".join(rows)]
                for text in rows:
                    side[idc].append(i)
                    side[col].append(text)
                    if side is sol:
                        side["Usage"].append(usage[image])
                        for e, v in zip(extra, (h, w)):
                            side[e].append(v)
            t = [pixels(rle(r, h), h, w) for r in truth]
            p = [pixels(rle(r, h), h, w) for r in pred]
            if joined:              # the image's mask is one object (or none)
                t = [set().union(*t)] if t else []
                p = [set().union(*p)] if p else []
            scores.append(_image_score(c, t, p))
    return sol, sub, float(np.mean(scores))


def _image_score(c, t, p):
    metric = c["metric"]
    if metric == "dice":
        a, b = set().union(*t), set().union(*p)
        return 1.0 if not a and not b else 2 * len(a & b) / (len(a) + len(b))
    if not t and not p:
        return 1.0
    iou = np.array([[len(a & b) / len(a | b) for b in p] for a in t]).reshape(len(t), len(p))
    per_t = []
    for thr in np.arange(0.5, 0.951, 0.05):
        hit = iou > thr
        tp = int((hit.sum(axis=1) >= 1).sum())
        fn, fp = len(t) - tp, len(p) - int((hit.sum(axis=0) >= 1).sum())
        if metric == "iou_precision":
            per_t.append(tp / (tp + fp + fn))
        else:                               # Airbus: F2 at each threshold
            per_t.append(5 * tp / (5 * tp + 4 * fn + fp))
    return float(np.mean(per_t))


def _points(c, rng):
    """Kuzushiji: labelled boxes 'label x y w h' against labelled centre points 'label x y';
    F1 of the counts pooled over pages (the competition's published rule)."""
    idc, col = c["id"][0], c["targets"][0]
    labels = ["U+3042", "U+304B", "U+3055"]
    sol, sub = {idc: [], col: [], "Usage": []}, {idc: [], col: []}
    images = [f"page{k:02d}" for k in range(N_IMAGES)]
    usage = _usage(rng, images)
    tp = fp = fn = 0
    for k, image in enumerate(images):
        n = int(rng.integers(0, 5))
        boxes = [(str(rng.choice(labels)), 30 * j, int(rng.integers(0, 20)),
                  int(rng.integers(5, 25)), int(rng.integers(5, 25))) for j in range(n)]
        points = []
        for lab, x, y, bw, bh in boxes:
            r = rng.random()
            if r < 0.6:                         # inside, the right label
                points.append((lab, x + bw / 2, y + bh / 2))
            elif r < 0.75:                      # inside, another label
                points.append((str(rng.choice(labels)), x + 1.5, y + 1.5))
            elif r < 0.9:                       # on the edge: not strictly inside
                points.append((lab, x, y + bh / 2))
        if rng.random() < 0.3:
            points.append((str(rng.choice(labels)), 500.5, 500.5))      # far from any box
        sol[idc].append(image)
        sol[col].append(" ".join(f"{lab} {x} {y} {bw} {bh}" for lab, x, y, bw, bh in boxes))
        sol["Usage"].append(usage[image])
        sub[idc].append(image)
        sub[col].append(" ".join(f"{lab} {x:g} {y:g}" for lab, x, y in points))
        unused = [True] * len(points)
        for lab, x, y, bw, bh in boxes:
            for j, (pl, px, py) in enumerate(points):
                if unused[j] and pl == lab and x < px < x + bw and y < py < y + bh:
                    unused[j] = False
                    tp += 1
                    break
            else:
                fn += 1
        fp += sum(unused)
    value = 0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn)
    return sol, sub, value
