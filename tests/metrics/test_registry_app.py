"""The app side of the one registry: a metric without a view gets the generic one (what
each unit costs, checked against a leave-one-out loop); ambiguous files make the app
ask; --demo with another --metric is refused instead of mislabelled."""
import numpy as np
import pytest

from filemaker import csv, write
from kmetric_gui import metrics
from kmetric_gui.gui.app import parse_args
from kmetric_gui.metrics import Fit
from kmetric_gui.metrics.additive import AdditiveMetric


class ToyAbs(AdditiveMetric):
    name = "toyabs"
    label = "Toy absolute error"
    higher_is_better = False

    def fit(self, sub_targets, sample=None):
        if sample is not None and len(sub_targets) == 1:
            s = sample.sub_column(sub_targets[0])
            if s is not None and s.kind == "real":
                return Fit("one real column", clear=False)
        return None

    def row_stats(self, truth, pred, options):
        return np.abs(np.asarray(truth) - np.asarray(pred))[:, None]

    def score_sums(self, sums, n):
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(n > 0, sums[..., 0] / n, np.nan)


@pytest.fixture
def toyabs():
    m = metrics.register(ToyAbs())
    yield m
    metrics.unregister(m.name)


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch, toyabs):
    monkeypatch.setenv("KMETRIC_SETTINGS", str(tmp_path / "settings.ini"))
    from kmetric_gui.gui.main_window import MainWindow
    w = MainWindow(size=(1280, 720))
    qtbot.addWidget(w)
    w.show()
    yield w
    w._discarding = True
    w.jobs.shutdown()


def _pair(tmp_path):
    truth = [1, 2, 3, 2, 1, 3]
    pred = [1.5, 2.0, 2.2, 2.9, 0.4, 3.0]
    sol = write(tmp_path / "sol.csv", csv([["id", "y"]] + [[f"i{k}", v] for k, v in enumerate(truth)]))
    sub = write(tmp_path / "sub.csv", csv([["id", "y"]] + [[f"i{k}", v] for k, v in enumerate(pred)]))
    return sol, sub, np.array(truth, float), np.array(pred)


def test_ambiguous_files_ask_and_the_generic_view_shows_costs(win, qtbot, tmp_path):
    sol, sub, truth, pred = _pair(tmp_path)
    asked = []
    win.ask_metric = lambda names: asked.append(names) or "toyabs"
    with qtbot.waitSignal(win.scored, timeout=30000) as got:
        win.open_files(str(sol), str(sub))
    assert asked == [["toyabs", "qwk"]]
    rep = got.args[0]
    assert rep.metric == "toyabs" and win.options_panel.metric_combo.currentData() == "toyabs"
    view = win.tabs.views["toyabs"]
    assert type(view).__name__ == "GenericView" and win.tabs.currentWidget() is view
    qtbot.waitUntil(lambda: view.table.rowCount() == len(truth), timeout=10000)
    # Leave-one-out by a plain loop: the cost of a row is how much better the MAE is without it.
    err = np.abs(truth - pred)
    cost = {f"i{k}": err.mean() - np.delete(err, k).mean() for k in range(err.size)}
    shown = [(view.table.item(r, 0).text(), float(view.table.item(r, 1).text()))
             for r in range(view.table.rowCount())]
    assert [i for i, _ in shown] == sorted(cost, key=lambda i: -cost[i])
    for i, c in shown:
        assert c == pytest.approx(cost[i], abs=1e-5)


def test_demo_with_another_metric_is_refused(capsys):
    with pytest.raises(SystemExit) as e:
        parse_args(["--demo", "fbeta", "--metric", "qwk"])
    assert e.value.code == 2
    assert "--demo fbeta is scored with fbeta" in capsys.readouterr().err
    assert parse_args(["--demo", "fbeta", "--metric", "fbeta"]).demo == "fbeta"


def test_metric_flag_with_files_is_in_force(toyabs, qtbot, tmp_path, monkeypatch):
    # Before: --metric only set the combo (signals blocked), so the files were scored with
    # the detected metric under another metric's label.
    monkeypatch.setenv("KMETRIC_SETTINGS", str(tmp_path / "settings.ini"))
    from kmetric_gui.gui.app import create_window
    sol, sub, truth, pred = _pair(tmp_path)
    w = create_window(parse_args([str(sol), str(sub), "--metric", "toyabs"]))
    qtbot.addWidget(w)
    try:
        qtbot.waitUntil(lambda: w.session.results is not None, timeout=30000)
        assert w.session.options.metric == "toyabs"
        assert w.session.results.report.metric == "toyabs"
        assert w.session.results.report.score == pytest.approx(np.mean(np.abs(truth - pred)))
    finally:
        w._discarding = True
        w.jobs.shutdown()
