"""Which allocator the next read and score use: Arrow's default, or the lean pair.

Coding text cells makes many short-lived arrays of a few MB. mimalloc keeps
the pages of freed blocks for reuse, and glibc raises its mmap threshold
after each large free, so those arrays pile up as resident memory nothing
uses (1M documents: 629 MB peak, 402 MB with Arrow on the system allocator
and the threshold fixed at 128 KiB). The readers of numeric pairs read 4 MB pieces
again and again: there the fixed threshold maps every piece afresh (ratings, 5M rows:
1.75 -> 2.87 s). So the lean pair is chosen per pair, at the start of each
load, and the defaults come back for the next pair of another kind (the app
keeps one process for many loads). A switch between two loads running at
once (the app's comparison lane) only changes which pool later buffers come
from: each buffer is freed through the pool that made it.
"""
import ctypes
import threading

import pyarrow as pa

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
LEAN_THRESHOLD = 1 << 17     # 128 KiB, fixed: large blocks go back to the system at once
# glibc's dynamic threshold grows up to 32 MiB (64-bit): once set it stays fixed,
# so "back to default" is its top, where a long-running process ends up anyway.
# Setting the mmap threshold also stops glibc moving the trim threshold (it doubles
# the mmap threshold as that grows): left at 128 KiB, every free at the top of the
# heap gave memory back to be faulted in again (5M ratings after text cells: 0.3-0.7 s of
# system time). 16 MiB: 0.12-0.20 s and 280-295 MB peak; 64 MiB kept 310 MB.
DEFAULT_THRESHOLD = 32 << 20
DEFAULT_TRIM = 16 << 20         # what glibc's own rule gives after freeing 8 MB pieces

_saved = None                # Arrow's pool before the lean pair was chosen
_lock = threading.Lock()     # the app loads on two lanes (a comparison beside the files)


def _mallopt(value, param=_M_MMAP_THRESHOLD):
    try:
        ctypes.CDLL("libc.so.6").mallopt(param, value)
    except (OSError, AttributeError):    # not glibc: nothing to set
        pass


def use_lean():
    """Arrow on the system allocator, glibc giving large blocks back at once."""
    global _saved
    with _lock:
        if _saved is None:
            _saved = pa.default_memory_pool()
            pa.set_memory_pool(pa.system_memory_pool())
            _mallopt(LEAN_THRESHOLD)


def use_default():
    """Arrow's own pool again (no-op unless the lean pair was chosen)."""
    global _saved
    with _lock:
        if _saved is not None:
            pa.set_memory_pool(_saved)
            _saved = None
            _mallopt(DEFAULT_THRESHOLD)
            _mallopt(DEFAULT_TRIM, _M_TRIM_THRESHOLD)


def is_lean():
    return _saved is not None
