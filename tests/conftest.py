import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(__file__))

import pytest  # noqa: E402

_HOME = os.getcwd()


@pytest.fixture(autouse=True)
def _clean_process_state():
    """Each test starts where the suite started and with no spare metric host left by an
    earlier test (a test's window can leave one whose scratch folder is gone: a later
    metric-file command took it and its host could not start, only in the whole run)."""
    try:
        os.getcwd()
    except OSError:
        os.chdir(_HOME)
    from kmetric_gui.metricfile import start
    start.discard()
    yield
