"""What Jupyter shows of a result (``_repr_html_``): the summary, and a plot.

The report's plots are drawn by Qt (gui/report_render.py), which a notebook's
kernel should not start; so the plot here is drawn with matplotlib when it is
installed (a Figure rendered to inline SVG: no pyplot, no window, no global
state), and the summary says when it is not. The plot is the metric's own
anatomy table from the report (a matrix as a heatmap, a per-class or per-image
table as bars) or, for metrics without one, the spread of the units'
contributions (``Result.rows()``). Every text from the data is escaped.
"""
from __future__ import annotations

import io
import math
from html import escape

STYLE = ("<style>.kmetric td,.kmetric th{padding:2px 10px;text-align:left}"
         ".kmetric .muted{color:#666}</style>")
MAX_BARS = 30


def _num(x, digits=6):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "undefined"
    return f"{x:.{digits}g}" if isinstance(x, float) else escape(str(x))


def _interval(ci):
    if not ci:
        return ""
    low, high = ci.get("low"), ci.get("high")
    return (f" <span class='muted'>[{_num(low)}, {_num(high)}] "
            f"({100 * ci['level']:g}% {escape(str(ci.get('method', '')))})</span>")


def _table(rows):
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table>{body}</table>"


def result_html(result) -> str:
    d = result._d
    metric = result._definition
    way = "higher is better" if d.get("higher_is_better", True) else "lower is better"
    rows = [["<b>metric</b>", f"{escape(metric.label)} (<code>{escape(d['metric'])}</code>), "
                              f"{way}"],
            ["<b>score</b>", f"<b>{_num(d.get('score'))}</b>{_interval(d.get('ci'))}"]]
    for name in ("public", "private"):
        if name in d:
            rows.append([f"<b>{name.capitalize()}</b>",
                         f"{_num(d[name])}{_interval(d.get(f'{name}_ci'))}"])
    rows.append(["<b>rows</b>", f"{d['n_rows']:,} scored"])
    sh = d.get("shakeup")
    if sh:
        rows.append(["<b>shake-up</b>", f"private − public: median {_num(sh.get('gap_p50'))}, "
                     f"90% within [{_num(sh.get('gap_p05'))}, {_num(sh.get('gap_p95'))}]"])
    rows.append(["<b>chosen</b>", f"<span class='muted'>{escape(d.get('chosen', ''))}</span>"])
    rows.append(["<b>layout</b>", f"<span class='muted'>{escape(d.get('layout', ''))}</span>"])
    notes = [escape(p) for p in result.problems]
    plot, why = anatomy_svg(result)
    if plot is None and why:
        notes.append(escape(why))
    parts = [STYLE, "<div class='kmetric'>", _table(rows)]
    if notes:
        parts.append("<p><b>notes</b></p><ul>" + "".join(f"<li>{n}</li>" for n in notes) + "</ul>")
    if plot is not None:
        parts.append(plot)
    parts.append("</div>")
    return "".join(parts)


def _matplotlib():
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return None
    return Figure


def anatomy_svg(result):
    """(inline SVG or None, why there is none or None)."""
    figure = _matplotlib()
    if figure is None:
        return None, "no plot: matplotlib is not installed (pip install matplotlib shows the " \
                     "anatomy plot here; the app and `kmetric report` draw it with Qt)"
    try:
        drawn = _draw(figure, result)
    except Exception as e:               # a plot must never hide the numbers
        return None, f"no plot: {type(e).__name__}: {e}"
    if drawn is None:
        return None, None
    buf = io.StringIO()
    drawn.savefig(buf, format="svg", bbox_inches="tight")
    svg = buf.getvalue()
    return svg[svg.index("<svg"):], None


def _metric_table(result):
    """The first of the metric's report tables: (title, rows), or None."""
    from ..report.build import Entry
    entry = Entry("", result._report, result._d, result._stats, result._fixes)
    tables = result._definition.report_tables(entry) or {}
    for title, rows in tables.values():
        if len(rows) > 1:
            return title, rows
    return None


