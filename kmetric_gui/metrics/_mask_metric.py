"""What the run-length mask metrics share: the layout, per-image statistics, the analyses.

Layout: an id column and one column of Kaggle run-length encodings in both
files, one row per image or one per instance (rows grouped by id); image
sizes from height/width columns of the solution or --image-size (HxW, or a CSV of sizes).

Each metric gives ``image_stats`` (per-image additive statistics, (n, m))
and ``score_of`` (their sums -> the score), so intervals, shake-up, paired
comparison and fix first all take the image as the unit with no more code.
Blends are out of scope: a Kaggle mask is 0/1 pixels already thresholded, so
averaging two submissions' masks needs their probabilities, which the files
do not hold.
"""
from dataclasses import dataclass

import numpy as np

from ..errors import Cancelled
from ..tables import Column
from ._family import FamilyMetric, Option, opt
from .base import FieldSpec, take

ORDER = Option("rle_order", str, "column", ("column", "row"),
               "masks: pixels numbered down the columns first (column) or along the rows (row)",
               label="RLE pixel order", choice_labels=("top to bottom, then left to right",
                                                       "left to right, then top to bottom"))
SIZE = Option("image_size", str, None, help="masks and boxes: every image's size HEIGHTxWIDTH, "
              "or a CSV file of id,height,width (default: height/width columns of the solution)",
              examples=("48x64",))
IMAGES = Option("images", str, None, help="masks and boxes: a folder of the images (id.png, "
                "id.jpg): the pictures draw over them")
EMPTY = Option("empty_empty", str, "one", ("one", "zero", "skip"),
               "masks: an image with an empty truth and an empty prediction scores 1, 0, or is "
               "left out of the mean", label="Empty and empty",
               choice_labels=("scores 1", "scores 0", "left out"))
AVERAGE = Option("mask_average", str, "image", ("image", "global"),
                 "masks: mean of the per-image scores (image) or one score of all pixels pooled "
                 "(global)", label="Average", choice_labels=("mean over images", "pixels pooled"))
THRESHOLDS = Option("iou_thresholds", str, None, help="IoU thresholds: one (0.5), a list "
                    "(0.5,0.75) or a range (0.5:0.95:0.05); default: the competition's",
                    examples=("0.5:0.9:0.1", "0.75"))
COMMON = (ORDER, SIZE, IMAGES)
EMPTY_VALUE = {"one": 1.0, "zero": 0.0, "skip": np.nan}


def parse_thresholds(text, default):
    """IoU thresholds from '0.5', '0.5,0.75' or '0.5:0.95:0.05'; ValueError in words."""
    from ..numbers import parse_number
    t = default if text in (None, "") else str(text)
    try:
        if ":" in t:
            lo, hi, step = (parse_number(x) for x in t.split(":"))
            if step <= 0 or hi < lo:
                raise ValueError
            vals = np.round(np.arange(lo, hi + step / 2, step), 10)
        else:
            vals = np.array([parse_number(x) for x in t.split(",")])
    except (ValueError, TypeError):
        raise ValueError(f"iou_thresholds {t!r}: expected 0.5, 0.5,0.75 or 0.5:0.95:0.05") from None
    if vals.size == 0 or not ((vals >= 0) & (vals < 1)).all():
        raise ValueError(f"iou_thresholds {t!r}: each threshold must be in [0, 1)")
    return vals


@dataclass(frozen=True)
class ImageResult:
    """A mask or box metric over some images."""
    score: float
    undefined_reason: "str | None"
    stats: np.ndarray          # (n, m) per-image additive statistics
    values: np.ndarray         # (n,) each image's own score (nan: left out)
    counts: np.ndarray         # (n, 3) what the table shows: e.g. pixels in both, truth, prediction
    score_fn: object           # sums (R, m) -> (R,)
    n: int
    detail: object = None      # the metric's own (matched pairs, detections)

    def units(self):
        from ..core.resample import Units
        return Units(self.stats, self.score_fn, None, "image", mergeable=False)


