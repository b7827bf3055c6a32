"""New numbers shown while their shake-up and comparison are still computing: the ones of
the numbers before say so until theirs arrive (before: a metric file adopted after a
built-in showed the built-in's shake-up and comparison with nothing said)."""
from conftest import column, set_cell, wait_scored
from kmetric_gui.gui.main_window import demo_paths


def test_shakeup_and_compare_of_the_numbers_before_say_updating(qtbot, window):
    truth, sub = demo_paths("qwk")
    other = sub.replace("qwk_submission", "qwk_submission_b")
    wait_scored(qtbot, window, lambda: window.open_files(truth, sub))
    with qtbot.waitSignal(window.session.compare_changed, timeout=30000,
                          check_params_cb=lambda r: r is not None):
        window.controller.compare_jobs.add([other])
    qtbot.waitUntil(lambda: window.session.stats is not None, timeout=30000)
    shake, view = window.shakeup, window.tabs.compare.view
    assert "updating" not in shake.title.text() and "updating" not in view.title.text()
    seen = []
    window.session.results_changed.connect(
        lambda r: seen.append((shake.title.text(), view.title.text())))
    m = window.table_panel.model
    c = column(window, "pred")
    new = str((int(m.data(m.index(0, c))) + 1) % 5)
    wait_scored(qtbot, window, lambda: set_cell(window, 0, c, new))
    (shake_title, compare_title), = seen
    assert "updating" in shake_title and "numbers before" in shake_title
    assert "Updating" in compare_title and "numbers before" in compare_title
    # Theirs arrive: the marks go.
    qtbot.waitUntil(lambda: window.session.stats is not None and
                    window.session.comparison is not None and
                    window.session.is_current(window.session.comparison.generation),
                    timeout=30000)
    qtbot.waitUntil(lambda: "updating" not in shake.title.text().lower(), timeout=10000)
    assert "updating" not in view.title.text().lower()
    assert "random splits" in shake.title.text()
