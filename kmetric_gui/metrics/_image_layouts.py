"""Files of masks and boxes read into images: detection, building, edited cells.

Masks: Kaggle run-length encodings, one column, rows grouped by image id.
Boxes: one string per image of groups of values, "[label] [conf] a b c d":
a b c d are x y w h (box_format xywh) or x1 y1 x2 y2 (xyxy); truth strings
have no confidence. Whether groups start with a class label is read from
the values (a group count that fits only one way, or a word in the label's
place); a class-free file scores every box as one class.
"""
import re

import numpy as np

from ._images import (SIZE_NAMES, Side, align_images, image_sizes, problems_by_reason,
                      target_name)
from .kernels.masks import MaskImage, overlaps_within
from .kernels.rle import parse_cells, runs_of_cells

_SIZE_COLUMNS = {c for pair in SIZE_NAMES for c in pair}
_MASKS_LEAD = re.compile(r"^\s*\d+\s+masks?\s*:")    # MaskMetric.cell_text's lead


# -- detection ------------------------------------------------------------------------------
def _one_text_column(sub_targets, sample):
    names = [c for c in sub_targets if c.lower() not in _SIZE_COLUMNS]
    if sample is None or len(names) != 1:
        return None
    name = names[0]
    if name not in sample.sol.column_names:
        return None
    texts = []
    for table in (sample.sol, sample.sub):
        col = table.column(name).slice(0, sample.rows)
        texts.append(["" if v is None else str(v) for v in col.to_pylist()])
    return name, texts


def rle_fit(sub_targets, sample):
    """Why the pair looks like run-length masks (every sampled cell empty or a valid
    encoding: pairs of whole numbers, runs in order, apart), or None."""
    found = _one_text_column(sub_targets, sample)
    if found is None:
        return None
    name, (sol, sub) = found
    cells = sol + sub
    if not any(c.strip() for c in cells):
        return None
    parsed = parse_cells(cells)
    if parsed.why or (parsed.counts() % 2).any():
        return None
    v = parsed.values.reshape(-1, 2)
    run_cell = np.repeat(np.arange(len(cells)), parsed.counts() // 2)
    same = run_cell[1:] == run_cell[:-1]
    if (v[:, 0] < 1).any() or (v[:, 1] < 1).any() or \
            (same & (v[1:, 0] <= v[:-1, 0] + v[:-1, 1] - 1)).any():
        return None
    return f"run-length encoded masks in '{name}'"


def box_groups(cells, sizes, classed_words=True):
    """The group size (of ``sizes``, e.g. (4, 5)) every non-empty cell divides into, or None;
    the larger when a word stands in the label's place."""
    counts = [len(c.split()) for c in cells if c.strip()]
    if not counts:
        return None
    fits = [g for g in sizes if all(k % g == 0 for k in counts)]
    if len(fits) == 1:
        return fits[0]
    if len(fits) > 1 and classed_words:
        big = max(fits)
        firsts = [c.split()[0::big] for c in cells if c.strip()]
        if any(not _is_number(t) for f in firsts for t in f):
            return big
        return min(fits)
    return None


def _is_number(t):
    from ..numbers import why_not_number
    return why_not_number(t) is None


# -- masks ----------------------------------------------------------------------------------
def build_masks(metric, ctx):
    from ..io.prepare import Prepared
    import pyarrow as pa
    col = ctx.col
    name = target_name(ctx, col, _SIZE_COLUMNS)
    sol = Side.read(ctx.sol_name, ctx.sol, ctx.id_col, name)
    sub = Side.read(ctx.sub_name, ctx.sub, ctx.id_col, name)
    _empty_ids(ctx, col, (sol, sub))
    image_ids, usage = align_images(ctx, sol, sub, col)
    col.raise_if_any()
    sizes = image_sizes(ctx, sol, image_ids, col, required=True)
    col.raise_if_any()
    index = {i: k for k, i in enumerate(image_ids)}
    truth = _mask_images(metric, sol, image_ids, sizes, index, col, name)
    pred = _mask_images(metric, sub, image_ids, sizes, index, col, name)
    col.raise_if_any()
    many = len(sol.ids) > len(image_ids) or len(sub.ids) > len(image_ids)
    layout = (f"id '{ctx.id_col}' + run-length masks in '{name}'"
              + (", one row per instance" if many else ""))
    return Prepared(metric.name, ctx.reason, ctx.id_col, [name], pa.array(image_ids, pa.string()),
                    truth, pred, usage, layout=layout)


def _empty_ids(ctx, col, sides):
    for side in sides:
        rows = side.images.get("", [])
        if rows:
            col.add(side.name, f"{len(rows)} empty id(s) in column '{ctx.id_col}': rows "
                    f"{', '.join(str(r + 1) for r in rows[:5])}", rows)


def _mask_images(metric, side, image_ids, sizes, index, col, name):
    pixels = np.array([sizes[index[i]].prod() if i in index else 0 for i in side.ids], np.int64)
    runs, why = runs_of_cells(side.cells, pixels)
    problems_by_reason(col, side.name, name, why, side.ids)
    out, overlapping = [], []
    for i in image_ids:
        rows = [r for r in side.images[i] if side.cells[r].strip()]
        h, w = sizes[index[i]]
        parts = [runs.cell(r) for r in rows]
        im = _image([side.cells[r] for r in rows], parts, int(h), int(w), tuple(rows))
        if metric.instances and overlaps_within(im):
            overlapping.append(rows[0])
        out.append(im)
    if overlapping:
        problems_by_reason(col, side.name, name, {r: "masks of one image that overlap (each "
                                                  "pixel belongs to one instance)"
                                                  for r in overlapping}, side.ids)
    return out


def _image(texts, parts, h, w, rows=()):
    counts = [p[0].size for p in parts]
    ptr = np.r_[0, np.cumsum(counts)].astype(np.int64)
    z = np.zeros(0, np.int64)
    starts = np.concatenate([p[0] for p in parts]) if parts else z
    lengths = np.concatenate([p[1] for p in parts]) if parts else z
    return MaskImage(tuple(texts), starts, lengths, ptr, h, w, rows)


def parse_mask_cell(metric, text, prep, spec):
    """A typed mask cell: one encoding, or instances separated by '|', optionally led by
    the table's "N masks:" (so the text shown types back; the masks listed count).
    Checked against the largest image (the exact size is checked when scored)."""
    parts = [p.strip() for p in _MASKS_LEAD.sub("", str(text), count=1).split("|")]
    parts = [p for p in parts if p]
    sizes = np.array([(im.height, im.width) for im in prep.truth], np.int64).reshape(-1, 2)
    h, w = (int(sizes[:, 0].max()), int(sizes[:, 1].max())) if len(sizes) else (0, 0)
    uniform = len(sizes) and (sizes == sizes[0]).all()
    runs, why = runs_of_cells(parts, [h * w] * len(parts))
    if why:
        k = min(why)
        lead = f"mask {k + 1}: " if len(parts) > 1 else ""
        raise ValueError(f"not a run-length encoding: {lead}{why[k]}")
    im = _image(parts, [runs.cell(k) for k in range(len(parts))], h if uniform else 0,
                w if uniform else 0)
    if metric.instances and overlaps_within(im):
        raise ValueError("masks of one image that overlap (each pixel belongs to one instance)")
    return im
