"""What runs inside a metric worker process (never in the app's or CLI's own).

The pool's initializer sets limits and the working folder; each task loads the
metric file and the frames once (cached per process) and answers with plain
tuples, so a metric's own exception classes never need unpickling:
("ok", value) | ("problem", [lines]) | ("error", line, line number, seconds, details).
"""
import io
import math
import os
import sys
import time

from .worker_errors import (DETAILS_LIMIT, VISIBLE_LIMIT, _code_name, _describe,  # noqa: F401
                            _details, _line_in_file, _one_line, _text, cut, describe_base)

_state = {}                  # what this process has loaded: the metric and the frames, with their keys
IDLE_PAUSE = 0.004            # seconds a worker leaves to kmetric's reading of an answer (idle)


def init(workdir, memory_bytes, nice=0):
    """A worker's start (in the host, metricfile/host.py, which already sent its standard
    streams to kmetric's capture): the metric's memory limit and folder; ``nice``: the
    app's workers yield the CPU to its window (the event loop keeps its pace)."""
    nice_to(nice)
    if memory_bytes:
        try:
            import resource
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        except (ImportError, ValueError, OSError):
            pass                  # not on this platform: the parent still enforces time
    os.chdir(workdir)
    _keep_freed_memory()


def nice_to(level):
    """This process at niceness ``level`` at least (the host may be niced already)."""
    if level and hasattr(os, "nice"):
        try:
            now = os.nice(0)
            if level > now:
                os.nice(level - now)
        except OSError:
            pass


def _keep_freed_memory():
    """Large arrays from the heap, and freed memory kept for the next call (glibc): a
    bootstrap allocates and frees the same arrays of a few hundred kB every call, and
    glibc otherwise maps, faults in and unmaps each of them every time (a quarter of
    a replicate's CPU time went to the kernel). Peak memory is unchanged: what is
    kept is reused."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return                       # not glibc (musl has no mallopt)
    m_trim_threshold, m_top_pad, m_mmap_threshold = -1, -2, -3
    mallopt(m_mmap_threshold, 32 << 20)      # glibc's largest
    mallopt(m_trim_threshold, 256 << 20)
    mallopt(m_top_pad, 64 << 20)


def _install_kaggle_helpers():
    from . import kaggle_metric_utilities
    sys.modules.setdefault("kaggle_metric_utilities", kaggle_metric_utilities)


def _load(code, name, function):
    key = (hash(code), name, function)
    if _state.get("fn_key") == key:      # a cluster's worker may serve several runs in turn
        return _state["fn"]
    _install_kaggle_helpers()
    try:
        compiled = compile(code, _code_name(name), "exec")
    except SyntaxError as e:
        raise _Refused(("syntax", f"syntax error: {e.msg}", e.lineno)) from None
    import types
    module = types.ModuleType("__kmetric_metric__")   # a module, so doctest finds its functions
    module.__file__ = name
    ns = module.__dict__
    try:
        exec(compiled, ns)
    except ModuleNotFoundError as e:
        raise _Refused(("import", e.name or str(e), _line_in_file(e.__traceback__, name))) from None
    except BaseException as e:   # noqa: BLE001 -- the module's top level failed: its line and error
        kind, text, line, _, details = _describe(e, name)
        raise _Refused((kind, f"while loading the file: {text}", line, None, details)) from None
    fn = ns.get(function)
    if not callable(fn):
        raise _Refused(("nofunction", function, None))
    _state["fn"], _state["ns"], _state["module"], _state["fn_key"] = fn, ns, module, key
    return fn


class _Refused(Exception):
    def __init__(self, what):
        super().__init__(what)
        self.what = what


def inspect_metric(code, name, function):
    """The function's parameters, docstring and any direction the file declares."""
    import inspect
    try:
        fn = _load(code, name, function)
    except _Refused as r:
        return r.what
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return ("signature", "its signature cannot be read", None)
    params = []
    for p in sig.parameters.values():
        ann = p.annotation
        ann = None if ann is inspect.Parameter.empty else getattr(ann, "__name__", str(ann))
        default = None if p.default is inspect.Parameter.empty else p.default
        if default is not None and not isinstance(default, (bool, int, float, str)):
            default = repr(default)
        params.append((p.name, p.kind.name, ann, p.default is not inspect.Parameter.empty, default))
    ns = _state["ns"]
    direction = None
    for key in ("HIGHER_IS_BETTER", "higher_is_better", "IS_MAX", "is_max"):
        if isinstance(ns.get(key), bool):
            direction = ns[key]
    return ("ok", {"params": params, "doc": inspect.getdoc(fn) or "", "higher_is_better": direction})


