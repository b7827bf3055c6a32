"""Score a pair of files with a metric file, as Kaggle's orchestrator does:
every scored row, then Public and Private (Ignored rows in neither), each call on
copies, the id column's name as ``row_id_column_name``; statistics by re-scoring
resampled rows in the worker pool. The commands' path: the scoring itself is the
app's (``metric.FileMetric`` and analysis.scoring), the bootstrap's draws units.py's;
what stays here is the command's side: ``--metric-arg`` texts, the direction, the
time estimates that cap the replicates to the time limit.
"""
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError
from ..metrics.base import split_row_sets as split_rows
from .opening import direction, open_worker  # noqa: F401 (the commands' names)
from .runner import MetricFailed  # noqa: F401

FIXED = ("solution", "submission", "row_id_column_name")
_TYPES = {"int": int, "float": float, "bool": bool, "str": str}


@dataclass
class FileScore:
    source: object
    args: dict
    higher_is_better: bool
    n_rows: int
    score: float
    splits: dict = field(default_factory=dict)      # "public"/"private" -> float
    id_column: str = ""
    printed: str = ""
    doc: str = ""
    # one score() call, in the worker: on a resampled pair when statistics follow (workers > 1)
    call_seconds: float = 0.0
    setup_seconds: float = 0.0       # a further process's reading and warm-up, once
    report: object = None            # the common scoring's ScoreReport (its statistics' units)
    metric: object = None            # the FileMetric that scored it (registered while it scored)


def _bool(text):
    low = text.strip().lower()
    if low in ("true", "1", "yes"):
        return True
    if low in ("false", "0", "no"):
        return False
    raise ValueError("expected true or false")


def _typed(name, text, kind, file_name):
    from ..numbers import parse_number, parse_rating
    try:
        if kind is bool:
            return _bool(text)
        if kind is int:
            return parse_rating(text)
        if kind is float:
            return parse_number(text)
    except ValueError as e:
        raise InputError(f"--metric-arg {name}={text}: {e} (metric file {file_name})") from None
    return text


