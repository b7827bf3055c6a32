"""IoU (Jaccard) of run-length masks: |T∩P| / |T∪P|, mean per image or pooled over
every pixel; an image with empty truth and prediction scores 1 by default."""
from ._mask_metric import SemanticMetric


class Iou(SemanticMetric):
    name = "iou"
    label = "IoU"
    demo_detected = False

    def of_counts(self, counts, options, empty):
        from .kernels.masks import iou_of
        return iou_of(counts, empty)


IOU = Iou()
