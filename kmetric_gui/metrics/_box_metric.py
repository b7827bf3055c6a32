"""What the box metrics share: strings of boxes per image, read, checked and edited.

A cell holds groups of values, one group a box: truth "[label] a b c d",
predictions "[label] conf a b c d" (map_iou) or "label x y" (point_f1's
centre points). a b c d are x y width height (``box_format`` xywh) or
x1 y1 x2 y2 (xyxy). Rows of one image are joined. A negative width, a
confidence outside [0, 1] or a value that is not a number is a problem
naming the file, column, row and id.
"""
import numpy as np

from ..io.problems import ValidationFailed
from ._family import Option, opt
from ._image_layouts import _SIZE_COLUMNS, _empty_ids, box_groups
from ._images import Side, align_images, image_sizes, problems_by_reason, target_name
from ._mask_metric import IMAGES, SIZE, ImageMetric
from .kernels.boxes import BoxImage

FORMAT = Option("box_format", str, "xyxy", ("xyxy", "xywh"), "map_iou: boxes as x1 y1 x2 y2 "
                "(xyxy: SIIM-COVID, VinBigData) or x y width height (xywh: global wheat)",
                label="Box values", choice_labels=("x1 y1 x2 y2", "x y width height"))


class BoxMetric(ImageMetric):
    options = (SIZE, IMAGES)
    default_format = "xyxy"
    truth_groups = (4, 5)         # values per truth box: without, with a label
    pred_groups = (5, 6)          # per predicted box: conf + box, label + conf + box
    points = False                # predictions are label x y points

    def box_format(self, options):
        if any(o.name == "box_format" for o in self.options):
            return opt(options, self, "box_format")
        return self.default_format

    def build(self, ctx):
        from ..io.prepare import Prepared
        import pyarrow as pa
        col = ctx.col
        name = target_name(ctx, col, _SIZE_COLUMNS)
        sol = Side.read(ctx.sol_name, ctx.sol, ctx.id_col, name)
        sub = Side.read(ctx.sub_name, ctx.sub, ctx.id_col, name)
        _empty_ids(ctx, col, (sol, sub))
        image_ids, usage = align_images(ctx, sol, sub, col)
        col.raise_if_any()
        tg = box_groups(sol.cells, self.truth_groups) or self.truth_groups[-1]
        pg = box_groups(sub.cells, self.pred_groups) or self.pred_groups[-1]
        classed = (tg == self.truth_groups[-1], pg == self.pred_groups[-1])
        if not self.points and classed[0] != classed[1]:
            col.add(ctx.sub_name, f"column '{name}': the solution's boxes "
                    f"{'have' if classed[0] else 'have no'} class labels and the submission's "
                    f"{'do' if classed[1] else 'do not'}: both or neither")
            raise ValidationFailed(col.problems)
        fmt = self.box_format(ctx.options)
        truth = self._side(sol, image_ids, tg, classed[0], False, fmt, col, name)
        pred = self._side(sub, image_ids, pg, classed[1], True, fmt, col, name)
        col.raise_if_any()
        sizes = image_sizes(ctx, sol, image_ids, col, required=False)
        col.raise_if_any()
        truth = [_sized(b, s) for b, s in zip(truth, sizes)]
        return Prepared(self.name, ctx.reason, ctx.id_col, [name], pa.array(image_ids, pa.string()),
                        truth, pred, usage,
                        layout=f"id '{ctx.id_col}' + box strings in '{name}' ({fmt}"
                               f"{', with class labels' if classed[0] else ''})")

    def _side(self, side, image_ids, group, classed, is_pred, fmt, col, name):
        boxes, why = {}, {}
        for r, text in enumerate(side.cells):
            try:
                boxes[r] = parse_boxes(text, group, classed, is_pred and not self.points,
                                       fmt, self.points and is_pred)
            except ValueError as e:
                why[r] = str(e)
        problems_by_reason(col, side.name, name, why, side.ids)
        out = []
        for i in image_ids:
            parts = [boxes[r] for r in side.images[i] if r in boxes]
            out.append(_join(parts, side.cells, side.images[i]))
        return out

    fix_words = "predictions replaced by the truth boxes"
    no_blend = ("boxes of two submissions do not average (merging them is box fusion, a "
                "modelling step): out of scope for masks and boxes")

    def perfect_one(self, truth):
        from dataclasses import replace
        if self.points:                   # centre points of the truth boxes
            c = (truth.xyxy[:, :2] + truth.xyxy[:, 2:]) / 2
            return replace(truth, xyxy=np.column_stack([c, c]).reshape(-1, 4))
        return replace(truth, conf=np.ones(len(truth)))

    def cell_text(self, image):
        return image.text

    def parse(self, spec, text, prep):
        is_pred = spec.name == "pred"
        sample = prep.pred if is_pred else prep.truth
        groups = self.pred_groups if is_pred else self.truth_groups
        classed = any(any(lab for lab in im.labels) for im in sample)
        group = groups[-1] if classed or (self.points and is_pred) else groups[0]
        fmt = "xywh" if "(xywh" in prep.layout else "xyxy"       # as the files were read
        return parse_boxes(str(text), group, classed, is_pred and not self.points, fmt,
                           self.points and is_pred)

    def submission_rows(self, prep):
        return [prep.id_column, prep.target_columns[0]], ((i, im.text) for i, im in
                                                           zip(prep.ids, prep.pred))


