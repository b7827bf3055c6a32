"""Messages to and from a metric's workers: numpy and Arrow values travel in forms every
version reads (another Python may have numpy 1 and an older pyarrow)."""
import pickle

import numpy as np
import pyarrow as pa

from kmetric_gui.metricfile import wire


def test_values_round_trip_without_the_libraries_own_pickles():
    value = {"rows": np.arange(7, dtype=np.int64), "codes": np.array([0, 1, 2], dtype=np.int8),
             "grid": np.ones((2, 3)), "x": np.float64(0.25), "n": np.int32(3),
             "names": np.array(["a", 1], dtype=object), "ids": pa.array(["r1", None]),
             "chunks": pa.chunked_array([[1.5], [2.5]]), "plain": ("ok", 1.0, None, [1, "a"])}
    data = wire.dumps(value)
    ops = {arg for op, arg, _ in __import__("pickletools").genops(data) if isinstance(arg, str)}
    assert not any(a.startswith(("numpy", "pyarrow")) for a in ops)      # no library pickles
    back = wire.loads(data)
    for k in ("rows", "codes", "grid", "names"):
        assert back[k].dtype == value[k].dtype and np.array_equal(back[k], value[k])
    assert back["rows"].flags.writeable                                  # a metric may write it
    assert back["x"] == 0.25 and type(back["x"]) is np.float64 and back["n"].dtype == np.int32
    assert back["ids"].equals(value["ids"]) and back["chunks"].equals(value["chunks"])
    assert back["plain"] == value["plain"]
    assert pickle.loads(data)["plain"] == value["plain"]


def test_frames_split_from_pieces():
    frames = [wire.frame(1, b"abc"), wire.frame(0, b""), wire.frame(7, b"x" * 100_000)]
    data = b"".join(frames)
    s = wire.Splitter()
    got = []
    for i in range(0, len(data), 997):
        got += s.feed(data[i:i + 997])
    assert got == [(1, b"abc"), (0, b""), (7, b"x" * 100_000)]
