"""Closing a metric file while its score of an edit is still running: its pending
result is superseded before the metric goes (no error, nothing of the closed file drawn),
and the metric in use before is shown with its numbers."""
import textwrap

import pytest

from conftest import set_cell, wait_scored
from kmetric_gui.gui.widgets.score_panel import fmt
from kmetric_gui.paths import resources_dir

EXAMPLES = resources_dir() / "metrics"
PAIR = (str(EXAMPLES / "bll_solution.csv"), str(EXAMPLES / "bll_submission.csv"))


@pytest.fixture(autouse=True)
def own_config(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("KMETRIC_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))


def slow_on_edit(tmp_path):
    """Scores at once, but takes its time on the data once the first row is edited."""
    started = tmp_path / "started"
    p = tmp_path / "slow.py"
    p.write_text(textwrap.dedent(f"""
        import time
        HIGHER_IS_BETTER = False
        def score(solution, submission, row_id_column_name):
            if (submission['class_0'] == 0.5).any():
                open({str(started)!r}, 'w').write('x')
                time.sleep(3)
            return float((solution['class_0'] - submission['class_0']).abs().mean())
        """))
    return p, started


def column(window, title):
    return next(i for i, c in enumerate(window.table_panel.model.columns) if c.name == title)


def _file_in_use(qtbot, window, tmp_path):
    """A built-in's score, then the slow file adopted as the metric; what is drawn and
    every error from then on recorded."""
    mf = window.metric_file
    mf.ask_run = lambda name, state=None: True
    mf.args_box.set_place(None, "off")             # it writes outside its scratch folder
    window.options_panel.replicates.setValue(100)
    window.options_panel.splits.setValue(100)
    builtin = wait_scored(qtbot, window, lambda: window.open_files(*PAIR))
    p, started = slow_on_edit(tmp_path)
    with qtbot.waitSignal(mf.scored, timeout=60000):
        mf.open(str(p))
    qtbot.waitUntil(lambda: window.session.results.report.metric == "file:slow.py", timeout=60000)
    qtbot.waitUntil(lambda: not window.jobs.in_flight(), timeout=120000)
    drawn, errors = [], []
    window.scored.connect(lambda r: drawn.append(r.metric))
    window.failed.connect(errors.append)
    window.jobs.error.connect(lambda kind, e: errors.append(f"{kind}: {e}"))
    mf.failed.connect(errors.append)
    return mf, builtin, started, drawn, errors


def test_closing_while_its_score_is_pending_shows_the_metric_before(qtbot, window, tmp_path):
    mf, builtin, started, drawn, errors = _file_in_use(qtbot, window, tmp_path)
    set_cell(window, 0, column(window, "class_0 (submission)"), "0.5")
    qtbot.waitUntil(started.exists, timeout=60000)            # its score of the edit runs
    mf.close()
    qtbot.waitUntil(lambda: window.session.results is not None
                    and window.session.results.report.metric == builtin.metric
                    and not window.jobs.in_flight(), timeout=60000)
    qtbot.wait(3500)                                           # the closed file's score would end
    assert errors == []
    assert "file:slow.py" not in drawn and drawn[-1] == builtin.metric
    rep = window.session.results.report
    assert rep.score == builtin.score
    assert window.score_panel.score_label.text() == fmt(builtin.score)
    texts = [window.tabs.tabText(i) for i in range(window.tabs.count()) if window.tabs.isTabVisible(i)]
    assert not any("slow.py" in t for t in texts), texts


def test_closing_as_its_score_lands_draws_nothing_of_it(qtbot, window, tmp_path):
    """The close in the very turn the file's score of an edit is taken (its anatomy and
    statistics still to come): neither runs on the closed file."""
    mf, builtin, _started, drawn, errors = _file_in_use(qtbot, window, tmp_path)
    first, closed = window.session.results, []

    def close_when_it_lands(*_):
        r = window.session.results
        if r is not first and r is not None and r.report.metric == "file:slow.py" and not closed:
            closed.append(r)
            mf.close()
    window.session.results_changed.connect(close_when_it_lands)
    set_cell(window, 0, column(window, "class_0 (submission)"), "0.5")
    qtbot.waitUntil(lambda: window.session.results is not None
                    and window.session.results.report.metric == builtin.metric
                    and not window.jobs.in_flight(), timeout=60000)
    qtbot.wait(200)
    assert closed and errors == []
    assert "file:slow.py" not in drawn and drawn[-1] == builtin.metric
    assert window.score_panel.score_label.text() == fmt(builtin.score)
    texts = [window.tabs.tabText(i) for i in range(window.tabs.count()) if window.tabs.isTabVisible(i)]
    assert not any("slow.py" in t for t in texts), texts
