"""A Python function with Kaggle's ``score(solution, submission, row_id_column_name,
**kw)`` signature as a metric of the contract, run in this process.

It is a metric file without the file: ``CallableMetric`` is a
``metricfile.metric.FileMetric`` whose worker (``LocalWorker``) answers the
worker's requests here instead of in a process pool. So every statistic a
metric file gets, the function gets: intervals and shake-up by re-scoring
resampled rows (metricfile/units.py), compare's paired draws and swaps, blends,
fix first, all from the same code. The inputs are validated and aligned by
io/prepare.py like any table (ids missing, extra, repeated, empty); the
function is then called on pandas frames as Kaggle's orchestrator makes them:
the solution without its Usage column, the submission in the solution's row
order, the id column as text. What the function raises becomes one line
(``ValueError: ...``) of the API's InvalidInput.
"""
from __future__ import annotations

import math
import time
import weakref

import numpy as np

from ..errors import Cancelled, InputError
from ..metricfile.file_blocks import FileBlock
from ..metricfile.metric import FileMetric
from .errors import refuse

_LIVE = weakref.WeakValueDictionary()       # worker key -> LocalWorker (another's frames)


class _Source:
    """What FileMetric reads of a metric file's source, for a function."""

    def __init__(self, name, module):
        self.name, self.module = name, module
        self.path = self.sha256 = None


def _describe(err):
    msg = " ".join(str(err).split()) or "(no message)"
    if type(err).__name__ == "ParticipantVisibleError":
        return ("visible", msg, None)
    return ("error", f"{type(err).__name__}: {msg}", None)


def _result(value):
    if isinstance(value, bool) or isinstance(value, str):
        return ("error", f"score() returned {type(value).__name__}, not a number", None)
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        return ("error", f"score() returned {type(value).__name__}, not a number", None)
    if not math.isfinite(v):
        return ("error", f"score() returned {v!r}, not a finite number", None)
    return ("ok", v)


class LocalWorker:
    """runner.MetricWorker's requests answered in this process (one at a time)."""
    workers = 1

    def __init__(self, fn, name, sol, sub, id_col, usage):
        from ..metricfile.replicate import Columns
        self.fn, self.id_col, self.usage = fn, id_col, usage
        self.source = _Source(name, "")
        self.cols = Columns(sol, sub, id_col)
        self.paths = ("<python function>", id(self))      # how another worker finds this one
        self._cells = None
        _LIVE[self.paths] = self

    def remaining(self):
        return math.inf

    def printed(self):
        return ""

    def kill(self):
        pass

    close = kill

    def _scored(self):
        u = self.usage
        return None if u is None or not (u == 2).any() else np.flatnonzero(u != 2)

    def _drawn(self, spec):
        """The bootstrap draw made from the generator's state (metricfile/worker.py)."""
        state = spec["draw"]
        rng = np.random.Generator(getattr(np.random, state["bit_generator"])())
        rng.bit_generator.state = state
        rows = rng.integers(0, spec["n"], size=spec["n"])
        base = spec.get("rows")
        if isinstance(base, str):
            base = self._scored()
        return rows if base is None else np.asarray(base)[rows]

    def _edited(self, cells):
        import pickle
        key = pickle.dumps(cells, protocol=4)
        if self._cells is None or self._cells[0] != key:
            self._cells = (key, self.cols.with_cells(cells))
        return self._cells[1]

    def _frames(self, rows):
        from ..metricfile.edits import edit_of
        cols, edit = self.cols, None
        if isinstance(rows, dict) and rows.get("cells"):
            cols = self._edited(rows["cells"])
        if isinstance(rows, dict) and "draw" in rows:
            rows = self._drawn(rows)
        elif isinstance(rows, dict):
            rows, edit = edit_of(rows, cols, lambda key: _LIVE[key].cols)
            if isinstance(rows, str):
                rows = self._scored()
        return cols.frames(rows, edit)

    def _one(self, kwargs, rows):
        from ..metricfile.edits import NotEditable
        t0 = time.perf_counter()
        try:
            sol, sub = self._frames(rows)
            r = _result(self.fn(sol, sub, self.id_col, **kwargs))
        except NotEditable as e:
            r = ("unavailable", str(e), None)
        except (KeyboardInterrupt, MemoryError):
            raise
        except Exception as e:             # the function's own failure: one line
            r = _describe(e)
        return r[:3] + (None,) * (3 - len(r)) + (time.perf_counter() - t0,)

    def score_sets(self, kwargs, row_sets, cancel=None, progress=None, chunk=None, count=None,
                   until=None):
        out = []
        total = count
        for k, rows in enumerate(row_sets):
            if count is not None and k >= count:
                break
            if cancel is not None and cancel():
                raise Cancelled()
            if until is not None and out and time.monotonic() > until:
                break
            out.append(self._one(kwargs, rows))
            if progress is not None:
                progress(k + 1, total or k + 1)
        return out

    def score_one(self, kwargs, rows=None):
        (r,) = self.score_sets(kwargs, [rows])
        self._raise(r)
        return r[1]

    def ask(self, task, *extra):
        from ..metricfile.edits import candidates
        name = getattr(task, "__name__", "")
        if name == "fix_candidates":
            return candidates(self.cols)
        if name == "row_ids":
            sol = self.cols.frames_all[0]
            return [str(x) for x in sol[self.id_col].take(list(extra[0])).tolist()]
        raise NotImplementedError(f"a Python function's worker has no task {name}")

    def _raise(self, r):
        kind = r[0]
        if kind == "ok":
            return
        if kind == "visible":
            raise InputError(f"metric {self.source.name}: {r[1]}")
        from ..metricfile.runner import MetricFailed
        raise MetricFailed(f"metric {self.source.name} (Python function): {r[1]}")


