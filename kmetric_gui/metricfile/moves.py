"""What moves a metric file's score, by calling it: blends of two submissions and
fix first. Each call carries the shown data's edited cells, so the numbers are
those of the table as it stands.

Blend: alpha x A + (1 - alpha) x B on the numeric prediction columns both files
share, at a bounded number of alphas (BLEND_POINTS), scored in A's workers with
B's frames read beside A's.

Fix first: rows whose prediction differs from the truth (the submission's
columns of the solution's names), the likeliest first (largest absolute
difference), each re-scored alone for as long as the time budget lasts; the best
of them then fixed cumulatively, so each ``score_after`` is exact for that row
and all above it.
"""
import time

import numpy as np

from . import worker as task

BLEND_POINTS = 21
FIX_BUDGET = 60.0


def _values(results):
    return np.array([r[1] if r[0] == "ok" else np.nan for r in results], dtype=np.float64)


def _spec(result, **extra):
    out = {"rows": result.rows, **extra}
    if result.spec:
        out["cells"] = result.spec
    return out


def blend(metric, report_a, report_b, alphas=None, cancel=None):
    """core.blend.BlendCurve over ``alphas`` (default BLEND_POINTS from 0 to 1), or None
    when the two share no numeric prediction column."""
    from ..core.blend import blend_curve, check_alphas
    a, b = report_a.result, report_b.result
    al = check_alphas(np.linspace(0, 1, BLEND_POINTS) if alphas is None else alphas)
    if len(al) > 4 * BLEND_POINTS:             # each point is a call of foreign code
        al = al[np.unique(np.linspace(0, len(al) - 1, BLEND_POINTS).round().astype(int))]
    sets = [_spec(a, blend=(b.worker.paths, float(x))) for x in al]
    res = a.worker.score_sets(a.args, sets, cancel=cancel, count=len(sets))
    if all(r[0] == "unavailable" for r in res):
        return None
    return blend_curve(al, _values(res), metric.higher_is_better)


def fixes(metric, report, rows, top, budget=FIX_BUDGET, cancel=None):
    """core.attribution.FixList of the scored rows (see the module's note)."""
    from ..core.attribution import as_fixlist, empty_fixes
    r = report.result
    w = r.worker
    shared, order = w.ask(task.fix_candidates)
    scored = np.arange(r.total) if rows is None else np.asarray(rows)
    order = order[np.isin(order, scored)]
    if not shared:
        return empty_fixes(r.score, "the submission has no column of the solution's to set "
                                    "to its truth")
    if not len(order):
        return empty_fixes(r.score, "every row is already right")
    sign = 1.0 if metric.higher_is_better else -1.0
    chunk = max(1, min(50, int(0.5 / max(r.seconds, 1e-3))))
    until = time.monotonic() + budget
    res = w.score_sets(r.args, (_spec(r, fix=[int(x)]) for x in order), cancel=cancel,
                       chunk=chunk, count=len(order), until=until)
    alone = _values(res)
    if res and all(x[0] != "ok" for x in res):
        why = res[0][1] if res[0][0] == "unavailable" else \
            f"the metric failed on every fix tried (first: {res[0][1]})"
        return empty_fixes(r.score, why, int(len(order)))
    gain = sign * (alone - r.score)
    good = np.flatnonzero(np.isfinite(gain) & (gain > 0))
    best = order[good[np.argsort(-gain[good], kind="stable")][:top]]
    if not best.size:
        return empty_fixes(r.score, "no single fix tried improves the score", int(len(order)))
    after = _values(w.score_sets(r.args, [_spec(r, fix=best[:j + 1].tolist())
                                          for j in range(len(best))], cancel=cancel))
    units = np.searchsorted(scored, best)          # positions among the scored rows
    return as_fixlist(units, after, r.score, int(len(order)), metric.higher_is_better)
