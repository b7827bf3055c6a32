"""Plain definitions of the mask and box metrics: loops over images and pixels, written
from the competitions' published rules (not from the kernels). The conformance test
holds each metric's score to these."""
import numpy as np


def _pixels(text, n):
    """A flat 0/1 array of n pixels from one Kaggle RLE text."""
    flat = np.zeros(n, bool)
    vals = [int(x) for x in text.split()]
    for s, length in zip(vals[0::2], vals[1::2]):
        flat[s - 1:s - 1 + length] = True
    return flat


def _rows(prep, rows):
    return range(len(prep.truth)) if rows is None else [int(r) for r in rows]


def _labels(image, n):
    out = np.zeros(n, np.int32)
    for k, t in enumerate(image.texts, 1):
        out[_pixels(t, n)] = k
    return out


def semantic(metric, prep, options, rows):
    """Dice / IoU / pixel F-beta per image or pooled, from decoded pixels."""
    from ._family import opt
    kind = metric.name
    empty = {"one": 1.0, "zero": 0.0, "skip": None}[opt(options, metric, "empty_empty")]
    beta = opt(options, metric, "beta") if kind == "pixel_fbeta" else None
    totals, values = [0, 0, 0], []
    for i in _rows(prep, rows):
        t_im, p_im = prep.truth[i], prep.pred[i]
        n = t_im.height * t_im.width
        t, p = _labels(t_im, n) > 0, _labels(p_im, n) > 0
        c = [int((t & p).sum()), int(t.sum()), int(p.sum())]
        totals = [a + b for a, b in zip(totals, c)]
        values.append(_value(kind, c, beta, empty))
    if opt(options, metric, "mask_average") == "global":
        v = _value(kind, totals, beta, empty)
        return float("nan") if v is None else v
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else float("nan")


def _value(kind, c, beta, empty):
    inter, t, p = c
    if kind == "dice":
        den, num = t + p, 2 * inter
    elif kind == "iou":
        den, num = t + p - inter, inter
    else:
        b2 = beta * beta
        num = (1 + b2) * inter
        den = num + b2 * (t - inter) + (p - inter)
    return num / den if den else empty


def instances(metric, prep, options, rows):
    """TGS / DSB precision or Airbus F-beta: IoU matrix by counting pixels of each pair."""
    from ._family import opt
    empty = {"one": 1.0, "zero": 0.0, "skip": None}[opt(options, metric, "empty_empty")]
    ths = metric.thresholds(options)
    values = []
    for i in _rows(prep, rows):
        t_im, p_im = prep.truth[i], prep.pred[i]
        n = t_im.height * t_im.width
        tl, pl = _labels(t_im, n), _labels(p_im, n)
        nt, np_ = len(t_im.texts), len(p_im.texts)
        if nt == 0 and np_ == 0:
            values.append(empty)
            continue
        iou = np.zeros((nt, np_))
        for a in range(nt):
            for b in range(np_):
                inter = np.sum((tl == a + 1) & (pl == b + 1))
                union = np.sum((tl == a + 1) | (pl == b + 1))
                iou[a, b] = inter / union
        scores = []
        for th in ths:
            match = iou > th
            tp = int(match.any(axis=1).sum())
            fp, fn = np_ - tp, nt - tp
            if metric.name == "iou_precision":
                scores.append(tp / (tp + fp + fn))
            else:
                b2 = opt(options, metric, "iou_beta") ** 2
                scores.append((1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp))
        values.append(sum(scores) / len(scores))
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else float("nan")


def mean_ap(metric, prep, options, rows):
    """mAP with plain loops: per class, predictions by confidence; COCO or VOC matching."""
    style = metric.style(options)
    ths = metric.thresholds(options)
    keep = _rows(prep, rows)
    classes = sorted({lab for i in keep for im in (prep.truth[i], prep.pred[i]) for lab in im.labels})
    per_t = []
    for th in ths:
        aps = []
        for c in classes:
            npos, dets = 0, []
            for i in keep:
                t, p = prep.truth[i], prep.pred[i]
                gt = [t.xyxy[k] for k in range(len(t)) if t.labels[k] == c]
                npos += len(gt)
                mine = [k for k in range(len(p)) if p.labels[k] == c]
                mine.sort(key=lambda k: -p.conf[k])          # stable: file order for ties
                taken = [False] * len(gt)
                for k in mine:
                    ious = [_iou(p.xyxy[k], g) for g in gt]
                    hit = False
                    if style == "coco":
                        best, m = th, -1
                        for j, v in enumerate(ious):
                            if not taken[j] and v >= best:
                                best, m = v, j
                        if m >= 0:
                            taken[m], hit = True, True
                    elif ious:
                        j = int(np.argmax(ious))
                        if ious[j] > th and not taken[j]:
                            taken[j], hit = True, True
                    dets.append((-p.conf[k], i, hit))
            if npos == 0:
                continue
            dets.sort(key=lambda d: (d[0], d[1]))
            aps.append(_ap([d[2] for d in dets], npos, style))
        per_t.append(sum(aps) / len(aps) if aps else 0.0)
    return sum(per_t) / len(per_t) if classes else float("nan")


def _iou(a, b):
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _ap(hits, npos, style):
    tp = fp = 0
    rec, prec = [], []
    for h in hits:
        tp, fp = tp + h, fp + (not h)
        rec.append(tp / npos)
        prec.append(tp / (tp + fp))
    env = prec[:]
    for k in range(len(env) - 2, -1, -1):
        env[k] = max(env[k], env[k + 1])
    if style == "voc":
        total, last = 0.0, 0.0
        for r, p in zip(rec, env):
            total += (r - last) * p
            last = r
        return total
    points = [k / 100 for k in range(101)] if style == "coco" else [k / 10 for k in range(11)]
    total = 0.0
    for x in points:
        found = [p for r, p in zip(rec, env) if r >= x]
        total += found[0] if found else 0.0
    return total / len(points)


def point_f1(metric, prep, options, rows):
    """Kuzushiji: each truth box in order takes the first unused point of its label strictly
    inside it; F1 of the pooled counts (0 when TP + FP or TP + FN is 0)."""
    tp = fp = fn = 0
    for i in _rows(prep, rows):
        t, p = prep.truth[i], prep.pred[i]
        unused = [True] * len(p)
        for k in range(len(t)):
            x1, y1, x2, y2 = t.xyxy[k]
            found = -1
            for j in range(len(p)):
                px, py = p.xyxy[j][0], p.xyxy[j][1]
                if unused[j] and p.labels[j] == t.labels[k] and x1 < px < x2 and y1 < py < y2:
                    found = j
                    break
            if found < 0:
                fn += 1
            else:
                tp += 1
                unused[found] = False
        fp += sum(unused)
    if tp + fp == 0 or tp + fn == 0:
        return 0.0
    prec, rec = tp / (tp + fp), tp / (tp + fn)
    return 2 * prec * rec / (prec + rec) if prec + rec else 0.0
