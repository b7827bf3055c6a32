"""Mean angular distance (radians) between true and predicted directions, as the IceCube
neutrino competition scores it; lower is better (0 to pi).

Layout: id + ``azimuth`` and ``zenith`` columns (radians) in both files, or id + the
same three real columns (x, y, z direction vectors, any length but zero)."""
import math

import numpy as np

from ._means import MeanMetric
from .base import take


class Angular(MeanMetric):
    name = "angular"
    label = "Angular distance"
    higher_is_better = False
    fix_words = "direction set to the true one"
    view = "residuals"          # each direction column against the truth; widest angles first
    demo_label = "angular distance (IceCube)"

    def fit(self, sub_targets, sample=None):
        from ._family import fit_reason
        names = {c.lower() for c in sub_targets}
        if sample is None or not ({"azimuth", "zenith"} <= names or len(sub_targets) == 3):
            return None
        cols = [(sample.sub_column(c), sample.sol_column(c)) for c in sub_targets]
        if all(s is not None and t is not None and s.kind != "text" and t.kind == "real"
               for s, t in cols):
            what = ("azimuth and zenith" if {"azimuth", "zenith"} <= names
                    else "three real columns (direction vectors)")
            return fit_reason(self, sample, what)
        return None

    def build(self, ctx):
        from ..io.prepare import Prepared
        from ._cells import Cells, Numbers
        from ._layouts import Sides, at_rows, matrix
        s = Sides(ctx)
        names = s.same_columns("direction")
        lower = {c.lower(): c for c in names}
        if {"azimuth", "zenith"} <= set(lower):
            names = [lower["azimuth"], lower["zenith"]]
            layout = f"id '{ctx.id_col}' + azimuth '{names[0]}' and zenith '{names[1]}' (radians)"
        elif len(names) == 3:
            layout = f"id '{ctx.id_col}' + direction vectors ({', '.join(names)})"
        else:
            s.col.add(ctx.sub_name, "expected azimuth and zenith columns, or three columns of "
                      f"direction vectors; found {', '.join(names) or 'none'}")
        s.stop_if_any()
        truth = matrix(s, ctx.sol, names, ctx.sol_name)
        pred = matrix(s, ctx.sub, names, ctx.sub_name)
        s.stop_if_any()
        if len(names) == 3:
            for fname, v, ids in ((ctx.sol_name, truth, s.sol_ids), (ctx.sub_name, pred, s.sub_ids)):
                zero = np.flatnonzero(~(np.abs(v) > 0).any(axis=1))
                if zero.size:
                    s.col.add(fname, f"columns {', '.join(names)}: {zero.size} zero vector(s) "
                              f"(no direction): {at_rows(zero, ids)}", zero)
            s.stop_if_any()
        return Prepared(self.name, ctx.reason, ctx.id_col, names, s.sol_ids_arr, truth,
                        s.align(pred), ctx.usage, layout=layout,
                        cells=Cells(Numbers(), Numbers(), interleave=True))

    def kernel(self, truth, pred, options):
        from .kernels.angular import angular_distance
        return angular_distance(truth, pred)

    def reference(self, prep, options, rows=None):
        """The competition's formula (its host's notebook), row by row."""
        total, n = 0.0, 0
        for t, p in zip(np.asarray(take(prep.truth, rows)).tolist(),
                        np.asarray(take(prep.pred, rows)).tolist()):
            if len(t) == 2:
                (a1, z1), (a2, z2) = t, p
                u = (math.sin(z1) * math.cos(a1), math.sin(z1) * math.sin(a1), math.cos(z1))
                v = (math.sin(z2) * math.cos(a2), math.sin(z2) * math.sin(a2), math.cos(z2))
            else:
                lu, lv = math.sqrt(sum(x * x for x in t)), math.sqrt(sum(x * x for x in p))
                u, v = [x / lu for x in t], [x / lv for x in p]
            dot = max(-1.0, min(1.0, sum(x * y for x, y in zip(u, v))))
            total += abs(math.acos(dot))
            n += 1
        return total / n if n else float("nan")

    def fixed_value(self, result):
        return 0.0

    def fix_details(self, report, units, sol_rows):
        return [f"{a:.4g} rad ({math.degrees(a):.1f} degrees) off"
                for a in report.result.values[units].tolist()]

    def summary_lines(self, report):
        r = report.result
        return super().summary_lines(report) + [
            f"mean angle {math.degrees(r.score):.2f} degrees" if np.isfinite(r.score) else ""]


ANGULAR = Angular()
