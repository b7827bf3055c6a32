"""Boxes: mAP against pycocotools' COCOeval and the VOC devkit's definitions written as
plain loops; weights of images equal duplicated images; Kuzushiji's point-in-box F1."""
import contextlib
import io

import numpy as np
import pytest

from kmetric_gui.metrics.kernels.box_stats import map_units
from kmetric_gui.metrics.kernels.boxes import BoxImage, box_iou, detections, map_of, point_matches

pytest.importorskip("pycocotools")


def _scene(rng, n, classes=3, near=0.7):
    truth, pred = [], []
    for _ in range(n):
        k = int(rng.integers(0, 6))
        xy, wh = rng.random((k, 2)) * 80, rng.random((k, 2)) * 30 + 1
        labels = tuple(f"c{x}" for x in rng.integers(0, classes, k))
        truth.append(BoxImage(labels, np.ones(k), np.c_[xy, xy + wh]))
        m = int(rng.integers(0, 8))
        pxy, pwh = rng.random((m, 2)) * 80, rng.random((m, 2)) * 30 + 1
        plab = list(f"c{x}" for x in rng.integers(0, classes, m))
        for q in range(m):
            if k and rng.random() < near:
                j = int(rng.integers(0, k))
                pxy[q] = xy[j] + rng.normal(0, 2, 2)
                pwh[q] = np.maximum(wh[j] + rng.normal(0, 2, 2), 0.5)
                plab[q] = labels[j]
        pred.append(BoxImage(tuple(plab), rng.random(m), np.c_[pxy, pxy + pwh]))
    return truth, pred


def _cocoeval(truth, pred, thresholds):
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval
    cats = sorted({lab for im in truth + pred for lab in im.labels})
    cid = {c: k + 1 for k, c in enumerate(cats)}
    gt = {"images": [{"id": i + 1} for i in range(len(truth))],
          "categories": [{"id": v} for v in cid.values()], "annotations": []}
    dts = []
    for i, (t, p) in enumerate(zip(truth, pred)):
        for lab, b in zip(t.labels, t.xyxy):
            w, h = b[2] - b[0], b[3] - b[1]
            gt["annotations"].append({"id": len(gt["annotations"]) + 1, "image_id": i + 1,
                                      "category_id": cid[lab], "bbox": [b[0], b[1], w, h],
                                      "area": w * h, "iscrowd": 0})
        for lab, c, b in zip(p.labels, p.conf, p.xyxy):
            dts.append({"image_id": i + 1, "category_id": cid[lab], "score": float(c),
                        "bbox": [b[0], b[1], b[2] - b[0], b[3] - b[1]]})
    with contextlib.redirect_stdout(io.StringIO()):
        coco = COCO()
        coco.dataset = gt
        coco.createIndex()
        ev = COCOeval(coco, coco.loadRes(dts) if dts else COCO(), "bbox")
        ev.params.maxDets = [10_000]
        ev.params.areaRng, ev.params.areaRngLbl = [[0, 1e10]], ["all"]
        ev.params.iouThrs = np.asarray(thresholds)
        ev.evaluate()
        ev.accumulate()
    pr = ev.eval["precision"][:, :, :, 0, 0]             # (T, 101, K)
    return float(np.mean([pr[t][:, pr[t, 0, :] > -1].mean() for t in range(len(thresholds))]))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_coco_map_equals_cocoeval(seed):
    truth, pred = _scene(np.random.default_rng(seed), 50)
    th = np.round(np.arange(0.5, 0.96, 0.05), 2)
    assert map_of(detections(truth, pred, th, "coco"))[0] == pytest.approx(
        _cocoeval(truth, pred, th), abs=1e-12)


def test_coco_map_edge_cases_equal_cocoeval():
    box = np.array([[10.0, 10, 20, 20]])
    touching = np.array([[20.0, 10, 30, 20]])            # shares an edge: IoU 0
    truth = [BoxImage(("a",), np.ones(1), box), BoxImage((), np.zeros(0), np.zeros((0, 4))),
             BoxImage(("a",), np.ones(1), box), BoxImage(("a",), np.ones(1), box)]
    pred = [BoxImage(("a",), np.array([0.9]), box),                       # exact
            BoxImage(("a",), np.array([0.8]), box),                       # empty truth
            BoxImage((), np.zeros(0), np.zeros((0, 4))),                  # empty prediction
            BoxImage(("a",), np.array([0.7]), touching)]                  # touching
    assert box_iou(box, touching)[0, 0] == 0.0
    for th in ([0.5], [0.5, 0.75]):
        ours = map_of(detections(truth, pred, th, "coco"))[0]
        assert ours == pytest.approx(_cocoeval(truth, pred, th), abs=1e-12)


