"""What runs inside a metric worker process (never in the app's or CLI's own).

The pool's initializer sets limits and the working folder; each task loads the
metric file and the frames once (cached per process) and answers with plain
tuples, so a metric's own exception classes never need unpickling:
("ok", value) | ("problem", [lines]) | ("error", line).
"""
import io
import math
import os
import sys
import time
import traceback

_state = {}                  # what this process has loaded: the metric and the frames, with their keys
VISIBLE_LIMIT = 280          # Kaggle shows participants this many characters


def init(workdir, memory_bytes, out_path, nice=0):
    """Pool initializer: the metric's limits, folder and standard output; ``nice``: the
    app's workers yield the CPU to its window (the event loop keeps its pace)."""
    if nice and hasattr(os, "nice"):
        try:
            os.nice(nice)
        except OSError:
            pass
    if memory_bytes:
        try:
            import resource
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        except (ImportError, ValueError, OSError):
            pass                  # not on this platform: the parent still enforces time
    os.chdir(workdir)
    out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(out, 1)              # the metric's prints go to a file, never into our output
    sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", buffering=0), write_through=True)


def _code_name(name):
    return f"<metric file {name}>"


def _line_in_file(tb, name):
    line = None
    for frame, lineno in traceback.walk_tb(tb):
        if frame.f_code.co_filename == _code_name(name):
            line = lineno
    return line


def _describe(err, name):
    """('error', one line) for an exception raised by the metric's code."""
    line = _line_in_file(err.__traceback__, name)
    msg = " ".join(str(err).split()) or "(no message)"
    return ("error", f"{type(err).__name__}: {msg}", line)


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
    except BaseException as e:   # the module's top level failed: its line and error
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise _Refused(("error", f"{type(e).__name__} while loading", None)) from None
        raise _Refused(_describe(e, name)) from None
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
    _state.pop("id_text", None)
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


def _repeats(rows):
    """k for each drawn row: how many times the same row was drawn before it."""
    import numpy as np
    order = np.argsort(rows, kind="stable")
    srt = rows[order]
    starts = np.flatnonzero(np.r_[True, srt[1:] != srt[:-1]])
    k_sorted = np.arange(len(srt)) - np.repeat(starts, np.diff(np.r_[starts, len(srt)]))
    k = np.empty_like(k_sorted)
    k[order] = k_sorted
    return k


def _unique_ids(ids, rows, text=None):
    """Row ids of a resample made unique: the k-th repeat of a drawn row gets '#k'.
    ``text``: every row's id as an Arrow string array (made once per process); the
    work is Arrow's, in C, since a bootstrap makes ids for every replicate."""
    import pyarrow as pa
    import pyarrow.compute as pc
    k = _repeats(rows)
    if text is None:
        taken = pa.array(ids.astype(str).to_numpy(dtype=object), type=pa.string())
    else:
        taken = text.take(pa.array(rows))
    again = k > 0
    if again.any():
        joined = pc.binary_join_element_wise(taken, pa.array(k).cast(pa.string()), "#")
        taken = pc.if_else(pa.array(again), joined, taken)
    out = taken.to_pandas()
    out.index, out.name = ids.index, ids.name
    return out


def _id_text(sol, id_col):
    if "id_text" not in _state:
        import pyarrow as pa
        _state["id_text"] = pa.array(sol[id_col].astype(str).to_numpy(dtype=object), type=pa.string())
    return _state["id_text"]


def _call(fn, sol, sub, rows, id_col, kwargs):
    import numpy as np
    sol_all = sol
    if rows is not None:
        sol = sol.iloc[rows].reset_index(drop=True)
        sub = sub.iloc[rows].reset_index(drop=True)
        if len(rows) > 1 and np.bincount(rows).max() > 1:
            sol[id_col] = _unique_ids(sol[id_col], rows, _id_text(sol_all, id_col))
            sub[id_col] = sol[id_col].to_numpy()
    else:
        sol, sub = sol.copy(), sub.copy()     # metrics delete columns in place
    return fn(sol, sub, id_col, **kwargs)


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
        except Exception as e:
            if type(e).__name__ == "ParticipantVisibleError":
                r = ("visible", str(e)[:VISIBLE_LIMIT], None)
            else:
                r = _describe(e, name)
        out.append(r[:3] + (None,) * (3 - len(r)) + (time.perf_counter() - t0,))
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
