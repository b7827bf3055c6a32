"""The report's anatomy plots: the three seed metrics' own (a parallel registry in
gui/views/__init__.py: metric name -> plots of a report entry), every other metric's
from its anatomy view (``view_plots``), and each compared pair's (``pair_plots``)."""
import numpy as np

from ...core.words import plural
import pyqtgraph as pg
from PySide6.QtCore import Qt

from ..widgets.heatmap import Heatmap
from ..widgets.static_plot import BLUE, GREEN, ORANGE, RED, SIZE
from ..widgets.static_plot import static_plot as _plot


def kappa_plots(entry):
    r = entry.report.result
    labels = [str(v) for v in r.labels]
    out = []
    for key, title, div, integer in (("observed", "O: observed counts", False, True),
                                     ("weights", f"W: {r.weighting} weights", False, False),
                                     ("expected", "E: expected by chance", False, False),
                                     ("numerator_matrix", "W·O: numerator", False, False),
                                     ("denominator_matrix", "W·E: denominator", False, False)):
        h = Heatmap(title, diverging=div)
        m = np.asarray(getattr(r, key), dtype=float)
        outline = (m > 0) & ~np.eye(m.shape[0], dtype=bool) if key == "observed" else None
        h.set_matrix(m, labels, outline=outline, integer=integer and np.all(m == np.round(m)))
        out.append((key, title, h))
    p = _plot("Class balance: truth vs prediction", "rows", "rating")
    p.addLegend(offset=(10, 10))
    x = np.arange(len(labels))
    p.addItem(pg.BarGraphItem(x=x - 0.2, height=r.hist_true, width=0.38, brush=BLUE, name="truth"))
    p.addItem(pg.BarGraphItem(x=x + 0.2, height=r.hist_pred, width=0.38, brush=ORANGE,
                              name="prediction"))
    p.getAxis("bottom").setTicks([list(zip(x, labels))])
    out.append(("class_balance", "Class balance: truth vs prediction", p))
    return out


def lwlrap_plots(entry):
    r, names = entry.report.result, entry.report.prepared.classes
    order = np.argsort(np.where(r.class_weights > 0, r.per_class, np.inf), kind="stable")
    order = order[r.class_weights[order] > 0]
    w = r.class_weights[order]
    x0 = np.concatenate(([0.0], np.cumsum(w)[:-1]))
    cmap = pg.ColorMap([0.0, 0.5, 1.0], [(215, 48, 39), (254, 224, 139), GREEN])
    p = _plot("Per-class LwLRAP, worst first (bar width = class weight)", "class lwlrap",
              "classes (width ∝ share of positive labels)")
    brushes = [pg.mkBrush(*cmap.map(float(v), mode="byte")) for v in r.per_class[order]]
    p.addItem(pg.BarGraphItem(x0=x0, x1=x0 + w * 0.97, height=r.per_class[order], brushes=brushes,
                              pen=pg.mkPen("w")))
    if np.isfinite(r.score):
        p.addItem(pg.InfiniteLine(pos=r.score, angle=0, label=f"overall {r.score:.4f}",
                                  pen=pg.mkPen(RED, width=2, style=Qt.DashLine),
                                  labelOpts={"position": 0.9, "color": RED}))
    room = (SIZE[0] - 80) / 7
    ticks = [(c, str(names[i]) if w[k] * room >= len(str(names[i])) else "")
             for k, (c, i) in enumerate(zip(x0 + w / 2, order))]
    p.getAxis("bottom").setTicks([ticks])
    p.setYRange(0, 1.05)
    q = _plot("Share of the score lost per class", "weight × (1 − class lwlrap)", "class, worst first")
    lost = (r.class_weights * (1 - np.nan_to_num(r.per_class, nan=1.0)))[order][:30]
    q.addItem(pg.BarGraphItem(x=np.arange(lost.size), height=lost, width=0.8, brush=ORANGE))
    q.getAxis("bottom").setTicks([[(k, str(names[i])) for k, i in enumerate(order[:30])][::3]])
    return [("per_class", "Per-class LwLRAP (bar width = class weight)", p),
            ("lost_per_class", "Share of the score lost per class (30 worst)", q)]


