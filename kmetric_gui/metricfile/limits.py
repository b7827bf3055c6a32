"""What a metric file's run may use and where it runs: time, memory (a share of the RAM
unless given), another Python and the sandbox mode."""
import os

DEFAULT_TIMEOUT = 1800.0      # Kaggle's 30 minutes for Public and Private together
MEMORY_SHARE = 0.5            # without --metric-memory-gb: each process at most half the RAM


def physical_memory():
    """Bytes of RAM, or None where it cannot be read."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


class Limits:
    """What a run may use and where it runs: time, memory (a share of the RAM unless
    given), another Python (``python``) and the sandbox mode."""

    def __init__(self, timeout=DEFAULT_TIMEOUT, memory_gb=None, python=None, sandbox="auto",
                 keep=False, take_spare=True):
        self.timeout = float(timeout)
        self.memory_given = bool(memory_gb)
        ram = physical_memory()
        if memory_gb:
            self.memory_bytes = int(memory_gb * (1 << 30))
        else:
            self.memory_bytes = int(MEMORY_SHARE * ram) if ram and _limits_memory() else None
        self.python, self.sandbox = python, sandbox
        self.keep = keep          # the app's: the host stays for the next run (MetricWorker.keep_host)
        # False: a host of its own (the app's metric in use lives long; the spare is the
        # dock's next run's, which would otherwise start a host of its own each time)
        self.take_spare = take_spare

    def memory_words(self):
        if self.memory_bytes is None:
            return "no memory limit (this platform has none)"
        gb = f"{self.memory_bytes / (1 << 30):.1f}".rstrip("0").rstrip(".")
        how = "--metric-memory-gb" if self.memory_given else \
            "half of this machine's memory; --metric-memory-gb changes it"
        return f"at most {gb} GB of memory a process ({how})"


def _limits_memory():
    """Whether an address-space limit holds here (Linux; macOS ignores it, Windows has none)."""
    import sys
    return sys.platform.startswith("linux")
