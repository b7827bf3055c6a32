"""Score two Kaggle files: read, validate, align, score (+ Usage splits).

The one entry point the CLI and the GUI both call. Long work reports
progress through ``progress(fraction, message)`` and stops when
``cancel()`` returns True (raising ``Cancelled``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import Cancelled, InputError
from ..metrics import get_metric
from .options import COMMON_NAMES, Options, declared_options  # noqa: F401 (the entry's names)

if TYPE_CHECKING:
    import os
    from collections.abc import Callable
    from typing import Any
    from ..io import Prepared

SPLITS = ("public", "private")


@dataclass
class ScoreReport:
    metric: str
    reason: str
    layout: str
    n_rows: int                       # rows scored (Ignored rows excluded)
    result: object                    # core result over all scored rows
    splits: dict = field(default_factory=dict)   # "public"/"private" -> result
    prepared: object = None
    options: Options = field(default_factory=Options)
    cuts: "np.ndarray | None" = None   # ratings: cut points applied to continuous predictions

    @property
    def score(self):
        return self.result.score

    @property
    def definition(self):
        """The metric's module (kmetric_gui.metrics): JSON fields, table, write-back."""
        return get_metric(self.metric)

    def to_json(self):
        return report_json(self)


def _noop(*_):
    return False


def _step(progress, cancel, fraction, message):
    if cancel():
        raise Cancelled(message)
    progress(fraction, message)


def load(truth_path: str | os.PathLike[str], submission_path: str | os.PathLike[str],
         options: Options = Options(), progress: Callable[[float, str], None] | None = None,
         cancel: Callable[[], bool] | None = None) -> Prepared:
    """Read and validate both files; returns io.Prepared (raises InputError)."""
    from ..io import prepare
    from ..io.read import read_pair
    progress, cancel = progress or _noop, cancel or _noop
    sol_name = f"solution {Path(truth_path).name}"
    sub_name = f"submission {Path(submission_path).name}"
    _step(progress, cancel, 0.0, f"reading {Path(truth_path).name} and "
          f"{Path(submission_path).name}")
    prep = load_lean(truth_path, submission_path, options, sol_name, sub_name, progress, cancel)
    if prep is not None:
        return prep
    # Both files at once; every problem of both reported; memory checked first.
    sol, sub = read_pair(truth_path, submission_path, options.id_column,
                         max_inflated=options.max_inflated)
    _step(progress, cancel, 0.55, "validating and joining ids")
    return prepare(sol, sub, sol_name, sub_name, options)


def load_lean(truth_path, submission_path, options, sol_name, sub_name, progress=None, cancel=None):
    """A valid pair of plain CSVs read in pieces by its metric's ``lean_load``, a fraction
    of the memory; None for anything else and every invalid file: the full read then
    names every problem. A valid pair has as many rows in each file as ids, except a
    long solution (one row per label): ``prep.file_rows`` then has both counts."""
    from ..io.allocator import use_default
    from ..metrics import REGISTRY
    progress, cancel = progress or _noop, cancel or _noop
    use_default()       # the lean allocator only where a metric's reader asks (io.allocator)

    def step(f, m):
        _step(progress, cancel, f, m)
    step.progress, step.cancel = progress, cancel
    wanted = options.metric
    if wanted is None:
        # The fast readers know only the headers: the first rows decide the metric first
        # (a header alone cannot tell label scores from class probabilities), and a pair
        # the values leave open goes to the full read, which lists the choices.
        wanted = _sample_choice(truth_path, submission_path, options)
        if wanted is None:
            return None
    # Each metric's fast-reader hook in registry order; each says None unless the pair
    # is plainly its own layout.
    for metric in REGISTRY.values():
        if wanted != metric.name:
            continue
        prep = metric.lean_load(truth_path, submission_path, options, sol_name, sub_name, step)
        if prep is not None:
            return prep
    return None


def _first_rows(path, rows=2000):
    import pyarrow as pa
    import pyarrow.csv as pacsv
    delim = "\t" if str(path).lower().endswith((".tsv", ".tab")) else ","
    reader = pacsv.open_csv(path, read_options=pacsv.ReadOptions(block_size=1 << 20),
                            parse_options=pacsv.ParseOptions(delimiter=delim))
    try:
        batch = reader.read_next_batch()
    finally:
        reader.close()
    return pa.Table.from_batches([batch]).slice(0, rows)