def _sized(image, size):
    from dataclasses import replace
    return replace(image, size=(int(size[0]), int(size[1])))


def _join(parts, cells, rows):
    if not parts:
        return BoxImage((), np.zeros(0), np.zeros((0, 4)), "")
    if len(parts) == 1:
        return parts[0]
    return BoxImage(sum((p.labels for p in parts), ()), np.concatenate([p.conf for p in parts]),
                    np.concatenate([p.xyxy for p in parts]),
                    " ".join(cells[r].strip() for r in rows if cells[r].strip()))


def parse_boxes(text, group, classed, with_conf, fmt="xyxy", points=False):
    """A BoxImage from one cell; ValueError naming what is wrong."""
    from ..numbers import why_not_number
    tokens = text.split()
    if len(tokens) % group:
        raise ValueError(f"a count of values that is not groups of {group}: {len(tokens)} values")
    k = len(tokens) // group
    labels = tuple(tokens[0::group]) if classed else ("",) * k
    first = 1 if classed else 0
    nums = [t for j in range(first, group) for t in tokens[j::group]]
    for t in nums:
        why = why_not_number(t)
        if why is not None:
            raise ValueError(f"a value that is not a number: {t!r} ({why})")
    v = np.array(nums, np.float64).reshape(group - first, k).T if k else np.zeros((0, group - first))
    conf = np.ones(k)
    if with_conf:
        conf, v = v[:, 0], v[:, 1:]
        bad = np.flatnonzero((conf < 0) | (conf > 1))
        if bad.size:
            raise ValueError(f"a confidence outside [0, 1]: {conf[bad[0]]:g} (box {bad[0] + 1})")
    if points:
        xyxy = np.column_stack([v[:, 0], v[:, 1], v[:, 0], v[:, 1]]) if k else np.zeros((0, 4))
    elif fmt == "xywh":
        bad = np.flatnonzero((v[:, 2] < 0) | (v[:, 3] < 0))
        if bad.size:
            raise ValueError(f"a negative width or height: box {bad[0] + 1}")
        xyxy = np.column_stack([v[:, :2], v[:, :2] + v[:, 2:4]])
    else:
        bad = np.flatnonzero((v[:, 2] < v[:, 0]) | (v[:, 3] < v[:, 1]))
        if bad.size:
            raise ValueError(f"a negative width or height (x2 < x1 or y2 < y1): box {bad[0] + 1}")
        xyxy = v[:, :4]
    return BoxImage(labels, conf, xyxy.reshape(-1, 4), text.strip())
