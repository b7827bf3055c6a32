"""mAP of boxes at one or several IoU thresholds (SIIM-COVID: VOC mAP@0.5; VinBigData:
mAP@0.4; COCO: mAP@0.5:0.95 with 101 recall points).

Per class, the predictions of every image ranked by confidence; each matched
greedily to a truth box of its image and class (``--map-style``: coco takes
the best unmatched box with IoU >= t, voc the box of highest IoU if > t and
free); AP on the precision envelope (101 points, every recall step, or 11
points); mAP the mean over classes with truth boxes, then over thresholds.
The image is the unit: intervals, shake-up and comparison reweight images.
"""
import numpy as np

from ._box_metric import FORMAT, BoxMetric
from ._family import Option, opt
from ._mask_metric import THRESHOLDS, parse_thresholds

STYLE = Option("map_style", str, "coco", ("coco", "voc", "voc11"),
               "map_iou: coco (101 recall points, best unmatched box), voc (every recall step, "
               "VOC 2010 on) or voc11 (11 points, VOC 2007)", label="AP style",
               choice_labels=("COCO, 101 points", "VOC, all points", "VOC 2007, 11 points"))


class MapIou(BoxMetric):
    name = "map_iou"
    label = "Box mAP"
    demo_label = "mAP (boxes)"
    options = (FORMAT,) + BoxMetric.options + (STYLE, THRESHOLDS)
    count_names = ("hits", "truth boxes", "predicted")

    def fit(self, sub_targets, sample=None):
        from ._image_layouts import _one_text_column, box_groups
        from .detect import Fit
        found = _one_text_column(sub_targets, sample)
        if found is None:
            return None
        name, (sol, sub) = found
        if not any(c.strip() for c in sub) or box_groups(sub, self.pred_groups) is None \
                or box_groups(sol, self.truth_groups) is None or not _confident(sub):
            return None
        return Fit(f"strings of boxes with confidences in '{name}' ({self.label})")

    def style(self, options):
        return opt(options, self, "map_style")

    def thresholds(self, options):
        default = "0.5:0.95:0.05" if self.style(options) == "coco" else "0.5"
        return parse_thresholds(opt(options, self, "iou_thresholds"), default)

    def image_stats(self, truth, pred, options):
        from .kernels.boxes import detections
        det = detections(truth, pred, self.thresholds(options), self.style(options))
        n = len(truth)
        hits = np.bincount(det.image[det.hit[:, 0]], minlength=n)
        counts = np.column_stack([hits, det.gt.sum(axis=1), np.bincount(det.image, minlength=n)])
        from .kernels.masks import ratio_score
        values = ratio_score(hits, counts[:, 1] + counts[:, 2] - hits, 1.0)
        return np.ones((n, 1)), values, counts, det

    def score_of(self, options):
        return None

    def score(self, plan, rows, options, cancel):
        from ._mask_metric import ImageResult
        from .kernels.boxes import map_of
        from .base import take
        from ..errors import Cancelled
        if cancel():
            raise Cancelled("scoring")
        truth, pred = take(plan.truth, rows), take(plan.pred, rows)
        stats, values, counts, det = self.image_stats(truth, pred, options)
        s = float(map_of(det)[0]) if len(truth) else float("nan")
        why = None if np.isfinite(s) else "no truth boxes to score"
        return ImageResult(s, why, stats, values, counts, None, len(truth), det)

    def reference(self, prep, options, rows=None):
        from ._image_references import mean_ap
        return mean_ap(self, prep, options, rows)

    def units(self, result):
        from .kernels.box_stats import map_units
        return map_units(result.detail)

    def paired(self, reports, split="all"):
        from .kernels.box_stats import MapPairs
        return MapPairs([(r.result if split == "all" else r.splits[split]).detail for r in reports])

    def fixes(self, report, rows, top):
        from .kernels.box_stats import map_fix_first
        return map_fix_first(report.result.detail, top, self.higher_is_better)

    def blend_sets(self, report_a, report_b, alphas, row_sets):
        return [None] * len(row_sets)

    def differ(self, report_a, report_b, engine, i, j):
        """Images where A and B differ: mAP of B minus mAP of B with A's predictions on that
        image (each an exact rescoring with weights; up to 2,000 images)."""
        from dataclasses import replace
        from .kernels.box_stats import MapPairs
        from .kernels.differ import UnitDiffer
        ra, rb = report_a.result, report_b.result
        n = ra.n
        pa, pb = report_a.prepared.pred, report_b.prepared.pred
        diff = np.array([k for k in range(n) if not (pa[k] == pb[k])] if n <= 2000 else [],
                        np.int64)
        pairs = MapPairs([ra.detail, rb.detail])
        delta = np.zeros(diff.size)
        for a in range(0, diff.size, 100):
            eye = np.zeros((min(100, diff.size - a), n))
            eye[np.arange(eye.shape[0]), diff[a:a + 100]] = 1
            delta[a:a + 100] = pairs.scores()[1] - pairs._score(np.ones_like(eye),
                                                                  {1: 1 - eye, 0: eye})
        order = np.argsort(-np.abs(delta), kind="stable")
        d = UnitDiffer(diff[order], delta[order], n, self.higher_is_better, "image",
                       "mAP of B minus mAP of B with A's boxes on that image")
        return replace(d, **self.differ_texts(report_a, report_b, d.units[:200]))

    def json_fields(self, report):
        from .kernels.boxes import map_scores
        det = report.result.detail
        ap = map_scores(det)[0]                     # (T, C)
        per_class = {str(c) or "boxes": (None if not np.isfinite(v) else float(v))
                     for c, v in zip(det.classes, np.nanmean(np.where(np.isfinite(ap), ap, np.nan),
                                                             axis=0))} if ap.size else {}
        return {**super().json_fields(report), "map_style": det.style,
                "iou_thresholds": det.thresholds.tolist(), "per_class_ap": per_class}


def _confident(cells):
    from ._image_layouts import box_groups
    g = box_groups(cells, (5, 6))
    for c in cells:
        t = c.split()
        if not t:
            continue
        conf = t[0::g] if g == 5 else t[1::g]
        try:
            if any(not 0 <= float(x) <= 1 for x in conf):
                return False
        except ValueError:
            return False
    return True


MAP_IOU = MapIou()
