"""index.html of a report: one file, inline CSS, plots referenced relatively, no scripts.

``render_html(data)`` is the page for a browser; ``render_html(data, pdf=True)``
the same content for Qt's QTextDocument (simpler CSS, a page per plot).
"""
import math
from html import escape as _escape

from ..errors import visible

from ..analysis.stats import interval_text, shakeup_lines
from .folder import PLOTS, TABLES
from ..core.words import plural


def escape(text):
    """HTML-escaped, with control and direction-changing characters shown as escapes
    (a right-to-left override in an id would reorder the text after it)."""
    return _escape(visible(text))

INLINE_ROWS = 25          # rows of a table shown on the page (the CSV has them all)
INLINE_COLS = 16

CSS = """
body{font-family:"DejaVu Sans",Arial,Helvetica,sans-serif;color:#1d2430;background:#f4f6f9;margin:0}
main{max-width:1100px;margin:0 auto;padding:24px 28px 40px}
header{background:#1f3a5f;color:#fff;padding:18px 28px}
header h1{margin:0;font-size:22px;font-weight:600}
header p{margin:4px 0 0;color:#c9d6e8;font-size:13px}
section{background:#fff;border:1px solid #dde3ea;border-radius:6px;padding:14px 18px;margin:16px 0}
h2{font-size:17px;margin:0 0 10px;color:#1f3a5f}
.score{font-size:40px;font-weight:700;margin:2px 0 4px;font-variant-numeric:tabular-nums}
.splits span{display:inline-block;margin-right:22px;font-size:15px}
.muted{color:#5b6675;font-size:13px}
table{border-collapse:collapse;font-size:13px;margin:6px 0}
th,td{border:1px solid #dde3ea;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#eef2f7}
td.n{text-align:right;font-variant-numeric:tabular-nums}
code{font-size:12px;word-break:break-all}
.plots{display:flex;flex-wrap:wrap;gap:14px}
figure{margin:0;flex:1 1 480px;max-width:100%}
figure img{width:100%;height:auto;border:1px solid #dde3ea;border-radius:4px;background:#fff}
figcaption{font-size:13px;color:#5b6675;margin-top:3px}
.ok{color:#1a7f37;font-weight:600}.warn{color:#b35900;font-weight:600}
pre{background:#f6f8fa;padding:8px;font-size:12px;overflow:auto}
a{color:#1f5fa8}
"""

PDF_CSS = """
body{font-family:"DejaVu Sans";font-size:7.5pt;color:#1d2430}
h1{font-size:14pt;color:#1f3a5f;margin:0}
h2{font-size:10.5pt;color:#1f3a5f;margin-top:8pt;margin-bottom:3pt}
.score{font-size:20pt;font-weight:bold}
.muted{color:#5b6675}
th{background-color:#eef2f7}
td.n{text-align:right}
.ok{color:#1a7f37;font-weight:bold}
"""


def fmt(x, digits=6):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "undefined"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


ZWSP = "\u200b"          # a place a long name may break (after _ - . /), never inside a number


def _breakable(text):
    for ch in "_-./":
        text = text.replace(ch, ch + ZWSP)
    return text


def _cell(v, pdf=False):
    # The PDF's layout (QTextDocument) breaks a word anywhere once a column is narrow:
    # numbers are kept whole, names may break at their separators instead.
    num = ' style="white-space:nowrap"' if pdf else ""
    if isinstance(v, float):
        return f'<td class="n"{num}>{escape(f"{v:.4g}" if pdf else f"{v:.6g}")}</td>'
    if isinstance(v, int) and not isinstance(v, bool):
        return f'<td class="n"{num}>{v:,}</td>'
    text = escape("" if v is None else str(v))
    return f"<td>{_breakable(text) if pdf else text}</td>"


def table_html(rows, limit=INLINE_ROWS, cols=INLINE_COLS, pdf=False):
    if not rows:
        return ""
    attrs = ' border="1" cellspacing="0" cellpadding="3"' if pdf else ""
    head = "".join(f"<th>{_breakable(escape(str(h))) if pdf else escape(str(h))}</th>"
                   for h in rows[0][:cols])
    body = "".join("<tr>" + "".join(_cell(v, pdf) for v in r[:cols]) + "</tr>"
                   for r in rows[1:limit + 1])
    more = []
    if len(rows) - 1 > limit:
        more.append(f"{len(rows) - 1 - limit:,} more rows")
    if len(rows[0]) > cols:
        more.append(f"{len(rows[0]) - cols} more columns")
    note = f'<p class="muted">… {" and ".join(more)} in the CSV</p>' if more else ""
    return f"<table{attrs}><tr>{head}</tr>{body}</table>{note}"


