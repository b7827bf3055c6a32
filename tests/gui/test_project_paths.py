"""A project opens files outside its own folder only when the user says so (the
question lists them); a file that is not a table is never quoted in a message."""
import json
import shutil

import pytest

from kmetric_gui.gui.main_window import MainWindow, demo_paths
from kmetric_gui.gui.project_file import file_ref, project_json
from kmetric_gui.analysis.scoring import Options

SHADOW = "root:$6$SECRETHASH:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n"


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("KMETRIC_SETTINGS", str(tmp_path / "s.ini"))
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    w.problems_said, w.asked = [], []
    w.projects.show_problem = w.problems_said.append
    yield w
    w._discarding = True
    w.jobs.shutdown()


def project(folder, truth, sub, compare=(), name="p.kmetric"):
    folder.mkdir(parents=True, exist_ok=True)
    refs = [file_ref(truth, "truth", folder), file_ref(sub, "submission", folder)]
    others = [file_ref(c, "compare", folder) for c in compare]
    path = folder / name
    path.write_text(json.dumps(project_json(refs, Options(allow_continuous=True), [], {}, others)))
    return str(path)


def copies(folder):
    folder.mkdir(parents=True, exist_ok=True)
    t, s = demo_paths("qwk")
    return shutil.copy(t, folder / "truth.csv"), shutil.copy(s, folder / "sub.csv")


def answer(win, yes):
    def ask(name, paths):
        win.asked.append((name, list(paths)))
        return yes
    win.projects.ask_open_outside = ask


def test_files_outside_the_folder_are_asked_for_and_refused(qtbot, win, tmp_path):
    t, s = copies(tmp_path / "data")
    path = project(tmp_path / "proj", t, s)
    d = json.loads(open(path).read())
    assert d["files"]["truth"]["path"] == "../data/truth.csv"
    answer(win, False)
    win.projects.open(path)
    qtbot.waitUntil(lambda: bool(win.problems_said), timeout=20000)
    assert win.asked == [("p.kmetric", [str(t.resolve()), str(s.resolve())])]
    assert "not opened" in win.problems_said[-1] and "outside its folder" in win.problems_said[-1]
    assert win.session.data is None and win.session.truth_path is None


def test_files_outside_the_folder_open_when_the_user_agrees(qtbot, win, tmp_path):
    t, s = copies(tmp_path / "data")
    path = project(tmp_path / "proj", t, s)
    answer(win, True)
    with qtbot.waitSignal(win.projects.opened, timeout=30000):
        win.projects.open(path)
    assert len(win.asked) == 1 and win.session.truth_path == str(t.resolve())


def test_files_inside_the_folder_are_not_asked_for(qtbot, win, tmp_path):
    t, s = copies(tmp_path / "proj" / "data")
    path = project(tmp_path / "proj", t, s)
    answer(win, False)
    with qtbot.waitSignal(win.projects.opened, timeout=30000):
        win.projects.open(path)
    assert win.asked == [] and win.problems_said == []


def test_absolute_and_climbing_paths_are_asked_for(qtbot, win, tmp_path):
    """`../../x` and an absolute path written by hand: both outside, both listed."""
    t, s = copies(tmp_path / "proj" / "data")
    secret = tmp_path / "secret" / "shadow"
    secret.parent.mkdir()
    secret.write_text(SHADOW)
    path = project(tmp_path / "proj", t, s)
    d = json.loads(open(path).read())
    d["compare"] = [{"path": "../secret/shadow"}, {"path": "nowhere", "absolute": str(secret)}]
    open(path, "w").write(json.dumps(d))
    answer(win, False)
    win.projects.open(path)
    qtbot.waitUntil(lambda: bool(win.problems_said), timeout=20000)
    assert win.asked == [("p.kmetric", [str(secret.resolve())] * 2)]
    assert "SECRETHASH" not in win.problems_said[-1]


def test_a_file_that_is_not_a_table_is_not_quoted(tmp_path):
    from kmetric_gui.analysis.comparison import load_all
    from kmetric_gui.errors import InputError
    from kmetric_gui.analysis.scoring import load
    secret = tmp_path / "shadow"
    secret.write_text(SHADOW)
    passwd = tmp_path / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\n" * 3 + "pg:x:101:104:Postgre,,,:/var/lib:/bin\n")
    t, s = demo_paths("qwk")
    said = []
    for bad in (secret, passwd):
        for pair in ((t, bad), (bad, s)):
            with pytest.raises(InputError) as e:
                load(*pair, Options(allow_continuous=True))
            said += e.value.problems
        said += [p for ps in load_all(t, [s, str(bad)], Options(allow_continuous=True))[2] for p in ps]
    assert len(said) == 6
    assert not [p for p in said if "SECRET" in p or "root" in p or "Postgre" in p]
    assert all("table" in p for p in said)
