"""Smoke test of the PyInstaller bundle, and of the checks it relies on.

    KMETRIC_BUNDLE=dist/kmetric-gui .venv/bin/python -m pytest tests/test_bundle.py

Without KMETRIC_BUNDLE the bundle tests are skipped; the others run the same commands from
the source tree (`python -m kmetric_gui`), so the screenshot exit codes, the font check and
the OpenGL stand-ins the bundle uses are tested on every run, as are the release's pieces
(build/pack.py, build/licenses.py, build/bundle_info.py) with the platform faked.
With it, the README's and docs' command blocks also run through the bundle
(tests/docs_commands.py), and its licence texts, help page and examples are checked.
build/release.sh runs this file on each unpacked archive.
"""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from docs_commands import Runner, all_blocks

BUNDLE = os.environ.get("KMETRIC_BUNDLE")
DOC_BLOCKS = all_blocks()
ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "resources" / "demo"
needs_bundle = pytest.mark.skipif(not BUNDLE, reason="set KMETRIC_BUNDLE to the built bundle folder")
# The bundled app is windowed on Windows and macOS: it has no stderr to read there.
SILENT_GUI = bool(BUNDLE) and sys.platform in ("win32", "darwin")
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fontconfig is Linux's")


def exe(name):
    path = Path(BUNDLE) / (name + (".exe" if os.name == "nt" else ""))
    assert path.exists(), f"{path} missing: build it with bash build/build.sh"
    return str(path)


def gui_command():
    return [exe("kmetric-gui")] if BUNDLE else [sys.executable, "-m", "kmetric_gui"]


