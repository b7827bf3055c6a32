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


def _row_words(prep, row, most=4):
    """A row's prediction in words for the differ table: beside the truth where the
    submission's columns have the solution's names (the first ``most``)."""
    from .file_blocks import _shown
    pred, truth = prep.pred, prep.truth
    names = list(pred.names)[:most]
    more = ", …" if len(pred.names) > most else ""
    shared = [n for n in names if n in truth.names]
    p = ", ".join(_shown(pred[row, j]) for j in range(len(names))) + more
    if len(shared) == len(names):
        t = ", ".join(_shown(truth[row, truth.names.index(n)]) for n in names) + more
        return f"truth {t}; predicted {p}"
    return p


def _values(results):
    return np.array([r[1] if r[0] == "ok" else np.nan for r in results], dtype=np.float64)


def _spec(result, **extra):
    out = {"rows": result.rows, **extra}
    if result.spec:
        out["cells"] = result.spec
    return out


def blend(metric, report_a, report_b, alphas=None, rows=None, cancel=None):
    """core.blend.BlendCurve over ``alphas`` (default BLEND_POINTS from 0 to 1) of ``rows``
    (None: A's scored rows), or None when the two share no numeric prediction column."""
    from ..core.blend import blend_curve, check_alphas
    a, b = report_a.result, report_b.result
    al = check_alphas(np.linspace(0, 1, BLEND_POINTS) if alphas is None else alphas)
    if len(al) > 4 * BLEND_POINTS:             # each point is a call of foreign code
        al = al[np.unique(np.linspace(0, len(al) - 1, BLEND_POINTS).round().astype(int))]
    base = {"rows": a.rows if rows is None else np.asarray(rows)}
    known = _known_ends(report_a, report_b, rows)
    ask = [x for x in al.tolist() if x not in known]
    sets = [{**_spec(a, blend=(b.worker.paths, float(x))), **base} for x in ask]
    res = a.worker.score_sets(a.args, sets, cancel=cancel, count=len(sets)) if sets else []
    if res and all(r[0] == "unavailable" for r in res):
        return None
    got = dict(zip(ask, _values(res).tolist()))
    return blend_curve(al, np.array([known.get(x, got.get(x)) for x in al.tolist()], np.float64),
                       metric.higher_is_better)


def _finite(block, names):
    return all(np.isfinite(block.values(block.names.index(c)).astype(np.float64)).all()
               for c in names)


def _known_ends(report_a, report_b, rows):
    """{alpha: score} of the curve's ends the two reports already hold (a call each saved):
    alpha 1 is A's own score and alpha 0 B's on the same rows (every scored row, or a
    split's: the held-out checks), when the blended frame is exactly that submission's:
    the other side's blended values finite (0 x inf is nan), and for alpha 0 B with A's
    columns, truth and arguments and no edits on either side (B's edits are not carried
    into A's worker)."""
    want = _positions(report_a.result) if rows is None else np.asarray(rows)
    a, b = _scored_on(report_a, want), _scored_on(report_b, want)
    if a is None:
        return {}
    pa, pb = report_a.prepared.pred, report_b.prepared.pred
    shared = [c for j, c in enumerate(pa.names)
              if c in pb.names and pa.numeric(j) and pb.numeric(pb.names.index(c))]
    if not shared:
        return {}
    out = {}
    if _finite(pb, shared):
        out[1.0] = float(a.score)
    same = (b is not None and list(pa.names) == list(pb.names) and set(shared) == set(pa.names)
            and not a.spec and not b.spec and a.args == b.args
            and a.worker.paths[0] == b.worker.paths[0])
    if same and _finite(pa, shared):
        out[0.0] = float(b.score)
    return out


def _scored_on(report, rows):
    """The report's result (every scored row, Public or Private) on exactly ``rows``."""
    for r in (report.result, *(getattr(report, "splits", None) or {}).values()):
        if np.array_equal(_positions(r), rows):
            return r
    return None


def _positions(result):
    return np.arange(result.total) if result.rows is None else np.asarray(result.rows)


def fixes(metric, report, rows, top, budget=FIX_BUDGET, cancel=None):
    """core.attribution.FixList of the scored rows (see the module's note)."""
    return fix_search(metric, report, rows, top, budget, cancel)[0]


