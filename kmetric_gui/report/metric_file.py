"""`kmetric report TRUTH SUB [MORE...] --metric-file FILE --out DIR`: the report folder
of submissions scored by a competition's own metric file.

The folder holds what the metric file's numbers support: report.json (the
`score --json` object of the first submission with its interval, every
submission, and the comparison of two or more as `kmetric compare --json` gives
it), tables/*.csv and index.html. The built-in metrics' plots and anatomy need
their sufficient statistics, which a metric file does not give: none are drawn.
"""
import json
from pathlib import Path

from ..io.saving import csv_text, save_atomic
from .folder import TABLES
from .html import CSS, escape, fmt, table_html

NOTE = ("plots, PDF and the metric's anatomy are made for the built-in metrics only; a metric file "
        "gives its score, its splits and what re-scoring resamples gives")


def build(args, ci, limits):
    """(report.json object, tables {name: rows}) of the submissions; InputError or
    MetricFailed as `score --metric-file` raises them."""
    import os

    from ..cli.metricfile import human_lines, tell, to_json
    from ..metricfile.kaggle import bootstrap, open_worker, plan_replicates, score_file
    from .build import count_rows, file_info
    from ..analysis.stats import file_interval
    entries = []
    hib = args.higher_is_better
    workers = max(1, min(os.cpu_count() or 1, 8)) if ci else 1
    for path in args.submissions:
        with open_worker(args.metric_file, (args.truth, path), args.id_column, workers=workers,
                         executor=args.executor, limits=limits) as w:
            if not entries:
                tell(w, args)
            fs, usage = score_file(w, args.metric_arg, hib)
            hib = fs.higher_is_better
            d = dict(to_json(fs, w), name=Path(path).name)
            if ci is not None:
                b, _ = plan_replicates(w, fs.call_seconds, ci.replicates)
                if b >= 2:
                    values, failed = bootstrap(w, fs, usage, b, ci.seed)
                    d["ci"] = file_interval(values, ci.level, fs.n_rows).to_dict(ci.seed)
                    if failed:
                        d["ci"]["failed_replicates"] = len(failed)
            entries.append((d, human_lines(fs)))
    main = dict(entries[0][0])
    files = [file_info(args.truth, "solution", count_rows(args.truth, "solution"))]
    files += [file_info(p, "submission", count_rows(p, "submission")) for p in args.submissions]
    main["files"] = files
    main["report_format"] = "kmetric-report"
    main["notes"] = [NOTE]
    tables = {"files.csv": [["role", "name", "size_bytes", "rows", "sha256"]] + [
        [f["role"], f["name"], f["size"], f["rows"], f["sha256"]] for f in files]}
    head = ["submission", "score", "public", "private", "ci_low", "ci_high", "ci_level"]
    tables["scores.csv"] = [head] + [
        [d["name"], d["score"], d.get("public"), d.get("private"), (d.get("ci") or {}).get("low"),
         (d.get("ci") or {}).get("high"), (d.get("ci") or {}).get("level")] for d, _ in entries]
    if len(entries) > 1:
        main["submissions"] = [d for d, _ in entries]
        from ..metricfile.compare import compare_with_file
        cmp = compare_with_file(args.metric_file, args.truth, args.submissions, args.metric_arg, hib,
                                args.id_column, None, None,
                                ci.level if ci else 0.95, min(ci.replicates, 1000) if ci else 1000,
                                ci.seed if ci else 0, args.executor, limits=limits)
        main["comparison"] = cmp
        tables["comparison_pairs.csv"] = [["a", "b", "delta", "delta_ci_low", "delta_ci_high",
                                           "p_b_better", "public_delta", "private_delta"]] + [
            [p["a"], p["b"], p["delta"], p["delta_ci"].get("low"), p["delta_ci"].get("high"),
             p["p_b_better"], p["public_delta"], p["private_delta"]] for p in cmp["pairs"]]
    return main, tables


def html(d, tables):
    word = "higher" if d["higher_is_better"] else "lower"
    splits = "".join(f"<span>{k.capitalize()}: <b>{fmt(d.get(k))}</b></span>"
                     for k in ("public", "private") if d.get(k) is not None)
    ci = d.get("ci")
    ci_text = (f"<p class='muted'>{100 * ci['level']:g}% interval [{fmt(ci['low'])}, {fmt(ci['high'])}] "
               f"by re-scoring {ci['replicates']} resamples of the rows</p>") if ci else ""
    mf = d["metric_file"]
    parts = [f"<section><h2>Score ({word} is better)</h2><div class='score'>{fmt(d['score'])}</div>"
             f"<div class='splits'>{splits}</div>{ci_text}</section>",
             f"<section><h2>Metric file</h2><p><code>{escape(mf['path'])}</code><br>"
             f"<span class='muted'>sha256 {mf['sha256']}; arguments "
             f"{escape(json.dumps(mf['args'])) if mf['args'] else 'none'}</span></p></section>"]
    for name in sorted(tables):
        parts.append(f"<section><h2>{escape(name)}</h2>{table_html(tables[name])}"
                     f"<p class='muted'><a href='{TABLES}/{name}'>{TABLES}/{name}</a></p></section>")
    parts.append(f"<section><p class='muted'>{escape(NOTE)}. Also in this folder: "
                 "<a href='report.json'>report.json</a>.</p></section>")
    title = f"Report: {escape(d['name'])} scored by {escape(Path(mf['path']).name)}"
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>"
            f"<style>{CSS}</style></head><body><header><h1>{title}</h1></header><main>"
            + "".join(parts) + "</main></body></html>\n")


def run(args, ci, folder):
    """Write the folder; the exit code (2 with one line a problem)."""
    from ..cli.metricfile import refusal, start
    from ..errors import InputError
    from ..metricfile.runner import MetricFailed
    from .folder import discard, publish, stage
    from .write import _finite
    limits = start(args)
    if limits is None:
        return 2
    try:
        d, tables = build(args, ci, limits)
    except (InputError, MetricFailed) as e:
        return refusal(e)
    staging = stage(folder)
    try:
        (staging / "plots").rmdir()            # none drawn
        for name, rows in tables.items():
            save_atomic(staging / TABLES / name, csv_text(rows, spreadsheet=True))
        d["tables"] = [f"{TABLES}/{n}" for n in sorted(tables)]
        save_atomic(staging / "report.json", json.dumps(_finite(d), indent=1, allow_nan=False) + "\n")
        save_atomic(staging / "index.html", html(d, tables))
        publish(staging, folder)
    finally:
        discard(staging)
    print(f"report written to {folder}: index.html, report.json, {len(tables)} tables "
          "(no plots: a metric file gives scores, not a built-in's anatomy)")
    return 0
