"""`--metric-file` statistics beyond the interval: shake-up, fix first, and the
estimate and progress of long runs (stderr; the output stays clean)."""
import sys
import time

from ..metricfile.kaggle import plan_replicates, split_rows

LONG = 5.0            # seconds: a run expected to take longer says so and shows progress


class Progress:
    """progress(done, total) for the worker pool: the estimate first, then a line
    every few seconds (in place on a terminal) with the time left from the rate so far."""

    def __init__(self, what, estimate, detail="", stream=None):
        self.what, self.stream = what, stream or sys.stderr
        self.shown = estimate > LONG
        self.start = self.last = time.monotonic()
        self.tty = getattr(self.stream, "isatty", lambda: False)()
        self.every = 1.0 if self.tty else 10.0
        self.done_any = False
        if self.shown:
            print(f"kmetric: {what}: about {estimate:.0f} s for {detail}", file=self.stream)

    def __call__(self, done, total):
        now = time.monotonic()
        if not self.shown or now - self.last < self.every or done >= total:
            return
        self.last = now
        left = (now - self.start) / done * (total - done)
        text = f"kmetric: {self.what}: {done} of {total} calls, about {left:.0f} s left"
        if self.tty:
            print("\r" + text, end="", file=self.stream, flush=True)
        else:
            print(text, file=self.stream)
        self.done_any = True

    def end(self):
        if self.shown and self.tty and self.done_any:
            print(file=self.stream)


def shakeup_into(w, fs, usage, shake, d, lines):
    """The shake-up by re-scoring: ``shakeup`` in JSON, the built-in's lines."""
    from dataclasses import replace

    from ..errors import InputError
    from ..analysis.stats import shakeup_lines
    splits, est = plan_replicates(w, 2 * fs.call_seconds, shake.splits)
    if splits < 1:
        raise InputError(f"--shakeup: one call takes {fs.call_seconds:.1f} s; no split fits in the "
                         "time left (raise --metric-timeout)")
    progress = Progress("shake-up", est, f"{splits} splits, 2 calls each, on {w.workers} processes")
    try:
        sh = shakeup_file(w, fs, usage, replace(shake, splits=splits), progress=progress,
                          until=time.monotonic() + 0.85 * w.remaining())
    except InputError as e:
        raise InputError(f"--shakeup: {e}") from None
    progress.end()
    d["shakeup"] = sh.to_dict()
    lines.extend(shakeup_lines(sh))
    splits = sh.splits
    if splits < shake.splits:
        lines.append(f"note: {splits} of {shake.splits} splits, as many as fit in the time limit")


def shakeup_file(w, fs, usage, options, progress=None, until=None):
    """A core.shakeup.Shakeup of the metric file: the splits its statistics units draw
    (units.py, the app's, the built-in shake-up's draws), each side scored; fewer splits
    when the deadline ``until`` comes first. InputError when no split can be made."""
    from dataclasses import replace

    import numpy as np

    from ..analysis.stats import DEFAULT_FRACTION, MIN_SIDE
    from ..core.shakeup import Shakeup, public_size
    from ..errors import InputError
    from ..metricfile.units import _Scorer
    n = fs.n_rows
    counts = None if usage is None else (int((usage == 0).sum()), int((usage == 1).sum()))
    if counts is not None and options.fraction is None and not all(counts):
        side = "Public" if counts[0] == 0 else "Private"
        raise InputError(f"the solution's Usage column has no {side} rows, so there is no actual "
                         "split to compare with; give --public-fraction F to simulate splits at share F")
    usage_share = counts[0] / sum(counts) if counts is not None and all(counts) else None
    f = options.fraction if options.fraction is not None else (usage_share or DEFAULT_FRACTION)
    if n < 2 * MIN_SIDE:
        raise InputError(f"a shake-up needs at least {MIN_SIDE} rows on each side; this input has "
                         f"{n} rows in all")
    k = public_size(n, f)
    if min(k, n - k) < MIN_SIDE:
        raise InputError(f"a Public share of {f:g} puts {k} of {n} rows in Public; each side needs "
                         f"at least {MIN_SIDE} rows; use a share from {MIN_SIDE / n:.3g} to "
                         f"{1 - MIN_SIDE / n:.3g}")
    splits = options.splits
    chunk = 2 * max(1, min(25, int(0.5 / max(fs.call_seconds, 1e-3)), -(-splits // (w.workers * 4))))
    sets = _Scorer(fs.report.result).shakeup_sets(k, splits, options.seed)
    res = w.score_sets(fs.args, sets, progress=progress, count=2 * splits, chunk=chunk, until=until)
    res = np.array([r[1] if r[0] == "ok" else np.nan for r in res], dtype=np.float64)
    actual = np.nan
    if counts is not None and all(counts):
        actual = fs.splits["private"] - fs.splits["public"]
    sh = Shakeup(res[0::2], res[1::2], f, k, n, options.seed, actual, "row", fs.higher_is_better)
    if usage_share is not None and k != counts[0]:
        sh = replace(sh, rankable=False)
    return replace(sh, usage_fraction=usage_share)


FIX_BUDGET = 60.0          # seconds for trying single fixes


def fixes_into(w, fs, usage, top, budget, d, lines):
    """Fix first by re-scoring (the FileMetric's own, moves.fix_search): ``top_fixes`` (and
    how far the search went) in JSON."""
    from ..metricfile import worker as task
    from ..metricfile.moves import fix_search
    budget = FIX_BUDGET if budget is None else budget
    budget = min(budget, 0.5 * w.remaining())
    est = min(budget, fs.n_rows * fs.call_seconds / w.workers)
    progress = Progress("fix first", est, f"single fixes (at most {budget:.0f} s, the budget), "
                        "then the best ones together")
    report = fs.report
    scored = split_rows(usage)["all"]
    fl, tried = fix_search(fs.metric, report, scored, top, budget, progress=progress,
                           seconds=fs.call_seconds)
    progress.end()
    rows = fl.units if scored is None else scored[fl.units]
    ids = w.ask(task.row_ids, [int(r) for r in rows]) if len(rows) else []
    d["top_fixes"] = [{"id": i, "gain": float(g), "score_after": float(s)}
                      for i, g, s in zip(ids, fl.gains, fl.score_after)]
    approximate = tried < fl.n_fixable
    d["top_fixes_search"] = {"candidates": fl.n_fixable, "tried": tried, "approximate": approximate,
                             "budget_seconds": budget, "order": "each row's own gain"}
    if fl.undefined_reason:
        d["top_fixes_reason"] = fl.undefined_reason
        lines.append(f"fixes:   none: {fl.undefined_reason}")
    else:
        _fix_table(ids, fl, lines)
    if approximate:
        lines.append(f"  approximate: {tried} of {fl.n_fixable} rows that differ from the truth "
                     f"were re-scored within the {budget:g} s budget (largest error first); "
                     "raise --fix-budget to try more")


def _fix_table(ids, fl, lines):
    lines += ["fix first: the rows whose fix gains the most, by re-scoring with the metric file",
              "         (a fix sets the prediction to the truth; ordered by each row's own gain; "
              "score after: exact with this fix and all above)"]
    width = max(2, *(len(str(i)) for i in ids))
    lines.append(f"  {'#':>4}  {'id':<{width}}  {'gain':>10}  {'score after':>11}")
    for k, (i, g, s) in enumerate(zip(ids, fl.gains, fl.score_after), 1):
        lines.append(f"  {k:>4}  {str(i):<{width}}  {g:>+10.6f}  {s:>11.6f}")