def _voc_ap(truth, pred, cls, th, eleven):
    """The VOC devkit's AP of one class, as plain loops."""
    gts = {i: [b for lab, b in zip(t.labels, t.xyxy) if lab == cls] for i, t in enumerate(truth)}
    used = {i: [False] * len(g) for i, g in gts.items()}
    npos = sum(len(g) for g in gts.values())
    dets = [(-c, i, b) for i, p in enumerate(pred) for lab, c, b in zip(p.labels, p.conf, p.xyxy)
            if lab == cls]
    dets.sort(key=lambda d: d[0])
    tp, fp = [], []
    for _, i, b in dets:
        ious = [box_iou(b[None], g[None])[0, 0] for g in gts[i]]
        j = int(np.argmax(ious)) if ious else -1
        if j >= 0 and ious[j] > th and not used[i][j]:
            used[i][j] = True
            tp.append(1)
            fp.append(0)
        else:
            tp.append(0)
            fp.append(1)
    tp, fp = np.cumsum(tp), np.cumsum(fp)
    rec, prec = tp / npos, tp / np.maximum(tp + fp, 1e-300)
    if eleven:
        return np.mean([max([p for r, p in zip(rec, prec) if r >= t], default=0.0)
                        for t in np.arange(0, 1.1, 0.1)])
    mrec, mpre = np.r_[0, rec, 1], np.r_[0, prec, 0]
    for k in range(mpre.size - 2, -1, -1):
        mpre[k] = max(mpre[k], mpre[k + 1])
    idx = np.flatnonzero(mrec[1:] != mrec[:-1])
    return float(np.sum((mrec[idx + 1] - mrec[idx]) * mpre[idx + 1]))


@pytest.mark.parametrize("style", ["voc", "voc11"])
def test_voc_map_equals_the_devkit_loops(style):
    truth, pred = _scene(np.random.default_rng(5), 40)
    classes = sorted({lab for t in truth for lab in t.labels})
    for th in (0.4, 0.5):
        ref = np.mean([_voc_ap(truth, pred, c, th, style == "voc11") for c in classes])
        assert map_of(detections(truth, pred, [th], style))[0] == pytest.approx(ref, abs=1e-12)


def test_image_weights_equal_duplicated_images():
    rng = np.random.default_rng(7)
    truth, pred = _scene(rng, 30)
    counts = rng.integers(0, 3, 30)
    dup = [k for k in range(30) for _ in range(counts[k])]
    for style in ("coco", "voc", "voc11"):
        th = [0.5, 0.7]
        whole = map_of(detections([truth[k] for k in dup], [pred[k] for k in dup], th, style))[0]
        det = detections(truth, pred, th, style)
        assert map_of(det, counts[None, :])[0] == pytest.approx(whole, abs=1e-12)
        assert map_units(det).score(counts[None, :])[0] == pytest.approx(whole, abs=1e-12)


def _kuzushiji(truth, points):
    """Kaggle's published Kuzushiji page score, as a plain loop."""
    tp = fp = fn = 0
    unused = [True] * len(points)
    for lab, (x1, y1, x2, y2) in truth:
        hit = [j for j, (pl, px, py) in enumerate(points)
               if unused[j] and pl == lab and x1 < px < x2 and y1 < py < y2]
        if hit:
            tp += 1
            unused[hit[0]] = False
        else:
            fn += 1
    fp = sum(unused)
    return tp, fp, fn


def test_point_matches_equal_the_kuzushiji_loop():
    rng = np.random.default_rng(9)
    for _ in range(100):
        k, m = rng.integers(0, 6, 2)
        xy = rng.integers(0, 50, (k, 2)).astype(float)
        boxes = np.c_[xy, xy + rng.integers(1, 20, (k, 2))]
        tl = [str(x) for x in rng.integers(0, 2, k)]
        pts = rng.integers(0, 70, (m, 2)).astype(float)
        pl = [str(x) for x in rng.integers(0, 2, m)]
        t = BoxImage(tuple(tl), np.ones(k), boxes.reshape(-1, 4))
        p = BoxImage(tuple(pl), np.ones(m), np.c_[pts, pts].reshape(-1, 4))
        got = point_matches(t, p)[:3]
        assert got == _kuzushiji(list(zip(tl, boxes.tolist())),
                                 [(a, b[0], b[1]) for a, b in zip(pl, pts.tolist())])
