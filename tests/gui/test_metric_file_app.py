"""A competition's metric file in the app: dropped on the window, asked about once,
scored as calling score() directly on the pandas frames gives, its arguments in the
Options panel, Cancel killing its process, its errors said with the data kept."""
import importlib.util
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from conftest import wait_scored
from kmetric_gui.metricfile import kaggle_metric_utilities
from kmetric_gui.paths import resources_dir

EXAMPLES = resources_dir() / "metrics"


@pytest.fixture(autouse=True)
def own_config(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("KMETRIC_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))


@pytest.fixture
def mf(window):
    m = window.metric_file
    m.asked = []
    m.ask_run = lambda name, state=None: m.asked.append(name) or True
    m.ask_direction = lambda name: pytest.fail("the direction was asked")
    return m


def direct(metric_py, sol_path, sub_path, **kw):
    """The reference: the file imported here, score() called on pandas frames per split."""
    sys.modules.setdefault("kaggle_metric_utilities", kaggle_metric_utilities)
    spec = importlib.util.spec_from_file_location(f"ref_{Path(metric_py).stem}", metric_py)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    sol = pd.read_csv(sol_path, dtype={"id": str})
    sub = sol[["id"]].merge(pd.read_csv(sub_path, dtype={"id": str}), on="id", how="left")
    masks = {"score": sol["Usage"] != "Ignored", "public": sol["Usage"] == "Public",
             "private": sol["Usage"] == "Private"}
    out = {}
    for name, m in masks.items():
        s = sol[m].drop(columns=["Usage"]).reset_index(drop=True)
        out[name] = mod.score(s.copy(), sub[m.to_numpy()].reset_index(drop=True).copy(), "id", **kw)
    return out


def drop(win, path):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    ev = QDropEvent(QPointF(10, 10), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    win.dropEvent(ev)


def pair(stem):
    return str(EXAMPLES / f"{stem}_solution.csv"), str(EXAMPLES / f"{stem}_submission.csv")


def open_and_score(qtbot, win, m, metric, stem, timeout=60000):
    with qtbot.waitSignal(m.scored, timeout=timeout) as got:
        drop(win, metric)
        win.open_files(*pair(stem))
    return got.args[0]


@pytest.mark.parametrize("metric, stem", [("kl_divergence.py", "kl"), ("balanced_log_loss.py", "bll")])
def test_dropped_metric_file_scores_as_the_direct_call(qtbot, window, mf, metric, stem):
    r = open_and_score(qtbot, window, mf, EXAMPLES / metric, stem)
    ref = direct(EXAMPLES / metric, *pair(stem))
    assert r.fs.score == ref["score"]
    assert r.fs.splits == {"public": ref["public"], "private": ref["private"]}
    assert mf.asked == [metric]                        # asked once, before it ran
    assert mf.panel.score_label.text() == f"{ref['score']:.6f}"
    # a call of a few ms in ms (it said "0.00 s a call")
    assert f"{1000 * r.fs.call_seconds:.1f} ms a call" in mf.panel.status.text()
    assert str(Path(r.fs.source.path).resolve()) in mf.recent()
    # The interval follows, from re-scored resamples (the file is the metric in use: the
    # score panel's); the same file is not asked about again.
    window.options_panel.replicates.setValue(200)
    window.options_panel.splits.setValue(200)
    qtbot.waitUntil(lambda: window.session.stats is not None, timeout=120000)
    assert window.session.results.report.metric == f"file:{metric}"
    ci = window.session.stats.stats.intervals["ci"].to_dict(0)
    assert ci["low"] <= ref["score"] <= ci["high"]
    assert "score panel" in mf.panel.interval.text()
    with qtbot.waitSignal(mf.ready, timeout=60000):
        mf.open(str(EXAMPLES / metric))
    assert mf.asked == [metric]


def test_arguments_in_the_options_panel_are_passed(qtbot, window, mf):
    r = open_and_score(qtbot, window, mf, EXAMPLES / "kl_divergence.py", "kl")
    assert set(mf.args_box.widgets) == {"epsilon", "micro_average"}
    assert mf.args_box.higher_is_better() is False            # the file declares it
    assert r.fs.args == {"epsilon": 1e-15, "micro_average": True}
    w = mf.args_box.widgets["epsilon"]
    with qtbot.waitSignal(mf.scored, timeout=60000) as got:
        w.setText("0.1")
        w.editingFinished.emit()
    ref = direct(EXAMPLES / "kl_divergence.py", *pair("kl"), epsilon=0.1)
    assert got.args[0].fs.args == {"epsilon": 0.1, "micro_average": True}
    assert got.args[0].fs.score == ref["score"] != r.fs.score
    with qtbot.waitSignal(mf.scored, timeout=60000) as got:
        mf.args_box.widgets["micro_average"].setChecked(False)
    assert got.args[0].fs.args == {"epsilon": 0.1, "micro_average": False}
    # A value that does not parse is refused; the one in force stays.
    w.setText("tiny")
    w.editingFinished.emit()
    assert w.text() == "0.1" and mf.args_box.values["epsilon"] == 0.1


def write(tmp_path, body, name="m.py"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(body))
    return p


def test_direction_asked_when_the_file_does_not_say(qtbot, window, mf, tmp_path):
    p = write(tmp_path, """
        def score(solution, submission, row_id_column_name):
            return float((solution['class_0'] - submission['class_0']).abs().mean())
        """)
    mf.ask_direction = lambda name: False
    r = open_and_score(qtbot, window, mf, p, "bll")
    assert r.fs.higher_is_better is False and r.run.higher_is_better is False


def _dead(pid):
    """Ended (or a zombie its parent has not reaped yet), on every platform (psutil)."""
    import psutil
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_cancel_ends_the_job_and_kills_the_worker(qtbot, window, mf, tmp_path):
    pid_file = tmp_path / "pid"
    p = write(tmp_path, f"""
        import os, time
        HIGHER_IS_BETTER = True
        def score(solution, submission, row_id_column_name):
            open({str(pid_file)!r}, 'w').write(str(os.getpid()))
            time.sleep(120)
            return 1.0
        """)
    mf.args_box.set_place(None, "off")        # it writes its pid outside its scratch folder
    wait_scored(qtbot, window, lambda: (drop(window, p), window.open_files(*pair("bll"))))
    qtbot.waitUntil(pid_file.exists, timeout=60000)
    pid = int(pid_file.read_text())
    assert not _dead(pid)
    t0 = time.monotonic()
    with qtbot.waitSignal(window.jobs.ended, timeout=10000,
                          check_params_cb=lambda k, outcome: k == "metricfile"):
        window.controller.cancel()                      # Esc
    qtbot.waitUntil(lambda: _dead(pid), timeout=10000)
    assert time.monotonic() - t0 < 10
    assert "metricfile" not in window.jobs.in_flight()
    assert mf.last is None and mf.panel.score_label.text() == "—"


@pytest.mark.parametrize("body, words, validation", [
    ("""
     from kaggle_metric_utilities import ParticipantVisibleError
     HIGHER_IS_BETTER = True
     def score(solution, submission, row_id_column_name):
         raise ParticipantVisibleError('Submission has the wrong columns')
     """, "Submission has the wrong columns", True),
    ("""
     HIGHER_IS_BETTER = True
     def score(solution, submission, row_id_column_name):
         return 1 / 0
     """, "line 4: ZeroDivisionError", False)])
def test_an_error_in_the_file_is_said_and_the_data_stays(qtbot, window, mf, tmp_path, body, words,
                                                        validation):
    p = write(tmp_path, body)
    wait_scored(qtbot, window, lambda: window.open_files(*pair("bll")))
    data, score_text = window.session.data, window.score_panel.score_label.text()
    with qtbot.waitSignal(mf.failed, timeout=60000) as got:
        drop(window, p)
    assert words in got.args[0] and "m.py" in got.args[0]
    assert words in mf.panel.error.text()
    listed = [window.problems.list.item(i).text() for i in range(window.problems.list.count())]
    assert any(words in line for line in listed)
    assert ("not valid" in window.problems.header.text()) == validation
    assert window.session.data is data                    # nothing the user loaded is lost
    assert window.score_panel.score_label.text() == score_text
    assert window.isVisible()


def test_project_keeps_the_metric_file_path_hash_and_arguments(qtbot, window, mf, tmp_path):
    import json
    import shutil
    folder = tmp_path / "work"
    folder.mkdir()
    metric = Path(shutil.copy(EXAMPLES / "kl_divergence.py", folder / "kl.py"))
    truth, sub = (shutil.copy(p, folder) for p in pair("kl"))
    with qtbot.waitSignal(mf.scored, timeout=60000):
        drop(window, metric)
        window.open_files(truth, sub)
    with qtbot.waitSignal(mf.scored, timeout=60000):
        mf.args_box.widgets["micro_average"].setChecked(False)
    proj = folder / "a.kmetric"
    with qtbot.waitSignal(window.projects.saved, timeout=20000):
        window.projects.save(str(proj))
    saved = json.loads(proj.read_text())["metric_file"]
    import hashlib
    assert saved["path"] == "kl.py"
    assert saved["sha256"] == hashlib.sha256(metric.read_bytes()).hexdigest()
    assert saved["args"] == {"epsilon": 1e-15, "micro_average": False}
    assert saved["higher_is_better"] is False

    mf.close()
    with qtbot.waitSignal(mf.scored, timeout=60000) as got:
        window.projects.open(str(proj))
    ref = direct(metric, truth, sub, micro_average=False)
    assert got.args[0].fs.score == ref["score"]
    assert mf.args_box.values["micro_average"] is False
    assert mf.notes == []

    # The file changed since: said on reopening (and, new content, asked about again).
    metric.write_text(metric.read_text() + "\n# changed\n")
    mf.close()
    with qtbot.waitSignal(mf.scored, timeout=60000):
        window.projects.open(str(proj))
    assert any("changed since the project was saved" in n for n in mf.notes)
    assert mf.asked == ["kl.py", "kl.py"]


def test_compare_and_parity_with_a_metric_file(qtbot, window, mf, tmp_path):
    """Compared submissions: the session's comparison under the file (the metric in use),
    its scores those of the file's score() called here on the files' frames; the table's
    score by the file stands beside the files' score."""
    truth, sub = pair("kl")
    other = tmp_path / "other.csv"
    df = pd.read_csv(sub, dtype={"id": str})
    cols = [c for c in df.columns if c != "id"]
    v = df[cols].to_numpy() * 0.8 + 0.05
    df[cols] = v / v.sum(axis=1, keepdims=True)
    df.to_csv(other, index=False)
    window.options_panel.replicates.setValue(200)
    r = open_and_score(qtbot, window, mf, EXAMPLES / "kl_divergence.py", "kl")
    # The file is the metric in use: the table's score beside the files', like with like.
    qtbot.waitUntil(lambda: "as on disk" in mf.panel.parity.text(), timeout=60000)
    shown = window.session.results.report
    assert shown.metric == "file:kl_divergence.py" and shown.score == r.fs.score
    assert f"{r.fs.score:.6f}" in mf.panel.parity.text()
    with qtbot.waitSignal(mf.compared, timeout=180000) as got:
        window.controller.compare_jobs.add([str(other)])
    d = got.args[0]
    ref = [direct(EXAMPLES / "kl_divergence.py", truth, f)["score"] for f in (sub, str(other))]
    assert [s["score"] for s in d["submissions"]] == pytest.approx(ref, rel=1e-9)
    p = d["pairs"][0]
    assert p["delta"] == pytest.approx(ref[1] - ref[0], rel=1e-9)
    # Lower is better: B is the better one where its score is lower.
    assert (p["p_b_better"] > 0.5) == (ref[1] < ref[0])
    assert mf.panel.table.rowCount() == 2
    assert mf.panel.table.item(1, 0).text() == "other.csv"
    assert mf.panel.table.item(1, 3).text() == f"{p['delta']:+.6f}"
    # The Compare tab names the file as the user knows it, not the registry's key.
    title = window.tabs.compare.view.title.text()
    assert "kl_divergence.py (metric file)" in title and "file:" not in title


def test_help_shows_the_docstring_and_score_runs_the_doctests(qtbot, window, mf, tmp_path):
    p = write(tmp_path, '''
        HIGHER_IS_BETTER = True
        def score(solution, submission, row_id_column_name):
            """Share of rows where class_0 matches.

            >>> 2 + 2
            4
            >>> 2 + 2
            5
            """
            return 1.0
        ''')
    assert not mf.actions["doc"].isEnabled() and not mf.actions["check"].isEnabled()
    with qtbot.waitSignal(mf.ready, timeout=60000):
        mf.open(str(p))
    assert mf.actions["doc"].isEnabled()
    mf.show_doc()
    from PySide6.QtWidgets import QTextBrowser
    text = mf.doc_dialog.findChild(QTextBrowser).toPlainText()
    assert text.startswith("Share of rows where class_0 matches.") and ">>> 2 + 2" in text
    mf.doc_dialog.close()
    with qtbot.waitSignal(window.jobs.ended, timeout=60000,
                          check_params_cb=lambda k, o: k == "metricfile-check"):
        mf.check()
    assert mf.panel.status.text() == "m.py: 1 of 2 doctest examples failed"
    assert "Expected:\n    5\nGot:\n    4" in mf.panel.error.text()
    # Recent metric files: the menu opens it again; Close takes it away.
    assert [a.text() for a in mf.recent_menu.actions()] == ["m.py"]
    mf.close()
    assert mf.source is None and not mf.args_box.isVisible() and not mf.actions["doc"].isEnabled()


RMSE_FILE = '''
    import numpy as np
    HIGHER_IS_BETTER = False
    def score(solution, submission, row_id_column_name):
        t = solution["relevance"].to_numpy(float)
        p = submission["relevance"].to_numpy(float)
        return float(np.sqrt(np.mean((t - p) ** 2)))
    '''


def test_files_several_built_ins_fit_are_not_asked_about_when_a_metric_file_comes(
        qtbot, window, mf, tmp_path, no_metric_question):
    """As `kmetric-gui sol sub --metric-file F` opens them: files that fit several
    built-ins, then the file named. Before, the app asked which built-in to use (a modal
    question) while the file it was told to use was loading."""
    from kmetric_gui.gui.main_window import demo_paths
    p = write(tmp_path, RMSE_FILE)
    sol, sub = demo_paths("kendall")
    with qtbot.waitSignal(window.scored, timeout=60000,
                          check_params_cb=lambda r: r.metric == "file:m.py") as got:
        window.open_files(sol, sub)
        mf.open(str(p), explicit=True)
    t = pd.read_csv(sol).set_index("id")["relevance"]
    s = pd.read_csv(sub).set_index("id")["relevance"].reindex(t.index)
    assert got.args[0].score == pytest.approx(float(((t - s) ** 2).mean() ** 0.5), rel=1e-12)
    assert no_metric_question == []


def test_a_screenshot_of_such_files_with_a_metric_file_is_its_score(tmp_path):
    """The same through the command: the picture is of the file's score and the exit
    status 0 (before: 2, with the built-ins' ambiguity printed over a scored window)."""
    import os
    import subprocess
    from kmetric_gui.gui.main_window import demo_paths
    p = write(tmp_path, RMSE_FILE)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "KMETRIC_SETTINGS": str(tmp_path / "s.ini"),
           "KMETRIC_CONFIG_DIR": str(tmp_path / "config")}
    r = subprocess.run([sys.executable, "-m", "kmetric_gui", *demo_paths("kendall"),
                        "--metric-file", str(p), "--screenshot", str(tmp_path / "x.png"),
                        "--timeout", "120"], capture_output=True, text=True, env=env, timeout=180)
    assert r.returncode == 0, r.stderr
    assert "several metrics" not in r.stderr and (tmp_path / "x.png").exists()


def test_files_several_built_ins_fit_dropped_after_a_metric_file_are_not_asked_about(
        qtbot, window, mf, tmp_path, no_metric_question):
    """The metric file opened first (it waits for a pair), then such files: they are
    the file's to score; before, the app asked which built-in to use first."""
    from kmetric_gui.gui.main_window import demo_paths
    p = write(tmp_path, RMSE_FILE)
    with qtbot.waitSignal(mf.ready, timeout=60000):
        mf.open(str(p), explicit=True)
    qtbot.waitUntil(lambda: not window.jobs.busy, timeout=60000)
    with qtbot.waitSignal(window.scored, timeout=60000,
                          check_params_cb=lambda r: r.metric == "file:m.py"):
        window.open_files(*demo_paths("kendall"))
    assert no_metric_question == []


def test_a_compared_file_beside_a_metric_files_table(qtbot, window, mf, tmp_path):
    """A one-column metric file with a compared submission: the table shows its
    predictions beside the shown ones. Before, every cell of that column raised
    TypeError (the block was read as one array): an error dialog in a real window."""
    from kmetric_gui.gui.main_window import demo_paths
    p = write(tmp_path, RMSE_FILE)
    sol, sub = demo_paths("kendall")
    other = sub.replace("kendall_submission", "kendall_submission_b")
    with qtbot.waitSignal(window.scored, timeout=60000,
                          check_params_cb=lambda r: r.metric == "file:m.py"):
        window.open_files(sol, sub)
        mf.open(str(p), explicit=True)
    errors = []
    window.jobs.error.connect(lambda kind, exc: errors.append(exc))
    window.options_panel.replicates.setValue(100)
    with qtbot.waitSignal(window.session.compare_changed, timeout=180000,
                          check_params_cb=lambda r: r is not None and r.comparison is not None):
        window.controller.compare_jobs.add([other])
    m = window.table_panel.model
    col = next(i for i, c in enumerate(m.columns) if c.meta.get("extra"))
    ids = [m.data(m.index(r, 0)) for r in range(m.rowCount())]
    want = pd.read_csv(other, dtype={"id": str}).set_index("id")["relevance"]
    got = [float(m.data(m.index(r, col))) for r in range(m.rowCount())]
    assert got == pytest.approx([want[i] for i in ids], rel=1e-5)
    assert errors == []