def fbeta_plots(entry):
    r = entry.report.result
    p = _plot("Pooled counts", "count")
    vals = [int(r.tp), int(r.fp), int(r.fn)]
    p.addItem(pg.BarGraphItem(x=[0, 1, 2], height=vals, width=0.6,
                              brushes=[pg.mkBrush(*c) for c in (GREEN, ORANGE, RED)]))
    p.getAxis("bottom").setTicks([[(0, f"TP {vals[0]:,}"), (1, f"FP {vals[1]:,}"),
                                   (2, f"FN {vals[2]:,}")]])
    per = np.asarray(r.per_document)
    errors = per[:, 1] + per[:, 2] if per.size else np.zeros(0, dtype=np.int64)
    counts = np.bincount(np.minimum(errors, 20).astype(np.int64), minlength=5)
    q = _plot("Documents by number of errors (FP + FN)", "documents", "errors")
    q.addItem(pg.BarGraphItem(x=np.arange(counts.size), height=counts, width=0.8, brush=BLUE))
    step = max(1, counts.size // 12)
    q.getAxis("bottom").setTicks([[(k, str(k) if k < 20 else "20+") for k in range(0, counts.size, step)]])
    return [("counts", "Pooled counts: TP, FP, FN", p),
            ("documents_by_errors", "Documents by number of errors", q)]


def view_plots(entry, view_cls):
    """The plots an anatomy view offers to export, drawn for the entry's report (the view
    computes inline without a job controller); each plot leaves the view to be drawn alone."""
    from ..widgets.export import plain_name
    view = view_cls(None)
    view.set_report(entry.report, True)
    export = getattr(view, "export", None)
    out = []
    for title, kind, get, available in (export.entries if export is not None else []):
        if kind != "plot" or not available():
            continue
        widget = get()
        widget.setParent(None)
        widget._report_view = view          # the view lives while its plots are drawn
        out.append((plain_name(title), title[:1].upper() + title[1:], widget))
    return out


def pair_plots(comparison):
    """[(key, title, widget)] of each compared pair (the `compare --json` object): the blend
    curve with its best alpha, and the units where the two differ most."""
    out = []
    for k, p in enumerate(comparison.get("pairs", []), 1):
        pair = f"{p['a']} vs {p['b']}"
        b = p.get("blend")
        if b and any(v is not None for v in b["scores"]):
            q = _plot(f"Blend: {pair}", "score", "α (weight of A)")
            x = np.array(b["alphas"], float)
            y = np.array([np.nan if v is None else v for v in b["scores"]], float)
            ok = np.isfinite(y)
            q.plot(x[ok], y[ok], pen=pg.mkPen(BLUE, width=2.5))
            if b["best_alpha"] is not None:
                q.addItem(pg.InfiniteLine(pos=b["best_alpha"], angle=90,
                                          pen=pg.mkPen(RED, width=1.5, style=Qt.DashLine)))
            out.append((f"pair{k}_blend", f"Blend of pair {k} ({pair}): best α "
                        f"{b['best_alpha'] if b['best_alpha'] is None else round(b['best_alpha'], 2)}", q))
        d = p.get("where_they_differ")
        if d and d["largest"]:
            top = d["largest"]
            q = _plot(f"Where they differ: {pair}", "Δ (B − A on the unit)", d["unit"])
            h = np.array([u["delta"] or 0.0 for u in top])
            good = h > 0 if comparison.get("higher_is_better", True) else h < 0
            q.addItem(pg.BarGraphItem(x=np.arange(h.size), height=h, width=0.7,
                                      brushes=[pg.mkBrush(*(GREEN if g else ORANGE)) for g in good]))
            q.getAxis("bottom").setTicks([[(i, str(u["id"])[:10]) for i, u in enumerate(top)]])
            out.append((f"pair{k}_differ", f"Pair {k}: the {len(top)} {plural(d['unit'])} where "
                        f"{p['a']} and {p['b']} differ most (green: B better)", q))
    return out
