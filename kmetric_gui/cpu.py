"""numpy's sort on AMD Zen 4: the AVX2 kernels, not the AVX-512 ones.

numpy sorts 64-bit values with AVX-512 code when the CPU has it. On Zen 4
that code runs about 5x slower than numpy's AVX2 code (it stores with
vpcompressq to memory, microcoded on Zen 4; Zen 5 and Intel's chips are
fast): 0.30 s against 0.06 s for 5M uint64 on the machine we measure on,
and sorting is most of joining a large pair of files. NPY_DISABLE_CPU_FEATURES
is read once, when numpy is imported, so the entry points (`kmetric`,
`kmetric-gui`, the bundle's launcher) call ``prefer_avx2_sort`` first.

Nothing is changed when numpy is already imported, when the user has set
NPY_DISABLE_CPU_FEATURES or NPY_ENABLE_CPU_FEATURES (numpy refuses both at
once), on other CPUs, or unless numpy is a PyPI wheel of 2.4 or newer: the
names differ before 2.4 (numpy warns about unknown ones), and a numpy built
for the local CPU may have AVX-512 in its baseline, which numpy refuses to
disable (its import would fail). Only Linux says what the CPU is here
(/proc/cpuinfo). This module imports nothing heavy: it runs before numpy.
"""
import os
import re
import sys

VARIABLE = "NPY_DISABLE_CPU_FEATURES"
OTHER = "NPY_ENABLE_CPU_FEATURES"
AVX512 = "X86_V4 AVX512_ICL AVX512_SPR"     # numpy >= 2.4's names for the AVX-512 groups


def prefer_avx2_sort(environ=None, cpuinfo="/proc/cpuinfo", numpy_version=None):
    """Set NPY_DISABLE_CPU_FEATURES for a Zen 4 CPU before numpy is imported; True if set."""
    environ = os.environ if environ is None else environ
    if "numpy" in sys.modules or VARIABLE in environ or OTHER in environ or not zen4(cpuinfo):
        return False
    version = numpy_version() if numpy_version else _numpy_wheel()
    if version is None or version < (2, 4):
        return False
    environ[VARIABLE] = AVX512
    return True


def zen4(cpuinfo="/proc/cpuinfo"):
    """An AMD CPU of family 25 (0x19: Zen 3 and Zen 4) with AVX-512 (Zen 4 only)."""
    fields = _first_cpu(cpuinfo)
    if fields is None:
        return False
    return (fields.get("vendor_id") == "AuthenticAMD" and fields.get("cpu family") == "25"
            and "avx512f" in fields.get("flags", "").split())


def _first_cpu(path):
    """The first processor's fields of /proc/cpuinfo (None where there is none)."""
    fields = {}
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            for line in f:
                if not line.strip():
                    break
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
    except OSError:
        return None
    return fields


def _numpy_wheel():
    """(major, minor) of the numpy that would be imported, if it came from a PyPI wheel
    (its dist-info's WHEEL names a manylinux tag), without importing it; else None."""
    import importlib.util
    try:
        spec = importlib.util.find_spec("numpy")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    # The dist-info beside the package (also in a bundle, whose .py files are archived).
    parent = os.path.dirname(list(spec.submodule_search_locations)[0])
    try:
        names = os.listdir(parent)
    except OSError:
        return None
    for name in names:
        found = re.match(r"numpy-(\d+)\.(\d+)[^-]*\.dist-info$", name)
        if found:
            try:
                with open(os.path.join(parent, name, "WHEEL"), encoding="utf-8") as f:
                    wheel = f.read()
            except OSError:
                return None
            if re.search(r"^Tag: \S*-manylinux", wheel, re.M):
                return int(found.group(1)), int(found.group(2))
    return None
