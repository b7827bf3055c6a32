"""Esc, and a changed option, while a load, a score, a comparison or an interval runs:
the score shown is of the data and options shown or marked out of date, and every job
ends (issue 39 item 7: a random run left the previous data's score on screen, unmarked).
The random driver's checks (random_driver.Driver.settle) judge each sequence."""
import random

import pytest

from random_driver import run

# Each sequence starts from a scored pair; "esc"/"option" land while the job runs
# (the driver acts again after 0-60 ms, before these jobs end on demo data).
SEQUENCES = {
    "esc during a load": ["open_pair", "esc"],
    "esc during a rescore": ["edit", "esc"],
    "esc during an option's rescore": ["option", "esc"],
    "option during a rescore": ["edit", "option"],
    "option during a load": ["open_pair", "option"],
    "esc during a comparison": ["compare_add", "esc"],
    "esc during an interval": ["stats_option", "esc"],
    "option then esc during an interval": ["stats_option", "option", "esc"],
}


@pytest.mark.parametrize("name", sorted(SEQUENCES))
def test_esc_or_an_option_mid_job_leaves_nothing_stale_or_running(name, qapp, tmp_path):
    rng = random.Random(name)
    plan = [("open_pair", rng.randrange(2 ** 31)), ("settle", 0)]
    for _ in range(3):
        plan += [(action, rng.randrange(2 ** 31)) for action in SEQUENCES[name]]
        plan.append(("settle", 0))
    findings = run(0, len(plan), tmp_path, plan=plan)
    assert not findings, "\n".join(map(str, findings))
