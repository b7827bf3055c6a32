"""Cyclic garbage is collected on the UI thread while worker threads run.

A fresh-clone CI run hung for good: the collector ran on a worker (inside numpy) and
destroyed Qt objects there, while the UI thread waited for the GIL inside Qt. Before the
guard, the collections below ran on the worker thread.
"""
import gc
import threading

from kmetric_gui.gui.jobs import JobController


def _make_cycles(progress, cancel):
    for _ in range(300_000):            # far past gc's first threshold (700 allocations)
        a = []
        a.append(a)
    return threading.current_thread().name


def test_no_collection_runs_on_a_worker_while_jobs_live(qtbot):
    was_enabled = gc.isenabled()
    where = []

    def seen(phase, info):
        if phase == "start":
            where.append(threading.current_thread() is threading.main_thread())

    gc.callbacks.append(seen)
    jobs = JobController()
    try:
        got = []
        with qtbot.waitSignal(jobs.ended, timeout=20000):
            jobs.submit("work", _make_cycles, got.append, lane="background")
        assert got and got[0] != threading.main_thread().name      # it ran on a worker
        qtbot.waitUntil(lambda: any(where), timeout=5000)          # the UI thread collected
        assert all(where), f"{where.count(False)} collections ran on a worker thread"
    finally:
        gc.callbacks.remove(seen)
        assert jobs.shutdown()
    assert gc.isenabled() == was_enabled                           # as it was, once released
