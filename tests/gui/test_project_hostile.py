"""Hostile and careless project files: refused in words before anything is applied,
edits read exactly as typed edits are, the app keeps running and its options."""
import json
import shutil

import numpy as np
import pytest

from conftest import prep, wait_scored
from kmetric_gui.gui.main_window import MainWindow, demo_paths
from kmetric_gui.analysis.scoring import Options


@pytest.fixture
def files(tmp_path):
    d = tmp_path / "data"
    d.mkdir()
    truth, sub = demo_paths("qwk")
    return shutil.copy(truth, d / "truth.csv"), shutil.copy(sub, d / "sub.csv")


@pytest.fixture
def saved(qtbot, window, files, tmp_path):
    """A valid project of the kappa demo with one edit, as the app writes it."""
    window.projects.show_problem = lambda text: None
    wait_scored(qtbot, window, lambda: window.open_files(*files))
    from kmetric_gui.metrics import FieldSpec
    new = (int(prep(window).pred[0]) + 1) % 5
    assert window.session.edit_text(FieldSpec("pred"), 0, str(new)) is None
    proj = tmp_path / "work.kmetric"
    with qtbot.waitSignal(window.projects.saved, timeout=20000):
        window.projects.save(str(proj))
    return json.loads(proj.read_text())


@pytest.fixture
def fresh(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("KMETRIC_SETTINGS", str(tmp_path / "fresh.ini"))
    win = MainWindow()
    from PySide6.QtWidgets import QMessageBox
    win.ask_unsaved = lambda: QMessageBox.Discard
    qtbot.addWidget(win)
    win.show()
    problems = []
    win.projects.show_problem = problems.append
    win.problems_said = problems
    yield win
    win._discarding = True
    win.jobs.shutdown()


def write(tmp_path, d, name="work.kmetric"):
    p = tmp_path / name
    p.write_text(d if isinstance(d, str) else json.dumps(d))
    return str(p)


def refused(qtbot, win, path):
    n = len(win.problems_said)
    win.projects.open(path)
    qtbot.waitUntil(lambda: len(win.problems_said) > n, timeout=20000)
    return win.problems_said[-1]


def set_in_force(win, **kw):
    o = Options(allow_continuous=True, **kw)
    win.options_panel.set_options(o)
    win.session.set_options(win.options_panel.options())
    return win.session.options


@pytest.mark.parametrize("options, field, words", [
    ({"min_rating": "abc"}, "options.min_rating", "whole number"),
    ({"id_column": 7}, "options.id_column", "must be text"),
    ({"beta": float("nan")}, "options.beta", "must be a finite number"),
    ({"beta": 1e300}, "options.beta", "must be at most 100"),
    ({"threshold": -1}, "options.threshold", "must be at least 0"),
    ({"weights": ["quadratic"]}, "options.weights", "got a list"),
    ({"clean": "yes"}, "options.clean", "true or false"),
    ({"max_rating": 10 ** 30}, "options.max_rating", "2^53"),
    ({"colour": 1}, "options.colour", "is not an option"),
])
def test_bad_options_refused_and_the_options_in_force_kept(qtbot, fresh, saved, tmp_path,
                                                          options, field, words):
    before = set_in_force(fresh, beta=2.0, min_rating=1)
    saved["options"].update(options)
    text = refused(qtbot, fresh, write(tmp_path, saved))
    assert "work.kmetric" in text and f"'{field}'" in text and words in text
    assert fresh.session.options == before                    # nothing applied
    assert fresh.options_panel.options() == before
    assert fresh.session.data is None and fresh.session.truth_path is None


def test_options_kept_when_the_files_then_fail_to_load(qtbot, fresh, saved, files, tmp_path):
    before = set_in_force(fresh, beta=2.0)
    saved["options"]["beta"] = 5.0
    files[1].write_text("id_code,diagnosis\nx,1\n")       # no longer matches the solution
    saved["files"]["submission"]["sha256"] = "0" * 64
    fresh.projects.ask_apply_edits = lambda text: False
    text = refused(qtbot, fresh, write(tmp_path, saved))
    assert "Project not opened" in text
    assert fresh.session.options == before and fresh.options_panel.beta.value() == 2.0


@pytest.mark.parametrize("value, words", [
    (2.5, "not a whole number"),
    (True, "true/false is not a number"),
    (float("nan"), "not a finite number"),
    (1e300, "too large"),
    ("3", "reads as another value"),
    ([3], "not a"),
    (None, "empty"),
])
def test_edits_are_read_as_typed_edits(qtbot, fresh, saved, tmp_path, value, words):
    ok = saved["edits"][0]["cells"][0]
    bad = dict(ok, unit=ok["unit"] + 1, value=value)
    saved["edits"] = [{"label": "Edit pred of row 9", "cells": [ok]},
                      {"label": "Edit pred of row 7", "cells": [bad]}]
    with qtbot.waitSignal(fresh.projects.opened, timeout=30000):
        fresh.projects.open(write(tmp_path, saved))
    text = fresh.problems_said[-1]
    lines = text.splitlines()
    assert lines[0].startswith("project work.kmetric: edit 2 ('Edit pred of row 7')")
    assert words in lines[0] and len(lines) == 2 and "none of them" in lines[1]
    assert fresh.session.changes() == []                      # none applied, not even edit 1
    p = prep(fresh)
    assert p.pred.dtype.kind in "iu" and not fresh.session.dirty


def test_every_refused_edit_has_its_line(qtbot, fresh, saved, tmp_path):
    ok = saved["edits"][0]["cells"][0]
    saved["edits"] = [{"label": f"e{k}", "cells": [dict(ok, unit=k, value=v)]}
                      for k, v in enumerate([1, 2.5, 3, True, 1e300])]
    with qtbot.waitSignal(fresh.projects.opened, timeout=30000):
        fresh.projects.open(write(tmp_path, saved))
    lines = fresh.problems_said[-1].splitlines()
    assert [ln.split(":")[1].strip() for ln in lines[:-1]] == [
        "edit 2 ('e1'), row 2", "edit 4 ('e3'), row 4", "edit 5 ('e4'), row 5"]


def test_project_of_many_edits_is_one_history_step(qtbot, fresh, saved, tmp_path):
    n = len(prep_rows := range(600))
    saved["edits"] = [{"label": f"Edit pred of row {u + 1}",
                       "cells": [{"field": "pred", "unit": u, "part": None, "value": u % 5}]}
                      for u in prep_rows]
    with qtbot.waitSignal(fresh.projects.opened, timeout=30000):
        fresh.projects.open(write(tmp_path, saved))
    assert [c.label for c in fresh.session.changes()] == [f"{n} edits of project work.kmetric"]
    assert np.array_equal(prep(fresh).pred, np.arange(n) % 5)
    fresh.session.undo()
    assert not fresh.session.can_undo


def final(d, **kw):
    """A valid `final` object of the saved project's files, with ``kw`` changed."""
    out = {"truth": d["files"]["truth"], "candidates": [d["files"]["submission"]] * 3,
           "leaderboard": None, "pick": 2, "correlation": 0.5, "ran": False}
    out.update(kw)
    return out


@pytest.mark.parametrize("mutate, words", [
    (lambda d: d["view"].update(splitters={"main": [10 ** 30, 5]}), "'view.splitters'"),
    (lambda d: d["view"].update(tab=2 ** 40), "'view.tab'"),
    (lambda d: d["view"].update(selected_rows=[-1]), "'view.selected_rows'"),
    (lambda d: d["files"]["truth"].update(size="big"), "'files.truth.size'"),
    (lambda d: d["files"].update(extra={}), "'files.extra'"),
    (lambda d: d.update(edits={"a": 1}), "'edits' must be a list"),
    (lambda d: d["edits"][0]["cells"][0].update(unit=2 ** 80), "'edits[0].cells[0].unit'"),
    (lambda d: d.update(compare=[{"path": 5}]), "'compare[0].path'"),
    (lambda d: d.update(final=final(d, pick=0)), "'final.pick'"),
    (lambda d: d.update(final=final(d, correlation=float("nan"))), "'final.correlation'"),
    (lambda d: d.update(final=final(d, candidates="a.csv")), "'final.candidates'"),
    (lambda d: d.update(final=final(d, candidates=[{"path": "a.csv"}])), "'final.candidates[0].size'"),
    (lambda d: d.update(final=final(d, leaderboard={"path": ""})), "'final.leaderboard.path'"),
    (lambda d: d.update(final=final(d, ran="yes")), "'final.ran'"),
    (lambda d: d.update(final=final(d, results=[1])), "'final.results' is not a field"),
    (lambda d: d.update(final=[]), "'final' must be an object"),
])
def test_schema_refusals_name_the_field(qtbot, fresh, saved, tmp_path, mutate, words):
    mutate(saved)
    assert words in refused(qtbot, fresh, write(tmp_path, saved))
    assert fresh.session.data is None


def test_deep_nesting_and_huge_numbers_are_refused_in_words(qtbot, fresh, saved, tmp_path):
    deep = json.dumps(saved)[:-1] + ', "view": ' + "[" * 100_000 + "]" * 100_000 + "}"
    assert "nested too deeply" in refused(qtbot, fresh, write(tmp_path, deep))
    huge = json.dumps(saved).replace('"format_version": 1', '"format_version": 1' + "0" * 5000)
    assert "is not JSON" in refused(qtbot, fresh, write(tmp_path, huge))


def test_the_project_is_parsed_on_a_worker(qtbot, fresh, saved, tmp_path, monkeypatch):
    from PySide6.QtCore import QThread
    import kmetric_gui.gui.project as project_mod
    threads, real = [], project_mod.read_project

    def spy(path):
        threads.append(QThread.currentThread())
        return real(path)
    monkeypatch.setattr(project_mod, "read_project", spy)
    main = QThread.currentThread()
    with qtbot.waitSignal(fresh.projects.opened, timeout=30000):
        fresh.projects.open(write(tmp_path, saved))
    assert len(threads) == 1 and threads[0] is not main


def test_size_is_bounded(tmp_path):
    from kmetric_gui.gui.project_file import ProjectError, read_project
    p = tmp_path / "big.kmetric"
    p.write_text('{"format": "kmetric-project"' + " " * 2000 + "}")
    with pytest.raises(ProjectError, match="larger than"):
        read_project(p, max_bytes=1000)
