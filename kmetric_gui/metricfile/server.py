"""Imported only by the workers' server (start.PRELOAD): what every worker needs is
imported once here, before the server forks any; and when its caller ends, the
server ends at once, without tearing down an interpreter that holds pandas
(0.1-0.3 s during which it still held the caller's output pipes, so a pipeline
reading the caller's output waited for it). Its forked workers never run exit
handlers (multiprocessing ends them with os._exit)."""
import atexit
import os

atexit.register(os._exit, 0)

try:                     # a broken install fails in the worker, where it is reported
    import pandas  # noqa: F401
    import pyarrow.compute  # noqa: F401

    from . import frames, worker  # noqa: F401
except Exception:        # noqa: BLE001
    pass
