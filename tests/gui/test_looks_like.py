"""The app proposes the competition whose files a pair looks like (the headers match one
catalog entry exactly): a note in the score panel, its link picks the competition in
Options; a pair of no competition's layout gets no note; another pair clears it."""
import numpy as np
import pytest

from conftest import wait_scored
from kmetric_gui.gui.looks_like import KIND


def _write(path, header, rows):
    path.write_text(",".join(header) + "\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))
    return path


def icecube_pair(folder):
    """Files shaped as IceCube's (event_id, azimuth, zenith); the angular error by hand."""
    rng = np.random.default_rng(3)
    az, ze = rng.uniform(0, 6.28, (2, 30)), rng.uniform(0, 3.14, (2, 30))
    t = _write(folder / "ice_truth.csv", ["event_id", "azimuth", "zenith"],
               [(k, f"{az[0, k]:.6f}", f"{ze[0, k]:.6f}") for k in range(30)])
    s = _write(folder / "ice_sub.csv", ["event_id", "azimuth", "zenith"],
               [(k, f"{az[1, k]:.6f}", f"{ze[1, k]:.6f}") for k in range(30)])
    return t, s


def plain_pair(folder):
    """id,target: the layout of many competitions, so of none in particular."""
    t = _write(folder / "plain_truth.csv", ["id", "target"], [(k, k % 2) for k in range(20)])
    s = _write(folder / "plain_sub.csv", ["id", "target"], [(k, (k % 3) / 3) for k in range(20)])
    return t, s


def open_and_look(qtbot, win, pair):
    """Open ``pair``; return once its header job and its load have ended (id,target of 0/1
    and scores fits several metrics: the app asks, the test's answer is none)."""
    with qtbot.waitSignal(win.jobs.ended, timeout=20000, check_params_cb=lambda k, o: k == KIND):
        win.open_files(*pair)
    qtbot.waitUntil(lambda: not win.jobs.busy, timeout=20000)


def test_a_pair_shaped_as_a_competitions_files_gets_the_note_and_its_link(qtbot, window,
                                                                         tmp_path):
    open_and_look(qtbot, window, icecube_pair(tmp_path))
    note = window.looks_like.note
    assert note.isVisible() and note.slug == "icecube-neutrinos-in-deep-ice"
    assert "icecube-neutrinos-in-deep-ice" in note.text()
    assert window.options_panel.competition.slug() is None
    rep = wait_scored(qtbot, window, lambda: note.linkActivated.emit("use"))
    assert window.options_panel.competition.slug() == "icecube-neutrinos-in-deep-ice"
    assert rep.metric == "angular" and window.session.options.id_column == "event_id"
    assert window.session.options.target_column == "azimuth,zenith"
    assert not note.isVisible()
    # read again with the competition chosen: no note proposes what is in force
    wait_scored(qtbot, window, window.controller.reload)
    assert not note.isVisible()


def test_a_pair_of_no_single_competition_gets_no_note(qtbot, window, tmp_path):
    open_and_look(qtbot, window, plain_pair(tmp_path))
    assert not window.looks_like.note.isVisible() and window.looks_like.note.slug is None


def test_another_pair_clears_the_note_at_once(qtbot, window, tmp_path):
    open_and_look(qtbot, window, icecube_pair(tmp_path))
    note = window.looks_like.note
    assert note.isVisible()
    seen = []
    window.controller.loading.connect(lambda *_: seen.append(note.isVisible()))
    open_and_look(qtbot, window, plain_pair(tmp_path))
    assert seen == [False] and not note.isVisible()
    assert window.options_panel.competition.slug() is None     # nothing was applied


def test_no_note_when_a_competition_is_chosen(qtbot, window, tmp_path):
    window.options_panel.competition.choose("icecube-neutrinos-in-deep-ice")
    qtbot.waitUntil(lambda: not window.jobs.busy, timeout=20000)
    t, s = icecube_pair(tmp_path)
    wait_scored(qtbot, window, lambda: window.open_files(t, s))
    qtbot.waitUntil(lambda: not window.jobs.busy, timeout=20000)
    assert not window.looks_like.note.isVisible()


@pytest.mark.parametrize("which", ["truth", "submission"])
def test_an_unreadable_header_is_no_note_and_no_error(qtbot, window, tmp_path, which):
    t, s = icecube_pair(tmp_path)
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"")
    pair = (bad, s) if which == "truth" else (t, bad)
    with qtbot.waitSignal(window.jobs.ended, timeout=20000,
                          check_params_cb=lambda k, o: k == KIND) as sig:
        window.open_files(*pair)
    assert sig.args[1] == "done"
    qtbot.waitUntil(lambda: not window.jobs.busy, timeout=20000)
    assert not window.looks_like.note.isVisible()