class _Table:
    """FileBlock's table: the aligned columns, and the worker that scores them."""

    def __init__(self, worker, ids, sol, sub):
        self.worker = worker
        self._data = {"ids": ids, "sol": sol, "sub": sub}

    def data(self):
        return self._data


class CallableMetric(FileMetric):
    """A Python function as a metric (see the module's note)."""

    def __init__(self, fn, name, info, higher_is_better):
        super().__init__(_Source(name, getattr(fn, "__module__", "") or ""), info,
                         higher_is_better, None)
        self.fn = fn
        self.name = f"python:{name}"
        self.label = f"{name} (Python function)"

    def lean_load(self, *args, **kw):
        return None                      # read and validated as any table

    def build(self, ctx):
        """Validated ids (io's checks), then the pandas frames the function is given."""
        import pyarrow as pa

        from ..io.columns import join_ids
        from ..io.prepare import Prepared
        from ..numbers import arrow_ints
        al, sol_ids = join_ids(ctx.sol, ctx.sub, ctx.sol_name, ctx.sub_name, ctx.id_col, ctx.col)
        ctx.col.raise_if_any()
        sol = ctx.sol.drop_columns([c for c in ctx.sol.column_names
                                    if c.lower() == "usage" and c != ctx.id_col])
        sub = ctx.sub.take(arrow_ints(al.sub_index))
        ids = sol_ids.combine_chunks() if isinstance(sol_ids, pa.ChunkedArray) else sol_ids
        sol = sol.set_column(sol.column_names.index(ctx.id_col), ctx.id_col, ids)
        sub = sub.set_column(sub.column_names.index(ctx.id_col), ctx.id_col, ids)
        w = LocalWorker(self.fn, self.source.name, _pandas(sol), _pandas(sub), ctx.id_col,
                        ctx.usage)

        def block(t):
            return [(c, _plain(t.column(c))) for c in t.column_names if c != ctx.id_col]
        table = _Table(w, ids, block(sol), block(sub))
        n = sol.num_rows
        sol_names = [c for c, _ in block(sol)]
        sub_names = [c for c, _ in block(sub)]
        return Prepared(self.name, ctx.reason, ctx.id_col, sub_names, ids,
                        FileBlock(table, "sol", sol_names, n), FileBlock(table, "sub", sub_names, n),
                        ctx.usage, layout=f"id '{ctx.id_col}'; solution columns "
                                          f"{', '.join(sol_names)}; submission columns "
                                          f"{', '.join(sub_names)}")

    def reference(self, prep, options, rows=None):
        """The function called once on the aligned frames (the conformance of the wrapper)."""
        w = prep.truth.table.worker
        sol, sub = w.cols.frames(None if rows is None else np.asarray(rows))
        return float(self.fn(sol, sub, prep.id_column, **self.call_args(options)))

    def json_fields(self, report):
        return {"metric_function": {"name": self.source.name, "module": self.source.module,
                                    "args": _plain_args(self.call_args(report.options))}}

    def summary_lines(self, report):
        word = "higher" if self.higher_is_better else "lower"
        return [f"{report.n_rows:,} rows; {word} is better; scored by {self.source.name}()"]