def _frames(paths, id_col):
    """(solution, submission aligned to it, usage, id column) — cached per process."""
    key = (tuple(paths), id_col)
    if _state.get("frames_key") == key:
        return _state["frames"]
    from .frames import read_aligned
    _state["frames"], _state["frames_key"] = read_aligned(paths, id_col), key
    return _state["frames"]


def prepare(code, name, function, paths, id_col):
    """Read and align the two files: ('ok', (n_rows, usage codes)) or ('problem', lines)."""
    from ..errors import InputError
    try:
        sol, _sub, usage, key = _frames(paths, id_col)
    except InputError as e:
        return ("problem", e.problems)
    return ("ok", (len(sol), usage, key))


def _columns(sol, sub, id_col):
    """The frames as column arrays (``replicate.Columns``), made once per process."""
    if _state.get("columns_key") != _state.get("frames_key"):
        from .replicate import Columns
        _state["columns"], _state["columns_key"] = Columns(sol, sub, id_col), _state.get("frames_key")
    return _state["columns"]


def _other(paths):
    """Another submission's frames aligned to the same solution (blends, swaps)."""
    key = tuple(paths)
    others = _state.setdefault("others", {})
    if key not in others:
        from .frames import read_aligned
        from .replicate import Columns
        sol, sub, _, id_col = read_aligned(paths, _state["frames_key"][1])
        others.clear()                 # one other submission at a time is enough
        others[key] = Columns(sol, sub, id_col)
    return others[key]


def _call(fn, sol, sub, rows, id_col, kwargs):
    """score() on a fresh pair of ``rows`` (None: all rows; metrics delete columns in place);
    a dict row set also changes the submission (``edits``)."""
    cols = _columns(sol, sub, id_col)
    split = _split_frames(cols, rows)
    if split is not None:
        return fn(*split, id_col, **kwargs)
    edit = None
    if isinstance(rows, str):
        rows = _positions(rows)
    if isinstance(rows, dict) and rows.get("cells"):
        cols = _edited(cols, rows["cells"])
    if isinstance(rows, dict) and "draw" in rows:
        rows = _drawn(rows)
    elif isinstance(rows, dict):
        from .edits import edit_of
        rows, edit = edit_of(rows, cols, _other)
        if isinstance(rows, str):        # a split's name ("scored": every row but the Ignored)
            rows = _positions(rows)
    s, u = cols.frames(rows, edit)
    return fn(s, u, id_col, **kwargs)


def _split_frames(cols, rows):
    """A split's frames (every row, a named split, with or without the app's edited cells)
    from its columns kept once (frames.Splits), or None for any other row set."""
    spec = rows if isinstance(rows, dict) else {"rows": rows}
    name = "every" if spec.get("rows") is None else spec["rows"]
    if not isinstance(name, str) or set(spec) - {"rows", "cells"} or not cols.simple:
        return None
    splits = _state.get("splits")
    if splits is None or splits.cols is not cols:
        from .frames import Splits
        splits = _state["splits"] = Splits(cols)
    return splits.frames(name, lambda: _positions(name), spec.get("cells"))


def idle(waiting=None):
    """Between tasks (host.py, once an answer is sent): the next call's frames made ahead,
    after a pause that leaves the CPU to kmetric reading the answer (``waiting(seconds)``:
    whether a task arrived meanwhile; it goes first)."""
    splits = _state.get("splits")
    if splits is None or not splits.used or waiting is not None and waiting(IDLE_PAUSE):
        return
    try:
        splits.refill()
    except Exception:                # noqa: BLE001 -- out of memory and kin: made at the call instead
        splits.ready.clear()


def _positions(name):
    """The rows of a split named by kmetric (runner.split_positions), None for every row."""
    from .frames import split_rows
    return split_rows(_state["frames"][2], name)