def test_masks_no_layout_scores_alone_get_the_competition_that_scores_them(qtbot, window,
                                                                          tmp_path):
    """Airbus's files (ImageId, EncodedPixels, no image size): read alone they are refused
    (no image size, several mask metrics fit); the note's link scores them as Airbus does."""
    import json

    import importlib.util
    from pathlib import Path
    # by its path: a module called "catalog" may already be imported in a whole run
    where = Path(__file__).resolve().parents[1] / "catalog" / "shapes_images.py"
    spec = importlib.util.spec_from_file_location("catalog_shapes_images", where)
    shapes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(shapes)
    make_pair = shapes.make_pair
    from kmetric_gui.analysis.competitions import DATA
    entry = next(c for c in json.loads(DATA.read_text())["competitions"]
                 if c["slug"] == "airbus-ship-detection")
    sol, sub, want = make_pair(entry, tmp_path)
    open_and_look(qtbot, window, (sol, sub))
    assert window.session.results is None                   # not scored as they are
    note = window.looks_like.note
    assert note.isVisible() and note.slug == "airbus-ship-detection"
    rep = wait_scored(qtbot, window, lambda: note.linkActivated.emit("use"))
    assert rep.metric == "fbeta_iou" and rep.result.score == pytest.approx(want, rel=1e-9)
    assert window.options_panel.competition.slug() == "airbus-ship-detection"


def test_a_competition_shown_afterwards_takes_the_note_away(qtbot, window, tmp_path):
    """A project names its competition once its files are read (show_slug, no reload):
    the note proposing one must not stay beside it."""
    open_and_look(qtbot, window, icecube_pair(tmp_path))
    assert window.looks_like.note.isVisible()
    window.options_panel.competition.show_slug("icecube-neutrinos-in-deep-ice")
    assert not window.looks_like.note.isVisible()


def test_a_competition_no_builtin_scores_is_named_without_a_link(qtbot, window, tmp_path):
    """Global Wheat's files (image_id, PredictionString): the note names the competition
    and why its metric file is needed; there is nothing to apply."""
    t = _write(tmp_path / "wheat_truth.csv", ["image_id", "PredictionString"],
               [(f"im{k}", f"{k} {k} 10 10") for k in range(6)])
    s = _write(tmp_path / "wheat_sub.csv", ["image_id", "PredictionString"],
               [(f"im{k}", f"0.9 {k} {k} 10 10") for k in range(6)])
    open_and_look(qtbot, window, (t, s))
    note = window.looks_like.note
    assert note.isVisible() and "global-wheat-detection" in note.text()
    assert "metric file" in note.text() and "<a " not in note.text() and note.slug is None
    assert "TP / (TP + FP + FN)" in note.toolTip()          # why, where there is room


def test_the_same_files_read_again_are_not_looked_at_again(qtbot, window, tmp_path):
    """New options read the files again: their headers are not read again (a file rewritten
    under its name is)."""
    pair = plain_pair(tmp_path)
    open_and_look(qtbot, window, pair)
    kinds = []
    window.jobs.ended.connect(lambda kind, outcome: kinds.append(kind))
    window.controller.reload()
    qtbot.waitUntil(lambda: "load" in kinds and not window.jobs.busy, timeout=20000)
    assert KIND not in kinds
    t, s = icecube_pair(tmp_path)
    pair[0].write_text(t.read_text())               # rewritten: IceCube's files now
    pair[1].write_text(s.read_text())
    open_and_look(qtbot, window, pair)
    assert window.looks_like.note.slug == "icecube-neutrinos-in-deep-ice"
