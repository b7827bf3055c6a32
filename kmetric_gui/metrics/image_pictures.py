"""What one image's picture shows, Qt-free: truth and prediction as true positive, false
positive and false negative, and the matched pairs with their IoU. The app's image view
and the report draw these (gui/views/images_view.py)."""
from dataclasses import dataclass, field

import numpy as np

TP, FP, FN = (60, 200, 90, 150), (230, 60, 50, 150), (50, 120, 240, 150)   # RGBA
BLANK = (256, 256)
POINT = 5                 # half the side of a drawn point, in pixels


@dataclass
class Picture:
    size: tuple                       # (height, width) of the canvas
    overlay: "np.ndarray | None"      # (h, w, 4) uint8 for masks
    boxes: list = field(default_factory=list)   # (x1, y1, x2, y2, kind "tp"|"fp"|"fn", text)
    pairs: list = field(default_factory=list)   # lines "truth 1 ↔ prediction 2: IoU 0.83"
    title: str = ""


def picture(report, k):
    """The picture of the k-th scored image of a report of a mask or box metric."""
    from .base import split_rows
    prep, r = report.prepared, report.result
    rows = split_rows(prep.usage)
    unit = int(k if rows is None else rows[k])
    t, p = prep.truth[unit], prep.pred[unit]
    title = f"{prep.ids[unit]}: score {r.values[k]:.4g}"
    if hasattr(t, "texts"):
        return _masks(report, k, t, p, title)
    return _boxes(report, k, t, p, title)


def _masks(report, k, t, p, title):
    order = getattr(report.options, "rle_order", "column") or "column"
    tl = t.labels(order)
    pl = p.with_size(t.height, t.width).labels(order)
    over = np.zeros(tl.shape + (4,), np.uint8)
    a, b = tl > 0, pl > 0
    over[a & b], over[b & ~a], over[a & ~b] = TP, FP, FN
    pairs = []
    detail = report.result.detail
    if detail is not None and hasattr(detail, "iou"):
        sel = np.flatnonzero(detail.image == k)
        for j in sel[np.argsort(-detail.iou[sel])][:20]:
            pairs.append(f"truth {detail.truth[j] + 1} ↔ prediction {detail.pred[j] + 1}: "
                         f"IoU {detail.iou[j]:.3f}")
    else:
        inter, union = int((a & b).sum()), int((a | b).sum())
        if union:
            pairs.append(f"truth ↔ prediction: IoU {inter / union:.3f} ({inter:,} of {union:,} px)")
    return Picture((t.height, t.width), over, [], pairs, title)


def _boxes(report, k, t, p, title):
    det = report.result.detail
    boxes, pairs = [], []
    if hasattr(det, "hit"):                                      # mAP: the first threshold
        g = np.flatnonzero(det.gt_image == k)
        for j, row in enumerate(g):
            kind = "tp" if det.gt_hit[row, 0] else "fn"
            boxes.append((*t.xyxy[j], kind, t.labels[j]))
        mine = np.flatnonzero(det.image == k)
        for d in mine:
            w = int(det.within[d]) if det.within is not None else 0
            kind = "tp" if det.hit[d, 0] else "fp"
            boxes.append((*p.xyxy[w], kind, f"{p.labels[w]} {p.conf[w]:.2f}".strip()))
            if det.best_iou[d] > 0:
                pairs.append(f"{p.labels[w] or 'box'} {p.conf[w]:.2f}: best IoU "
                             f"{det.best_iou[d]:.3f} ({'hit' if det.hit[d, 0] else 'miss'})")
    else:                                                        # points in boxes
        match = det[k]
        used = set(match[match >= 0].tolist())
        for j in range(len(t)):
            boxes.append((*t.xyxy[j], "tp" if match[j] >= 0 else "fn", t.labels[j]))
        for j in range(len(p)):
            x, y = p.xyxy[j][:2]
            r = POINT                                # a point drawn as a small square
            boxes.append((x - r, y - r, x + r, y + r, "tp" if j in used else "fp", p.labels[j]))
        pairs = [f"{t.labels[j]} ← point {int(m) + 1}" for j, m in enumerate(match) if m >= 0][:20]
    size = tuple(getattr(t, "size", (0, 0)))
    if not all(size):
        ext = np.array([b[:4] for b in boxes], float).reshape(-1, 4)
        size = (int(max(ext[:, 3].max(initial=0) * 1.05, BLANK[0])),
                int(max(ext[:, 2].max(initial=0) * 1.05, BLANK[1])))
    return Picture(size, None, boxes, pairs[:20], title)


def worst(report, k=4):
    """The k worst scored images (positions among the scored ones)."""
    v = report.result.values
    hib = report.definition.higher_is_better
    key = np.where(np.isnan(v), np.inf if hib else -np.inf, v)
    return np.argsort(key if hib else -key, kind="stable")[:k].tolist()


def find_image(folder, image_id):
    """The path of an image named after its id in ``folder`` (png, jpg, jpeg, tif, bmp), or
    None."""
    from pathlib import Path
    if not folder:
        return None
    base = Path(folder)
    for ext in (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ""):
        path = base / f"{image_id}{ext}"
        if path.is_file():
            return str(path)
    return None
