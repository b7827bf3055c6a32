"""`kmetric competitions [TEXT]`: the competition catalog, all of it or what matches TEXT."""
from __future__ import annotations

from typing import TYPE_CHECKING

import sys

if TYPE_CHECKING:
    import argparse


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    s = sub.add_parser("competitions", help="list or search the competition catalog "
                       "(for --competition SLUG)")
    s.add_argument("text", nargs="*", help="words every listed competition's slug, title or "
                   "metric holds")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(run=run)
    return s


def run(args: argparse.Namespace) -> int:
    from ..analysis.competitions import catalog, search
    from .output import dumps
    found = search(" ".join(args.text))
    if args.json:
        rows = []
        for c in found:
            row = {"slug": c.slug, "title": c.title, "metric": c.metric,
                   "options": dict(c.options), "id_columns": list(c.id_columns),
                   "target_columns": list(c.targets) if c.targets else None}
            if c.submission_columns:
                row["submission_columns"] = list(c.submission_columns)
            row["usage"] = c.usage
            if c.extra_ids != "refuse":
                row["extra_ids"] = c.extra_ids
            if c.metric_file_needed:
                row["metric_file_needed"] = c.metric_file_needed
            rows.append(row)
        print(dumps({"count": len(rows), "catalog_size": len(catalog()), "competitions": rows}))
        return 0
    if not found:
        print(f"kmetric: no competition of the catalog matches '{' '.join(args.text)}' "
              f"({len(catalog())} in it; 'kmetric competitions' lists them)", file=sys.stderr)
        return 2
    width = max(len(c.slug) for c in found)
    for c in found:
        metric = c.metric or "metric file"
        mark = " *" if c.metric_file_needed else ""
        print(f"{c.slug:<{width}}  {metric:<13}{c.title}{mark}")
    tail = f"{len(found)} of {len(catalog())} competitions"
    if any(c.metric_file_needed for c in found):
        tail += "; * the built-in does not give the leaderboard's number: its metric file does"
    print(tail)
    return 0
