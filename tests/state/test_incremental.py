"""An edit rescored from the sufficient statistics equals scoring from scratch."""
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from kmetric_gui.gui.controller import changed_cells
from kmetric_gui.metrics import FieldSpec
from kmetric_gui.paths import resources_dir
from kmetric_gui.analysis.scoring import Options, load, score_prepared
from kmetric_gui.state import Session

TRUTH, PRED = FieldSpec("truth"), FieldSpec("pred")


def files(tmp_path, continuous=False, seed=0, n=200):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 5, n)
    p = np.clip(t + rng.integers(-2, 3, n), 0, 4).astype(float)
    if continuous:
        p = np.round(p + rng.normal(0, 0.3, n), 3)
    usage = rng.choice(["Public", "Private", "Ignored"], n, p=[0.3, 0.6, 0.1])
    sol, sub = tmp_path / "sol.csv", tmp_path / "sub.csv"
    sol.write_text("id,y,Usage\n" + "".join(f"r{i},{a},{u}\n" for i, (a, u) in enumerate(zip(t, usage))))
    sub.write_text("id,y\n" + "".join(f"r{i},{b if continuous else int(b)}\n" for i, b in enumerate(p)))
    return sol, sub


@pytest.mark.parametrize("continuous", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_incremental_kappa_equals_full_rescore(tmp_path, continuous, seed):
    opts = Options(allow_continuous=True)
    s = Session(opts)
    s.load(load(*files(tmp_path, continuous, seed), opts))
    report, version = score_prepared(s.data.prepared(), opts), s.data
    rng = np.random.default_rng(100 + seed)
    used = 0
    for step in range(40):
        unit = int(rng.integers(0, len(s.data)))
        if rng.random() < 0.5:
            s.edit_value(TRUTH, unit, int(rng.integers(0, 5)))
        else:
            s.edit_value(PRED, unit, float(np.round(rng.uniform(0, 4), 3)) if continuous
                         else int(rng.integers(0, 5)))
        if rng.random() < 0.2:
            s.undo()
        cells = changed_cells(version.overlay, s.data.overlay)
        fast = report.definition.rescore_cells(report, cells, version, s.data)
        full = score_prepared(s.data.prepared(), opts)
        if fast is None:
            report, version = full, s.data
            continue
        used += 1
        assert fast.score == pytest.approx(full.score, abs=1e-12, nan_ok=True)
        for name in full.splits:
            assert fast.splits[name].score == pytest.approx(full.splits[name].score, abs=1e-12,
                                                            nan_ok=True)
        assert np.array_equal(fast.result.observed, full.result.observed)
        p = fast.prepared                     # materialized on demand: the new data
        m = p.usage != 2
        pred = p.pred if fast.cuts is None else 0 + np.searchsorted(fast.cuts, p.pred, side="right")
        assert fast.score == pytest.approx(cohen_kappa_score(
            p.truth[m], pred[m], weights="quadratic", labels=fast.result.labels), abs=1e-12)
        report, version = fast, s.data
    assert used > 10                          # the fast path did the work


def test_the_app_scores_an_edit_incrementally(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("KMETRIC_SETTINGS", str(tmp_path / "s.ini"))
    from kmetric_gui.gui.main_window import MainWindow
    import kmetric_gui.gui.controller as ctl
    calls = []
    real = ctl.score_prepared
    monkeypatch.setattr(ctl, "score_prepared", lambda *a, **k: calls.append(1) or real(*a, **k))
    win = MainWindow()
    qtbot.addWidget(win)
    d = resources_dir() / "demo"
    with qtbot.waitSignal(win.scored, timeout=20000):
        win.open_files(d / "qwk_solution.csv", d / "qwk_submission.csv")
    calls.clear()
    m = win.table_panel.model
    c = next(i for i, col in enumerate(m.columns) if col.spec is not None and col.spec.name == "pred")
    src = int(m.rows[0])
    new = (int(win.session.data.value(PRED, src)) + 1) % 5
    with qtbot.waitSignal(win.scored, timeout=20000) as b:
        m.setData(m.index(0, c), str(new))
    assert calls == []                         # no full rescore
    p = win.session.data.prepared()
    mask = p.usage != 2
    assert b.args[0].score == pytest.approx(cohen_kappa_score(
        p.truth[mask], p.pred[mask], weights="quadratic", labels=range(5)))
    win._discarding = True
    win.jobs.shutdown()
