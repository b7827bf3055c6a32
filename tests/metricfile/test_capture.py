"""The capture of a metric's output: what was written before its result is counted when
the result is read (a loaded machine reported a metric's print as nothing)."""
import os
import sys

import pytest

from kmetric_gui.metricfile.processes import Capture


@pytest.mark.skipif(os.name != "posix", reason="select() on pipes is POSIX only; Windows "
                    "reads the pipe as before")
def test_what_was_written_is_read_once_settled():
    for k in range(50):
        r, w = os.pipe()
        cap = Capture(r)
        data = f"hello from metric {k}\n".encode() * (k + 1)
        os.write(w, data)
        cap.settle()
        assert cap.text().encode() == data and cap.total == len(data)
        os.close(w)
        cap.thread.join(5)
        cap.settle()                    # the pipe ended: nothing to wait for
        assert cap.total == len(data)


def test_settle_returns_at_once_on_an_empty_pipe():
    import time
    r, w = os.pipe()
    cap = Capture(r)
    t0 = time.monotonic()
    cap.settle(timeout=2)
    assert time.monotonic() - t0 < 1 and cap.total == 0
    os.close(w)
    cap.thread.join(5)
    assert not cap.thread.is_alive() or sys.platform == "win32"
