"""How metric workers start: forked from a clean server process that imported
pandas once (multiprocessing's forkserver), where there is one.

A spawned worker is a new interpreter that imports pandas itself (half a second
before it can read a file). The server is itself a fresh interpreter, started
from nothing of the caller's (so no state of the app or CLI reaches a metric's
code), and ``warm_up`` starts it early: its import of pandas then overlaps the
caller's own start-up. Frozen bundles and platforms without forkserver spawn,
and so does KMETRIC_METRIC_START=spawn (workers then are the caller's children,
so their CPU time shows in its own accounting: bench/metricfile.py uses it).
"""
import multiprocessing
import os
import sys

# what the server imports before it forks workers (metricfile/server.py)
PRELOAD = ["kmetric_gui.metricfile.server"]


def context():
    """The multiprocessing context of metric workers, the server running if forkserver."""
    if (getattr(sys, "frozen", False) or os.environ.get("KMETRIC_METRIC_START") == "spawn"
            or "forkserver" not in multiprocessing.get_all_start_methods()):
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)
    from multiprocessing import forkserver
    try:
        forkserver.ensure_running()          # at once when it runs; restarted if it ended
    except (OSError, EOFError, ValueError):
        return multiprocessing.get_context("spawn")   # no server here (a sandbox): spawn
    return ctx


def warm_up():
    """Start the server now (no-op where workers are spawned or it runs already)."""
    context()