def _sample_choice(truth_path, submission_path, options):
    """The metric the first rows of a plain CSV pair clearly point to (its name), or None:
    not plain, unreadable, ambiguous, or none (the full read says why)."""
    from ..metrics import choose_metric
    from ..metrics.detect import Sample
    low = (str(truth_path).lower(), str(submission_path).lower())
    if not all(p.endswith((".csv", ".tsv", ".tab")) for p in low):
        return None
    try:
        sol, sub = _first_rows(truth_path), _first_rows(submission_path)
        id_col = options.id_column or sol.column_names[0]
        sample = Sample(sol, sub, id_col)
        targets = [c for c in sub.column_names if c != id_col]
        return choose_metric(targets, None, sample)[0].name
    except Exception:        # anything odd: the full read names it
        return None


def score_prepared(prep: Prepared, options: Options = Options(),
                   progress: Callable[[float, str], None] | None = None,
                   cancel: Callable[[], bool] | None = None) -> ScoreReport:
    """Score aligned inputs (all rows but Ignored, then each Usage split)."""
    progress, cancel = progress or _noop, cancel or _noop
    metric = get_metric(prep.metric)
    usage = prep.usage
    plan = metric.plan(prep, options)
    # Without a Usage column every row is scored: no index, no copies.
    from ..metrics.base import split_row_sets
    rows = split_row_sets(usage)
    _step(progress, cancel, 0.7, f"scoring {', '.join(rows)} rows")
    results = metric.score_all(plan, rows, options, cancel)
    progress(1.0, "done")
    n = len(prep) if rows["all"] is None else int(rows["all"].size)
    return ScoreReport(prep.metric, prep.reason, prep.layout, n,
                       results.pop("all"), results, prep, options, plan.cuts)


def score_files(truth_path: str | os.PathLike[str], submission_path: str | os.PathLike[str],
                options: Options = Options(), progress: Callable[[float, str], None] | None = None,
                cancel: Callable[[], bool] | None = None) -> ScoreReport:
    """Read, validate and score two files; InputError on invalid input."""
    prep = load(truth_path, submission_path, options, progress, cancel)
    return score_prepared(prep, options, progress, cancel)


def _num(x):
    return None if x is None or not np.isfinite(x) else float(x)


COMMON_OPTIONS = ("metric", "id_column", "target_column", "max_inflated")   # shown in JSON


def report_options(rep):
    """The JSON ``options``: the common ones set, then the metric's own (and only those)."""
    o = rep.options
    out = {k: getattr(o, k) for k in COMMON_OPTIONS if getattr(o, k) is not None}
    out.update({k: v for k, v in o.metric_options(rep.definition).items() if v is not None})
    extra = rep.definition.json_options(rep)
    out.update(extra)
    return out


def report_json(rep: ScoreReport, costly: bool = True) -> dict[str, Any]:
    """The JSON object of a score. ``costly=False``: without the fields a metric computes
    only for the JSON (``json_costly``, e.g. a second interval by another method), for
    output that does not show them."""
    r = rep.result
    out = {"metric": rep.metric, "score": _num(r.score),
           "higher_is_better": bool(rep.definition.higher_is_better), "n_rows": rep.n_rows}
    if r.undefined_reason:
        out["undefined_reason"] = r.undefined_reason
    for name in SPLITS:
        if name in rep.splits:
            s = rep.splits[name]
            out[name] = _num(s.score)
            if s.undefined_reason:
                out[f"{name}_undefined_reason"] = s.undefined_reason
    out.update(rep.definition.json_fields(rep))
    if costly and hasattr(rep.definition, "json_costly"):
        out.update(rep.definition.json_costly(rep))
    out["chosen"] = rep.reason
    out["layout"] = rep.layout
    out["options"] = report_options(rep)
    return out



__all__ = ["Options", "ScoreReport", "load", "load_lean", "score_prepared", "score_files",
           "report_json", "InputError", "Cancelled"]
