"""Make the mask and box demos: small, seeded, one file pair (and a second submission) per
metric. Run from the repository: python resources/demo/make_image_demo.py"""
import csv
from pathlib import Path

import numpy as np

from kmetric_gui.metrics.kernels.rle import encode

HERE = Path(__file__).resolve().parent
N, H, W = 40, 48, 64


def _write(name, header, rows):
    with open(HERE / name, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def _blob(rng, cy, cx, r):
    y, x = np.mgrid[:H, :W]
    wob = 1 + 0.25 * np.sin(np.arctan2(y - cy, x - cx) * rng.integers(2, 5) + rng.random() * 6)
    return (y - cy) ** 2 + (x - cx) ** 2 < (r * wob) ** 2


def _shifted(rng, mask, noise):
    if not mask.any() or rng.random() < noise / 4:
        return np.zeros_like(mask) if rng.random() < 0.5 else _blob(rng, 24, 32, 6)
    dy, dx = rng.integers(-int(2 + 6 * noise), int(3 + 6 * noise), 2)
    out = np.roll(np.roll(mask, dy, 0), dx, 1)
    return out & ~_blob(rng, *rng.integers(8, 40, 2), 4 * noise) if noise > 0.3 else out


def _instances(rng, k):
    out = []
    taken = np.zeros((H, W), bool)
    for _ in range(k):
        m = _blob(rng, rng.integers(8, H - 8), rng.integers(8, W - 8), rng.integers(4, 9)) & ~taken
        if m.sum() > 10:
            out.append(m)
            taken |= m
    return out


def masks(rng):
    ids = [f"img{i:03d}" for i in range(N)]
    usage = ["Public" if i % 3 else "Private" for i in range(N)]
    truth = [_instances(rng, int(rng.integers(0, 4))) for _ in range(N)]
    for metric, per_row in (("dice", False), ("iou", False), ("pixel_fbeta", False),
                            ("iou_precision", True), ("fbeta_iou", True)):
        sol = []
        for i, inst in zip(ids, truth):
            cells = [encode(m) for m in inst] if per_row else [encode(np.any(inst, axis=0))
                                                               if inst else ""]
            for c in cells or [""]:
                sol.append([i, c, H, W, usage[ids.index(i)]])
        _write(f"{metric}_solution.csv", ["ImageId", "EncodedPixels", "height", "width", "Usage"], sol)
        for suffix, noise in (("", 0.2), ("_b", 0.5)):
            sub = []
            for i, inst in zip(ids, truth):
                pred = [_shifted(rng, m, noise) for m in inst]
                taken = np.zeros((H, W), bool)
                kept = []
                for m in pred:
                    m = m & ~taken
                    if m.any():
                        kept.append(m)
                        taken |= m
                if rng.random() < noise / 2:
                    extra = _blob(rng, 24, 32, 5) & ~taken
                    if extra.any():
                        kept.append(extra)
                cells = [encode(m) for m in kept] if per_row else [encode(np.any(kept, axis=0))
                                                                    if kept else ""]
                for c in cells or [""]:
                    sub.append([i, c])
            _write(f"{metric}_submission{suffix}.csv", ["ImageId", "EncodedPixels"], sub)


def boxes(rng):
    ids = [f"scan{i:03d}" for i in range(N)]
    usage = ["Public" if i % 3 else "Private" for i in range(N)]
    labels = ["nodule", "opacity", "effusion"]
    truth = []
    for _ in ids:
        k = int(rng.integers(0, 5))
        xy = rng.uniform(0, 400, (k, 2))
        wh = rng.uniform(20, 100, (k, 2))
        truth.append([(labels[int(rng.integers(0, 3))], *xy[j], *(xy[j] + wh[j])) for j in range(k)])
    fmt = " ".join
    _write("map_iou_solution.csv", ["image_id", "PredictionString", "Usage"],
           [[i, fmt(f"{b[0]} {b[1]:.1f} {b[2]:.1f} {b[3]:.1f} {b[4]:.1f}" for b in t), u]
            for i, t, u in zip(ids, truth, usage)])
    _write("point_f1_solution.csv", ["image_id", "labels", "Usage"],
           [[i, fmt(f"U+{30 + ord(b[0][0]):04X} {b[1]:.0f} {b[2]:.0f} {b[3] - b[1]:.0f} "
                    f"{b[4] - b[2]:.0f}" for b in t), u] for i, t, u in zip(ids, truth, usage)])
    for suffix, noise in (("", 6.0), ("_b", 16.0)):
        rows, points = [], []
        for i, t in zip(ids, truth):
            parts, pts = [], []
            for b in t:
                if rng.random() < 0.85:
                    j = rng.normal(0, noise, 4)
                    x1, y1 = b[1] + j[0], b[2] + j[1]
                    x2, y2 = max(b[3] + j[2], x1 + 1), max(b[4] + j[3], y1 + 1)
                    conf = float(np.clip(rng.beta(5, 2), 0.01, 0.99))
                    parts.append(f"{b[0]} {conf:.3f} {x1:.1f} {y1:.1f} {x2:.1f} {y2:.1f}")
                    cx, cy = (b[1] + b[3]) / 2 + j[0] * 2, (b[2] + b[4]) / 2 + j[1] * 2
                    pts.append(f"U+{30 + ord(b[0][0]):04X} {cx:.0f} {cy:.0f}")
            for _ in range(int(rng.integers(0, 3))):
                x, y = rng.uniform(0, 400, 2)
                lab = labels[int(rng.integers(0, 3))]
                parts.append(f"{lab} {rng.beta(2, 5):.3f} {x:.1f} {y:.1f} {x + 40:.1f} {y + 50:.1f}")
                pts.append(f"U+{30 + ord(lab[0]):04X} {x:.0f} {y:.0f}")
            rows.append([i, " ".join(parts)])
            points.append([i, " ".join(pts)])
        _write(f"map_iou_submission{suffix}.csv", ["image_id", "PredictionString"], rows)
        _write(f"point_f1_submission{suffix}.csv", ["image_id", "labels"], points)


if __name__ == "__main__":
    masks(np.random.default_rng(38))
    boxes(np.random.default_rng(83))
