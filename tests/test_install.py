"""The package as users install it: build the wheel from a copy of the sources, install it
into a fresh virtual environment and run both commands from there.

The new environment gets the package only (--no-deps); numpy, pandas, PySide6 and the rest
come from the running interpreter's site-packages through a .pth line, so the test needs
no network and takes seconds. Marked slow; CI runs it with the rest.
"""
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("kmetric_gui", "resources", "docs", "pyproject.toml", "setup.py", "MANIFEST.in",
           "README.md", "LICENSE", "CHANGELOG.md", "CONTRIBUTING.md")
pytestmark = pytest.mark.slow


def _setuptools_ok():
    try:
        import setuptools
    except ImportError:
        return False
    return int(setuptools.__version__.split(".")[0]) >= 77


def run(cmd, cwd, timeout=300):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(QT_QPA_PLATFORM="offscreen", KMETRIC_SETTINGS=str(Path(cwd) / "s.ini"))
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel, built as `python -m build` does: an sdist from a copy of the sources (the
    build writes build/ folders), then the wheel from that sdist (MANIFEST.in decides what
    the sdist holds, so a file it leaves out is missing from the wheel too)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in SOURCES:
        p = ROOT / name
        if p.is_dir():
            shutil.copytree(p, src / name, ignore=ignore)
        else:
            shutil.copy2(p, src / name)
    offline = ["--no-build-isolation"] if _setuptools_ok() else []   # else pip fetches setuptools
    source = src
    if offline:
        sdist = "import setuptools.build_meta as b; print(b.build_sdist('sdist'))"
        r = run([sys.executable, "-c", sdist], src)
        assert r.returncode == 0, r.stdout + r.stderr
        source = src / "sdist" / r.stdout.strip().splitlines()[-1]
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-v",
           "-w", tmp / "dist", source, *offline]
    r = run(cmd, tmp)
    assert r.returncode == 0, r.stdout + r.stderr
    # e.g. "`project.license` as a TOML table is deprecated" (shown by -v, hidden by -q)
    deprecated = [line for line in (r.stdout + r.stderr).splitlines() if "deprecat" in line.lower()]
    assert not deprecated, deprecated
    (found,) = (tmp / "dist").glob("kmetric_gui-*.whl")
    return found


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory):
    """A fresh venv with the wheel installed and the running interpreter's packages visible."""
    tmp = tmp_path_factory.mktemp("venv")
    env_dir = tmp / "venv"
    r = run([sys.executable, "-m", "venv", "--without-pip", env_dir], tmp)
    assert r.returncode == 0, r.stderr
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / ("python.exe" if os.name == "nt" else "python")
    purelib = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp)
    site = Path(purelib.stdout.strip())
    # After the venv's own site-packages: the installed wheel wins over any other copy.
    (site / "shared_packages.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    r = run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps",
             "--disable-pip-version-check", "-q", wheel], tmp)
    assert r.returncode == 0, r.stdout + r.stderr
    return {"python": python, "bin": bindir, "site": site, "tmp": tmp}


def command(venv, name):
    return venv["bin"] / (name + (".exe" if os.name == "nt" else ""))