def metric_args(info, pairs, file_name):
    """Typed keyword arguments from NAME=VALUE texts, checked against the signature."""
    params = info["params"]
    positional = [p for p in params if p[1] in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")]
    if len(positional) < 3:
        raise InputError(f"metric file {file_name}: score() must take (solution, submission, "
                         f"row_id_column_name, ...); it takes ({', '.join(p[0] for p in params)})")
    extra = {p[0]: p for p in params[3:] if p[1] not in ("VAR_POSITIONAL", "VAR_KEYWORD")}
    open_ended = any(p[1] == "VAR_KEYWORD" for p in params)
    out = {}
    for text in pairs or ():
        name, sep, value = text.partition("=")
        name = name.strip()
        if not sep or not name:
            raise InputError(f"--metric-arg expects NAME=VALUE; got '{text}'")
        if name not in extra and not open_ended:
            known = ", ".join(extra) or "none"
            raise InputError(f"--metric-arg {name}: score() in {file_name} has no such argument "
                             f"(its arguments: {known})")
        p = extra.get(name)
        kind = _TYPES.get(p[2]) if p and p[2] else None
        if kind is None and p and p[3] and p[4] is not None:
            kind = type(p[4]) if type(p[4]) in _TYPES.values() else None
        out[name] = _typed(name, value, kind, file_name)
    missing = [n for n, p in extra.items() if not p[3] and n not in out]
    if missing:
        raise InputError(f"metric file {file_name}: score() needs " + ", ".join(missing)
                         + " (give each with --metric-arg NAME=VALUE)")
    return out


def score_file(w, arg_texts=(), higher_is_better=None):
    """(FileScore, usage) of the worker's pair: the file as a Metric of the contract
    (metric.FileMetric, the app's) read and scored by the common scoring code — every
    scored row, then Public and Private — in this worker."""
    import time

    from ..analysis.scoring import Options, score_prepared
    from .metric import FileMetric, PREFIX
    info = w.inspect()
    args = metric_args(info, arg_texts, w.source.name)
    hib = direction(info, higher_is_better, w.source.name)
    metric = FileMetric(w.source, info, hib, lambda *key: w)
    metric.take_args(args)
    with registered(metric):
        options = Options(metric=metric.name, **{PREFIX + k: v for k, v in args.items()})
        t0 = time.monotonic()
        prep = metric.lean_load(*w.paths, options, "", "", lambda f, m: None)
        read = time.monotonic() - t0
        report = score_prepared(prep, options)
    usage = prep.usage
    rows = split_rows(usage)
    firsts = [r.seconds for r in (report.result, *report.splits.values()) if r.n]  # calls made
    seconds = float(np.median(firsts))
    # With workers, statistics follow: two resampled pairs are scored too (discarded), and
    # the second's time is what an estimate uses. The file's own first call pays one-off
    # costs (the metric's imports and warm-up, the id columns made on first resample) and
    # builds no resampled frames: a compare estimated 916 s for 55 s from it.
    n = len(prep)
    pilots = PILOTS if w.workers > 1 and n > 0 else 0
    if pilots:
        probes = w.score_sets(args, _pilot_draws(n, rows["all"], pilots), chunk=pilots)
        if all(r[0] == "ok" for r in probes):
            seconds = call_seconds(probes[1:])
            # what each further process pays once before its first replicate: reading the
            # files and the first resample's own costs (the metric's warm-up, the id columns)
            w.setup_seconds = (read + max(0.0, firsts[0] - seconds)
                               + max(0.0, (probes[0][3] or 0.0) - seconds))
    splits = {k: float(r.score) for k, r in report.splits.items()
              if k in ("public", "private") and len(rows.get(k, ())) > 0}
    return FileScore(w.source, args, hib, report.n_rows, float(report.score), splits,
                     prep.id_column, w.printed(), info.get("doc", ""), seconds,
                     getattr(w, "setup_seconds", 0.0), report, metric), usage


@contextmanager
def registered(metric):
    """The metric file in the registry for as long as it is scored (the options' schema and
    the scoring code find a metric by its name there); what was there before put back."""
    from ..metrics import REGISTRY, register, unregister
    before = REGISTRY.get(metric.name)
    register(metric)
    try:
        yield metric
    finally:
        unregister(metric.name)
        if before is not None:
            register(before)


PILOTS = 2


def _pilot_draws(n, scored, count):
    """Row sets drawn as ``bootstrap`` draws them (their own generator: no seed's draws used)."""
    from ..core.resample import rng_of
    rng = rng_of(2 ** 31 - 1)
    out = []
    for _ in range(count):
        out.append({"draw": rng.bit_generator.state, "n": n,
                    "rows": None if scored is None else "scored"})
        rng.integers(0, n, size=n)
    return out


def call_seconds(results):
    """Median seconds of one score() call in the worker, from result tuples."""
    times = [r[3] for r in results if len(r) > 3 and r[3] is not None]
    return float(np.median(times)) if times else 0.0


def plan_replicates(w, seconds_per_call, replicates):
    """(replicates that fit in the time left, estimated seconds): B is capped so the
    bootstrap ends before the time limit, with room to spare."""
    per = seconds_per_call / w.workers
    # the other processes start cold, side by side: their reading and warm-up once
    est = replicates * per + (getattr(w, "setup_seconds", 0.0) if w.workers > 1 else 0.0)
    room = 0.8 * w.remaining()
    if per > 0 and est > room:
        return max(0, int(room / per)), room
    return replicates, est


def bootstrap(w, fs, usage, replicates=1000, seed=0, cancel=None, progress=None, until=None):
    """Scores of ``replicates`` resamples of the scored rows (nan where a replicate failed),
    drawn by the metric's statistics units (units.py, the app's): the same draws for every
    submission of a seed. ``until``: a time.monotonic() deadline; the replicates started by
    then are kept (fewer)."""
    from .units import _Scorer
    # chunks of about a second at most, so a deadline is kept closely
    chunk = max(1, min(50, int(1.0 / max(fs.call_seconds, 1e-3)), -(-replicates // (w.workers * 4))))
    results = w.score_sets(fs.args, _Scorer(fs.report.result).draws(replicates, seed),
                           cancel=cancel, progress=progress, count=replicates, chunk=chunk,
                           until=until)
    values = np.array([r[1] if r[0] == "ok" else np.nan for r in results], dtype=np.float64)
    failed = [r for r in results if r[0] != "ok"]
    return values, failed


__all__ = ["FileScore", "MetricFailed", "score_file", "bootstrap", "plan_replicates", "open_worker",
           "metric_args"]
