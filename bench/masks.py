"""Masks and boxes: Dice over run-length masks and box mAP against the usual references.

    .venv/bin/python bench/masks.py [--images 10000] [--size 512] [--boxes-images 5000]

Dice (mean per image) over N images of SIZE x SIZE masks given as Kaggle RLE text,
from the text to the score, against (a) a plain numpy loop decoding each mask and
comparing pixels, (b) pycocotools' RLE (text -> COCO counts, area and intersection
in C). mAP@0.5:0.95 over M images of 20 boxes each, 3 classes, against
pycocotools' COCOeval (evaluate + accumulate, maxDets 100 per image). Peak memory
of our Dice pass (tracemalloc) against the bytes of every mask decoded.
"""
import argparse
import contextlib
import io
import os
import sys
import tracemalloc

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _table import median_time, print_table  # noqa: E402

from kmetric_gui.metrics.kernels.boxes import BoxImage, detections, map_of  # noqa: E402
from kmetric_gui.metrics.kernels.masks import (BATCH, MaskImage, dice_of, pixel_counts,  # noqa: E402
                                               pixel_counts_flat)
from kmetric_gui.metrics.kernels.rle import runs_of_cells  # noqa: E402


def rle_texts(rng, n, size, shift=0):
    """One blob per image as column runs (column-major RLE), a few empty images."""
    out = []
    for k in range(n):
        if k % 17 == 0:
            out.append("")
            continue
        c0 = int(rng.integers(0, size // 2))
        cols = np.arange(c0, c0 + int(rng.integers(20, size // 2)))
        mid = size // 2 + shift + int(rng.integers(-5, 6))
        half = (40 + 30 * np.sin(cols / 9.0)).astype(int)
        starts = cols * size + np.clip(mid - half, 0, size - 1) + 1
        lengths = np.clip(2 * half, 1, size - np.clip(mid - half, 0, size - 1))
        out.append(" ".join(f"{s} {n}" for s, n in zip(starts.tolist(), lengths.tolist())))
    return out


def ours(t_texts, p_texts, size, batch=BATCH):
    """The kernel from text to Dice, in batches of images (checked runs, counts from runs)."""
    n = len(t_texts)
    counts = np.empty((n, 3), np.int64)
    for a in range(0, n, batch):
        pix = np.full(min(batch, n - a), size * size)
        sides = []
        for texts in (t_texts[a:a + batch], p_texts[a:a + batch]):
            runs, why = runs_of_cells(texts, pix)
            assert not why
            sides += [runs.starts, runs.lengths, runs.ptr]
        counts[a:a + batch] = pixel_counts_flat(*sides, pix)
    return float(np.mean(dice_of(counts)))


def ours_images(t_texts, p_texts, size):
    """The metric's own path: one MaskImage per image, then pixel_counts."""
    pix = [size * size] * len(t_texts)
    sides = []
    for texts in (t_texts, p_texts):
        runs, _ = runs_of_cells(texts, pix)
        sides.append([MaskImage((texts[k],), *runs.cell(k), np.array([0, runs.ptr[k + 1] - runs.ptr[k]]),
                                size, size) for k in range(len(texts))])
    return float(np.mean(dice_of(pixel_counts(*sides))))


def _decode(text, size):
    img = np.zeros(size * size, np.uint8)
    s = text.split()
    starts, lengths = (np.asarray(x, dtype=int) for x in (s[0::2], s[1::2]))
    for lo, n in zip(starts - 1, lengths):
        img[lo:lo + n] = 1
    return img


def plain(t_texts, p_texts, size):
    vals = []
    for a, b in zip(t_texts, p_texts):
        ta, pb = _decode(a, size), _decode(b, size)
        den = ta.sum() + pb.sum()
        vals.append(2 * (ta & pb).sum() / den if den else 1.0)
    return float(np.mean(vals))


def _coco_rle(mask_api, text, size):
    v = np.asarray(text.split(), dtype=np.int64)
    starts, lengths = v[0::2] - 1, v[1::2]
    edges = np.r_[0, np.ravel(np.column_stack([starts, starts + lengths])), size * size]
    return mask_api.frPyObjects({"counts": np.diff(edges).tolist(), "size": [size, size]}, size, size)


def coco(mask_api, t_texts, p_texts, size):
    vals = []
    for a, b in zip(t_texts, p_texts):
        ra, rb = _coco_rle(mask_api, a, size), _coco_rle(mask_api, b, size)
        inter = mask_api.area(mask_api.merge([ra, rb], intersect=True))
        den = int(mask_api.area(ra)) + int(mask_api.area(rb))
        vals.append(2 * inter / den if den else 1.0)
    return float(np.mean(vals))


def boxes(rng, n, per=20, classes=3):
    truth, pred, gts, dts = [], [], [], []
    for i in range(n):
        xy, wh = rng.random((per, 2)) * 900, rng.random((per, 2)) * 90 + 10
        lab = rng.integers(0, classes, per)
        jit = rng.normal(0, 6, (per, 4))
        pxy, pwh = xy + jit[:, :2], np.maximum(wh + jit[:, 2:], 2)
        conf = rng.random(per)
        truth.append(BoxImage(tuple(map(str, lab)), np.ones(per), np.c_[xy, xy + wh]))
        pred.append(BoxImage(tuple(map(str, lab)), conf, np.c_[pxy, pxy + pwh]))
        for k in range(per):
            gts.append({"id": len(gts) + 1, "image_id": i + 1, "category_id": int(lab[k]) + 1,
                        "bbox": [*xy[k], *wh[k]], "area": float(wh[k].prod()), "iscrowd": 0})
            dts.append({"image_id": i + 1, "category_id": int(lab[k]) + 1,
                        "bbox": [*pxy[k], *pwh[k]], "score": float(conf[k])})
    gt = {"images": [{"id": i + 1} for i in range(n)],
          "categories": [{"id": c + 1} for c in range(classes)], "annotations": gts}
    return truth, pred, gt, dts


def cocoeval(gt, dts):
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval
    with contextlib.redirect_stdout(io.StringIO()):
        c = COCO()
        c.dataset = gt
        c.createIndex()
        ev = COCOeval(c, c.loadRes(dts), "bbox")
        ev.params.areaRng, ev.params.areaRngLbl = [[0, 1e10]], ["all"]
        ev.params.maxDets = [100]
        ev.evaluate()
        ev.accumulate()
    pr = ev.eval["precision"][:, :, :, 0, 0]
    return float(pr[pr > -1].mean())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--images", type=int, default=10_000)
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--boxes-images", type=int, default=5_000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    import pycocotools.mask as mask_api
    rng = np.random.default_rng(0)
    t, p = rle_texts(rng, a.images, a.size), rle_texts(rng, a.images, a.size, shift=6)
    d0, d1, d2 = ours(t, p, a.size), plain(t, p, a.size), coco(mask_api, t, p, a.size)
    assert abs(d0 - d1) < 1e-12 and abs(d0 - d2) < 1e-12, (d0, d1, d2)
    tracemalloc.start()
    ours(t, p, a.size)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    r = a.repeat
    ours_s = median_time(lambda: ours(t, p, a.size), r)
    coco_s = median_time(lambda: coco(mask_api, t, p, a.size), r)
    case = f"Dice {a.images:,} x {a.size}x{a.size}"
    assert abs(ours_images(t, p, a.size) - d0) < 1e-12
    rows = [(case, ours_s, "numpy decode loop", median_time(lambda: plain(t, p, a.size), r, 0)),
            (case, ours_s, "pycocotools RLE", coco_s),
            (case + " (images)", median_time(lambda: ours_images(t, p, a.size), r),
             "pycocotools RLE", coco_s)]
    truth, pred, gt, dts = boxes(np.random.default_rng(1), a.boxes_images)
    th = np.round(np.arange(0.5, 0.96, 0.05), 2)
    m0, m1 = map_of(detections(truth, pred, th, "coco"))[0], cocoeval(gt, dts)
    assert abs(m0 - m1) < 1e-9, (m0, m1)
    rows.append((f"mAP@.5:.95 {a.boxes_images:,} x 20 boxes",
                 median_time(lambda: map_of(detections(truth, pred, th, "coco")), r),
                 "pycocotools COCOeval", median_time(lambda: cocoeval(gt, dts), r, 0)))
    print_table(rows)
    text_mb = sum(map(len, t + p)) / 1e6
    print(f"\nDice peak memory (tracemalloc): {peak / 1e6:.0f} MB for {text_mb:.0f} MB of RLE text; "
          f"every mask decoded would be {2 * a.images * a.size * a.size / 1e9:.1f} GB")


if __name__ == "__main__":
    main()
