"""Per-pixel F-beta of run-length masks (Vesuvius ink detection: F0.5): a pixel of both
is a true positive, of the prediction only a false positive, of the truth only a false
negative; per image then averaged, or pooled over every pixel (``--mask-average``)."""
from ._family import Option, opt
from ._mask_metric import SemanticMetric

BETA = Option("beta", float, 0.5, help="fbeta: beta (recall weighs beta^2 times precision)",
              minimum=0.01, maximum=100.0, step=0.1)


class PixelFbeta(SemanticMetric):
    name = "pixel_fbeta"
    label = "Pixel F-beta"
    demo_detected = False
    options = SemanticMetric.options + (BETA,)

    def of_counts(self, counts, options, empty):
        from .kernels.masks import fbeta_of
        inter, t, p = counts[..., 0], counts[..., 1], counts[..., 2]
        return fbeta_of(inter, p - inter, t - inter, opt(options, self, "beta"), empty)


PIXEL_FBETA = PixelFbeta()