def _plain(col):
    import pyarrow as pa
    return col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col


def _plain_args(args):
    return {k: (v if isinstance(v, (bool, int, float, str)) or v is None else repr(v))
            for k, v in args.items()}


def _pandas(table):
    """A pandas frame of an Arrow table, text as Python strings (what pandas reads from a
    CSV), numbers as numpy."""
    try:
        import pandas  # noqa: F401
    except ImportError:
        raise refuse("a Python function as the metric takes pandas DataFrames, and pandas is "
                     "not installed here (pip install pandas)") from None
    return table.to_pandas(types_mapper=None, strings_to_categorical=False)


def _info(fn, name):
    """The function's parameters as metricfile/worker.py's inspect_metric gives them."""
    import inspect
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        raise refuse(f"metric {name}: its signature cannot be read") from None
    params = []
    for p in sig.parameters.values():
        ann = p.annotation
        ann = None if ann is inspect.Parameter.empty else getattr(ann, "__name__", str(ann))
        has = p.default is not inspect.Parameter.empty
        default = p.default if has else None
        params.append((p.name, p.kind.name, ann, has, default))
    positional = [p for p in params if p[1] in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")]
    if len(positional) < 3 and not any(p[1] == "VAR_POSITIONAL" for p in params):
        raise refuse(f"metric {name}: a metric function must take (solution, submission, "
                     f"row_id_column_name, ...); it takes ({', '.join(p[0] for p in params)})")
    return {"params": params, "doc": inspect.getdoc(fn) or "", "higher_is_better": None}


def _declared(fn):
    """A direction the function declares: its attribute, or its module's constant as a
    metric file declares one (HIGHER_IS_BETTER...)."""
    for key in ("higher_is_better", "HIGHER_IS_BETTER", "is_max", "IS_MAX"):
        v = getattr(fn, key, None)
        if isinstance(v, bool):
            return v
    glb = getattr(fn, "__globals__", {}) or {}
    for key in ("HIGHER_IS_BETTER", "higher_is_better", "IS_MAX", "is_max"):
        if isinstance(glb.get(key), bool):
            return glb[key]
    return None


def callable_metric(fn, higher_is_better=None):
    """A CallableMetric of ``fn`` (not registered); InvalidInput when it cannot be one."""
    name = getattr(fn, "__name__", None) or type(fn).__name__
    info = _info(fn, name)
    hib = higher_is_better if higher_is_better is not None else _declared(fn)
    if hib is None:
        raise refuse(f"metric {name} does not say whether a higher or a lower score is "
                     "better: pass higher_is_better=True or False")
    return CallableMetric(fn, name, info, bool(hib))


__all__ = ["CallableMetric", "LocalWorker", "callable_metric"]