def test_wheel_carries_resources_license_and_types(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta = next(z.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    for metric in ("qwk", "lwlrap", "fbeta"):
        for part in ("solution", "submission"):
            assert f"kmetric_gui/resources/demo/{metric}_{part}.csv" in names
    assert {"kmetric_gui/resources/kmetric.png", "kmetric_gui/resources/kmetric-gui.desktop",
            "kmetric_gui/py.typed", "kmetric_gui/resources/docs/metrics.md"} <= names
    for example in ("kl_divergence.py", "mean_column_auc.py", "balanced_log_loss.py", "kl_solution.csv"):
        assert f"kmetric_gui/resources/metrics/{example}" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "License-Expression: MIT" in meta
    from kmetric_gui import __version__
    assert f"Version: {__version__}" in meta


def test_installed_package_finds_its_own_resources(venv):
    r = run([venv["python"], "-c", "import kmetric_gui, kmetric_gui.paths as p; "
             "print(kmetric_gui.__file__); print(p.resources_dir())"], venv["tmp"])
    assert r.returncode == 0, r.stderr
    package, resources = (Path(line) for line in r.stdout.split("\n")[:2])
    assert venv["site"] in package.parents, "the test imported another copy of kmetric_gui"
    assert resources == package.parent / "resources"
    assert (resources / "demo" / "qwk_solution.csv").is_file()


def test_installed_kmetric_scores_the_demo(venv):
    demo = venv["site"] / "kmetric_gui" / "resources" / "demo"
    for metric in ("qwk", "lwlrap", "fbeta"):
        truth, sub = demo / f"{metric}_solution.csv", demo / f"{metric}_submission.csv"
        r = run([command(venv, "kmetric"), "score", truth, sub, "--json"], venv["tmp"])
        assert r.returncode == 0, r.stderr
        from kmetric_gui.analysis.scoring import score_files
        got = json.loads(r.stdout)
        assert got["metric"] == metric and got["score"] == pytest.approx(score_files(truth, sub).score)


def test_installed_help_shows_the_real_page(venv):
    """Help (F1) shows docs/metrics.md when installed too, not the short fallback list."""
    r = run([venv["python"], "-c", "from kmetric_gui.gui.dialogs import help_markdown; "
             "import sys; sys.stdout.reconfigure(encoding='utf-8'); print(help_markdown(), end='')"],
            venv["tmp"])
    assert r.returncode == 0, r.stderr
    assert r.stdout == (ROOT / "docs" / "metrics.md").read_text(encoding="utf-8")


def test_installed_kmetric_runs_the_installed_example_metric_file(venv):
    """The example metric files ship in the wheel and run through the installed script: the
    number is KL divergence computed here from the CSVs (mean over rows of sum t*log(t/p))."""
    import csv
    import math
    ex = venv["site"] / "kmetric_gui" / "resources" / "metrics"
    r = run([command(venv, "kmetric"), "score", ex / "kl_solution.csv", ex / "kl_submission.csv",
             "--metric-file", ex / "kl_divergence.py", "--json"], venv["tmp"])
    assert r.returncode == 0, r.stderr
    with open(ex / "kl_solution.csv") as f:
        truth = {row["id"]: row for row in csv.DictReader(f)}
    with open(ex / "kl_submission.csv") as f:
        pred = {row["id"]: row for row in csv.DictReader(f)}
    cols = [c for c in next(iter(pred.values())) if c != "id"]
    want = sum(sum(float(truth[i][c]) * math.log(float(truth[i][c]) / float(pred[i][c]))
                   for c in cols if float(truth[i][c]) > 0) for i in truth) / len(truth)
    assert json.loads(r.stdout)["score"] == pytest.approx(want, rel=1e-9)


def test_installed_gui_version(venv):
    from kmetric_gui import __version__
    r = run([command(venv, "kmetric-gui"), "--version"], venv["tmp"])
    assert r.returncode == 0, r.stderr
    # A gui-script on Windows runs without a console: its output may not reach a pipe.
    assert r.stdout.strip() == f"kmetric-gui {__version__}" or (os.name == "nt" and not r.stdout)


def test_installed_gui_demo_screenshot(venv):
    png = venv["tmp"] / "shot.png"
    r = run([command(venv, "kmetric-gui"), "--demo", "lwlrap", "--screenshot", png], venv["tmp"])
    assert r.returncode == 0, r.stderr
    assert png.stat().st_size > 20_000
    assert "not found" not in r.stderr.lower()


def _without_pandas(tmp_path, code):
    """Run code in a fresh interpreter where `import pandas` fails, as if it were not installed."""
    hide = ("import sys\n"
            "class NoPandas:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] == 'pandas':\n"
            "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
            "sys.meta_path.insert(0, NoPandas())\n")
    r = run([sys.executable, "-c", hide + code], tmp_path)
    assert "pandas" not in r.stderr, r.stderr
    return r


def test_pandas_is_not_a_runtime_dependency(tmp_path):
    """pandas is only a test and bench extra: scoring CSV and Parquet pairs (with the fix-first
    list and an interval) and the app's demo screenshots work where it cannot be imported."""
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq
    demo = ROOT / "resources" / "demo"
    pairs = []
    for metric in ("qwk", "lwlrap", "fbeta"):
        pair = []
        for part in ("solution", "submission"):
            pair.append(tmp_path / f"{metric}_{part}.parquet")
            pq.write_table(pcsv.read_csv(demo / f"{metric}_{part}.csv"), pair[-1])
        pairs += [(demo / f"{metric}_solution.csv", demo / f"{metric}_submission.csv"), tuple(pair)]
    flags = "'--json', '--top-fixes', '3', '--ci', '0.9', '--bootstrap', '50'"
    r = _without_pandas(tmp_path, "from kmetric_gui.cli import main\n" + "".join(
        f"assert main(['score', {str(a)!r}, {str(b)!r}, {flags}]) == 0\n" for a, b in pairs))
    assert r.returncode == 0, r.stderr
    assert r.stdout.count('"top_fixes"') == len(pairs)
    for metric in ("qwk", "lwlrap", "fbeta"):
        shot = tmp_path / f"{metric}.png"
        argv = ["kmetric-gui", "--demo", metric, "--screenshot", str(shot)]
        r = _without_pandas(tmp_path, f"from kmetric_gui.gui.app import main\nsys.argv = {argv!r}\n"
                            "sys.exit(main())\n")
        assert r.returncode == 0, r.stderr
        assert shot.stat().st_size > 20_000
        assert "QObject::connect" not in r.stderr, r.stderr     # pyqtgraph 0.13 on Qt 6.8+

def test_numeric_arrow_columns_become_numpy_without_pandas():
    """plain_array maps Arrow's numeric types as pyarrow's to_pandas_dtype does (the reference),
    without calling it: pyarrow 17's imports pandas and fails when it is missing."""
    import numpy as np
    import pyarrow as pa
    from kmetric_gui.numbers import plain_array
    for t in (pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint16(), pa.uint32(),
              pa.uint64(), pa.float32(), pa.float64()):
        values = [1, 2, 3] if not pa.types.is_floating(t) else [1.5, 2.0, 3.0]
        arr = pa.array(values, type=t).slice(1)
        got = plain_array(arr)
        assert got.dtype == np.dtype(t.to_pandas_dtype()) and got.tolist() == values[1:], t


def test_wheel_needs_pandas_only_for_tests_and_bench(wheel):
    with zipfile.ZipFile(wheel) as z:
        meta = next(z.read(n).decode() for n in z.namelist() if n.endswith(".dist-info/METADATA"))
    pandas = [ln for ln in meta.splitlines() if ln.startswith("Requires-Dist: pandas")]
    assert pandas and all("extra ==" in ln for ln in pandas), pandas
    extras = {ln.split(":", 1)[1].strip() for ln in meta.splitlines() if ln.startswith("Provides-Extra:")}
    assert {"test", "build", "bench"} <= extras


def test_a_deleted_module_leaves_the_next_wheel(tmp_path):
    """pip builds in the source tree and setuptools reuses build/lib: a module deleted since
    the last build must not ship in the next wheel."""
    if not _setuptools_ok():
        pytest.skip("needs setuptools 77+ in this environment (builds without isolation)")
    src = tmp_path / "src"
    shutil.copytree(ROOT / "kmetric_gui", src / "kmetric_gui",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copytree(ROOT / "resources", src / "resources")
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "docs/metrics.md"):
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)
    gone = src / "kmetric_gui" / "gone_module.py"
    gone.write_text("x = 1\n")
    names = []
    for step in ("with", "without"):
        if step == "without":
            gone.unlink()
        out = tmp_path / step
        r = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                 "--disable-pip-version-check", "-q", "-w", out, src], tmp_path)
        assert r.returncode == 0, r.stdout + r.stderr
        (whl,) = out.glob("*.whl")
        with zipfile.ZipFile(whl) as z:
            names.append(set(z.namelist()))
    assert "kmetric_gui/gone_module.py" in names[0] and (src / "build" / "lib").is_dir()
    assert "kmetric_gui/gone_module.py" not in names[1]
    assert "kmetric_gui/cli/__init__.py" in names[1]


def test_lower_bounds_pin_the_declared_floors():
    """build/lower-bounds.txt (CI's lower-bounds leg) pins exactly pyproject's floors."""
    tomllib = pytest.importorskip("tomllib")
    import re
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    floors = {}
    for dep in deps:
        name, floor = re.match(r"([A-Za-z0-9_.-]+)\s*>=\s*([0-9.]+)", dep).groups()
        floors[name.lower()] = floor
    pins = {}
    for line in (ROOT / "build" / "lower-bounds.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[name.strip().lower()] = version.strip()
    assert set(pins) == set(floors)
    for name, floor in floors.items():
        want = tuple(int(x) for x in floor.split("."))
        got = tuple(int(x) for x in pins[name].split("."))
        assert got[:len(want)] == want and not any(got[len(want):]), (name, floor, pins[name])
