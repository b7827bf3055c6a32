"""Reading image layouts (masks and boxes): rows grouped into images, sizes, problems.

An image is the unit. A file may hold one row per image (TGS salt, a box
string per image) or one row per instance (Airbus: one ship a row, an empty
cell for an image with none); rows are grouped by id, images taken in the
solution's order of first appearance. Every problem is one line naming the
file, the column, the first rows (1-based, as a spreadsheet counts data rows)
and their ids.
"""
from dataclasses import dataclass

import numpy as np

from ..io.problems import SHOW, ValidationFailed
from ..numbers import shown

SIZE_NAMES = (("height", "width"), ("img_height", "img_width"), ("image_height", "image_width"))


def rows_at(rows, ids, fname, col_name, words):
    parts = [f"row {int(r) + 1} (id {shown(ids[r])})" for r in list(rows)[:SHOW]]
    more = ", ..." if len(rows) > SHOW else ""
    return f"column '{col_name}': {words}: {', '.join(parts)}{more}"


@dataclass
class Side:
    """One file's rows grouped by image id."""
    name: str                 # "solution x.csv"
    table: object
    ids: list                 # the id of each row (text)
    cells: list               # the target column's text of each row ('' when empty)
    images: dict              # id -> [rows] in file order

    @classmethod
    def read(cls, name, table, id_col, col_name):
        import pyarrow as pa
        from ..io.columns import column_array, string_ids
        ids = string_ids(table, id_col).to_pylist()
        arr = column_array(table, col_name)
        if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
            arr = arr.cast(pa.string())
        cells = ["" if v is None else v for v in arr.to_pylist()]
        images = {}
        for r, i in enumerate(ids):
            images.setdefault(i, []).append(r)
        return cls(name, table, ids, cells, images)


def target_name(ctx, col, extra=()):
    """The one target column (--target-column, or the submission's only one besides the
    id, Usage and size columns)."""
    skip = {ctx.id_col.lower(), "usage", *extra}
    subs = [c for c in ctx.sub.column_names if c.lower() not in skip]
    name = ctx.options.target_column or (subs[0] if len(subs) == 1 else None)
    if name is None:
        col.add(ctx.sub_name, f"expected one column of masks or boxes besides '{ctx.id_col}'; "
                f"found {len(subs)}: {', '.join(subs) or 'none'}")
        raise ValidationFailed(col.problems)
    for fname, t in ((ctx.sol_name, ctx.sol), (ctx.sub_name, ctx.sub)):
        if name not in t.column_names:
            col.add(fname, f"no column '{name}'; found columns: {', '.join(t.column_names)}")
    col.raise_if_any()
    return name


def size_columns(table):
    """(height column, width column) of a table, or None."""
    low = {c.lower(): c for c in table.column_names}
    for h, w in SIZE_NAMES:
        if h in low and w in low:
            return low[h], low[w]
    return None


def parse_size(text):
    """(height, width) from 'HxW' (or 'H,W'); ValueError in words."""
    t = str(text).strip().lower().replace(",", "x").replace("*", "x")
    parts = [p.strip() for p in t.split("x")]
    if len(parts) != 2 or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise ValueError(f"image size {text!r}: expected HEIGHTxWIDTH, e.g. 101x101")
    return int(parts[0]), int(parts[1])


def image_sizes(ctx, sol, image_ids, col, required):
    """(n, 2) int64 sizes of the solution's images: --image-size (HxW, or a CSV file of
    id,height,width), else height/width columns of the solution (first row of each image);
    zeros (unknown) when not ``required``."""
    n = len(image_ids)
    given = getattr(ctx.options, "image_size", None)
    if given and not _looks_like_size(given):
        return _sizes_file(given, image_ids, col)
    if given:
        try:
            return np.tile(np.array(parse_size(given), np.int64), (n, 1))
        except ValueError as e:
            col.add("option --image-size", str(e))
            raise ValidationFailed(col.problems) from None
    cols = size_columns(ctx.sol)
    if cols is not None:
        from ..io.columns import Lazy, numbers
        h = numbers(ctx.sol, cols[0], ctx.sol_name, Lazy(np.asarray(sol.ids, dtype=object)), col,
                    integer=False)
        w = numbers(ctx.sol, cols[1], ctx.sol_name, Lazy(np.asarray(sol.ids, dtype=object)), col,
                    integer=False)
        col.raise_if_any()
        first = np.array([sol.images[i][0] for i in image_ids], np.int64)
        raw = np.column_stack([h[first], w[first]])
        bad = np.flatnonzero(((raw <= 0) | (raw != np.round(raw)) | (raw > 2 ** 31)).any(axis=1))
        if bad.size:
            col.add(ctx.sol_name, rows_at(first[bad], sol.ids, ctx.sol_name, cols[0],
                                          "image sizes must be positive whole numbers"), first[bad])
        return raw.astype(np.int64)
    if required:
        col.add(ctx.sol_name, "image size missing: give height and width columns in the "
                "solution, or --image-size HxW (or a CSV file of id,height,width)")
        raise ValidationFailed(col.problems)
    return np.zeros((n, 2), np.int64)


