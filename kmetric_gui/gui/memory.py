"""Give freed memory back to the system once big data is replaced.

Dropping a 2M-row pair frees its arrays, but the allocators keep the pages:
glibc's per-thread arenas (the workers read and score) and Arrow's pool hold
them for reuse, so the app stayed at its peak after a small file replaced a
big one (issue 39: 575 MB after two 1M-row pairs and the RMSE demo, 248 MB
for the demo alone). Asking both to return what is free brings it back.
"""
import sys

_trim = []                                # malloc_trim, looked up on first use


def _libc_trim():
    if not _trim:
        fn = None
        if sys.platform.startswith("linux"):      # macOS and Windows return free pages
            import ctypes
            try:
                fn = ctypes.CDLL(None).malloc_trim    # glibc only (musl has none)
            except (OSError, AttributeError):
                fn = None
        _trim.append(fn)
    return _trim[0]


def give_back(progress=None, cancel=None):
    """Return the allocators' free memory to the system (a job: run on a worker)."""
    if "pyarrow" in sys.modules:          # never imported just for this
        try:
            sys.modules["pyarrow"].default_memory_pool().release_unused()
        except Exception:                 # an older pyarrow without it: nothing lost
            pass
    trim = _libc_trim()
    if trim is not None:
        trim(0)
