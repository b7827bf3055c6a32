"""The project's randomized test of the real window (short run; the long one is
``python tests/soak.py --seeds 100 --steps 200``, replay with ``--seed N -v``)."""
import pytest

from random_driver import FILE_ACTIONS, make_plan, run

SEEDS = (1, 2, 3, 4)
STEPS = 30


@pytest.mark.parametrize("seed", SEEDS)
def test_random_sequences_find_nothing(qapp, tmp_path, seed):
    lines = []
    findings = run(seed, STEPS, tmp_path, log=lines.append)
    assert not findings, "\n".join([str(f) for f in findings] + ["actions:"] + lines)


@pytest.mark.parametrize("seed", (1, 2))
def test_random_sequences_on_a_metric_file_session_find_nothing(qapp, tmp_path, seed):
    """A metric file as the session's metric, then edits (most break its rows-sum-to-one
    check: the numbers before stay, marked out of date), pastes, undo, Esc, settles."""
    lines = []
    plan = make_plan(seed, 10, first="metric_file", actions=FILE_ACTIONS)
    plan.insert(1, ("settle", 0))        # the file in use before the actions
    findings = run(seed, len(plan), tmp_path, log=lines.append, plan=plan)
    assert not findings, "\n".join([str(f) for f in findings] + ["actions:"] + lines)
    assert "    settled: file:kl_divergence.py" in lines      # its session, not a built-in's


def test_plans_are_reproducible_and_shrinkable():
    a, b = make_plan(7, 50), make_plan(7, 50)
    assert a == b and len(a) == 50 and a[0][0] == "open_pair"
    assert make_plan(8, 50) != a
