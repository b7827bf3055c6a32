"""Score two Kaggle files: read, validate, align, score (+ Usage splits).

The one entry point the CLI and the GUI both call. Long work reports
progress through ``progress(fraction, message)`` and stops when
``cancel()`` returns True (raising ``Cancelled``).
"""
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from .core import (KappaAccumulator, apply_cuts, is_continuous, jaccard_fbeta, lwlrap,
                   rounding_cuts)
from .errors import Cancelled, InputError

SPLITS = ("public", "private")
_CHUNK = 1_000_000


@dataclass(frozen=True)
class Options:
    metric: "str | None" = None        # qwk, lwlrap, fbeta; None: from the layout
    weights: str = "quadratic"
    min_rating: "int | None" = None
    max_rating: "int | None" = None
    id_column: "str | None" = None
    target_column: "str | None" = None
    ties: str = "worst"
    beta: float = 0.5
    threshold: float = 0.5
    matching: str = "one-to-one"
    clean: bool = False
    allow_continuous: bool = False     # kappa: accept non-integer predictions (the app)
    cuts: "tuple | None" = None        # kappa: cut points for continuous predictions

    def with_(self, **kw):
        return replace(self, **kw)


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
    cuts: "np.ndarray | None" = None   # kappa: cut points applied to continuous predictions

    @property
    def score(self):
        return self.result.score

    def to_json(self):
        return report_json(self)


def _noop(*_):
    return False


def _step(progress, cancel, fraction, message):
    if cancel():
        raise Cancelled(message)
    progress(fraction, message)


def load(truth_path, submission_path, options=Options(), progress=None, cancel=None):
    """Read and validate both files; returns io.Prepared (raises InputError)."""
    from .io import prepare, read_header, read_table
    progress, cancel = progress or _noop, cancel or _noop
    sol_name = f"solution {Path(truth_path).name}"
    sub_name = f"submission {Path(submission_path).name}"
    _step(progress, cancel, 0.0, f"reading {Path(truth_path).name} and "
          f"{Path(submission_path).name}")
    sub_head = read_header(submission_path, "submission")
    id_col = options.id_column or (sub_head[0] if sub_head else None)
    keep = [id_col] if id_col else []
    # Both files at once: Arrow's reader releases the GIL.
    with ThreadPoolExecutor(2, thread_name_prefix="kmetric-read") as pool:
        sol_job = pool.submit(read_table, truth_path, "solution", string_columns=keep)
        sub_job = pool.submit(read_table, submission_path, "submission", string_columns=keep)
        errors = []
        for job in (sol_job, sub_job):
            try:
                job.result()
            except InputError as e:
                errors.extend(e.problems)
        if errors:
            raise InputError(errors[0], errors)
        sol, sub = sol_job.result(), sub_job.result()
    _step(progress, cancel, 0.55, "validating and joining ids")
    return prepare(sol, sub, sol_name, sub_name, options)


def score_prepared(prep, options=Options(), progress=None, cancel=None):
    """Score aligned inputs (all rows but Ignored, then each Usage split)."""
    progress, cancel = progress or _noop, cancel or _noop
    original = prep
    usage = prep.usage
    scored = np.ones(len(prep), bool) if usage is None else usage != 2
    masks = {"all": scored}
    if usage is not None:
        masks.update(public=usage == 0, private=usage == 1)
    kw, cuts = {}, None
    if prep.metric == "qwk":
        # One rating range for every split: weights never change between them.
        lo = options.min_rating
        hi = options.max_rating
        pred = prep.pred
        if is_continuous(pred):
            lo = int(prep.truth.min()) if lo is None else lo
            hi = int(prep.truth.max()) if hi is None else hi
            cuts = np.asarray(options.cuts if options.cuts is not None
                              else rounding_cuts(lo, hi), dtype=np.float64)
            if cuts.size != hi - lo:
                raise InputError(f"expected {hi - lo} cut points for ratings {lo}..{hi}, "
                                 f"got {cuts.size}")
            prep = replace(prep, pred=apply_cuts(pred, cuts, lo))
        elif len(prep.truth):
            lo = min(int(prep.truth.min()), int(pred.min())) if lo is None else lo
            hi = max(int(prep.truth.max()), int(pred.max())) if hi is None else hi
        kw = dict(min_rating=lo, max_rating=hi)
    results = {}
    for k, (name, mask) in enumerate(masks.items()):
        base = 0.7 + 0.3 * k / len(masks)
        _step(progress, cancel, base, f"scoring {name} rows")
        results[name] = _score(prep, mask, options, kw, progress, cancel, base)
    progress(1.0, "done")
    return ScoreReport(prep.metric, prep.reason, prep.layout, int(scored.sum()),
                       results.pop("all"), results, original, options, cuts)


def _score(prep, mask, options, kw, progress, cancel, base):
    idx = np.flatnonzero(mask)
    if prep.metric == "qwk":
        acc = KappaAccumulator(weights=options.weights, **kw)
        t, p = prep.truth[idx], prep.pred[idx]
        for a in range(0, max(idx.size, 1), _CHUNK):
            if cancel():
                raise Cancelled("scoring")
            acc.update(t[a:a + _CHUNK], p[a:a + _CHUNK])
        return acc.result()
    if prep.metric == "lwlrap":
        return lwlrap(prep.truth[idx], prep.pred[idx], ties=options.ties)
    return jaccard_fbeta([prep.truth[i] for i in idx], [prep.pred[i] for i in idx],
                         beta=options.beta, threshold=options.threshold,
                         matching=options.matching, clean=options.clean)


def score_files(truth_path, submission_path, options=Options(), progress=None, cancel=None):
    """Read, validate and score two files; InputError on invalid input."""
    prep = load(truth_path, submission_path, options, progress, cancel)
    return score_prepared(prep, options, progress, cancel)


def _num(x):
    return None if x is None or not np.isfinite(x) else float(x)


def report_json(rep):
    r = rep.result
    out = {"metric": rep.metric, "score": _num(r.score), "n_rows": rep.n_rows}
    if r.undefined_reason:
        out["undefined_reason"] = r.undefined_reason
    for name in SPLITS:
        if name in rep.splits:
            s = rep.splits[name]
            out[name] = _num(s.score)
            if s.undefined_reason:
                out[f"{name}_undefined_reason"] = s.undefined_reason
    if rep.metric == "fbeta":
        out.update(tp=r.tp, fp=r.fp, fn=r.fn, precision=_num(r.precision),
                   recall=_num(r.recall), beta=r.beta, threshold=r.threshold,
                   matching=r.matching)
    elif rep.metric == "qwk":
        if rep.cuts is not None:
            out["cuts"] = rep.cuts.tolist()
        out.update(weights=r.weighting, labels=r.labels.tolist(),
                   observed=r.observed.astype(np.int64).tolist(),
                   numerator=r.numerator, denominator=r.denominator)
    else:
        names = rep.prepared.classes
        out.update(ties=r.ties, n_positives=r.n_positives, tied_positives=r.tied_positives,
                   per_class={n: _num(v) for n, v in zip(names, r.per_class)},
                   class_weights={n: float(v) for n, v in zip(names, r.class_weights)})
    out["chosen"] = rep.reason
    out["layout"] = rep.layout
    out["options"] = {k: v for k, v in asdict(rep.options).items() if v is not None}
    return out


__all__ = ["Options", "ScoreReport", "load", "score_prepared", "score_files",
           "report_json", "InputError", "Cancelled"]
