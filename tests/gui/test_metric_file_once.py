"""A metric file is scored once per pair: opened on a pair and run ("Run it"), each row
set (the whole, Public, Private) goes through its score() one time, the dock and the
score panel showing that one result. The file counts its own calls in a file."""
import collections
import textwrap

import pytest

from conftest import set_cell, wait_scored
from kmetric_gui.paths import resources_dir

EXAMPLES = resources_dir() / "metrics"
PAIR = (str(EXAMPLES / "bll_solution.csv"), str(EXAMPLES / "bll_submission.csv"))


@pytest.fixture(autouse=True)
def own_config(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("KMETRIC_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))


def counting_file(tmp_path):
    calls = tmp_path / "calls.txt"
    p = tmp_path / "counted.py"
    p.write_text(textwrap.dedent(f"""
        HIGHER_IS_BETTER = False
        def score(solution, submission, row_id_column_name):
            rows = sorted(f'{{i}}:{{v}}' for i, v in zip(solution[row_id_column_name],
                                                      submission['class_0']))
            with open({str(calls)!r}, 'a') as f:
                f.write(','.join(rows) + '\\n')
            return float((solution['class_0'] - submission['class_0']).abs().mean())
        """))
    return p, calls


def splits(edit=None, sub=PAIR[1]):
    """Each split's rows as id:prediction, read from the files (a resample renames its ids:
    the prediction tells them apart); ``edit``: (id, class_0) set in the table; ``sub``:
    the submission file."""
    import csv
    with open(PAIR[0], newline="") as f:
        rows = list(csv.DictReader(f))
    with open(sub, newline="") as f:
        pred = {r["id"]: r["class_0"] for r in csv.DictReader(f)}
    if edit is not None:
        pred[edit[0]] = edit[1]
    ids = {name: tuple(sorted(f'{r["id"]}:{float(pred[r["id"]])}' for r in rows
                              if r["Usage"] in usage))
           for name, usage in (("all", ("Public", "Private")), ("public", ("Public",)),
                               ("private", ("Private",)))}
    return ids


def calls_per_split(calls, edit=None):
    """How many calls each split's exact rows got (the statistics' resamples and random
    re-splits are other row sets, left out)."""
    lines = calls.read_text().splitlines() if calls.exists() else []
    seen = collections.Counter(tuple(line.split(",")) for line in lines)
    return {name: seen[ids] for name, ids in splits(edit).items()}


def idle(window):
    return not window.jobs.in_flight()


def test_a_run_scores_each_row_set_once(qtbot, window, tmp_path):
    mf = window.metric_file
    mf.ask_run = lambda name, state=None: True
    mf.ask_direction = lambda name: pytest.fail("the direction was asked")
    mf.args_box.set_place(None, "off")          # it writes its count outside its scratch folder
    window.options_panel.replicates.setValue(100)          # the least: the statistics are quick
    window.options_panel.splits.setValue(100)
    wait_scored(qtbot, window, lambda: window.open_files(*PAIR))
    p, calls = counting_file(tmp_path)
    with qtbot.waitSignal(mf.scored, timeout=60000) as got:
        mf.open(str(p))                         # read, "Run it", scored
    qtbot.waitUntil(lambda: window.session.results.report.metric == "file:counted.py",
                    timeout=60000)
    qtbot.waitUntil(lambda: idle(window), timeout=120000)
    assert calls_per_split(calls) == {"all": 1, "public": 1, "private": 1}
    # The dock and the score panel show that one score.
    rep = window.session.results.report
    assert got.args[0].fs.score == rep.score
    assert mf.panel.score_label.text() == f"{rep.score:.6f}"
    # An edit (row id 0, Public): each split scored once more, the edited data once.
    col = next(i for i, c in enumerate(window.table_panel.model.columns)
               if c.name == "class_0 (submission)")
    with qtbot.waitSignal(mf.scored, timeout=60000) as got:
        set_cell(window, 0, col, "0.25")
    qtbot.waitUntil(lambda: idle(window), timeout=120000)
    assert calls_per_split(calls, ("0", "0.25")) == {"all": 1, "public": 1, "private": 2}
    assert calls_per_split(calls)["all"] == 1 and calls_per_split(calls)["public"] == 1
    rep = window.session.results.report
    assert got.args[0].fs.score == rep.score and mf.panel.score_label.text() == f"{rep.score:.6f}"


def test_a_file_opened_before_the_pair_scores_it_once(qtbot, window, tmp_path):
    """The metric file first, then the pair: the window's own load with the metric before
    gives way to the file's score (installed as the session's data), once per split."""
    mf = window.metric_file
    mf.ask_run = lambda name, state=None: True
    mf.args_box.set_place(None, "off")
    window.options_panel.replicates.setValue(100)
    window.options_panel.splits.setValue(100)
    p, calls = counting_file(tmp_path)
    with qtbot.waitSignal(mf.ready, timeout=60000):
        mf.open(str(p))
    with qtbot.waitSignal(mf.scored, timeout=60000) as got:
        window.open_files(*PAIR)
    qtbot.waitUntil(lambda: idle(window), timeout=120000)
    rep = window.session.results.report
    assert rep.metric == "file:counted.py" and got.args[0].fs.score == rep.score
    assert calls_per_split(calls) == {"all": 1, "public": 1, "private": 1}


def other_submission(tmp_path):
    """A worse copy of the submission (class_0 pulled towards 0.5): another file to compare."""
    import csv
    out = tmp_path / "other.csv"
    with open(PAIR[1], newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r["class_0"] = str(round(0.5 + 0.5 * (float(r["class_0"]) - 0.5), 6))
        r["class_1"] = str(round(1 - float(r["class_0"]), 6))
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return out


def test_a_compared_file_and_the_shown_one_are_scored_once(qtbot, window, tmp_path):
    """Another submission compared under the file in use: the dock shows the session's
    comparison (its compare job calls the file through the contract), so the shown
    submission is not scored again and the compared one once per split; the dock's
    numbers are the pair's (lower is better: the worse file's P(better) is small).
    Before, the dock's own comparison on disk scored both again: 4 calls per split each."""
    mf = window.metric_file
    mf.ask_run = lambda name, state=None: True
    mf.args_box.set_place(None, "off")
    window.options_panel.replicates.setValue(100)
    window.options_panel.splits.setValue(100)
    wait_scored(qtbot, window, lambda: window.open_files(*PAIR))
    p, calls = counting_file(tmp_path)
    with qtbot.waitSignal(mf.scored, timeout=60000):
        mf.open(str(p))
    qtbot.waitUntil(lambda: window.session.results.report.metric == "file:counted.py",
                    timeout=60000)
    qtbot.waitUntil(lambda: idle(window), timeout=120000)
    other = other_submission(tmp_path)
    with qtbot.waitSignal(mf.compared, timeout=180000) as got:
        window.controller.compare_jobs.add([str(other)])
    qtbot.waitUntil(lambda: idle(window), timeout=120000)
    d = got.args[0]
    # The ends of the pair's blend curve (alpha 1 is A, 0 is B; over all rows and the
    # held-out Public and Private) are the two scores already known, not calls (before:
    # each file's exact rows came back once more as an end).
    blend = d["pairs"][0]["blend"]
    assert blend["alphas"][0] == 0 and blend["alphas"][-1] == 1
    once = {"all": 1, "public": 1, "private": 1}
    assert calls_per_split(calls) == once
    seen = collections.Counter(tuple(line.split(",")) for line in calls.read_text().splitlines())
    assert {name: seen[ids] for name, ids in splits(sub=other).items()} == once
    shown, comp = window.session.results.report, window.session.comparison.comparison
    assert [s["score"] for s in d["submissions"]] == [s.score for s in comp.submissions]
    assert d["submissions"][0]["score"] == shown.score
    assert d["pairs"][0]["delta"] == pytest.approx(d["submissions"][1]["score"] - shown.score)
    assert d["pairs"][0]["delta"] > 0 and d["pairs"][0]["p_b_better"] < 0.5
    assert mf.panel.table.item(1, 0).text() == "other.csv"
    assert mf.panel.table.item(1, 4).text() == f"{d['pairs'][0]['p_b_better']:.3f}"
    assert not mf.panel.running()        # its progress was in the dock; it ended there too
    # A file that cannot be compared is said in the dock, naming it.
    bad = tmp_path / "bad.csv"
    bad.write_text("id,class_0,class_1\n0,0.5,0.5\n")
    with qtbot.waitSignal(mf.compared, timeout=180000):
        window.controller.compare_jobs.add([str(bad)])
    assert "Not compared" in mf.panel.error.text() and "bad.csv" in mf.panel.error.text()

