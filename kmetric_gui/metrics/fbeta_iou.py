"""F-beta over IoU thresholds with one-to-one matching (Airbus ship detection: F2).

Per image and threshold t: a predicted mask matching a truth mask with IoU > t is a
true positive (at t >= 0.5 a mask has at most one match); F-beta = (1 + b²)TP /
((1 + b²)TP + b²FN + FP), averaged over thresholds, then over images. An image
with no ships and no prediction scores 1. One ship a row; an empty cell: none.
"""
from ._family import Option, opt
from ._mask_metric import InstanceMetric

IOU_BETA = Option("iou_beta", float, 2.0, help="fbeta_iou: beta of the F-beta at each IoU "
                  "threshold (Airbus: 2)", minimum=0.01, maximum=100.0, step=0.1)


class FbetaIou(InstanceMetric):
    name = "fbeta_iou"
    label = "IoU F-beta"
    demo_detected = False
    options = InstanceMetric.options + (IOU_BETA,)

    def of_threshold_counts(self, tp, fp, fn, options, empty):
        from .kernels.masks import fbeta_of
        return fbeta_of(tp, fp, fn, opt(options, self, "iou_beta"), empty)


FBETA_IOU = FbetaIou()
