"""Messages between kmetric and a metric's worker processes: pickles in frames.

The worker may run another Python with other versions of numpy (``--metric-python``),
so numpy arrays and scalars travel as (dtype, shape, bytes) and Arrow arrays as Arrow's
IPC stream, never as the libraries' own pickles (numpy 2 pickles name modules numpy 1
lacks). Standard library only at import:
the host process reads frames before it imports anything else.

A frame is a header (channel, length) and a payload; channel 0 is the host's own.
"""
import pickle
import struct
import sys

HEADER = struct.Struct("!iQ")
PROTOCOL = 4                   # Python 3.8 and newer read it


def _array(dtype, shape, data):
    import numpy as np
    return np.frombuffer(bytearray(data), dtype=np.dtype(dtype)).reshape(shape)


def _scalar(dtype, data):
    import numpy as np
    return np.frombuffer(data, dtype=np.dtype(dtype))[0]


def _arrow(data, chunked):
    import pyarrow as pa
    column = pa.ipc.open_stream(data).read_all().column(0)
    return column if chunked else column.combine_chunks()


def _arrow_bytes(column):
    """Arrow's IPC stream: the format every pyarrow version reads."""
    import pyarrow as pa
    sink = pa.BufferOutputStream()
    table = pa.table({"c": column})
    with pa.ipc.new_stream(sink, table.schema) as out:
        out.write_table(table)
    return sink.getvalue().to_pybytes()


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj):
        pa = sys.modules.get("pyarrow")
        if pa is not None and isinstance(obj, (pa.Array, pa.ChunkedArray)):
            return _arrow, (_arrow_bytes(obj), isinstance(obj, pa.ChunkedArray))
        np = sys.modules.get("numpy")
        if np is None:
            return NotImplemented
        if isinstance(obj, np.ndarray) and not obj.dtype.hasobject:
            return _array, (obj.dtype.str, obj.shape, obj.tobytes())
        if isinstance(obj, np.ndarray):
            return _objects, (obj.tolist(),)
        if isinstance(obj, np.generic) and not isinstance(obj, np.object_):
            return _scalar, (obj.dtype.str, obj.tobytes())
        return NotImplemented


def _objects(items):
    import numpy as np
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


def dumps(obj):
    import io
    buf = io.BytesIO()
    _Pickler(buf, protocol=PROTOCOL).dump(obj)
    return buf.getvalue()


def loads(data):
    return pickle.loads(data)


def frame(channel, payload):
    return HEADER.pack(channel, len(payload)) + payload


def read_exactly(read, n):
    """``n`` bytes from ``read`` (a raw read function), or None at the end of the stream."""
    parts, got = [], 0
    while got < n:
        chunk = read(n - got)
        if not chunk:
            return None
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def read_frame(read):
    """(channel, payload) from a stream, or None when it ended."""
    head = read_exactly(read, HEADER.size)
    if head is None:
        return None
    channel, size = HEADER.unpack(head)
    payload = read_exactly(read, size) if size else b""
    return None if payload is None else (channel, payload)


class Splitter:
    """Frames out of bytes arriving in pieces (a non-blocking socket)."""

    def __init__(self):
        self.buf = bytearray()

    def feed(self, data):
        self.buf += data
        out = []
        while len(self.buf) >= HEADER.size:
            channel, size = HEADER.unpack_from(self.buf)
            end = HEADER.size + size
            if len(self.buf) < end:
                break
            out.append((channel, bytes(self.buf[HEADER.size:end])))
            del self.buf[:end]
        return out
