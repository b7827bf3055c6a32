"""How much memory the files need and what is available (refused early, in words)."""
import os
import zipfile

from ..errors import InputError

GB = 1e9
NEED_PER_BYTE = 3                # peak memory per byte of table text (measured: 2-3.7)


def available_memory():
    """Bytes this process can still use: MemAvailable, lowered by an address-space limit."""
    avail = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
                    break
    except OSError:
        pass
    if avail is None:
        try:
            avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            avail = None
    try:
        import resource
        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        if soft != resource.RLIM_INFINITY:
            used = 0
            with open("/proc/self/status") as f:
                for line in f:
                    if line.startswith("VmSize:"):
                        used = int(line.split()[1]) * 1024
            room = max(0, soft - used)
            avail = room if avail is None else min(avail, room)
    except (ImportError, OSError, ValueError):
        pass
    return avail


def default_max_inflated():
    """The default cap on a compressed file's inflated size: what memory can hold."""
    avail = available_memory()
    return int(avail / NEED_PER_BYTE * 1.5) if avail else int(64 * GB)


def text_size(path):
    """Bytes of table text a file holds, as far as known before reading (0: unknown)."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return 0
    name = str(path).lower()
    if name.endswith(".zip"):
        try:
            with zipfile.ZipFile(path) as zf:
                return sum(m.file_size for m in zf.infolist() if not m.is_dir())
        except (OSError, zipfile.BadZipFile, ValueError):
            return 0
    if name.endswith(".gz"):
        return 0                  # the size field wraps at 4 GiB: not a guide
    return size


def memory_need(paths):
    """(bytes needed, bytes available or None) for scoring the given files."""
    need = sum(text_size(p) for p in paths) * NEED_PER_BYTE
    return need, available_memory()


def check_memory(paths, label="these files"):
    """InputError before reading when the files cannot fit in memory."""
    need, avail = memory_need(paths)
    if avail is not None and need > avail:
        raise InputError(memory_message(need, avail, label))


def memory_message(need, avail, label="these files"):
    return (f"{label}: not enough memory: needs about {size_words(need)}, "
            f"{size_words(avail or 0)} available")


def size_words(n):
    return f"{n / GB:.1f} GB" if n >= 0.1 * GB else f"{n / 1e6:.1f} MB"