def run(*args, env=None):
    return subprocess.run(list(map(str, args)), capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


def gui_env(tmp_path, **extra):
    return {"QT_QPA_PLATFORM": "offscreen", "KMETRIC_SETTINGS": str(tmp_path / "s.ini"), **extra}


@needs_bundle
@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta"])
def test_frozen_cli_json(metric):
    r = run(exe("kmetric"), "score", DEMO / f"{metric}_solution.csv",
            DEMO / f"{metric}_submission.csv", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    from kmetric_gui.analysis.scoring import score_files
    want = score_files(DEMO / f"{metric}_solution.csv", DEMO / f"{metric}_submission.csv")
    assert d["metric"] == metric and d["score"] == pytest.approx(want.score)


@needs_bundle
def test_frozen_cli_parquet(tmp_path):
    """pyarrow's Parquet reader works with what the spec leaves out (substrait, ORC, flight)."""
    pd = pytest.importorskip("pandas")
    files = []
    for part in ("solution", "submission"):
        files.append(tmp_path / f"qwk_{part}.parquet")
        pd.read_csv(DEMO / f"qwk_{part}.csv").to_parquet(files[-1])
    r = run(exe("kmetric"), "score", *files, "--json")
    assert r.returncode == 0, r.stderr
    from kmetric_gui.analysis.scoring import score_files
    assert json.loads(r.stdout)["score"] == pytest.approx(score_files(*files).score)


@needs_bundle
def test_frozen_cli_bad_file(tmp_path):
    bad = tmp_path / "empty.csv"
    bad.write_text("")
    r = run(exe("kmetric"), "score", DEMO / "qwk_solution.csv", bad)
    assert r.returncode == 2
    assert "empty.csv: file is empty" in r.stderr and "Traceback" not in r.stderr


@needs_bundle
@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta"])
def test_frozen_gui_demo_screenshot(tmp_path, metric):
    png = tmp_path / "shot.png"
    r = run(exe("kmetric-gui"), "--demo", metric, "--screenshot", png, env=gui_env(tmp_path))
    assert r.returncode == 0, r.stderr
    assert png.exists() and png.stat().st_size > 20_000
    assert "Traceback" not in r.stderr


@needs_bundle
def test_frozen_cli_report_draws_with_qt(tmp_path):
    """`kmetric report` draws its plots and PDF with Qt: the CLI carries Qt too."""
    out = tmp_path / "report"
    r = run(exe("kmetric"), "report", DEMO / "qwk_solution.csv", DEMO / "qwk_submission.csv",
            "--out", out, env=gui_env(tmp_path))
    assert r.returncode == 0, r.stderr
    assert (out / "index.html").is_file() and (out / "report.json").is_file()
    assert (out / "report.pdf").read_bytes()[:5] == b"%PDF-"
    assert any((out / "plots").glob("*.png"))


@needs_bundle
@linux_only
def test_frozen_bundle_leaves_out_what_it_never_loads():
    """The onedir bundle stays under 300 MB and carries none of the stacks it never loads
    (build/mapped_libs.py shows what a running bundle maps)."""
    folder = Path(BUNDLE)
    if not (folder / "_internal").is_dir():
        pytest.skip("a onedir bundle only")
    files = [p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()]
    assert sum(p.stat().st_size for p in files) < 300e6
    unused = ("libgtk", "libcairo", "libpango", "libkrb5", "libgssapi", "libQt6Wayland",
              "libQt6EglFS", "libQt6Network", "libQt6OpenGL", "libqgtk3", "libqevdev", ".pyx", ".pxd")
    found = [str(p.relative_to(folder)) for p in files if any(u in p.name for u in unused)]
    assert not found


@needs_bundle
def test_frozen_version_matches_package():
    from kmetric_gui import __version__
    r = run(exe("kmetric"), "--version")
    assert r.returncode == 0 and __version__ in r.stdout
    r = run(exe("kmetric-gui"), "--version")         # no display needed, no window
    assert r.returncode == 0 and (SILENT_GUI or r.stdout.strip() == f"kmetric-gui {__version__}")


def test_screenshot_of_invalid_input_exits_2(tmp_path):
    """The window with its validation panel is saved, and the exit code says the input was bad."""
    bad = tmp_path / "sub.csv"
    bad.write_text("id_code,diagnosis\nnot-an-id,1\n")
    png = tmp_path / "shot.png"
    r = run(*gui_command(), DEMO / "qwk_solution.csv", bad, "--screenshot", png,
            env=gui_env(tmp_path))
    assert r.returncode == 2, r.stderr
    assert SILENT_GUI or ("missing" in r.stderr and "Traceback" not in r.stderr)
    assert png.exists() and png.stat().st_size > 20_000


@linux_only
@pytest.mark.parametrize("config", ["empty", "no-fonts"])
def test_screenshot_fails_when_text_cannot_render(tmp_path, config):
    """No fonts, or a fontconfig configuration that finds none: every character would be
    the same empty box, so the screenshot is refused (exit 1, one line saying what to install)."""
    conf = tmp_path / "fonts.conf"
    folder = tmp_path / "no-fonts"
    folder.mkdir()
    body = "" if config == "empty" else f"<dir>{folder}</dir><cachedir>{tmp_path}</cachedir>"
    conf.write_text(f'<?xml version="1.0"?>\n<fontconfig>{body}</fontconfig>\n')
    png = tmp_path / "shot.png"
    r = run(*gui_command(), "--demo", "qwk", "--screenshot", png,
            env=gui_env(tmp_path, FONTCONFIG_FILE=str(conf)))
    assert r.returncode == 1, r.stderr
    assert "fonts-dejavu-core" in r.stderr and "Traceback" not in r.stderr
    assert not png.exists()


@linux_only
def test_text_check_passes_with_fonts(tmp_path):
    png = tmp_path / "shot.png"
    r = run(*gui_command(), "--screenshot", png, env=gui_env(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "font" not in r.stderr


TOUR = textwrap.dedent("""
    import runpy, sys
    runpy.run_path(sys.argv[1])            # the bundle's runtime hook, before any Qt import
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication, QTabWidget
    from kmetric_gui.gui.app import create_window, parse_args
    app = QApplication([])
    shown = 0
    for metric in ("qwk", "lwlrap", "fbeta"):
        loop = QEventLoop()
        QTimer.singleShot(60_000, loop.quit)
        win = create_window(parse_args(["--demo", metric]))
        win.scored.connect(lambda *_: loop.quit())
        win.failed.connect(lambda msg: sys.exit("failed: " + msg))
        win.show()
        loop.exec()
        for tabs in win.findChildren(QTabWidget):
            for i in range(tabs.count()):
                tabs.setCurrentIndex(i)
                app.processEvents()
                assert not tabs.widget(i).grab().isNull()
                shown += 1
        win.discard_and_close()
    for name in ("PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets"):
        assert "left out" in sys.modules[name].__doc__, name
    maps = open("/proc/self/maps").read()
    assert "libQt6OpenGL" not in maps, "the real QtOpenGL was loaded"
    print("tabs shown", shown)
""")


@linux_only
def test_every_view_runs_without_qt_opengl(tmp_path):
    """The bundle leaves QtOpenGL and QtOpenGLWidgets out and gives pyqtgraph stand-ins
    (build/rthooks/no_opengl.py): every tab of every view, on each demo, draws without them."""
    hook = ROOT / "build" / "rthooks" / "no_opengl.py"
    r = subprocess.run([sys.executable, "-c", TOUR, str(hook)], capture_output=True, text=True,
                       timeout=300, env={**os.environ, **gui_env(tmp_path)}, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert int(r.stdout.split("tabs shown")[1]) >= 3
    assert "Traceback" not in r.stderr and "OpenGL is not included" not in r.stderr


def bundled_names():
    """The files inside the bundle, as paths relative to its root (what sys._MEIPASS holds):
    a folder bundle's _internal (or the macOS app's Resources), a one-file bundle's archive."""
    folder = Path(BUNDLE)
    inner = folder / "_internal"
    if inner.is_dir():
        return {p.relative_to(inner).as_posix() for p in inner.rglob("*") if p.is_file()}
    readers = pytest.importorskip("PyInstaller.archive.readers",
                                  reason="PyInstaller lists a one-file bundle (pip install -e .[build])")
    return set(readers.CArchiveReader(exe("kmetric")).toc)


@needs_bundle
def test_bundle_carries_pandas_for_metric_files():
    """pandas is in the bundle for one reason: a metric file's worker hands score() DataFrames
    (the app's and the CLI's own processes never import it: test below). A folder bundle
    and a one-file bundle both."""
    assert any(n.startswith("pandas/") for n in bundled_names())


@needs_bundle
def test_bundle_carries_the_licence_texts():
    """Every bundled package's licence, CPython's, Qt's LGPL and this project's LICENSE are
    inside the bundle (licenses/, build/licenses.py) and beside the executables."""
    import importlib.metadata as md
    names = bundled_names()
    licences = {n.split("/", 2)[1] for n in names if n.startswith("licenses/") and n.count("/") >= 2}
    assert {"kmetric_gui", "python", "pyside6-essentials", "shiboken6", "numpy", "pyarrow",
            "pandas", "pyqtgraph", "psygnal", "pyinstaller"} <= licences, licences
    # Each package folder found inside, mapped to its distribution by this environment's
    # metadata (not the build's RECORD walk), has its folder of texts.
    owners = md.packages_distributions()
    tops = {n.split("/")[0] for n in names if "/" in n} - {"licenses", "kmetric_gui", "base_library.zip"}
    dists = {d for top in tops for d in owners.get(top, [])}
    norm = {d.lower().replace("_", "-").replace(".", "-") for d in dists}
    assert norm - {"kmetric-gui"} <= licences, sorted(norm - licences)
    beside = Path(BUNDLE)
    assert (beside / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()
    index = (beside / "licenses" / "README.txt").read_text()
    assert "GNU Lesser General Public License version 3" in index
    lgpl = (beside / "licenses" / "pyside6-essentials" / "LGPL-3.0.txt").read_text()
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in lgpl
    (python,) = (beside / "licenses" / "python").iterdir()
    assert "python software foundation" in python.read_text(errors="replace").lower()


@needs_bundle
def test_bundle_carries_the_help_page_and_example_metric_files():
    names = bundled_names()
    assert "kmetric_gui/resources/docs/metrics.md" in names
    for example in ("kl_divergence.py", "mean_column_auc.py", "balanced_log_loss.py"):
        assert f"kmetric_gui/resources/metrics/{example}" in names


@needs_bundle
@pytest.mark.parametrize("block", DOC_BLOCKS, ids=[b.name for b in DOC_BLOCKS])
def test_frozen_docs_commands(block, tmp_path):
    """The README's and docs' command blocks through the bundle's executables
    (tests/docs_commands.py; the same blocks run through the installed scripts in
    tests/test_docs_commands.py)."""
    if block.linux_only and not sys.platform.startswith("linux"):
        pytest.skip("a freedesktop menu entry: Linux only")
    Runner(tmp_path, bundle=BUNDLE).run(block)
    link = tmp_path / "home" / ".local" / "bin" / "kmetric"
    if link.is_symlink():          # the menu entry's links start the bundle from elsewhere
        r = run(link, "--version")
        assert r.returncode == 0 and "kmetric " in r.stdout, r.stderr


def test_built_in_scoring_never_imports_pandas():
    code = ("import sys; from kmetric_gui.cli import main; "
            f"main(['score', {str(DEMO / 'qwk_solution.csv')!r}, {str(DEMO / 'qwk_submission.csv')!r}]); "
            "print('pandas' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith("False")


def build_module(name):
    sys.path.insert(0, str(ROOT / "build"))
    try:
        return __import__(name)
    finally:
        sys.path.remove(str(ROOT / "build"))


def _fake_dist(tmp_path):
    dist = tmp_path / "dist"
    (dist / "kmetric-gui" / "_internal").mkdir(parents=True)
    (dist / "kmetric-gui" / "kmetric-gui").write_text("app")
    (dist / "kmetric-gui" / "kmetric-gui").chmod(0o755)
    (dist / "kmetric-gui" / "_internal" / "lib.so").write_text("lib")
    (dist / "kmetric-gui" / "LICENSE").write_text("MIT")
    (dist / "kmetric-gui" / "licenses").mkdir()
    (dist / "kmetric-gui" / "licenses" / "README.txt").write_text("index")
    (dist / "onefile" / "licenses").mkdir(parents=True)
    (dist / "onefile" / "kmetric").write_text("cli")
    (dist / "onefile" / "kmetric-gui").write_text("app")
    (dist / "onefile" / "LICENSE").write_text("MIT")
    (dist / "onefile" / "licenses" / "README.txt").write_text("index")
    for stray in ("kmetric_gui-0.2.0-py3-none-any.whl", "kmetric_gui-0.2.0.tar.gz",
                  "kmetric-gui-0.1.0-linux-x86_64.tar.gz", "notes.txt"):
        (dist / stray).write_text("x")
    return dist


@pytest.mark.parametrize("system", ["linux", "win32", "darwin"])
def test_pack_ships_the_bundle_and_its_licences_only(tmp_path, monkeypatch, system):
    """build/pack.py packs the bundle with LICENSE and licenses/, not a wheel or sdist that
    `pip wheel -w dist .` left in dist/, nor earlier archives or the onefile folder; a zip
    on Windows, a tar.gz elsewhere, named as the upload list expects, and unpacked again
    as a user would (the release's smoke test runs on that)."""
    pack = build_module("pack")
    monkeypatch.setattr(sys, "platform", system)
    dist = _fake_dist(tmp_path)
    onedir, onefile = pack.pack(dist), pack.pack(dist / "onefile")
    assert [onedir.name, onefile.name] == pack.expected()
    want_suffix = ".zip" if system == "win32" else ".tar.gz"
    assert onedir.name.endswith(want_suffix) and onefile.parent == dist
    assert {"win32": "-windows-", "darwin": "-macos-", "linux": "-linux-"}[system] in onedir.name
    top = pack.unpack(onedir, tmp_path / "check")
    assert top.name == onedir.name.removesuffix(want_suffix)
    assert sorted(p.relative_to(top).as_posix() for p in top.rglob("*")) == [
        "kmetric-gui", "kmetric-gui/LICENSE", "kmetric-gui/_internal", "kmetric-gui/_internal/lib.so",
        "kmetric-gui/kmetric-gui", "kmetric-gui/licenses", "kmetric-gui/licenses/README.txt"]
    if os.name == "posix" and system != "win32":          # a zip made on Windows has no modes
        assert os.access(top / "kmetric-gui" / "kmetric-gui", os.X_OK)
    top = pack.unpack(onefile, tmp_path / "check1")
    assert sorted(p.name for p in top.iterdir()) == ["LICENSE", "kmetric", "kmetric-gui", "licenses"]
    # The upload list: exactly the two archives (the stray ones of earlier runs are refused).
    assert not pack.check_upload(dist)
    for stray in dist.glob("*"):
        if stray.is_file() and stray.name not in pack.expected():
            stray.unlink()
    assert pack.check_upload(dist)


@pytest.mark.skipif(os.name != "posix", reason="symbolic links in the tar.gz: the Linux bundle's kmetric")
def test_unpacked_archive_keeps_the_kmetric_link(tmp_path):
    pack = build_module("pack")
    dist = _fake_dist(tmp_path)
    (dist / "kmetric-gui" / "kmetric").symlink_to("kmetric-gui")
    top = pack.unpack(pack.pack(dist), tmp_path / "check")
    link = top / "kmetric-gui" / "kmetric"
    assert link.is_symlink() and os.readlink(link) == "kmetric-gui"


def test_bundle_info_for_windows_and_macos():
    """The Windows version resource's numbers and the macOS Info.plist (build/bundle_info.py),
    whatever platform runs the test."""
    info = build_module("bundle_info")
    from kmetric_gui import __version__
    assert info.version_numbers("0.2.0") == (0, 2, 0, 0)
    assert info.version_numbers("1.12.3rc4") == (1, 12, 3, 4)
    plist = info.info_plist(__version__)
    assert plist["CFBundleShortVersionString"] == __version__
    assert info.macos_floor(["cp39-abi3-macosx_13_0_universal2", "cp311-cp311-macosx_11_0_arm64"]) == (13, 0)
    assert info.macos_floor(["cp39-abi3-manylinux_2_34_x86_64"]) is None
    minimum = tuple(int(x) for x in plist["LSMinimumSystemVersion"].split("."))
    assert minimum >= (13, 0)              # Qt 6.11's floor (its macOS wheels are macosx_13_0)


def test_macos_minimum_covers_the_installed_qt_wheel():
    """On macOS the installed wheels say which macOS they need: the app may not claim less."""
    import importlib.metadata as md
    info = build_module("bundle_info")
    floors = [info.macos_floor(info.wheel_tags(md.distribution(name)))
              for name in ("PySide6-Essentials", "shiboken6", "numpy", "pyarrow")]
    floors = [f for f in floors if f]
    if not floors:
        pytest.skip("these wheels are not macOS ones: their macOS floor is read on macOS")
    minimum = tuple(int(x) for x in info.MACOS_MINIMUM.split("."))
    assert minimum >= max(floors)


def test_launcher_names_the_packages_when_qt_lacks_a_system_library(tmp_path):
    """The bundle's entry (build/launch.py) on a Linux without libGL: one line naming the
    packages to install and exit 2, not PyInstaller's traceback."""
    code = textwrap.dedent("""
        import runpy, sys
        class NoLibGL:
            def find_spec(self, name, path=None, target=None):
                if name == "PySide6.QtGui":
                    raise ImportError("libGL.so.1: cannot open shared object file: No such file or directory")
        sys.meta_path.insert(0, NoLibGL())
        sys.argv = ["kmetric-gui", "--demo", "--screenshot", sys.argv[1]]
        runpy.run_path(LAUNCH, run_name="__main__")
    """).replace("LAUNCH", repr(str(ROOT / "build" / "launch.py")))
    r = run(sys.executable, "-c", code, tmp_path / "shot.png", env=gui_env(tmp_path))
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "libGL.so.1" in r.stderr and "apt-get install --no-install-recommends libgl1 libegl1" in r.stderr
    # Any other import error is a bug and keeps its traceback.
    other = code.replace('"libGL.so.1: cannot open shared object file: No such file or directory"',
                         '"No module named shiboken6"')
    r = run(sys.executable, "-c", other, tmp_path / "shot.png", env=gui_env(tmp_path))
    assert r.returncode == 1 and "Traceback" in r.stderr and "shiboken6" in r.stderr


@needs_bundle
def test_frozen_metric_worker_starts(tmp_path):
    """A metric file's host process is the bundle's executable started again with
    --kmetric-metric-host: build/launch.py runs the host first of all (here for the
    file's doctests) instead of starting the CLI again."""
    metric = tmp_path / "m.py"
    metric.write_text(textwrap.dedent('''
        def score(solution, submission, row_id_column_name):
            """
            >>> 6 * 7
            42
            """
            return 0.0
        '''))
    r = run(exe("kmetric"), "check-metric", metric)
    assert r.returncode == 0, r.stderr
    assert "m.py: all 1 doctest examples passed" in r.stdout


@needs_bundle
def test_frozen_metric_file_scores_as_from_source(tmp_path):
    """pandas is in the bundle for metric files' workers: the frozen CLI gives the
    number the source tree gives, and the bootstrap's pool starts."""
    res = ROOT / "resources" / "metrics"
    args = ["score", res / "kl_solution.csv", res / "kl_submission.csv", "--metric-file",
            res / "kl_divergence.py", "--json", "--ci", "0.9", "--bootstrap", "100"]
    env = {"KMETRIC_CONFIG_DIR": str(tmp_path)}
    frozen = run(exe("kmetric"), *args, env=env)
    source = run(sys.executable, "-m", "kmetric_gui.cli", *args, env=env)
    assert frozen.returncode == 0 and source.returncode == 0, frozen.stderr + source.stderr
    f, s = json.loads(frozen.stdout), json.loads(source.stdout)
    assert f["score"] == s["score"] and f["ci"] == s["ci"]


def test_licence_texts_gathered_for_what_a_bundle_holds(tmp_path):
    """build/licenses.py maps each collected file to its package (RECORD) and copies that
    package's texts; the standard library is Python's; Qt gets its LGPL kept in
    build/license-texts; a file nobody owns is named in the index."""
    import numpy
    import PySide6
    licenses = build_module("licenses")
    stray = tmp_path / "libstray.so"
    stray.write_text("x")
    sources = [numpy.__file__, PySide6.__file__, os.__file__, str(stray),
               str(ROOT / "kmetric_gui" / "__init__.py")]
    out = licenses.gather(sources, tmp_path / "licenses", "9.9")
    index = (out / "README.txt").read_text()
    assert (out / "kmetric_gui" / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()
    assert "numpy" in index and (out / "numpy").is_dir() and any((out / "numpy").rglob("LICENSE*"))
    assert "GNU LESSER" in (out / "pyside6-essentials" / "LGPL-3.0.txt").read_text()
    assert (out / "pyinstaller").is_dir()
    assert any((out / "python").iterdir()) and "Python " in index
    assert "libstray.so" in index.split("Also from the build system")[1]
    assert not (out / "pandas").exists()                 # only what the bundle holds


def test_gather_refuses_a_package_without_licence_texts(tmp_path, monkeypatch):
    import numpy
    licenses = build_module("licenses")
    monkeypatch.setattr(licenses, "license_files", lambda dist: [])
    with pytest.raises(SystemExit, match="no licence text for numpy"):
        licenses.gather([numpy.__file__], tmp_path / "licenses", "9.9")


@pytest.mark.parametrize("layout", ["posix", "windows", "debian", "none"])
def test_python_licence_found_on_each_layout(tmp_path, monkeypatch, layout):
    """CPython's text beside the standard library (python.org, pyenv, macOS framework), in
    the installation folder (Windows), or Debian's copyright file (its own python3 leaves
    LICENSE.txt out); no text stops the build."""
    licenses = build_module("licenses")
    base, stdlib = tmp_path / "base", tmp_path / "base" / "lib" / "python3.x"
    stdlib.mkdir(parents=True)
    monkeypatch.setattr(sys, "base_prefix", str(base))
    monkeypatch.setattr(licenses.sysconfig, "get_path", lambda name: str(stdlib))
    copyright = tmp_path / "copyright"
    copyright.write_text("PSF")
    monkeypatch.setattr(licenses, "system_packages",
                        lambda paths: {paths[0]: ("libpython3.x-minimal", copyright)}
                        if layout == "debian" else {})
    want = {"posix": stdlib / "LICENSE.txt", "windows": base / "LICENSE.txt", "debian": copyright}
    if layout in ("posix", "windows"):
        want[layout].write_text("PSF")
    if layout == "none":
        with pytest.raises(SystemExit, match="no licence text of Python"):
            licenses.python_license()
    else:
        assert licenses.python_license() == want[layout]


@pytest.mark.skipif(not Path("/var/lib/dpkg/status").exists(),
                    reason="Debian's package database: Debian and Ubuntu only")
def test_system_libraries_get_their_package_copyright():
    licenses = build_module("licenses")
    libc = next(p for pattern in ("lib/*-linux-gnu/libc.so.6", "usr/lib/*-linux-gnu/libc.so.6")
                for p in Path("/").glob(pattern))
    found = licenses.system_packages([str(libc)])
    assert found[str(libc)][0].startswith("libc6") and found[str(libc)][1].is_file()
