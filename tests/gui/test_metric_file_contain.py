"""A metric file in the app, contained and asked about per place: however the metric
ends (any exception, a 10 MB message, SystemExit, KeyboardInterrupt, a crash, Esc on an
endless one), the dock is idle with Run again and the next run scores; messages are
plain text, cut, the whole behind Details; every process it started ends; the app runs
a content only after its own "Run it" or an explicit `kmetric-gui --metric-file`."""
import json
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from kmetric_gui.cli import main as kmetric_main
from kmetric_gui.gui.metric_file_actions import KINDS
from kmetric_gui.metricfile import seen
from kmetric_gui.metricfile.source import load_source
from kmetric_gui.paths import resources_dir
from metricrun import children_metric, sleepers, token, wait_none, write

EXAMPLES = resources_dir() / "metrics"
PAIR = (str(EXAMPLES / "kl_solution.csv"), str(EXAMPLES / "kl_submission.csv"))
GOOD = EXAMPLES / "kl_divergence.py"
LINUX = sys.platform.startswith("linux")


@pytest.fixture(autouse=True)
def own_config(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("KMETRIC_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))


@pytest.fixture
def mf(window):
    m = window.metric_file
    m.asked, m.states = [], []
    m.ask_run = lambda name, state: m.asked.append(name) or m.states.append(state) or True
    m.ask_direction = lambda name: pytest.fail("the direction was asked")
    return m


def idle(mf):
    """The dock at rest: Run again on, Cancel off, no metric-file job left."""
    busy = [k for k in mf.win.jobs.in_flight() if k in KINDS]
    return not busy and mf.panel.run_button.isEnabled() and not mf.panel.cancel_button.isEnabled()


def fail_with(qtbot, window, mf, path):
    with qtbot.waitSignal(mf.failed, timeout=60000) as got:
        mf.open(str(path))
    return got.args[0]


def score_next(qtbot, window, mf):
    """The lane is free: the next metric file scores."""
    with qtbot.waitSignal(mf.scored, timeout=60000) as got:
        mf.open(str(GOOD))
    return got.args[0]


HEAD = """
    import ctypes, os, sys
    HIGHER_IS_BETTER = True

    class Odd(BaseException):
        pass

    def score(solution, submission, row_id_column_name):
        {body}
    """
ENDINGS = {
    "exception": ("raise ValueError('bad rows')", "ValueError: bad rows"),
    "SystemExit": ("sys.exit(3)", "sys.exit(3) (SystemExit)"),
    "KeyboardInterrupt": ("raise KeyboardInterrupt", "KeyboardInterrupt"),
    "BaseException": ("raise Odd('odd')", "Odd: odd"),
    "os._exit": ("os._exit(5)", "exited with code 5"),
    "segfault": ("ctypes.string_at(0)", "segmentation fault"),
}


@pytest.mark.skipif(sys.platform == "win32", reason="os._exit and signals as POSIX has them")
@pytest.mark.parametrize("ending", list(ENDINGS))
def test_every_ending_leaves_the_dock_idle_and_the_lane_free(qtbot, window, mf, tmp_path, ending):
    body, words = ENDINGS[ending]
    window.open_files(*PAIR)
    text = fail_with(qtbot, window, mf, write(tmp_path, HEAD.format(body=body)))
    assert words in text and words in mf.panel.error.text()
    qtbot.waitUntil(lambda: idle(mf), timeout=10000)
    assert score_next(qtbot, window, mf).fs.score > 0


def test_a_10_mb_message_is_cut_and_the_window_keeps_its_pace(qtbot, window, mf, tmp_path):
    window.open_files(*PAIR)
    p = write(tmp_path, HEAD.format(body='raise ValueError("B" * 10_000_000)'))
    fail_with(qtbot, window, mf, p)
    t0 = time.perf_counter()
    qtbot.wait(50)                                    # the window draws the message
    assert time.perf_counter() - t0 < 5
    assert len(mf.panel.error.text()) < 400 and "(cut; 10,000,012 characters in all)" in mf.panel.error.text()
    listed = [window.problems.list.item(i).text() for i in range(window.problems.list.count())]
    assert all(len(line) < 400 for line in listed)
    assert mf.panel.details_button.isVisibleTo(mf.panel)
    assert "ValueError: BBBB" in mf.panel.details and len(mf.panel.details) < 70_000
    mf.panel.details_button.click()
    from PySide6.QtWidgets import QPlainTextEdit
    view = mf.details_dialog.findChild(QPlainTextEdit)
    assert mf.details_dialog.isVisible() and view.toPlainText() == mf.panel.details
    qtbot.waitUntil(lambda: idle(mf), timeout=10000)


def test_markup_in_a_message_or_a_name_is_shown_as_text(qtbot, window, mf, tmp_path):
    window.open_files(*PAIR)
    p = write(tmp_path, HEAD.format(body='raise RuntimeError("<h1>big</h1><img src=file:///etc/hostname>")'),
              name="<b>bold<b>.py")
    fail_with(qtbot, window, mf, p)
    panel = mf.panel
    labels = [panel.title, panel.status, panel.place, panel.score_label, panel.splits, panel.interval,
              panel.parity, panel.error]
    assert all(label.textFormat() == Qt.PlainText for label in labels)
    assert "<h1>big</h1><img src=file:///etc/hostname>" in panel.error.text()
    assert "<b>bold<b>.py" in panel.title.text() or "<b>bold<b>.py" in panel.error.text()


@pytest.mark.skipif(not LINUX, reason="processes are counted in /proc (Linux)")
def test_esc_on_an_endless_metric_ends_all_its_processes_and_the_dock_is_idle(qtbot, window, mf,
                                                                           tmp_path):
    tok = token()
    p = children_metric(tmp_path, tok, "loop")
    try:
        window.open_files(*PAIR)
        mf.open(str(p))
        qtbot.waitUntil(lambda: len(sleepers(tok)) >= 150, timeout=60000)
        window.controller.cancel()                   # Esc
        qtbot.waitUntil(lambda: idle(mf), timeout=5000)
        assert "Stopped" in mf.panel.status.text()
        assert wait_none(tok, 10.0) == []
        mf.panel.run_button.click()                  # Run again: it runs (and is stopped) again
        qtbot.waitUntil(lambda: len(sleepers(tok)) >= 150, timeout=60000)
        window.controller.cancel()
        qtbot.waitUntil(lambda: idle(mf), timeout=5000)
        assert wait_none(tok, 10.0) == []
        assert score_next(qtbot, window, mf).fs.score > 0
    finally:
        import os
        for pid in sleepers(tok):
            os.kill(pid, 9)


def test_the_cli_run_makes_the_app_ask_all_the_same(qtbot, window, mf, capsys):
    """The CLI's run is the user's request there; the app still asks for its own."""
    assert kmetric_main(["score", *PAIR, "--metric-file", str(GOOD)]) == 0
    capsys.readouterr()
    assert not seen.trusted(load_source(GOOD).sha256)
    window.open_files(*PAIR)
    with qtbot.waitSignal(mf.scored, timeout=60000) as got:
        mf.open(str(GOOD))
    assert mf.asked == [GOOD.name]
    assert "Python 3." in mf.panel.place.text()           # where it ran, in the dock
    assert got.args[0].place["sandbox"]["mode"] == "auto"
    assert seen.trusted(load_source(GOOD).sha256)          # its "Run it" is remembered
    with qtbot.waitSignal(mf.ready, timeout=60000):
        mf.open(str(GOOD))
    assert mf.asked == [GOOD.name]


def test_the_question_says_what_the_code_may_do(mf):
    from kmetric_gui.gui.metric_file_ui import run_question
    from kmetric_gui.metricfile.sandbox import State
    text = run_question("m.py", State("auto", None, "bubblewrap (bwrap) is not installed"))
    assert "runs with your user's rights" in text and "read, change and delete your files" in text
    assert "No sandbox is used: bubblewrap (bwrap) is not installed" in text
    text = run_question("m.py", State("auto", "bubblewrap"))
    assert "inside a sandbox (bubblewrap)" in text and "no network" in text
    assert "change only its own scratch folder" in text


def test_named_on_the_command_line_it_runs_without_asking_and_is_not_trusted(qtbot, monkeypatch,
                                                                           tmp_path):
    monkeypatch.setenv("KMETRIC_SETTINGS", str(tmp_path / "settings.ini"))
    from kmetric_gui.gui.app import create_window, parse_args
    win = create_window(parse_args([*PAIR, "--metric-file", str(GOOD), "--metric-sandbox", "off"]))
    qtbot.addWidget(win)
    m = win.metric_file
    m.ask_run = lambda name, state: pytest.fail("asked although named on the command line")
    try:
        with qtbot.waitSignal(m.scored, timeout=60000) as got:
            pass
        assert got.args[0].run.sandbox == "off"
        assert not seen.trusted(load_source(GOOD).sha256)
    finally:
        win._discarding = True
        win.jobs.shutdown()


def test_a_project_naming_a_metric_file_asks_on_first_open(qtbot, window, mf, tmp_path):
    import shutil
    metric = Path(shutil.copy(GOOD, tmp_path / "kl.py"))
    truth, sub = (shutil.copy(p, tmp_path) for p in PAIR)
    with qtbot.waitSignal(mf.scored, timeout=60000):
        mf.open(str(metric))
        window.open_files(truth, sub)
    proj = tmp_path / "a.kmetric"
    with qtbot.waitSignal(window.projects.saved, timeout=20000):
        window.projects.save(str(proj))
    mf.close()
    # another user's machine: nothing trusted there yet
    (Path(seen._folder()) / seen.APP_TRUST).unlink()
    mf.asked.clear()
    no = []
    mf.ask_run = lambda name, state: no.append(name) and False
    window.projects.open(str(proj))
    qtbot.waitUntil(lambda: no == ["kl.py"] and idle(mf), timeout=60000)
    assert mf.source is None and "not run" in mf.panel.status.text()


def test_another_python_for_the_same_content_is_asked_about(qtbot, window, mf, tmp_path):
    """The app's "Run it" is for a content in a Python: a project naming another Python
    (another program to run) asks again."""
    d = json.loads(json.dumps({"python": sys.executable, "sandbox": "off"}))
    window.open_files(*PAIR)
    with qtbot.waitSignal(mf.scored, timeout=60000):
        mf.open(str(GOOD))
    with qtbot.waitSignal(mf.scored, timeout=60000) as got:
        mf.open(str(GOOD), python=d["python"], sandbox=d["sandbox"])
    assert mf.asked == [GOOD.name, GOOD.name]
    place = got.args[0].place
    assert place["python"]["own"] is False and place["python"]["path"] == sys.executable
    assert place["sandbox"]["used"] is False
    assert f"at {sys.executable}" in mf.panel.place.text()


@pytest.mark.slow
def test_the_python_option_runs_it_in_another_python(qtbot, window, mf, request, tmp_path_factory):
    """Options > Metric file > Python: the next run is in that Python (asked first: another
    program), its versions in the dock; a path that is no program is refused, the old kept."""
    from metricrun import old_pandas_python
    python = old_pandas_python(request, tmp_path_factory)
    window.open_files(*PAIR)
    with qtbot.waitSignal(mf.scored, timeout=60000) as own:
        mf.open(str(GOOD))
    box = mf.args_box
    with qtbot.waitSignal(mf.scored, timeout=120000) as got:
        box.python.setText(python)
        box.python.editingFinished.emit()
    assert mf.asked == [GOOD.name, GOOD.name]
    assert got.args[0].place["python"]["pandas"] == "1.5.3"
    # numpy 1.x and 2.x may round a sum differently in the last bits
    assert got.args[0].fs.score == pytest.approx(own.args[0].fs.score, rel=1e-12)
    assert f"at {python} (pandas 1.5.3" in mf.panel.place.text()
    box.python.setText("/no/such/python")
    box.python.editingFinished.emit()
    assert box.place()[0] == python and box.python.text() == python


@pytest.mark.skipif(not LINUX, reason="a host is kept between runs on Linux")
def test_the_host_kept_for_the_next_run_starts_it_clean(qtbot, window, mf, tmp_path):
    """The app keeps its host warm between the jobs that run the file's code in it (the
    file read for its signature, its doctests, compare); what one left (processes, files
    in its folder or the sandbox's /dev/shm) is gone before the next one starts. The
    files' code runs on import here: reading the signature runs it on the kept host, and
    the second file's declared direction says whether it saw what the first left."""
    tok = token()
    left = write(tmp_path, f"""
        import os, subprocess
        subprocess.Popen(["sh", "-c", "sleep {tok} &"]).wait()
        open("left.txt", "w").write("x")
        if os.access("/dev/shm", os.W_OK) and os.environ.get("KMETRIC_SANDBOXED"):
            open("/dev/shm/left.txt", "w").write("x")
        HIGHER_IS_BETTER = True
        def score(solution, submission, row_id_column_name):
            return 1.0
        """, name="left.py")
    look = write(tmp_path, """
        import os
        HIGHER_IS_BETTER = not (os.path.exists("left.txt") or os.path.exists("/dev/shm/left.txt"))
        def score(solution, submission, row_id_column_name):
            return 1.0
        """, name="look.py")
    try:
        with qtbot.waitSignal(mf.ready, timeout=60000):
            mf.open(str(left))
        qtbot.waitUntil(lambda: idle(mf), timeout=60000)
        assert wait_none(tok, 5.0) == []
        from kmetric_gui.metricfile import start
        kept = start._spare["host"].proc.pid
        with qtbot.waitSignal(mf.ready, timeout=60000) as b:
            mf.open(str(look))
        assert b.args[0]["higher_is_better"] is True              # nothing left was seen
        qtbot.waitUntil(lambda: idle(mf), timeout=60000)
        assert start._spare["host"].proc.pid == kept               # the same host
    finally:
        import os
        for pid in sleepers(tok):
            os.kill(pid, 9)