def fix_search(metric, report, rows, top, budget=FIX_BUDGET, cancel=None, progress=None,
               seconds=None):
    """(FixList, rows re-scored alone within the budget): how far the search went, which
    ``kmetric score --top-fixes`` says (``seconds``: one call, for the chunks' size)."""
    from ..core.attribution import as_fixlist, empty_fixes
    r = report.result
    w = r.worker
    shared, order = w.ask(task.fix_candidates)
    scored = np.arange(r.total) if rows is None else np.asarray(rows)
    order = order[np.isin(order, scored)]
    if not shared:
        return empty_fixes(r.score, "the submission has no column of the solution's to set "
                                    "to its truth", int(len(order))), 0
    if not len(order):
        return empty_fixes(r.score, "every row is already right"), 0
    sign = 1.0 if metric.higher_is_better else -1.0
    per = r.seconds if seconds is None else seconds
    chunk = max(1, min(50, int(0.5 / max(per, 1e-3))))
    until = time.monotonic() + budget
    res = w.score_sets(r.args, (_spec(r, fix=[int(x)]) for x in order), cancel=cancel,
                       progress=progress, chunk=chunk, count=len(order), until=until)
    alone = _values(res)
    if res and all(x[0] != "ok" for x in res):
        why = res[0][1] if res[0][0] == "unavailable" else \
            f"the metric failed on every fix tried (first: {res[0][1]})"
        return empty_fixes(r.score, why, int(len(order))), len(res)
    gain = sign * (alone - r.score)
    good = np.flatnonzero(np.isfinite(gain) & (gain > 0))
    best = order[good[np.argsort(-gain[good], kind="stable")][:top]]
    if not best.size:
        return empty_fixes(r.score, "no single fix tried improves the score", int(len(order))), \
            len(res)
    after = _values(w.score_sets(r.args, [_spec(r, fix=best[:j + 1].tolist())
                                          for j in range(len(best))], cancel=cancel))
    units = np.searchsorted(scored, best)          # positions among the scored rows
    return as_fixlist(units, after, r.score, int(len(order)), metric.higher_is_better), len(res)


LISTED = 50               # rows of "where they differ" scored exactly (a call each)
DIFFER_BUDGET = 30.0


def _distance(block_a, block_b):
    """(n,) how far B's predictions are from A's on each row: absolute differences of the
    numeric columns both have, plus one per text column that differs."""
    d = np.zeros(len(block_a))
    for j, name in enumerate(block_a.names):
        if name not in block_b.names:
            continue
        a, b = block_a.values(j), block_b.values(block_b.names.index(name))
        if a.dtype.kind in "fiu" and b.dtype.kind in "fiu":
            d += np.nan_to_num(np.abs(a.astype(np.float64) - b.astype(np.float64)), nan=1.0)
        else:
            d += np.asarray([x != y for x, y in zip(a.tolist(), b.tolist())], dtype=np.float64)
    return d


def differ(metric, report_a, report_b, cancel=None):
    """kernels.differ.UnitDiffer of the rows whose predictions differ most (the first
    LISTED, as long as DIFFER_BUDGET lasts): each row's score(B) minus score(B with A's
    prediction on that row), one call of the metric a row."""
    from ..metrics.kernels.differ import UnitDiffer
    a, b = report_a.result, report_b.result
    scored = np.arange(a.total) if a.rows is None else np.asarray(a.rows)
    dist = _distance(report_a.prepared.pred, report_b.prepared.pred)[scored]
    differ_at = np.flatnonzero(dist > 0)
    picked = differ_at[np.argsort(-dist[differ_at], kind="stable")][:LISTED]
    sets = []
    for pos in picked:
        mask = np.zeros(b.total, dtype=bool)
        mask[scored[pos]] = True
        sets.append(_spec(b, swap=(a.worker.paths, mask)))
    res = b.worker.score_sets(b.args, sets, cancel=cancel, count=len(sets),
                              until=time.monotonic() + DIFFER_BUDGET)
    delta = b.score - _values(res)
    units = picked[:len(delta)]
    ok = np.isfinite(delta)
    order = np.argsort(-np.abs(delta[ok]), kind="stable")
    listed = scored[units[ok][order]].tolist()
    return UnitDiffer(units[ok][order].astype(np.int64), delta[ok][order], int(len(scored)),
                      bool(metric.higher_is_better), "row",
                      a_text=tuple(_row_words(report_a.prepared, r) for r in listed),
                      b_text=tuple(_row_words(report_b.prepared, r) for r in listed),
                      what=f"score of B minus score of B with A's prediction on that row (the "
                           f"{len(units)} rows whose predictions differ most, of "
                           f"{differ_at.size:,} that differ)")