def _kv(pairs, pdf=False):
    return table_html([["", ""]] + [[k, str(v)] for k, v in pairs], limit=10_000, pdf=pdf).replace(
        "<tr><th></th><th></th></tr>", "", 1)


def _score_section(data):
    e, j = data.main, data.json
    rep = e.report
    lines = [f'<div class="score">{fmt(j["score"])}</div>']
    if j.get("undefined_reason"):
        lines.append(f'<p class="warn">undefined: {escape(j["undefined_reason"])}</p>')
    seed = e.stats.options.seed if e.stats is not None and e.stats.options else None
    ivs = e.stats.intervals if e.stats is not None else {}
    if "ci" in ivs:
        lines.append(f'<p class="muted">{escape(interval_text(ivs["ci"], seed))}</p>')
    splits = []
    for name in ("public", "private"):
        if name in j:
            extra = f' <span class="muted">{escape(interval_text(ivs[name + "_ci"], seed))}</span>' \
                if f"{name}_ci" in ivs else ""
            splits.append(f"<span>{name.title()} LB: <b>{fmt(j[name])}</b>{extra}</span>")
    if splits:
        lines.append(f'<p class="splits">{"<br>".join(splits)}</p>')
    for key, iv in ivs.items():          # every warning `kmetric score --ci` prints
        where = {"public_ci": "Public LB: ", "private_ci": "Private LB: "}.get(key, "")
        lines += [f'<p class="warn">warning: {escape(where + w)}</p>' for w in iv.warnings]
    summary = rep.definition.summary_lines(rep)
    lines.append(f'<p class="muted">{rep.definition.label} over {rep.n_rows:,} '
                 f'{plural(rep.definition.unit)} scored. {"<br>".join(summary)}</p>')
    if j.get("groups"):
        lines.append(f'<p class="muted">Rows in {j["groups"]:,} groups: intervals, shake-up and '
                     'comparison resample and split whole groups.</p>')
    return "".join(lines)


def _compared_section(data, pdf):
    """Every compared submission's score (the app's report has one entry and a comparison)."""
    subs = (data.json.get("comparison") or {}).get("submissions") or []
    if len(subs) < 2:
        return ""
    rows = [["submission", "score", "CI low", "CI high", "public", "private"]]
    for s in subs:
        ci = s.get("ci") or {}
        rows.append([s.get("name"), s.get("score"), ci.get("low"), ci.get("high"),
                     s.get("public"), s.get("private")])
    return table_html(rows, limit=1000, pdf=pdf)


def _files_section(data, pdf):
    rows = [["role", "file", "size", "rows", "sha256"]]
    for f in data.json["files"]:
        rows.append([f["role"], f["name"], _size(f["size"]), f["rows"] if f["rows"] is not None
                     else "not counted", f["sha256"]])
    link = "" if pdf else f'<p class="muted"><a href="{TABLES}/files.csv">CSV</a></p>'
    return table_html(rows, limit=100, pdf=pdf) + link


def _size(n):
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:,} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024


def _options_section(data, pdf):
    opts = data.json.get("options", {})
    pairs = [(k.replace("_", " "), v) for k, v in opts.items() if k not in ("allow_continuous",)]
    if "higher_is_better" in data.json:       # the metric's direction, as every table reads it
        pairs.append(("direction", "higher is better" if data.json["higher_is_better"]
                      else "lower is better"))
    st = data.main.stats
    if st is not None and st.options is not None:
        o = st.options
        pairs.append(("bootstrap", f"{100 * o.level:g}% {o.method}, {o.replicates:,} replicates, "
                                   f"seed {o.seed}"))
    return _kv(pairs, pdf)