class ImageMetric(FamilyMetric):
    """Masks or boxes: the image is the unit, its statistics additive."""
    unit = "image"
    view = ""                   # its own view (gui/views/images_view.py)
    count_names = ("in both", "truth", "prediction")

    def image_stats(self, truth, pred, options):
        """(stats (n, m), values (n,), counts (n, 3), detail) of aligned images."""
        raise NotImplementedError

    def score_of(self, options):
        """sums (R, m) -> (R,) scores."""
        raise NotImplementedError

    def score(self, plan, rows, options, cancel):
        if cancel():
            raise Cancelled("scoring")
        truth, pred = take(plan.truth, rows), take(plan.pred, rows)
        stats, values, counts, detail = self.image_stats(truth, pred, options)
        fn = self.score_of(options)
        n = len(truth)
        s = float(fn(stats.sum(axis=0)[None, :])[0]) if n else float("nan")
        why = None if np.isfinite(s) else "no images to score" if n == 0 else \
            "every image is left out (empty truth and prediction)"
        return ImageResult(s, why, stats, values, counts, fn, n, detail)

    def units(self, result):
        return result.units()

    def row_stats(self, result):
        return result.stats, result.score_fn

    # -- the analyses of the contract (metrics/family_analyses.py) ----------------------
    fix_words = "prediction set to the truth mask"
    no_blend = ("a Kaggle mask is 0/1 pixels, already thresholded: a blend needs the "
                "probabilities, which the files do not hold (out of scope for masks and boxes)")

    def perfect_one(self, truth):
        """The prediction that gets one truth image right."""
        return truth

    def perfect(self, prep):
        return [self.perfect_one(t) for t in prep.truth]

    def fixed_prediction(self, truth, pred, rows=None):
        out = list(pred)
        for i in (range(len(out)) if rows is None else np.asarray(rows, np.int64).tolist()):
            out[i] = self.perfect_one(truth[i])
        return out

    def unit_stats(self, report):
        return report.result.stats, report.result.score_fn

    def score_values(self, truth, pred, report):
        stats, _, _, _ = self.image_stats(truth, pred, report.options)
        return stats, self.score_of(report.options)

    def blend_values(self, a, b, alpha):
        return None

    def fix_details(self, report, units, sol_rows):
        c = report.result.counts
        a, b, p = self.count_names
        return [f"{a} {c[u, 0]:,}, {b} {c[u, 1]:,}, {p} {c[u, 2]:,}" for u in units]

    # -- output ---------------------------------------------------------------------------
    def json_fields(self, report):
        r = report.result
        worst = _worst(r.values, self.higher_is_better, 5)
        ids = report.prepared.ids
        return {**super().json_fields(report), "n_images": r.n,
                "worst_images": [{"id": str(ids[k]), "score": float(r.values[k])} for k in worst]}

    def summary_lines(self, report):
        r = report.result
        word = "higher" if self.higher_is_better else "lower"
        left = int(np.isnan(r.values).sum())
        out = [f"{r.n:,} images; {word} is better"]
        if left and any(o.name == "empty_empty" for o in self.options):
            out.append(f"{left:,} image(s) left out (empty truth and prediction)")
        elif left:
            out.append(f"{left:,} image(s) with neither truth nor prediction (they add nothing)")
        return out

    def report_tables(self, entry):
        r, ids = entry.report.result, entry.report.prepared.ids
        rows = [["id", "score", *self.count_names]]
        for k in _worst(r.values, self.higher_is_better, 20):
            rows.append([str(ids[k]), f"{r.values[k]:.6g}", *map(int, r.counts[k])])
        return {"worst_images.csv": ("Worst images", rows)}

    def table_columns(self, prep):
        return [Column("truth", prep.truth, FieldSpec("truth"), self.cell_text,
                       tooltip="solution (editable: type another encoding)"),
                Column("prediction", prep.pred, FieldSpec("pred"), self.cell_text,
                       tooltip="submission (editable: type another encoding)")]

    def cell_text(self, image):
        raise NotImplementedError


def _worst(values, higher_is_better, k):
    v = np.where(np.isnan(values), np.inf if higher_is_better else -np.inf, values)
    order = np.argsort(v if higher_is_better else -v, kind="stable")
    return order[:k].tolist()


class MaskMetric(ImageMetric):
    """Run-length masks."""
    instances = False          # True: rows of an image are instances that must not overlap
    options = COMMON

    def fit(self, sub_targets, sample=None):
        from .detect import Fit
        from ._image_layouts import rle_fit
        why = rle_fit(sub_targets, sample)
        return Fit(f"{why} ({self.label})", clear=False) if why else None

    def build(self, ctx):
        from ._image_layouts import build_masks
        return build_masks(self, ctx)

    def empty_value(self, options):
        return EMPTY_VALUE[opt(options, self, "empty_empty")]

    def cell_text(self, image):
        if not image.texts:
            return ""
        if len(image.texts) == 1:
            return image.texts[0]
        return f"{len(image.texts)} masks: " + " | ".join(image.texts)

    def parse(self, spec, text, prep):
        from ._image_layouts import parse_mask_cell
        return parse_mask_cell(self, text, prep, spec)

    def submission_rows(self, prep):
        col = prep.target_columns[0]

        def rows():
            for i, im in zip(prep.ids, prep.pred):
                for t in (im.texts or ("",)):
                    yield [i, t]
        return [prep.id_column, col], rows()