def _looks_like_size(text):
    t = str(text).strip().lower()
    return any(c in t for c in "x*,") and all(p.strip().isdigit() for p in
                                              t.replace("*", "x").replace(",", "x").split("x"))


def _sizes_file(path, image_ids, col):
    import csv
    name = f"sizes file {path}"
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        col.add(name, f"cannot be read ({e.strerror or e})")
        raise ValidationFailed(col.problems) from None
    found, bad = {}, []
    for k, row in enumerate(rows[1:], 2):
        try:
            found[row[0]] = (int(row[1]), int(row[2]))
            if min(found[row[0]]) <= 0:
                raise ValueError
        except (ValueError, IndexError):
            bad.append(k)
    if bad:
        col.add(name, f"rows {', '.join(map(str, bad[:SHOW]))}: expected id,height,width with "
                "positive whole numbers")
    missing = [i for i in image_ids if i not in found]
    if missing:
        col.add(name, f"{len(missing)} image(s) without a size: "
                f"{', '.join(shown(i) for i in missing[:SHOW])}")
    col.raise_if_any()
    return np.array([found[i] for i in image_ids], np.int64).reshape(-1, 2)


def align_images(ctx, sol, sub, col):
    """(image ids in solution order, Usage per image or None); images missing from the
    submission, images it adds, and images whose rows disagree on Usage are problems."""
    image_ids = list(sol.images)
    missing = [i for i in image_ids if i not in sub.images]
    extra = [i for i in sub.images if i not in sol.images]
    if missing:
        col.add(ctx.sub_name, f"{len(missing)} image id(s) of the solution are missing: "
                f"{', '.join(shown(i) for i in missing[:SHOW])}{', ...' if len(missing) > SHOW else ''}",
                role="solution", rows=[sol.images[i][0] for i in missing[:SHOW]])
    if extra:
        col.add(ctx.sub_name, f"{len(extra)} image id(s) are not in the solution: "
                f"{', '.join(shown(i) for i in extra[:SHOW])}{', ...' if len(extra) > SHOW else ''}",
                rows=[sub.images[i][0] for i in extra[:SHOW]])
    usage = None
    if ctx.usage is not None:
        u = np.asarray(ctx.usage)
        usage = np.array([u[sol.images[i][0]] for i in image_ids], np.int64)
        mixed = [sol.images[i][0] for i in image_ids if len(set(u[sol.images[i]].tolist())) > 1]
        if mixed:
            col.add(ctx.sol_name, f"{len(mixed)} image(s) whose rows have different Usage values "
                    f"(an image is Public or Private as a whole): rows "
                    f"{', '.join(str(r + 1) for r in mixed[:SHOW])}", mixed)
    return image_ids, usage


def problems_by_reason(col, fname, col_name, why, ids):
    """One problem line per kind of reason: {row: 'reason: detail'} -> the first rows."""
    kinds = {}
    for r, words in sorted(why.items()):
        kinds.setdefault(words.split(":")[0], []).append((r, words))
    for kind, found in kinds.items():
        rows = [r for r, _ in found]
        detail = "; ".join(f"row {r + 1} (id {shown(ids[r])}): {w}" for r, w in found[:3])
        more = f"; and {len(found) - 3} more row(s)" if len(found) > 3 else ""
        col.add(fname, f"column '{col_name}': {len(found)} cell(s) with {kind}: {detail}{more}",
                rows)