def _validation_section(data, pdf):
    v = data.json["validation"]
    parts = [f'<p><span class="ok">Passed</span>: {v["ids"]:,} ids matched in both files '
             f'(id column <code>{escape(v["id_column"])}</code>).</p>']
    pairs = [("chosen", v["chosen"]), ("layout", v["layout"])]
    if "usage" in v:
        u = v["usage"]
        pairs.append(("Usage column", f'{u["public"]:,} Public, {u["private"]:,} Private, '
                                      f'{u["ignored"]:,} Ignored'))
    if v.get("unsaved_edits"):
        pairs.append(("edits", f'{v["unsaved_edits"]} edit(s) made in the app and not saved to '
                               "the files: the numbers include them"))
    return "".join(parts) + _kv(pairs, pdf)


def _stats_section(data, pdf=False):
    st = data.main.stats
    if st is None or st.shakeup is None:
        return ""
    lines = [escape(x.strip()) for x in shakeup_lines(st.shakeup)]
    if pdf:
        return "<h2>Shake-up</h2><p>" + "<br>".join(lines) + "</p>"
    return "<h2>Shake-up</h2><pre>" + "\n".join(lines) + "</pre>"


def _plots_section(data, pdf):
    if not data.plots:
        return ""
    if pdf:
        return "".join(
            f'<h2 style="page-break-before: always">{escape(p["title"])}</h2>'
            f'<p><img src="{PLOTS}/{p["png"]}" width="{p["pdf_width"]}"></p>'
            for p in data.plots)
    figs = "".join(
        f'<figure><a href="{PLOTS}/{p["svg"] or p["png"]}"><img src="{PLOTS}/{p["png"]}" '
        f'alt="{escape(p["title"])}" width="{p["width"]}" height="{p["height"]}"></a>'
        f'<figcaption>{escape(p["title"])}'
        + (f' · <a href="{PLOTS}/{p["svg"]}">SVG</a>' if p["svg"] else "")
        + "</figcaption></figure>" for p in data.plots)
    return f'<section><h2>Anatomy of the score</h2><div class="plots">{figs}</div></section>'


def _tables_section(data, pdf):
    out = []
    order = [n for n in data.tables if n not in ("files.csv",)]
    for name in order:
        title = data.titles.get(name, name)
        link = "" if pdf else f' <a class="muted" href="{TABLES}/{name}">CSV</a>'
        out.append(f"<h2>{escape(title)}{link}</h2>" +
                   table_html(data.tables[name], pdf=pdf))
    return "".join(out)


def render_html(data, pdf=False):
    rep = data.main.report
    title = f"kmetric report: {data.main.name}"
    sub = (f"{rep.definition.label} · solution {data.json['files'][0]['name']} · "
           f"kmetric {data.json['kmetric_version']}")
    blocks = [("Score", _score_section(data))]
    compared = _compared_section(data, pdf)
    if compared:
        blocks.append(("Compared submissions", compared))
    blocks += [("Files", _files_section(data, pdf)),
              ("Options", _options_section(data, pdf)),
              ("Validation", _validation_section(data, pdf))]
    stats = _stats_section(data, pdf)
    if pdf:
        body = [f"<h1>{escape(title)}</h1><p class=\"muted\">{escape(sub)}</p>"]
        body += [f"<h2>{h}</h2>{b}" for h, b in blocks]
        body.append(stats)
        body.append('<h2 style="page-break-before: always">Tables</h2>')
        body.append(_tables_section(data, pdf))
        body.append(_plots_section(data, pdf))
        return (f"<html><head><style>{PDF_CSS}</style></head><body>{''.join(body)}"
                "</body></html>")
    body = [f"<section><h2>{h}</h2>{b}</section>" for h, b in blocks]
    body.append(_plots_section(data, pdf))
    if stats:
        body.append(f"<section>{stats}</section>")
    body.append(f"<section>{_tables_section(data, pdf)}</section>")
    pdf_link = '<a href="report.pdf">report.pdf</a>, ' if data.pdf else ""
    foot = ('<p class="muted">Also in this folder: <a href="report.json">report.json</a> '
            f'(the <code>kmetric score --json</code> object and more), {pdf_link}'
            'the plots as PNG and SVG, the tables as CSV.</p>')
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
            f"<header><h1>{escape(title)}</h1><p>{escape(sub)}</p></header>"
            f"<main>{''.join(body)}{foot}</main></body></html>\n")
