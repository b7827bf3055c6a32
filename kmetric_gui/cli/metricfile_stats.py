"""`--metric-file` statistics beyond the interval: shake-up, fix first, and the
estimate and progress of long runs (stderr; the output stays clean)."""
import sys
import time

from ..metricfile.kaggle import plan_replicates

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
    from ..metricfile.analyses import shakeup_file
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


def fixes_into(w, fs, usage, top, budget, d, lines):
    """Fix first by re-scoring: ``top_fixes`` (and how far the search went) in JSON."""
    from ..metricfile.analyses import DEFAULT_FIX_BUDGET, fix_first
    budget = DEFAULT_FIX_BUDGET if budget is None else budget
    budget = min(budget, 0.5 * w.remaining())
    est = min(budget, fs.n_rows * fs.call_seconds / w.workers)
    progress = Progress("fix first", est, f"single fixes (at most {budget:.0f} s, the budget), "
                        "then the best ones together")
    tf = fix_first(w, fs, usage, top, budget, progress=progress)
    progress.end()
    d["top_fixes"] = tf.to_json()
    d["top_fixes_search"] = tf.search_json()
    if tf.reason:
        d["top_fixes_reason"] = tf.reason
        lines.append(f"fixes:   none: {tf.reason}")
    else:
        _fix_table(tf, lines)
    if tf.approximate:
        lines.append(f"  approximate: {tf.tried} of {tf.candidates} rows that differ from the truth "
                     f"were re-scored within the {tf.budget:g} s budget (largest error first); "
                     "raise --fix-budget to try more")


def _fix_table(tf, lines):
    lines += ["fix first: the rows whose fix gains the most, by re-scoring with the metric file",
              "         (a fix sets the prediction to the truth; ordered by each row's own gain; "
              "score after: exact with this fix and all above)"]
    width = max(2, *(len(str(i)) for i in tf.ids))
    lines.append(f"  {'#':>4}  {'id':<{width}}  {'gain':>10}  {'score after':>11}")
    for k, (i, g, s) in enumerate(zip(tf.ids, tf.gains, tf.score_after), 1):
        lines.append(f"  {k:>4}  {str(i):<{width}}  {g:>+10.6f}  {s:>11.6f}")
