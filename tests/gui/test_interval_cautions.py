"""The app shows every caution the CLI prints beside an interval. Before: with Row groups =
Usage (two groups) the score panel showed zero-width "95 %" intervals and no warning at
all, while `kmetric score --group-column Usage` warned."""
import numpy as np

from conftest import wait_scored
from test_stats_controls import pick_groups, stats_ready


def write_usage_pairs(path, n=200, seed=3):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 5, n)
    pred = np.clip(truth + rng.integers(-1, 2, n), 0, 4)
    sol = path / "truth.csv"
    sol.write_text("id,diagnosis,Usage\n" + "".join(
        f"r{i},{t},{('Public', 'Private')[i % 3 > 0]}\n" for i, t in enumerate(truth)))
    sub = path / "sub.csv"
    sub.write_text("id,diagnosis\n" + "".join(f"r{i},{p}\n" for i, p in enumerate(pred)))
    return str(sol), str(sub)


def cli_warnings(rep, sol, settings, column):
    """What `kmetric score --ci ... --group-column COLUMN` prints under each interval."""
    from kmetric_gui.analysis.grouping import read_groups
    from kmetric_gui.analysis.stats import analyze
    groups = read_groups(rep.prepared, truth_path=sol, column=column)
    st = analyze(rep, settings[0], None, groups=groups)
    return {key: iv.warnings for key, iv in st.intervals.items()}


def test_every_cli_caution_is_shown_under_the_interval(qtbot, window, tmp_path):
    sol, sub = write_usage_pairs(tmp_path)
    rep = wait_scored(qtbot, window, lambda: window.open_files(sol, sub))
    stats_ready(qtbot, window)
    pick_groups(qtbot, window, "Usage")
    qtbot.waitUntil(lambda: window.session.stats is not None
                    and window.session.stats.settings[0].group_column == "Usage", timeout=30000)
    want = cli_warnings(rep, sol, window.session.stats_settings, "Usage")
    shown = window.score_panel.caution_lines()
    prefix = {"ci": "", "public_ci": "Public LB: ", "private_ci": "Private LB: "}
    assert want["ci"] and any(w.startswith("too narrow likely: only 2 groups") for w in want["ci"])
    for key, warnings in want.items():
        for w in warnings:
            assert any(line.endswith(prefix[key] + w) for line in shown), (key, w, shown)
    assert "b42318" in window.score_panel.cautions.text()        # too narrow likely: red


def test_the_cautions_go_with_the_numbers_they_belong_to(qtbot, window, tmp_path):
    sol, sub = write_usage_pairs(tmp_path)
    wait_scored(qtbot, window, lambda: window.open_files(sol, sub))
    stats_ready(qtbot, window)
    pick_groups(qtbot, window, "Usage")
    qtbot.waitUntil(lambda: bool(window.score_panel.caution_lines()), timeout=30000)
    combo = window.options_panel.group_column
    combo.setCurrentIndex(combo.findData(None))                 # rows again: 200 of them
    qtbot.waitUntil(lambda: window.session.stats is not None
                    and window.session.stats.settings[0].group_column is None, timeout=30000)
    qtbot.waitUntil(lambda: not any("groups" in x for x in window.score_panel.caution_lines()),
                    timeout=30000)


def test_a_shake_up_that_cannot_split_the_groups_says_why(qtbot, window, tmp_path):
    # Before: the row shake-up stayed on screen under the two groups' refusal.
    sol, sub = write_usage_pairs(tmp_path)
    wait_scored(qtbot, window, lambda: window.open_files(sol, sub))
    stats_ready(qtbot, window)
    pick_groups(qtbot, window, "Usage")
    qtbot.waitUntil(lambda: window.session.stats is not None
                    and window.session.stats.settings[0].group_column == "Usage", timeout=30000)
    problem = window.session.stats.stats.shakeup_problem
    assert problem and "each side" in problem
    qtbot.waitUntil(lambda: "not computed" in window.shakeup.title.text(), timeout=10000)
    assert problem in window.shakeup.title.text()


def test_cautions_are_short_lines_and_the_splits_stay_in_view(qtbot, window):
    """RMSE's demo: the heavy-tail caution's whole words, three times (All, Public, Private),
    filled the score panel at 1280x720 and pushed the Public and Private scores out of view.
    One short line a kind of caution now, the whole words in its tooltip."""
    window.fit_to((1280, 720))
    wait_scored(qtbot, window, lambda: window.open_demo("rmse"))
    stats_ready(qtbot, window)
    qtbot.waitUntil(lambda: bool(window.score_panel.caution_lines()), timeout=30000)
    panel = window.score_panel
    whole = panel.caution_lines()
    assert any(x.startswith("⚠ Public LB: too narrow likely") for x in whole), whole
    from PySide6.QtGui import QTextDocument
    doc = QTextDocument()
    doc.setHtml(panel.cautions.text())
    short = [x for x in doc.toPlainText().splitlines() if x.strip()]
    assert len(short) < len(whole) and all(len(x) < 120 for x in short), short
    assert any("Public LB" in x and "Private LB" in x for x in short), short
    qtbot.wait(50)
    for label in (panel.public, panel.private):     # in the scroll area's view, not below it
        assert label.isVisible() and not label.visibleRegion().isEmpty(), label.text()
