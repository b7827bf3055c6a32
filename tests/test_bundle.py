"""Smoke test of the PyInstaller bundle, and of the checks it relies on.

    KMETRIC_BUNDLE=dist/kmetric-gui .venv/bin/python -m pytest tests/test_bundle.py

Without KMETRIC_BUNDLE the bundle tests are skipped; the others run the same commands from
the source tree (`python -m kmetric_gui`), so the screenshot exit codes, the font check and
the OpenGL stand-ins the bundle uses are tested on every run.
"""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

BUNDLE = os.environ.get("KMETRIC_BUNDLE")
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


@needs_bundle
def test_bundle_carries_pandas_for_metric_files():
    """pandas is in the bundle for one reason: a metric file's worker hands score() DataFrames
    (the app's and the CLI's own processes never import it: test below)."""
    found = [p for p in Path(BUNDLE).rglob("pandas") if p.is_dir()]
    assert found


def test_built_in_scoring_never_imports_pandas():
    code = ("import sys; from kmetric_gui.cli import main; "
            f"main(['score', {str(DEMO / 'qwk_solution.csv')!r}, {str(DEMO / 'qwk_submission.csv')!r}]); "
            "print('pandas' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith("False")


def test_pack_ships_the_bundle_only(tmp_path):
    """build/pack.py packs the bundle, not a wheel or sdist that `pip wheel -w dist .` left in
    dist/, nor earlier archives or the onefile folder."""
    import tarfile
    import zipfile
    sys.path.insert(0, str(ROOT / "build"))
    try:
        import pack
    finally:
        sys.path.remove(str(ROOT / "build"))
    dist = tmp_path / "dist"
    (dist / "kmetric-gui" / "_internal").mkdir(parents=True)
    (dist / "kmetric-gui" / "kmetric-gui").write_text("app")
    (dist / "kmetric-gui" / "_internal" / "lib.so").write_text("lib")
    (dist / "onefile").mkdir()
    (dist / "onefile" / "kmetric").write_text("cli")
    for stray in ("kmetric_gui-0.2.0-py3-none-any.whl", "kmetric_gui-0.2.0.tar.gz",
                  "kmetric-gui-0.1.0-linux-x86_64.tar.gz", "notes.txt"):
        (dist / stray).write_text("x")
    out = pack.pack(dist)
    if out.suffix == ".zip":
        with zipfile.ZipFile(out) as z:
            names = z.namelist()
    else:
        with tarfile.open(out) as t:
            names = t.getnames()
    top = out.name.split(".tar.gz")[0].removesuffix(".zip")
    assert sorted(n.replace("\\", "/") for n in names if n.count("/") <= 2) == [
        f"{top}/kmetric-gui", f"{top}/kmetric-gui/_internal", f"{top}/kmetric-gui/kmetric-gui"]


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