def _edited(cols, cells):
    """The columns with the app's edited cells (the last set kept: a bootstrap or a blend
    over one edited state reuses it)."""
    import pickle
    key = pickle.dumps(cells, protocol=4)
    if _state.get("cells_key") != (key, _state.get("frames_key")):
        _state["cells_cols"] = cols.with_cells(cells)
        _state["cells_key"] = (key, _state.get("frames_key"))
    return _state["cells_cols"]


def table_columns(code, name, function, paths, id_col):
    """('ok', {"ids", "sol", "sub"}) of the aligned frames as Arrow arrays (the app's table:
    solution without Usage, submission in solution order) or ('problem', lines)."""
    import pyarrow as pa

    from ..errors import InputError
    try:
        sol, sub, _, key = _frames(paths, id_col)
    except InputError as e:
        return ("problem", e.problems)

    def arrow(series):
        try:
            return pa.array(series, from_pandas=True)
        except (pa.ArrowException, TypeError, ValueError):
            return pa.array(series.astype(str), from_pandas=True)
    return ("ok", {"ids": arrow(sol[key].astype(str)),
                   "sol": [(str(c), arrow(sol[c])) for c in sol.columns if c != key],
                   "sub": [(str(c), arrow(sub[c])) for c in sub.columns if c != key]})


def _drawn(spec):
    """A bootstrap draw made from the generator's state the parent had before it."""
    import numpy as np
    state = spec["draw"]
    rng = np.random.Generator(getattr(np.random, state["bit_generator"])())
    rng.bit_generator.state = state
    rows = rng.integers(0, spec["n"], size=spec["n"])
    base = spec.get("rows")                  # the rows drawn from: all, a split's name, or positions
    if isinstance(base, str):
        base = _positions(base)
    return rows if base is None else np.asarray(base)[rows]


def fix_candidates(code, name, function, paths, id_col):
    """('ok', (shared columns, rows ordered by absolute error)) for fix first."""
    from .edits import candidates
    sol, sub, _, key = _frames(paths, id_col)
    return ("ok", candidates(_columns(sol, sub, key)))


def _result(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
        return ("error", f"score() returned {type(value).__name__}, not a number", None)
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        return ("error", f"score() returned {type(value).__name__}, not a number", None)
    if isinstance(value, str) or not math.isfinite(v):
        return ("error", f"score() returned {v!r}, not a finite number", None)
    return ("ok", v)


def _not_editable():
    from .edits import NotEditable
    return NotEditable


def score_rows(code, name, function, paths, id_col, kwargs, row_sets):
    """Score each row set (None: every row); one result tuple each."""
    try:
        fn = _load(code, name, function)
    except _Refused as r:
        return [r.what]
    sol, sub, _, key = _frames(paths, id_col)
    out = []
    for rows in row_sets:
        t0 = time.perf_counter()
        try:
            r = _result(_call(fn, sol, sub, rows, key, kwargs))
        except MemoryError:
            r = ("memory", "the metric ran out of memory", None)
        except _not_editable() as e:
            r = ("unavailable", str(e), None)
        except BaseException as e:    # noqa: BLE001 -- SystemExit, KeyboardInterrupt... said, never raised
            if type(e).__name__ == "ParticipantVisibleError":
                r = ("visible", _text(e)[:VISIBLE_LIMIT], None)
            else:
                r = _describe(e, name)
        details = r[4] if len(r) > 4 else None
        out.append(r[:3] + (None,) * (3 - len(r)) + (time.perf_counter() - t0, details))
    return out


def run_doctests(code, name, function):
    """('ok', (attempted, failed, report)) of the file's doctests, as Kaggle runs them on save."""
    import doctest
    import types
    try:
        _load(code, name, function)
    except _Refused as r:
        if r.what[0] != "nofunction":
            return r.what
    mod = _state.get("module") or types.ModuleType("__kmetric_metric__")
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    finder = doctest.DocTestFinder(exclude_empty=True)
    for test in finder.find(mod, "__kmetric_metric__", globs=dict(mod.__dict__)):
        test.filename = name
        runner.run(test, out=out.write)
    res = runner.summarize(verbose=False)
    return ("ok", (res.attempted, res.failed, out.getvalue()))


def row_ids(code, name, function, paths, id_col, rows):
    """('ok', the id text of each row) of the aligned solution."""
    sol, _, _, key = _frames(paths, id_col)
    return ("ok", [str(x) for x in sol[key].take(list(rows)).tolist()])
