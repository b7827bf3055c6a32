"""Smoke test of the PyInstaller bundle (skipped unless KMETRIC_BUNDLE names it).

    KMETRIC_BUNDLE=dist/kmetric-gui .venv/bin/python -m pytest tests/test_bundle.py
"""
import json
import os
import subprocess
from pathlib import Path

import pytest

BUNDLE = os.environ.get("KMETRIC_BUNDLE")
ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "resources" / "demo"
pytestmark = pytest.mark.skipif(not BUNDLE, reason="set KMETRIC_BUNDLE to the built bundle folder")


def exe(name):
    path = Path(BUNDLE) / (name + (".exe" if os.name == "nt" else ""))
    assert path.exists(), f"{path} missing: build it with bash build/build.sh"
    return str(path)


def run(*args, env=None):
    return subprocess.run(list(map(str, args)), capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta"])
def test_frozen_cli_json(metric):
    r = run(exe("kmetric"), "score", DEMO / f"{metric}_solution.csv",
            DEMO / f"{metric}_submission.csv", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    from kmetric_gui.scoring import score_files
    want = score_files(DEMO / f"{metric}_solution.csv", DEMO / f"{metric}_submission.csv")
    assert d["metric"] == metric and d["score"] == pytest.approx(want.score)


def test_frozen_cli_bad_file(tmp_path):
    bad = tmp_path / "empty.csv"
    bad.write_text("")
    r = run(exe("kmetric"), "score", DEMO / "qwk_solution.csv", bad)
    assert r.returncode == 2
    assert "empty.csv: file is empty" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("metric", ["qwk", "fbeta"])
def test_frozen_gui_demo_screenshot(tmp_path, metric):
    png = tmp_path / "shot.png"
    r = run(exe("kmetric-gui"), "--demo", metric, "--screenshot", png,
            env={"QT_QPA_PLATFORM": "offscreen", "KMETRIC_SETTINGS": str(tmp_path / "s.ini")})
    assert r.returncode == 0, r.stderr
    assert png.exists() and png.stat().st_size > 20_000
