"""View > Watch files: one rescore per completed write (in place or renamed over),
the previous score and the change shown, unsaved edits never lost without asking."""
import os
import shutil
import threading
import time

import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from conftest import column, prep, set_cell, wait_scored
from kmetric_gui.gui.main_window import demo_paths


@pytest.fixture
def watched(qtbot, window, tmp_path):
    truth, sub = demo_paths("qwk")
    truth, sub = shutil.copy(truth, tmp_path / "truth.csv"), shutil.copy(sub, tmp_path / "sub.csv")
    wait_scored(qtbot, window, lambda: window.open_files(str(truth), str(sub)))
    w = window.watch
    w.quiet = 0.5          # the writer pauses 0.05 s between chunks: far below
    w.set_enabled(True)
    counts = {"reloading": 0, "rescored": []}
    w.reloading.connect(lambda paths: counts.__setitem__("reloading", counts["reloading"] + 1))
    w.rescored.connect(lambda prev, new: counts["rescored"].append((prev, new)))
    return window, truth, sub, counts


def shifted_submission(truth, sub, shift):
    """The demo submission with every `shift`-th prediction moved by one (CSV text)."""
    df = pd.read_csv(sub)
    df.loc[::shift, "diagnosis"] = (df.loc[::shift, "diagnosis"] + 1) % 5
    return df.to_csv(index=False)


def reference(truth, text_path):
    sol, s = pd.read_csv(truth), pd.read_csv(text_path)
    m = sol.merge(s, on="id_code", suffixes=("_t", "_p"))
    m = m[m.Usage.str.lower() != "ignored"]
    return cohen_kappa_score(m.diagnosis_t, m.diagnosis_p, weights="quadratic", labels=range(5))


def write_in_chunks(path, text, chunks=6, pause=0.05, replace=False):
    """A slow writer on another thread: in place, or into a temp file renamed over ``path``."""
    def run():
        target = path.with_name(path.name + ".tmp") if replace else path
        size = len(text) // chunks + 1
        with open(target, "w") as f:
            for k in range(0, len(text), size):
                f.write(text[k:k + size])
                f.flush()
                time.sleep(pause)
        if replace:
            os.replace(target, path)
    t = threading.Thread(target=run)
    t.start()
    return t


def settle(qtbot, ms=1200):
    qtbot.wait(ms)


def test_one_rescore_per_completed_write(qtbot, watched):
    win, truth, sub, counts = watched
    before = win.session.results.report.score
    text = shifted_submission(truth, sub, 7)
    with qtbot.waitSignal(win.watch.rescored, timeout=15000):
        write_in_chunks(sub, text).join()
    settle(qtbot)
    assert counts["reloading"] == 1 and len(counts["rescored"]) == 1
    prev, new = counts["rescored"][0]
    assert prev == pytest.approx(before)
    assert new == pytest.approx(reference(truth, sub)) != pytest.approx(before)
    shown = win.score_panel.change.text()
    assert f"{before:.6f}" in shown and f"{new - before:+.4f}" in shown
    # the change stays shown through an unrelated rescore (an edit) until the next file change
    col = column(win, "pred")
    wait_scored(qtbot, win, lambda: set_cell(win, 0, col, str((int(prep(win).pred[
        int(win.table_panel.model.rows[0])]) + 1) % 5)))
    assert win.score_panel.change.text() == shown


def test_rename_over_is_followed_each_time(qtbot, watched):
    win, truth, sub, counts = watched
    for n, shift in enumerate((5, 9), start=1):
        with qtbot.waitSignal(win.watch.rescored, timeout=15000):
            write_in_chunks(sub, shifted_submission(truth, sub, shift), replace=True).join()
        settle(qtbot, 800)
        assert counts["reloading"] == n
        assert counts["rescored"][-1][1] == pytest.approx(reference(truth, sub))
        assert str(sub) in win.watch.watcher.files()


def test_truth_changes_are_watched_too(qtbot, watched):
    win, truth, sub, counts = watched
    df = pd.read_csv(truth)
    df.loc[::4, "diagnosis"] = (df.loc[::4, "diagnosis"] + 2) % 5
    with qtbot.waitSignal(win.watch.rescored, timeout=15000):
        write_in_chunks(truth, df.to_csv(index=False)).join()
    assert counts["rescored"][-1][1] == pytest.approx(reference(truth, sub))


def test_unsaved_edits_are_never_lost_without_asking(qtbot, watched):
    win, truth, sub, counts = watched
    col = column(win, "pred")
    src = int(win.table_panel.model.rows[3])
    new = (int(prep(win).pred[src]) + 2) % 5
    wait_scored(qtbot, win, lambda: set_cell(win, 3, col, str(new)))
    asked = []
    win.watch.ask_reload_over_edits = lambda names: (asked.append(names), False)[1]
    with qtbot.waitSignal(win.watch.declined, timeout=15000):
        write_in_chunks(sub, shifted_submission(truth, sub, 3)).join()
    settle(qtbot, 600)
    assert asked == ["sub.csv"] and counts["reloading"] == 0
    assert win.session.dirty and len(win.session.changes()) == 1 and prep(win).pred[src] == new
    # when the user agrees, the file is reloaded (and the edits go, as they were told)
    win.watch.ask_reload_over_edits = lambda names: True
    with qtbot.waitSignal(win.watch.rescored, timeout=15000):
        write_in_chunks(sub, shifted_submission(truth, sub, 4)).join()
    assert not win.session.dirty
    assert counts["rescored"][-1][1] == pytest.approx(reference(truth, sub))


def test_off_means_no_rescore(qtbot, watched):
    win, truth, sub, counts = watched
    win.watch.set_enabled(False)
    write_in_chunks(sub, shifted_submission(truth, sub, 6)).join()
    settle(qtbot, 1000)
    assert counts["reloading"] == 0 and win.watch.watcher.files() == []
