"""Table columns derived from the score stay as long as the table and on their own
rows when a Usage column has Ignored rows (LwLRAP's "sample lwlrap", F-beta's TP /
FP / FN), and a sort by a compared submission's column survives clearing the
compared submissions.

Before: the derived values covered only the scored rows, so the last rows raised
IndexError when painted and earlier rows showed another sample's values; after a
sort by a compared column was cleared, every edit's row refresh raised IndexError.
"""
import csv
import math

import pytest

from conftest import column, set_cell, wait_rows, wait_scored
from kmetric_gui.gui.main_window import demo_paths
from reference import fbeta_ref, lwlrap_ref


def with_usage(src, dst, key):
    """The solution with a Usage column: every third id Ignored, the rest Public /
    Private alternately (all rows of one id alike)."""
    rows = list(csv.reader(open(src, newline="")))
    ids = list(dict.fromkeys(r[key] for r in rows[1:]))
    usage = {i: ("Ignored", "Public", "Private")[n % 3] for n, i in enumerate(ids)}
    with open(dst, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(rows[0] + ["Usage"])
        for r in rows[1:]:
            w.writerow(r + [usage[r[key]]])
    return str(dst)


def cells(win, name):
    m = win.table_panel.model
    c = next(i for i, col in enumerate(m.columns) if col.name == name)
    return [m.data(m.index(r, c)) for r in range(m.rowCount())], c


def source_rows(win):
    return [int(r) for r in win.table_panel.model.rows]


def test_lwlrap_sample_column_with_ignored_rows(qtbot, window, tmp_path):
    truth, sub = demo_paths("lwlrap")
    truth = with_usage(truth, tmp_path / "lwlrap_solution.csv", 0)
    wait_scored(qtbot, window, lambda: window.open_files(truth, sub))
    qtbot.waitUntil(lambda: not window.jobs.busy, timeout=20000)
    prep = window.session.data.prepared()
    assert (prep.usage == 2).any()
    texts, c = cells(window, "sample lwlrap")
    assert len(texts) == len(prep)
    for view_row, src in enumerate(source_rows(window)):
        if prep.usage[src] == 2:
            assert texts[view_row] == "", src
        else:
            want = lwlrap_ref([prep.truth[src]], [prep.pred[src]])
            assert texts[view_row] == ("" if math.isnan(want) else f"{want:.4f}"), src
    wait_rows(qtbot, window, lambda: window.table_panel.model.sort(c))   # sorting works
    m = window.table_panel.model
    vals = [m.columns[c].values[r] for r in source_rows(window)]
    finite = [v for v in vals if not math.isnan(v)]
    assert finite == sorted(finite)


def test_fbeta_counts_with_ignored_rows(qtbot, window, tmp_path):
    truth, sub = demo_paths("fbeta")
    truth = with_usage(truth, tmp_path / "fbeta_solution.csv", 0)
    wait_scored(qtbot, window, lambda: window.open_files(truth, sub))
    qtbot.waitUntil(lambda: not window.jobs.busy, timeout=20000)
    prep = window.session.data.prepared()
    opts = window.session.options
    assert (prep.usage == 2).any()
    got = [cells(window, name)[0] for name in ("TP", "FP", "FN")]
    for view_row, src in enumerate(source_rows(window)):
        if prep.usage[src] == 2:
            assert [g[view_row] for g in got] == ["", "", ""], src
        else:
            _, want = fbeta_ref([list(prep.truth[src])], [list(prep.pred[src])],
                                beta=opts.beta, threshold=opts.threshold,
                                matching=opts.matching, clean=opts.clean)
            assert [g[view_row] for g in got] == [str(v) for v in want], src
    c = cells(window, "FN")[1]
    wait_rows(qtbot, window, lambda: window.table_panel.model.sort(c))
    fn = [int(window.table_panel.model.columns[c].values[r]) for r in source_rows(window)]
    assert fn == sorted(fn)


def test_clearing_compared_files_after_sorting_by_one(qtbot, window):
    truth, sub = demo_paths("qwk")
    other = sub.replace("qwk_submission", "qwk_submission_b")
    wait_scored(qtbot, window, lambda: window.open_files(truth, sub))
    errors = []
    window.jobs.error.connect(lambda kind, exc: errors.append(exc))
    with qtbot.waitSignal(window.session.compare_changed, timeout=30000,
                          check_params_cb=lambda r: r is not None):
        window.controller.compare_jobs.add([other])
    m = window.table_panel.model
    extra = next(i for i, col in enumerate(m.columns) if col.meta.get("extra"))
    wait_rows(qtbot, window, lambda: m.sort(extra))
    window.controller.compare_jobs.clear()
    assert not any(col.meta.get("extra") for col in m.columns)
    c = column(window, "pred")
    new = str((int(m.data(m.index(0, c))) + 1) % 5)
    wait_scored(qtbot, window, lambda: set_cell(window, 0, c, new))
    qtbot.waitUntil(lambda: not window.jobs.busy, timeout=20000)
    assert errors == []
    assert len(source_rows(window)) == m.n_source


@pytest.mark.parametrize("usage", [None])
def test_helper_spread(usage):
    from kmetric_gui.metrics.base import per_row
    import numpy as np
    u = np.array([0, 2, 1, 2, 0], dtype=np.int8)
    assert per_row(np.array([1.0, 2.0, 3.0]), u, np.nan).tolist()[::2] == [1.0, 2.0, 3.0]
    assert np.isnan(per_row(np.array([1.0, 2.0, 3.0]), u, np.nan)[[1, 3]]).all()
    assert per_row(np.array([5, 6]), usage, 0).tolist() == [5, 6]


def test_sorting_a_column_of_equal_length_lists_keeps_one_row_each():
    """Found by the soak on the merged tree (seed 29): a column whose values are lists of one
    length sorted into a 2-D index map, and every header paint then raised TypeError."""
    import numpy as np
    from kmetric_gui.gui.models.table import sorted_rows
    values = [[3, 1], [1, 2], [2, 0]]
    rows = sorted_rows(values, np.arange(3), False)
    assert rows.ndim == 1 and rows.tolist() == sorted(range(3), key=lambda i: str(values[i]))


def test_sorting_a_column_of_values_without_an_order_sorts_by_their_text():
    """Found by the soak (seed 309): sorting the table by a mask column raised TypeError
    ('<' not supported between MaskImage objects) in the rows job, an error dialog."""
    import numpy as np
    from kmetric_gui.gui.models.table import sorted_rows

    class Unordered:
        def __init__(self, text):
            self.text = text
    values = np.array([Unordered(t) for t in ("b 2", "", "a 1")] + [None], dtype=object)[:-1]
    rows = sorted_rows(values, np.arange(3), False, text=lambda v: v.text)
    assert rows.tolist() == [1, 2, 0]
    assert sorted_rows(values, np.arange(3), True, text=lambda v: v.text).tolist() == [0, 2, 1]
