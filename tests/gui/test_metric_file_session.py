"""A metric file as the session's metric: after "Run it" the table shows its columns and
takes edits, the score shown is the file's score() of the edited data (the plain
in-process call of metricfile/reference.py is the reference), a failure on an edit is
said with the numbers before kept out of date, a built-in in Options goes back, and Esc
or closing the window during its run leaves none of its processes."""
import sys
import textwrap

import pytest

from conftest import prep, set_cell, wait_scored
from kmetric_gui.metricfile.reference import plain_call
from kmetric_gui.metrics.base import split_rows
from kmetric_gui.metrics.references import same
from kmetric_gui.paths import resources_dir
from metricrun import sleepers, token, wait_none

EXAMPLES = resources_dir() / "metrics"
PAIR = (str(EXAMPLES / "kl_solution.csv"), str(EXAMPLES / "kl_submission.csv"))
KL = EXAMPLES / "kl_divergence.py"
LINUX = sys.platform.startswith("linux")


@pytest.fixture(autouse=True)
def own_config(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("KMETRIC_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))


@pytest.fixture
def mf(window):
    m = window.metric_file
    m.ask_run = lambda name, state=None: True
    m.ask_direction = lambda name: True
    return m


def in_use(window, name):
    r = window.session.results
    return r is not None and r.report.metric == name and window.session.is_current(r.generation)


def adopt(qtbot, window, mf, path, name):
    wait_scored(qtbot, window, lambda: window.open_files(*PAIR))
    before = window.session.results.report.metric
    # the window's own "scored" of the file's first score: one still to come would be
    # taken for the next action's
    with qtbot.waitSignal(window.scored, timeout=60000, check_params_cb=lambda r: r.metric == name):
        mf.open(str(path))
    qtbot.waitUntil(lambda: in_use(window, name), timeout=60000)
    return before


def column(window, title):
    return next(i for i, c in enumerate(window.table_panel.model.columns) if c.name == title)


def reference(window, **args):
    """The file's score() called here on pandas frames with the table's edits, per split."""
    p = prep(window)
    metric = window.metric_file.session_metric.metric
    return {k: plain_call(metric.source, p, args, split_rows(p.usage, k))
            for k in ("all", "public", "private")}


def test_an_edit_is_scored_by_the_metric_file(qtbot, window, mf):
    before = adopt(qtbot, window, mf, KL, "file:kl_divergence.py")
    assert before != "file:kl_divergence.py"
    rep = window.session.results.report
    want = reference(window)
    assert same(rep.score, want["all"], 1e-12)
    cols = [column(window, f"class_{k} (submission)") for k in (0, 1)]
    specs = [window.table_panel.model.columns[c].spec for c in cols]
    assert all(window.table_panel.model.columns[c].editable for c in cols)
    p = prep(window)
    a, b = p.pred[0, 0], p.pred[0, 1]
    # class_0 and class_1 of the first row swapped (the file checks each row sums to one)
    with qtbot.waitSignal(window.scored, timeout=60000, check_params_cb=lambda r: (
            r.prepared.pred[0, 0], r.prepared.pred[0, 1]) == (b, a)) as got:
        window.controller.paste([(specs[0], 0, str(float(b))), (specs[1], 0, str(float(a)))])
    edited = got.args[0]
    assert (prep(window).pred[0, 0], prep(window).pred[0, 1]) == (b, a)
    want = reference(window)
    assert same(edited.score, want["all"], 1e-12) and not same(edited.score, rep.score, 1e-9)
    for split in ("public", "private"):
        assert same(edited.splits[split].score, want[split], 1e-12)
    from kmetric_gui.gui.widgets.score_panel import fmt
    assert window.score_panel.score_label.text() == fmt(want["all"])
    # The dock compares like with like: the file's score of the table and of the files.
    qtbot.waitUntil(lambda: "edited" in mf.panel.parity.text(), timeout=60000)
    assert "not the same computation" not in mf.panel.parity.text()
    assert "edits in the table are not included" not in mf.panel.title.toolTip()
    # An argument set in the dock rescores the edited table with it.
    w = mf.args_box.widgets["epsilon"]
    with qtbot.waitSignal(window.scored, timeout=60000,
                          check_params_cb=lambda r: r.options.arg_epsilon == 0.01):
        w.setText("0.01")
        w.editingFinished.emit()
    assert same(window.session.results.report.score, reference(window, epsilon=0.01)["all"], 1e-12)
    # A built-in chosen in Options goes back (the file stays on the list to choose again).
    combo = window.options_panel.metric_combo
    combo.setCurrentIndex(combo.findData(before))
    qtbot.waitUntil(lambda: in_use(window, before), timeout=60000)
    assert combo.findData("file:kl_divergence.py") >= 0
    combo.setCurrentIndex(combo.findData("file:kl_divergence.py"))
    qtbot.waitUntil(lambda: in_use(window, "file:kl_divergence.py"), timeout=60000)
    assert window.session.options.arg_epsilon == 0.01
    mf.close()                                   # closing the file: the built-in again
    qtbot.waitUntil(lambda: in_use(window, before), timeout=60000)
    assert combo.findData("file:kl_divergence.py") < 0


def test_a_failure_on_an_edit_is_said_and_the_numbers_before_stay_out_of_date(qtbot, window,
                                                                               mf):
    adopt(qtbot, window, mf, KL, "file:kl_divergence.py")
    first = window.session.results.report
    shown = window.score_panel.score_label.text()
    col = column(window, "class_0 (submission)")
    with qtbot.waitSignal(window.controller.edit_failed, timeout=60000) as got:
        set_cell(window, 0, col, "0.9")          # the row no longer sums to one
    why = "do not add to one"
    assert why in got.args[0]
    panel = window.score_panel
    qtbot.waitUntil(lambda: panel.stale is not None, timeout=10000)
    assert why in panel.stale and panel.score_label.text() == shown
    assert why in window.problems.list.item(0).text()
    assert window.session.results.report is first
    rep = wait_scored(qtbot, window, window.session.undo, 60000)
    assert same(rep.score, first.score, 1e-12) and panel.stale is None


@pytest.mark.skipif(not LINUX, reason="processes are counted in /proc (Linux)")
@pytest.mark.parametrize("how", ["esc", "close"])
def test_esc_or_close_during_its_rescore_leaves_no_process(qtbot, window, mf, tmp_path, how):
    """The file scores the files, then loops (starting children) on an edited frame."""
    tok = token()
    p = tmp_path / "edit_loop.py"
    p.write_text(textwrap.dedent(f"""
        import subprocess, time
        HIGHER_IS_BETTER = False
        def score(solution, submission, row_id_column_name):
            if submission['class_0'].iloc[0] == 0.5:
                for i in range(40):
                    subprocess.Popen(["sleep", "{tok}"], start_new_session=i % 2 == 0)
                while True:
                    time.sleep(0.05)
            return float((solution['class_0'] - submission['class_0']).abs().mean())
        """))
    try:
        adopt(qtbot, window, mf, p, "file:edit_loop.py")
        metric = mf.session_metric.metric
        set_cell(window, 0, column(window, "class_0 (submission)"), "0.5")
        qtbot.waitUntil(lambda: len(sleepers(tok)) >= 40, timeout=60000)
        if how == "esc":
            window.controller.cancel()
        else:
            window.discard_and_close()
        assert wait_none(tok, 10.0) == []
        assert not window.jobs.running("score")
        if how == "close":
            from kmetric_gui.metrics import REGISTRY
            assert mf.session_metric.metric is None and metric.name not in REGISTRY
            assert all(w._pool is None for w in metric._workers.values())
    finally:
        import os
        for pid in sleepers(tok):
            os.kill(pid, 9)
