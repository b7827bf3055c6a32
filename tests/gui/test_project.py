"""Project files (.kmetric): save -> open gives the same numbers, edits and view;
moved files are asked for, changed files reported, bad files named."""
import hashlib
import json
import shutil

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from conftest import column, prep, set_cell, wait_scored
from kmetric_gui.gui.main_window import MainWindow, demo_paths


@pytest.fixture
def files(tmp_path):
    d = tmp_path / "data"
    d.mkdir()
    truth, sub = demo_paths("qwk")
    return shutil.copy(truth, d / "truth.csv"), shutil.copy(sub, d / "sub.csv")


def quiet(win, problems):
    win.projects.show_problem = problems.append
    win.reports.open_folder = lambda folder: None


def current(qtbot, win):
    s = win.session
    qtbot.waitUntil(lambda: s.results is not None and s.is_current(s.results.generation)
                    and not win.jobs.busy, timeout=20000)
    return s.results.report


def kappa_of(win):
    p = prep(win)
    m = p.usage != 2
    return cohen_kappa_score(p.truth[m], p.pred[m], weights="quadratic", labels=range(5))


def edited_window(qtbot, window, files):
    wait_scored(qtbot, window, lambda: window.open_files(*files))
    col = column(window, "pred")
    for view_row in (0, 5):
        src = int(window.table_panel.model.rows[view_row])
        new = (int(prep(window).pred[src]) + 2) % 5
        wait_scored(qtbot, window, lambda: set_cell(window, view_row, col, str(new)))
    view = window.tabs.currentWidget()
    view.names.setText("none, mild, moderate, severe, proliferative")
    view.names.editingFinished.emit()
    view.tabs.setCurrentIndex(1)
    window.splitter.setSizes([500, 300])
    window.table_panel.select_source_row(42)
    return current(qtbot, window)


def save(qtbot, win, path):
    with qtbot.waitSignal(win.projects.saved, timeout=20000):
        win.projects.save(str(path))
    return json.loads(path.read_text())


