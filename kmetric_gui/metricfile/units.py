"""A metric file's statistics: the engines the statistics layer asks of every metric
(core/resample.py's units, core/compare.py's paired engine), answered by calling
the file's score() in its workers on resampled rows of the data as edited.

No per-row statistic exists for foreign code, so every replicate is a call: the
draws travel as the generator's state (the worker makes the same draw), the
edited cells once per chunk. A jackknife is grouped (``GROUPS`` blocks of rows
left out in turn), so BCa costs ``GROUPS`` calls, not one per row.
"""
import numpy as np

from ..core.resample import rng_of

GROUPS = 20


def _values(results):
    return np.array([r[1] if r[0] == "ok" else np.nan for r in results], dtype=np.float64)


def _base(rows, n):
    return np.arange(n) if rows is None else np.asarray(rows)


def _spec(rows, cells, **extra):
    out = {"rows": rows, **extra}
    if cells:
        out["cells"] = cells
    return out


class _Scorer:
    """One score's worker, arguments, edited cells and scored rows (from its FileResult)."""

    def __init__(self, result):
        self.worker, self.args = result.worker, result.args
        self.cells = result.spec
        self.rows, self.n, self.total, self.point = result.rows, result.n, result.total, result.score
        self.paths = self.worker.paths
        self.known = getattr(result, "replicates", {})

    def score_sets(self, sets, cancel=None, progress=None):
        sets = list(sets)
        return _values(self.worker.score_sets(self.args, sets, cancel=cancel, progress=progress,
                                              count=len(sets)))

    def draws(self, replicates, seed):
        """Bootstrap row sets of the scored rows, drawn in the worker from these states."""
        rng = rng_of(seed)
        base = None if self.rows is None else np.asarray(self.rows)
        for _ in range(replicates):
            state = rng.bit_generator.state
            rng.integers(0, self.n, size=self.n)
            yield {"draw": state, "n": self.n, "rows": base, **(
                {"cells": self.cells} if self.cells else {})}

    def bootstrap(self, replicates, seed, cancel=None):
        key = (int(replicates), repr(seed))
        if key not in self.known:            # kept only when complete (a cancel raises)
            self.known[key] = self.score_sets(self.draws(replicates, seed), cancel)
        return self.known[key].copy()

    def splits(self, n_public, splits, seed, cancel=None):
        """Row sets (public, private) of random splits, the same for every report of a seed."""
        base = _base(self.rows, self.n)
        rng = rng_of(seed)
        out = []
        for _ in range(splits):
            pick = np.zeros(self.n, dtype=bool)
            pick[rng.choice(self.n, size=n_public, replace=False)] = True
            out.append((base[pick], base[~pick]))
        return out

    def shakeup_sets(self, n_public, splits, seed):
        """Public, then Private rows of each random split, drawn as the built-in shake-up
        draws its splits (core.shakeup.subset_blocks: the smaller side picked)."""
        from ..core.shakeup import subset_blocks
        base = _base(self.rows, self.n)
        for _, sel in subset_blocks(rng_of(seed), self.n, splits, n_public):
            for s in sel:
                mark = np.zeros(self.n, dtype=bool)
                mark[s] = True
                if n_public > self.n - n_public:
                    mark = ~mark
                yield _spec(base[mark], self.cells)
                yield _spec(base[~mark], self.cells)

    def score_rows(self, row_sets, cancel=None):
        return self.score_sets((_spec(r, self.cells) for r in row_sets), cancel)

    def jackknife(self, cancel=None):
        """Grouped leave-out scores (GROUPS,) and equal weights."""
        base = _base(self.rows, self.n)
        groups = np.array_split(np.arange(self.n), min(GROUPS, self.n))
        keep = [np.delete(base, g) for g in groups if len(g)]
        return self.score_rows(keep, cancel), np.array([len(g) for g in groups if len(g)], float)


class FileUnits:
    """One score's units for core/resample.py and stats: replicates by calling the metric."""
    kind = "row"
    cells = None
    stats = None
    minority = None
    rescored = True      # its interval gets the re-scored caution (core/cautions.py), as the CLI's

    def __init__(self, metric, result):
        self.metric, self.result = metric, result

    @property
    def n(self):
        return int(self.result.n)

    @property
    def collapsed(self):
        return self

    def point(self):
        return float(self.result.score)

    def _scorer(self):
        return _Scorer(self.result)

    def replicates(self, replicates, seed=0, cancel=None):
        return self._scorer().bootstrap(replicates, seed, cancel)

    def jackknife(self):
        values, weights = self._scorer().jackknife()
        return values, weights

    def split_scores(self, n_public, splits, seed=0, cancel=None):
        s = self._scorer()
        got = s.score_sets(s.shakeup_sets(n_public, splits, seed), cancel)
        return got[0::2], got[1::2]


class FilePairs:
    """Several submissions of one truth under a metric file (core/compare.py's engine):
    each submission's worker scores the same draws and splits; a permutation swaps
    rows' predictions in A's worker, B's frames read beside A's (B's edits are not
    carried into swaps: its file is read)."""
    cells = None

    def __init__(self, metric, reports, split="all"):
        self.metric = metric
        self.scorers = [_Scorer(r.result if split == "all" else r.splits[split]) for r in reports]
        self.n = self.scorers[0].n if self.scorers else 0
        self._boot = {}

    def scores(self):
        return np.array([s.point for s in self.scorers], dtype=np.float64)

    def bootstrap(self, replicates, seed, cancel=None):
        key = (replicates, seed)
        if key not in self._boot:
            self._boot[key] = np.column_stack([s.bootstrap(replicates, seed, cancel)
                                               for s in self.scorers])
        return self._boot[key]

    def single_bootstrap(self, i, replicates, seed):
        return self.bootstrap(replicates, seed)[:, i]

    def pair_bootstrap(self, i, j, replicates, seed):
        return self.bootstrap(replicates, seed)[:, [i, j]]

    def joint_draws(self, replicates, seed, draws="auto", cancel=None):
        from ..core.joint import Joint
        return Joint(self.scores(), self.bootstrap(replicates, seed, cancel), "exact", self.n,
                     seed)

    def single_jackknife(self, i):
        return self.scorers[i].jackknife()

    def pair_jackknife(self, i, j):
        (a, w), (b, _) = self.scorers[i].jackknife(), self.scorers[j].jackknife()
        return b - a, w

    def permutation(self, i, j, permutations, seed):
        """Delta (j - i) after swapping the two submissions' predictions on random rows."""
        a, b = self.scorers[i], self.scorers[j]
        base = _base(a.rows, a.n)
        rng = np.random.default_rng([seed, 1])
        sets = []
        for _ in range(permutations):
            mask = np.zeros(a.total, dtype=bool)
            mask[base[rng.random(a.n) < 0.5]] = True
            other = b.paths
            sets.append(_spec(a.rows, a.cells, swap=(other, mask)))
            sets.append(_spec(a.rows, a.cells, swap=(other, ~mask)))
        v = a.score_sets(sets)
        return v[1::2] - v[0::2]

    def splits(self, i, j, n_public, splits, seed):
        a, b = self.scorers[i], self.scorers[j]
        sets = a.splits(n_public, splits, [seed, 2])
        flat = [r for pair in sets for r in pair]
        sa, sb = a.score_rows(flat), b.score_rows(flat)
        return np.column_stack([sa[0::2], sb[0::2], sa[1::2], sb[1::2]])
