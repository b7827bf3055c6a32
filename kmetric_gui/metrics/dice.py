"""Dice of run-length masks: mean per image (HuBMAP) or pooled over every pixel
(contrails), 2|T∩P| / (|T| + |P|); an image with empty truth and prediction scores
1 by default (``--empty-empty``)."""
from ._mask_metric import SemanticMetric


class Dice(SemanticMetric):
    name = "dice"
    label = "Dice"
    demo_label = "Dice (run-length masks)"
    demo_detected = False     # masks fit several metrics: the app chooses the demo's

    def of_counts(self, counts, options, empty):
        from .kernels.masks import dice_of
        return dice_of(counts, empty)


DICE = Dice()