def _floats(values):
    out = []
    for v in values:
        try:
            out.append(float(v))
        except (TypeError, ValueError):
            out.append(math.nan)
    return out


def _draw(Figure, result):
    found = _metric_table(result)
    fig = Figure(figsize=(6.4, 3.6))
    ax = fig.subplots()
    if found is not None:
        title, rows = found
        head, body = rows[0], rows[1:]
        if "\\" in str(head[0]) and len(body) == len(head) - 1:       # a square matrix
            import numpy as np
            m = np.array([_floats(r[1:]) for r in body])
            im = ax.imshow(m, cmap="Blues")
            labels = [str(h)[:12] for h in head[1:]]
            ax.set_xticks(range(len(labels)), labels)
            ax.set_yticks(range(len(labels)), labels)
            ax.set_xlabel("prediction")
            ax.set_ylabel("truth")
            if m.size <= 100:
                for (i, j), v in np.ndenumerate(m):
                    ax.text(j, i, f"{v:.3g}", ha="center", va="center", fontsize=8)
            fig.colorbar(im, ax=ax)
        else:
            body = body[:MAX_BARS]
            ax.bar(range(len(body)), _floats(r[1] for r in body), color="#4c72b0")
            ax.set_xticks(range(len(body)), [str(r[0])[:12] for r in body], rotation=60,
                          ha="right", fontsize=7)
            ax.set_ylabel(str(head[1]))
        ax.set_title(title, fontsize=10)
        return fig
    frame = _rows_quietly(result)
    if frame is None or not len(frame):
        return None
    c = frame["contribution"].to_numpy()
    ax.hist(c[[math.isfinite(x) for x in c]], bins=40, color="#4c72b0")
    unit = frame.attrs.get("unit", "row")
    ax.set_title(f"Each {unit}'s contribution: score − score without it", fontsize=10)
    ax.set_xlabel("contribution" + ("" if result.higher_is_better else " (> 0: makes it worse)"))
    from ..core.words import plural
    ax.set_ylabel(plural(unit))
    return fig


def _rows_quietly(result):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return result.rows()


def _scores_table(head, rows):
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def comparison_html(cmp) -> str:
    d = cmp._d
    way = "higher" if d.get("higher_is_better", True) else "lower"
    subs = [[escape(s["name"]), _num(s["score"]), _interval(s["ci"])] for s in d["submissions"]]
    pairs = [[escape(p["b"]) + " − " + escape(p["a"]), _num(p["delta"]),
              _interval(p.get("delta_ci")), _num(p.get("p_b_better"), 3)] for p in d["pairs"]]
    notes = "".join(f"<li>{escape(x)}</li>" for x in cmp.problems)
    return (STYLE + f"<div class='kmetric'><p><b>{escape(d['metric'])}</b> ({way} is better), "
            f"{d['n_units']:,} units</p>" + _scores_table(["submission", "score", "interval"], subs)
            + _scores_table(["B − A", "delta", "interval", "share B better"], pairs)
            + (f"<ul>{notes}</ul>" if notes else "") + "</div>")


def selection_html(sel) -> str:
    d = sel._d
    rows = [[escape(c["name"]), _num(c["score"]), _interval(c["ci"]), _num(c["p_best"], 3)]
            for c in d["candidates"]]
    return (STYLE + "<div class='kmetric'>" + _scores_table(
        ["candidate", "score", "interval", "P(best)"], rows)
        + f"<p><b>verdict</b>: {escape(d['verdict'])}</p></div>")


def ranking_html(rk) -> str:
    d = rk._d
    medals = ", ".join(f"{k} {100 * v:.1f}%" for k, v in d["medals"].items())
    return (STYLE + f"<div class='kmetric'><p>rank now {d['rank_now']} of {d['teams']}; private "
            f"rank {d['rank_p50']} (90% in [{d['rank_p05']}, {d['rank_p95']}])</p>"
            f"<p>medals: {escape(medals)}</p></div>")


__all__ = ["result_html", "comparison_html", "selection_html", "ranking_html", "anatomy_svg"]
