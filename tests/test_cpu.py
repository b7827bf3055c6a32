"""Which CPUs get numpy's AVX2 sort (kmetric_gui/cpu.py): read from cpuinfo text written
here, as Linux lays it out, and the variable set only before numpy is imported."""
import os
import platform
import subprocess
import sys

import pytest

from kmetric_gui import cpu

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINUX_X86 = sys.platform.startswith("linux") and platform.machine().lower() in ("x86_64", "amd64")
# The variable is only ever set for numpy's Linux x86-64 PyPI wheels of 2.4 or newer.
WHEEL = cpu._numpy_wheel()
needs_wheel = pytest.mark.skipif(WHEEL is None or WHEEL < (2, 4),
                                 reason="numpy here is not a manylinux wheel of 2.4 or newer: nothing is set")


def _cpuinfo(tmp_path, vendor, family, flags):
    block = (f"processor\t: 0\nvendor_id\t: {vendor}\ncpu family\t: {family}\nmodel\t\t: 17\n"
             f"flags\t\t: fpu sse2 {flags}\n\n")
    path = tmp_path / "cpuinfo"
    path.write_text(block + block.replace(": 0", ": 1", 1))
    return str(path)


@pytest.mark.parametrize("vendor,family,flags,expected", [
    ("AuthenticAMD", 25, "avx2 avx512f avx512bw", True),     # Zen 4
    ("AuthenticAMD", 25, "avx2", False),                     # Zen 3: no AVX-512
    ("AuthenticAMD", 26, "avx2 avx512f", False),             # Zen 5: fast compress stores
    ("GenuineIntel", 6, "avx2 avx512f", False),              # Intel: its fastest path
])
def test_only_zen4_is_told_to_use_avx2(tmp_path, monkeypatch, vendor, family, flags, expected):
    info = _cpuinfo(tmp_path, vendor, family, flags)
    assert cpu.zen4(info) is expected
    monkeypatch.delitem(sys.modules, "numpy", raising=False)       # as if numpy were not imported yet
    env = {}
    assert cpu.prefer_avx2_sort(env, info, lambda: (2, 4)) is expected
    assert env == ({cpu.VARIABLE: cpu.AVX512} if expected else {})


def test_the_users_choice_an_imported_numpy_and_an_older_numpy_are_left_alone(tmp_path, monkeypatch):
    info = _cpuinfo(tmp_path, "AuthenticAMD", 25, "avx512f")
    import numpy  # noqa: F401
    assert not cpu.prefer_avx2_sort({}, info, lambda: (2, 4))          # too late: imported
    monkeypatch.delitem(sys.modules, "numpy", raising=False)
    env = {cpu.VARIABLE: ""}
    assert not cpu.prefer_avx2_sort(env, info, lambda: (2, 4)) and env == {cpu.VARIABLE: ""}
    env = {cpu.OTHER: "AVX2"}             # numpy refuses both variables at once
    assert not cpu.prefer_avx2_sort(env, info, lambda: (2, 4)) and env == {cpu.OTHER: "AVX2"}
    for old in ((2, 3), (1, 26), None):            # other feature names, or none found
        assert not cpu.prefer_avx2_sort({}, info, lambda: old)
    assert not cpu.zen4(str(tmp_path / "absent"))


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="numpy's macOS and Windows wheels are not manylinux: never counted")
def test_the_installed_numpys_version_is_read_without_importing_it():
    code = ("import sys; from kmetric_gui import cpu; v = cpu._numpy_wheel(); "
            "assert 'numpy' not in sys.modules; import numpy; "
            "assert v == tuple(int(x) for x in numpy.__version__.split('.')[:2]), v")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT,
                   env=dict(os.environ, PYTHONPATH=ROOT))


@pytest.mark.skipif(not LINUX_X86, reason="x86 feature names; numpy elsewhere refuses them (never set there)")
def test_numpy_takes_the_names_without_a_warning():
    code = "import warnings; warnings.simplefilter('error'); import numpy"
    r = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, **{cpu.VARIABLE: cpu.AVX512}))
    import numpy
    if tuple(int(x) for x in numpy.__version__.split(".")[:2]) >= (2, 4):
        assert r.returncode == 0 and not r.stderr, r.stderr


@needs_wheel
@pytest.mark.parametrize("entry", ["kmetric_gui.cli", "kmetric_gui.gui.app"])
def test_the_entry_points_set_it_before_numpy_is_imported(entry):
    # As on a Zen 4 machine, whatever this one is: importing the entry sets the variable
    # (numpy is imported by then or later, when a command needs it).
    code = ("import os; from kmetric_gui import cpu; cpu.zen4 = lambda *a: True; "
            f"import {entry}; print(os.environ.get(cpu.VARIABLE))")
    env = {k: v for k, v in os.environ.items() if k != cpu.VARIABLE}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       env=dict(env, PYTHONPATH=ROOT, QT_QPA_PLATFORM="offscreen"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == cpu.AVX512


@pytest.mark.parametrize("tag,expected", [("cp311-cp311-manylinux_2_28_x86_64", (2, 5)),
                                          ("cp311-cp311-linux_x86_64", None)])
def test_only_a_pypi_wheel_of_numpy_counts(tmp_path, tag, expected):
    # A numpy built here may have AVX-512 in its baseline: numpy would refuse to import.
    (tmp_path / "numpy").mkdir()
    (tmp_path / "numpy" / "__init__.py").write_text("raise ImportError('not this one')\n")
    info = tmp_path / "numpy-2.5.1.dist-info"
    info.mkdir()
    (info / "WHEEL").write_text(f"Wheel-Version: 1.0\nGenerator: meson\nTag: {tag}\n")
    code = "from kmetric_gui import cpu; print(cpu._numpy_wheel())"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), ROOT])))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(expected)
