"""Mean precision over IoU thresholds (TGS salt, Data Science Bowl 2018).

Per image and threshold t (0.5 to 0.95 by 0.05): a predicted mask matching a
truth mask with IoU > t is a true positive; precision = TP / (TP + FP + FN).
The image's score is the mean over thresholds; an empty truth with an empty
prediction scores 1, an empty truth with any prediction 0. The score is the
mean over images. Rows of one image are its instances (one mask a row).
"""
from ._mask_metric import InstanceMetric


class IouPrecision(InstanceMetric):
    name = "iou_precision"
    label = "IoU precision"
    demo_detected = False

    def of_threshold_counts(self, tp, fp, fn, options, empty):
        from .kernels.masks import ratio_score
        return ratio_score(tp, tp + fp + fn, empty)


IOU_PRECISION = IouPrecision()
