"""Frames become Arrow without copying numeric columns; km.open writes a project the app
opens with the same data and options."""
import json
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import kmetric_gui as km
from helpers import ROOT, demo
from kmetric_gui.api.inputs import to_table


def test_numpy_backed_columns_are_wrapped_not_copied():
    n = 1000
    df = pd.DataFrame({"id": np.arange(n), "y": np.linspace(0, 1, n), "k": np.arange(n) % 3})
    table, kind = to_table(df, "submission")
    assert kind == "DataFrame"
    for name in ("y", "k"):
        arrow = table.column(name).chunk(0)
        assert arrow.buffers()[1].address == df[name].to_numpy(copy=False).ctypes.data, name
    a = np.random.default_rng(0).random(n)
    table, _ = to_table(a, "solution")
    assert table.column("target").chunk(0).buffers()[1].address == a.ctypes.data


def test_arrow_backed_pandas_columns_stay_arrow():
    pa = pytest.importorskip("pyarrow")
    y = pa.array(np.linspace(0, 1, 100))
    df = pd.DataFrame({"id": pd.Series(np.arange(100).astype(str), dtype="string[pyarrow]"),
                       "y": pd.Series(pd.arrays.ArrowExtensionArray(y))})
    table, _ = to_table(df, "submission")
    assert table.column("y").chunk(0).buffers()[1].address == y.buffers()[1].address


def test_a_named_index_booleans_and_categories():
    df = pd.DataFrame({"y": [True, False, True], "c": pd.Categorical(["a", "b", "a"])},
                      index=pd.Index(["r1", "r2", "r3"], name="id"))
    table, _ = to_table(df, "solution")
    assert table.column_names == ["id", "y", "c"]
    assert table.column("y").to_pylist() == [1, 0, 1]
    assert table.column("c").to_pylist() == ["a", "b", "a"]


def project_of(result, tmp_path):
    from kmetric_gui.api.launch import project_for
    path, notes = project_for(result, str(tmp_path))
    return path, json.loads(open(path, encoding="utf-8").read()), notes


def test_open_writes_frames_and_the_options_into_a_project(tmp_path):
    sol, sub, _ = demo("qwk")
    s, u = pd.read_csv(sol, dtype={"id_code": str}), pd.read_csv(sub, dtype={"id_code": str})
    r = km.score(s, u, "qwk", weights="linear")
    path, proj, notes = project_of(r, tmp_path)
    assert proj["options"]["metric"] == "qwk" and proj["options"]["weights"] == "linear"
    written = [os.path.join(tmp_path, proj["files"][k]["path"]) for k in ("truth", "submission")]
    assert all(p.endswith(".parquet") and os.path.isfile(p) for p in written)
    assert len(notes) == 2 and "written to" in notes[0]
    again = km.score(*written, "qwk", weights="linear")
    assert again.score == r.score                  # the app reads the very same data


def test_open_refuses_a_function_in_words(tmp_path):
    sol, sub, _ = demo("rmse")

    def f(solution, submission, row_id_column_name):
        return 1.0
    r = km.score(sol, sub, f, higher_is_better=True)
    with pytest.raises(km.InvalidInput, match="runs only in this process"):
        project_of(r, tmp_path)


def test_the_app_opens_the_project(tmp_path):
    """kmetric-gui PROJECT.kmetric scores the project's files with its options (offscreen
    screenshot mode: exit 0 once scored)."""
    sol, sub, _ = demo("rmse")
    r = km.score(pd.read_csv(sol), pd.read_csv(sub), "rmse")
    path, _, _ = project_of(r, tmp_path)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path))
    shot = tmp_path / "app.png"
    done = subprocess.run([sys.executable, "-m", "kmetric_gui", path, "--screenshot", str(shot),
                           "--size", "1280x720", "--timeout", "60"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert shot.stat().st_size > 10_000