def sized(truth, pred):
    """Predictions with their images' sizes (the truth's); a run past an edited cell's image
    end is refused here, when the image is known."""
    from ..errors import InputError
    out = []
    for t, p in zip(truth, pred):
        if (p.height, p.width) != (t.height, t.width):
            if p.lengths.size and int((p.starts + p.lengths).max()) > t.pixels:
                raise InputError(f"an edited mask runs past its image's end ({t.height}x{t.width})")
            p = p.with_size(t.height, t.width)
        out.append(p)
    return out


class SemanticMetric(MaskMetric):
    """A score of pixel counts (in both, truth, prediction), per image or pooled."""
    options = COMMON + (AVERAGE, EMPTY)
    count_names = ("px in both", "truth px", "predicted px")

    def of_counts(self, counts, options, empty):
        """The score of (..., 3) counts."""
        raise NotImplementedError

    def reference(self, prep, options, rows=None):
        from ._image_references import semantic
        return semantic(self, prep, options, rows)

    def image_stats(self, truth, pred, options):
        from .kernels.masks import pixel_counts
        counts = pixel_counts(truth, sized(truth, pred))
        values = self.of_counts(counts, options, self.empty_value(options))
        if opt(options, self, "mask_average") == "global":
            return counts.astype(np.float64), values, counts, None
        return _mean_stats(values), values, counts, None

    def fixes(self, report, rows, top):
        """Fix first without another pass over the runs: an image predicted as its truth
        has counts (truth, truth, truth)."""
        from ..core.additive import fix_first
        r, o = report.result, report.options
        t = r.counts[:, 1]
        fixed = np.column_stack([t, t, t])
        values = self.of_counts(fixed, o, self.empty_value(o))
        stats = fixed.astype(np.float64) if opt(o, self, "mask_average") == "global" \
            else _mean_stats(values)
        return fix_first(r.stats, stats, r.score_fn, top, self.higher_is_better)

    def score_of(self, options):
        if opt(options, self, "mask_average") == "global":
            empty = self.empty_value(options)
            return lambda sums: self.of_counts(sums, options, empty)
        return _mean_score


class InstanceMetric(MaskMetric):
    """A score of matched instances at IoU thresholds, per image, averaged over images."""
    instances = True
    options = COMMON + (THRESHOLDS, EMPTY)
    count_names = ("matched", "truth masks", "predicted")

    def thresholds(self, options):
        t = parse_thresholds(opt(options, self, "iou_thresholds"), "0.5:0.95:0.05")
        if (t < 0.5).any():
            from ..errors import InputError
            raise InputError("iou_thresholds below 0.5 need a matching rule for masks; use "
                             "thresholds of at least 0.5 (one match per mask by itself)")
        return t

    def of_threshold_counts(self, tp, fp, fn, options, empty):
        raise NotImplementedError

    def reference(self, prep, options, rows=None):
        from ._image_references import instances
        return instances(self, prep, options, rows)

    def image_stats(self, truth, pred, options):
        from .kernels.masks import instance_pairs, threshold_counts
        pairs = instance_pairs(truth, sized(truth, pred))
        c = threshold_counts(pairs, self.thresholds(options))          # (n, T, 3)
        per_t = self.of_threshold_counts(c[..., 0], c[..., 1], c[..., 2], options, np.nan)
        none = (pairs.n_truth == 0) & (pairs.n_pred == 0)
        values = np.where(none, self.empty_value(options), np.nan_to_num(per_t).mean(axis=1))
        counts = np.column_stack([c[:, 0, 0], pairs.n_truth, pairs.n_pred])
        return _mean_stats(values), values, counts, pairs

    def score_of(self, options):
        return _mean_score

    def fixes(self, report, rows, top):
        """Fix first without another pass: an image predicted as its truth scores 1 (every
        mask matched at every threshold), or the empty-and-empty value."""
        from ..core.additive import fix_first
        r = report.result
        values = np.where(r.counts[:, 1] > 0, 1.0, self.empty_value(report.options))
        return fix_first(r.stats, _mean_stats(values), r.score_fn, top, self.higher_is_better)


def _mean_stats(values):
    counted = ~np.isnan(values)
    return np.column_stack([np.where(counted, values, 0.0), counted.astype(np.float64)])


def _mean_score(sums):
    sums = np.asarray(sums, np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(sums[:, 1] > 0, sums[:, 0] / np.where(sums[:, 1] > 0, sums[:, 1], 1), np.nan)
