"""Every job submitted ends exactly once — done, failed, cancelled or superseded — and
the app hears it (``JobController.ended``); ``busy`` is whether any job has not ended.

Before, a job bound to a generation the session had left before the worker reached
it was dropped by the worker without a word: the app stayed busy for good (the
progress bar and Cancel forever).
"""
import threading

import pytest

from kmetric_gui.errors import Cancelled, InputError
from kmetric_gui.gui.jobs import OUTCOMES, JobController


@pytest.fixture
def jobs(qapp):
    gen = {"now": 1}
    ctl = JobController(lambda: gen["now"])
    ctl.gen = gen
    ended = []
    ctl.ended.connect(lambda kind, outcome: ended.append((kind, outcome)))
    ctl.seen = ended
    yield ctl
    ctl.shutdown()


def blocker(ctl, lane="background"):
    """A job holding ``lane``'s worker until the returned event is set."""
    go = threading.Event()
    ctl.submit("hold-" + lane, lambda p, c: go.wait(10) and "held", lambda v: None, lane=lane)
    return go


def test_a_job_whose_generation_went_before_it_started_ends(qtbot, jobs):
    go = blocker(jobs)
    got = []
    jobs.submit("stats", lambda p, c: "interval", got.append, generation=1, lane="background")
    jobs.gen["now"] = 2                         # an edit: the interval is of older data
    go.set()
    qtbot.waitUntil(lambda: not jobs.busy, timeout=5000)
    assert got == []
    assert ("stats", "superseded") in jobs.seen


def test_a_job_submitted_for_results_already_left_ends(qtbot, jobs):
    """E.g. new interval settings after a failed rescore: the results shown are of an
    older generation; their job must end, not wait forever."""
    got = []
    jobs.submit("stats", lambda p, c: "interval", got.append, generation=0, lane="background")
    qtbot.waitUntil(lambda: not jobs.busy, timeout=5000)
    assert got == [] and jobs.seen == [("stats", "superseded")]


def test_a_generation_change_ends_its_jobs_at_once(qtbot, jobs):
    go = blocker(jobs)
    jobs.submit("fixes", lambda p, c: 1, lambda v: None, generation=1, lane="background")
    jobs.gen["now"] = 2
    jobs.sweep()                                # the window calls it on every change
    assert jobs.seen == [("fixes", "superseded")] and jobs.in_flight() == ["hold-background"]
    go.set()
    qtbot.waitUntil(lambda: not jobs.busy, timeout=5000)


def test_every_job_ends_exactly_once_with_its_outcome(qtbot, jobs):
    go = blocker(jobs, "interactive")
    outcomes = {}

    def fail(p, c):
        raise InputError("bad")

    def stop(p, c):
        raise Cancelled("stop")
    errors = []
    a = jobs.submit("a", lambda p, c: 1, lambda v: None)
    b = jobs.submit("b", fail, lambda v: None, on_error=errors.append)
    c = jobs.submit("c", lambda p, c: 1, lambda v: None)
    c2 = jobs.submit("c", lambda p, c: 2, lambda v: None)        # supersedes c
    d = jobs.submit("d", lambda p, c: 1, lambda v: None)
    jobs.cancel("d")
    e = jobs.submit("e", stop, lambda v: None)
    go.set()
    qtbot.waitUntil(lambda: not jobs.busy, timeout=5000)
    qtbot.wait(50)                              # late reports of ended jobs change nothing
    for job in (a, b, c, c2, d, e):
        outcomes[job.kind + str(job.token)] = job.outcome
        assert job.outcome in OUTCOMES
    assert [j.outcome for j in (a, b, c, c2, d, e)] == [
        "done", "failed", "superseded", "done", "cancelled", "cancelled"]
    assert len(errors) == 1
    assert len(jobs.seen) == jobs.submitted == 7             # once each (and the blocker)
    assert sum(jobs.counts.values()) == jobs.submitted


def test_busy_goes_off_once_the_last_job_ended(qtbot, jobs):
    states = []
    jobs.busy_changed.connect(states.append)
    go = blocker(jobs)
    jobs.submit("x", lambda p, c: 1, lambda v: None, generation=1, lane="background")
    jobs.gen["now"] = 5
    go.set()
    qtbot.waitUntil(lambda: states and states[-1] is False, timeout=5000)
    assert not jobs.busy and jobs.in_flight() == []


def test_a_result_handed_over_may_start_the_next_job_of_its_kind(qtbot, jobs):
    """busy stays on between a result and the job it starts (no flicker off/on)."""
    states, got = [], []
    jobs.busy_changed.connect(states.append)

    def first(v):
        got.append(v)
        jobs.submit("k", lambda p, c: "second", got.append)
    jobs.submit("k", lambda p, c: "first", first)
    qtbot.waitUntil(lambda: len(got) == 2, timeout=5000)
    qtbot.waitUntil(lambda: not jobs.busy, timeout=5000)
    assert got == ["first", "second"] and states.count(False) == 1
