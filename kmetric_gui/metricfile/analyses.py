"""Shake-up and fix first under a metric file, by re-scoring in the worker pool.

Shake-up: random Public/Private splits of the scored rows (the built-in
shake-up's draws), each side scored by the metric; gap = private - public.
Fix first: rows set to their truth one at a time, the likeliest first (largest
absolute error), for as long as the time budget lasts; then the best of them
fixed cumulatively, so each ``score_after`` is exact for that row and all above.
"""
import time
from dataclasses import dataclass, field

import numpy as np

from . import worker
from .kaggle import split_rows

DEFAULT_FIX_BUDGET = 60.0          # seconds for trying single fixes


def _ok(results):
    return np.array([r[1] if r[0] == "ok" else np.nan for r in results], dtype=np.float64)


def shakeup_file(w, fs, usage, options, cancel=None, progress=None, until=None):
    """A core.shakeup.Shakeup of the metric file (InputError when no split can be made)."""
    from dataclasses import replace

    from ..core.resample import rng_of
    from ..core.shakeup import Shakeup, public_size, subset_blocks
    from ..errors import InputError
    from ..analysis.stats import DEFAULT_FRACTION, MIN_SIDE
    base = split_rows(usage)["all"]
    n = fs.n_rows
    base = np.arange(n) if base is None else base
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

    def sets():
        for _, sel in subset_blocks(rng_of(options.seed), n, splits, k):
            for s in sel:
                mark = np.zeros(n, dtype=bool)
                mark[s] = True
                if k > n - k:
                    mark = ~mark
                yield base[mark]
                yield base[~mark]
    chunk = 2 * max(1, min(25, int(0.5 / max(fs.call_seconds, 1e-3)), -(-splits // (w.workers * 4))))
    res = _ok(w.score_sets(fs.args, sets(), cancel=cancel, progress=progress, count=2 * splits,
                           chunk=chunk, until=until))
    actual = np.nan
    if counts is not None and all(counts):
        actual = fs.splits["private"] - fs.splits["public"]
    sh = Shakeup(res[0::2], res[1::2], f, k, n, options.seed, actual, "row", fs.higher_is_better)
    if usage_share is not None and k != counts[0]:
        sh = replace(sh, rankable=False)
    return replace(sh, usage_fraction=usage_share)


@dataclass
class FileFixes:
    ids: list = field(default_factory=list)
    rows: list = field(default_factory=list)
    gains: list = field(default_factory=list)          # > 0: better in the metric's direction
    score_after: list = field(default_factory=list)
    candidates: int = 0          # rows whose prediction differs from the truth
    tried: int = 0               # of them, re-scored alone within the budget
    budget: float = 0.0
    reason: str = ""             # why there are none

    @property
    def approximate(self):
        return self.tried < self.candidates

    def to_json(self):
        return [{"id": i, "gain": g, "score_after": s}
                for i, g, s in zip(self.ids, self.gains, self.score_after)]

    def search_json(self):
        return {"candidates": self.candidates, "tried": self.tried, "approximate": self.approximate,
                "budget_seconds": self.budget, "order": "each row's own gain"}


def fix_first(w, fs, usage, top, budget=DEFAULT_FIX_BUDGET, cancel=None, progress=None):
    """FileFixes: the ``top`` rows whose fix gains the most (see the module's note)."""
    shared, order = w.ask(worker.fix_candidates)
    base = split_rows(usage)["all"]
    if base is not None:
        order = order[np.isin(order, base)]
    out = FileFixes(candidates=int(len(order)), budget=float(budget))
    if not shared:
        out.reason = "the submission has no column of the solution's to set to its truth"
        return out
    if not len(order):
        out.reason = "every row is already right"
        return out
    sign = 1.0 if fs.higher_is_better else -1.0
    chunk = max(1, min(50, int(0.5 / max(fs.call_seconds, 1e-3))))
    until = time.monotonic() + budget
    res = w.score_sets(fs.args, ({"rows": "scored", "fix": [r]} for r in order), cancel=cancel,
                       progress=progress, chunk=chunk, count=len(order), until=until)
    alone = _ok(res)
    out.tried = int(len(alone))
    if res and all(r[0] != "ok" for r in res):
        out.reason = (res[0][1] if res[0][0] == "unavailable" else
                      f"the metric failed on every fix tried (first: {res[0][1]})")
        return out
    gain = sign * (alone - fs.score)
    good = np.flatnonzero(np.isfinite(gain) & (gain > 0))
    best = good[np.argsort(-gain[good], kind="stable")][:top]
    if not best.size:
        out.reason = "no single fix tried improves the score"
        return out
    rows = order[best]
    after = _ok(w.score_sets(fs.args, [{"rows": "scored", "fix": rows[:j + 1]} for j in range(len(rows))],
                             cancel=cancel))
    before = np.r_[fs.score, after[:-1]]
    out.rows = [int(r) for r in rows]
    out.ids = w.ask(worker.row_ids, out.rows)
    out.gains = [float(x) for x in sign * (after - before)]
    out.score_after = [float(x) for x in after]
    return out