def second_window(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    return win


def test_round_trip(qtbot, window, files, tmp_path):
    problems = []
    quiet(window, problems)
    rep = edited_window(qtbot, window, files)
    proj = tmp_path / "work.kmetric"
    d = save(qtbot, window, proj)
    assert d["files"]["truth"]["path"] == "data/truth.csv"           # relative to the project
    assert d["files"]["submission"]["sha256"] == hashlib.sha256(files[1].read_bytes()).hexdigest()
    assert len(d["edits"]) == 2 and d["view"]["class_names"].startswith("none")
    win = second_window(qtbot)
    try:
        quiet(win, problems)
        with qtbot.waitSignal(win.projects.opened, timeout=20000):
            win.projects.open(str(proj))
        rep2 = current(qtbot, win)
        assert rep2.score == pytest.approx(rep.score) == pytest.approx(kappa_of(win))
        # the project's edits are one step of the history (N edits cost O(N))
        assert [c.label for c in win.session.changes()] == ["2 edits of project work.kmetric"]
        assert np.array_equal(prep(win).pred, prep(window).pred)
        view = win.tabs.currentWidget()
        assert view.names.text() == "none, mild, moderate, severe, proliferative"
        assert view.tabs.currentIndex() == 1
        assert win.splitter.sizes() == window.splitter.sizes()
        sel = win.table_panel.table.selectionModel().selectedRows()
        assert [int(win.table_panel.model.rows[i.row()]) for i in sel] == [42]
        # the edits are undoable, back to the file's score
        win.session.undo()
        assert not win.session.can_undo
        rep3 = current(qtbot, win)
        assert rep3.score == pytest.approx(kappa_of(win))
        assert rep3.score != pytest.approx(rep.score)
        assert str(proj.resolve()) in win.projects.recent()
        assert [a.text() for a in win.projects.recent_menu.actions()][0] == "work.kmetric"
    finally:
        win._discarding = True
        win.jobs.shutdown()
    assert problems == []


def test_changed_file_is_reported_and_edits_offered(qtbot, window, files, tmp_path):
    problems, asked = [], []
    quiet(window, problems)
    edited_window(qtbot, window, files)
    proj = tmp_path / "work.kmetric"
    save(qtbot, window, proj)
    text = files[1].read_text().splitlines()
    head, first = text[0], text[1].split(",")
    first[1] = str((int(first[1]) + 1) % 5)
    files[1].write_text("\n".join([head, ",".join(first)] + text[2:]) + "\n")
    for answer, n_edits in ((False, 0), (True, 2)):
        win = second_window(qtbot)
        try:
            quiet(win, problems)
            win.projects.ask_apply_edits = lambda t, a=answer: (asked.append(t), a)[1]
            with qtbot.waitSignal(win.projects.opened, timeout=20000):
                win.projects.open(str(proj))
            current(qtbot, win)
            assert "sub.csv" in asked[-1] and "changed" in asked[-1] and "2 saved edit" in asked[-1]
            assert any("sub.csv" in n for n in win.projects.notes)
            assert len(win.session.changes()) == min(n_edits, 1)       # one step of the history
        finally:
            win._discarding = True
            win.jobs.shutdown()
    assert problems == []


def test_moved_file_is_asked_for(qtbot, window, files, tmp_path):
    problems = []
    quiet(window, problems)
    rep = edited_window(qtbot, window, files)
    proj = tmp_path / "work.kmetric"
    save(qtbot, window, proj)
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    new_sub = shutil.move(str(files[1]), moved / "sub.csv")
    win = second_window(qtbot)
    try:
        quiet(win, problems)
        asked = []
        win.projects.ask_for_file = lambda role, ref: (asked.append(role), str(new_sub))[1]
        with qtbot.waitSignal(win.projects.opened, timeout=20000):
            win.projects.open(str(proj))
        assert asked == ["submission"]
        assert current(qtbot, win).score == pytest.approx(rep.score)
        assert win.session.sub_path == str(new_sub)
    finally:
        win._discarding = True
        win.jobs.shutdown()
    assert problems == []


@pytest.mark.parametrize("content, field", [
    ("{not json", "not JSON"),
    ('{"format": "kmetric-project", "format_version": 99, "files": {}}', "'format_version'"),
    ('{"format": "kmetric-project", "format_version": 1, "files": {"truth": {}}}', "'files.truth"),
    ('{"format": "something-else"}', "'format'"),
])
def test_bad_project_files_are_named(qtbot, window, tmp_path, content, field):
    problems = []
    quiet(window, problems)
    bad = tmp_path / "broken.kmetric"
    bad.write_text(content)
    window.projects.open(str(bad))
    qtbot.waitUntil(lambda: bool(problems), timeout=10000)
    assert len(problems) == 1 and "broken.kmetric" in problems[0] and field in problems[0]


def test_missing_file_and_bad_edit_are_named(qtbot, window, files, tmp_path):
    problems = []
    quiet(window, problems)
    edited_window(qtbot, window, files)
    proj = tmp_path / "work.kmetric"
    d = save(qtbot, window, proj)
    d["edits"][0]["cells"][0]["unit"] = 10 ** 6
    proj.write_text(json.dumps(d))
    win = second_window(qtbot)
    try:
        quiet(win, problems)
        with qtbot.waitSignal(win.projects.opened, timeout=20000):
            win.projects.open(str(proj))
        assert "edit 1 ('Edit pred of row 1'): row 1000001 is beyond the data's 600 rows" in problems[-1]
        assert "work.kmetric" in problems[-1]
        assert win.session.changes() == []               # nothing half-applied
        files[0].unlink()
        win.projects.ask_for_file = lambda role, ref: ""
        n = len(problems)
        win.projects.open(str(proj))
        qtbot.waitUntil(lambda: len(problems) > n, timeout=10000)
        assert "'files.truth.path'" in problems[-1] and "truth.csv" in problems[-1]
    finally:
        win._discarding = True
        win.jobs.shutdown()


def test_export_report_from_the_app(qtbot, window, files, tmp_path):
    problems = []
    quiet(window, problems)
    window.reports.show_problem = problems.append
    opened = []
    window.reports.open_folder = opened.append
    rep = edited_window(qtbot, window, files)
    out = tmp_path / "report"
    with qtbot.waitSignal(window.reports.written, timeout=60000):
        window.reports.export(str(out))
    d = json.loads((out / "report.json").read_text())
    assert d["score"] == pytest.approx(rep.score)                  # the edited data's score
    assert d["validation"]["unsaved_edits"] == 2
    assert d["top_fixes"] and d["ci"]["level"] == 0.95 and "shakeup" in d
    assert (out / "report.pdf").stat().st_size > 10_000 and opened == [out]
    assert problems == []
    window.reports.ask_write_into = lambda folder: False         # not empty: asked, refused
    assert window.reports.export(str(out)) is False


@pytest.mark.parametrize("metric", ["lwlrap", "fbeta"])
def test_round_trip_other_metrics(qtbot, window, tmp_path, metric):
    """A class score and a whole truth row (LwLRAP), label lists (F-beta) survive JSON."""
    from kmetric_gui.metrics import FieldSpec
    problems = []
    quiet(window, problems)
    d = tmp_path / "data"
    d.mkdir()
    files = [shutil.copy(p, d / f"{role}.csv") for p, role in zip(demo_paths(metric), ("t", "s"))]
    wait_scored(qtbot, window, lambda: window.open_files(*files))
    s = window.session
    if metric == "lwlrap":
        classes = s.data.base.classes
        edits = [(FieldSpec("pred", 2), 4, "0.987"), (FieldSpec("truth"), 7, f"{classes[0]},{classes[3]}")]
    else:
        edits = [(FieldSpec("pred"), 3, "national education longitudinal study|adni"),
                 (FieldSpec("truth"), 5, "")]
    for spec, unit, text in edits:
        assert s.edit_text(spec, unit, text) is None
    rep = current(qtbot, window)
    proj = tmp_path / f"{metric}.kmetric"
    save(qtbot, window, proj)
    win = second_window(qtbot)
    try:
        quiet(win, problems)
        with qtbot.waitSignal(win.projects.opened, timeout=20000):
            win.projects.open(str(proj))
        rep2 = current(qtbot, win)
        a, b = prep(window), prep(win)
        for name in ("truth", "pred"):
            x, y = getattr(a, name), getattr(b, name)
            assert np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y
        assert rep2.score == pytest.approx(rep.score)
        from reference import fbeta_ref, lwlrap_ref
        keep = np.flatnonzero(b.usage != 2) if b.usage is not None else np.arange(len(b))
        if metric == "lwlrap":
            ref = lwlrap_ref(b.truth[keep], b.pred[keep])
        else:
            ref = fbeta_ref([b.truth[i] for i in keep], [b.pred[i] for i in keep])[0]
        assert rep2.score == pytest.approx(ref)
        assert len(win.session.changes()) == 1           # one step: both edits
        win.session.undo()
        assert current(qtbot, win).score != pytest.approx(rep.score)
    finally:
        win._discarding = True
        win.jobs.shutdown()
    assert problems == []


@pytest.mark.parametrize("metric", ["qwk", "lwlrap", "fbeta"])
def test_export_report_of_each_demo(qtbot, window, tmp_path, metric):
    """File > Export report… on the three demos: the numbers shown, every link there."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parents[1] / "report"))
    from report_helpers import parse_page, pdf_pages
    problems, opened = [], []
    window.reports.show_problem = problems.append
    window.reports.open_folder = opened.append
    rep = wait_scored(qtbot, window, lambda: window.open_files(*demo_paths(metric)))
    out = tmp_path / "rep"
    with qtbot.waitSignal(window.reports.written, timeout=90000):
        window.reports.export(str(out))
    d = json.loads((out / "report.json").read_text())
    assert d["metric"] == metric and d["score"] == pytest.approx(rep.score)
    assert d["n_rows"] == rep.n_rows and "unsaved_edits" not in d["validation"]
    page = parse_page(out / "index.html")
    assert "script" not in page.tags
    assert page.refs and all((out / ref).is_file() for ref in page.refs)
    assert pdf_pages(out / "report.pdf") == d["pdf_pages"]
    assert opened == [out] and problems == []


def test_every_shortcut_is_unique(window):
    """Two actions on one key do nothing in Qt (Open project once took the compare key)."""
    from collections import Counter

    from kmetric_gui.gui.dialogs import shortcut_rows
    keys = Counter(k for _, key in shortcut_rows(window) for k in key.split(", "))
    assert [k for k, n in keys.items() if n > 1] == []


def test_export_report_with_the_comparison_shown(qtbot, window, tmp_path):
    """The Compare tab's comparison goes into report.json as `kmetric compare --json` has it."""
    from kmetric_gui.paths import resources_dir
    problems = []
    window.reports.show_problem = problems.append
    window.reports.open_folder = lambda folder: None
    wait_scored(qtbot, window, lambda: window.open_files(*demo_paths("qwk")))
    other = str(resources_dir() / "demo" / "qwk_submission_b.csv")
    with qtbot.waitSignal(window.session.compare_changed, timeout=60000,
                          check_params_cb=lambda r: r is not None and r.comparison is not None):
        window.controller.compare_jobs.add([other])
    cmp = window.session.comparison.comparison
    out = tmp_path / "rep"
    with qtbot.waitSignal(window.reports.written, timeout=90000):
        window.reports.export(str(out))
    d = json.loads((out / "report.json").read_text())
    assert d["comparison"] == json.loads(json.dumps(cmp.to_json()))
    assert [f["name"] for f in d["files"]] == ["qwk_solution.csv", "qwk_submission.csv",
                                               "qwk_submission_b.csv"]
    assert (out / "tables" / "comparison_pairs.csv").is_file() and problems == []


def test_compared_submissions_are_kept(qtbot, window, tmp_path):
    from kmetric_gui.paths import resources_dir
    problems = []
    quiet(window, problems)
    d = tmp_path / "data"
    d.mkdir()
    demo = resources_dir() / "demo"
    files = [shutil.copy(demo / n, d / n) for n in ("qwk_solution.csv", "qwk_submission.csv",
                                                     "qwk_submission_b.csv")]
    wait_scored(qtbot, window, lambda: window.open_files(files[0], files[1]))
    window.controller.compare_jobs.add([str(files[2])])
    proj = tmp_path / "cmp.kmetric"
    saved = save(qtbot, window, proj)
    assert [c["path"] for c in saved["compare"]] == ["data/qwk_submission_b.csv"]
    win = second_window(qtbot)
    try:
        quiet(win, problems)
        with qtbot.waitSignal(win.session.compare_changed, timeout=60000,
                              check_params_cb=lambda r: r is not None and r.comparison is not None):
            win.projects.open(str(proj))
        assert [str(p) for p in win.session.compare_paths] == [str(files[2])]
    finally:
        win._discarding = True
        win.jobs.shutdown()
    assert problems == []
