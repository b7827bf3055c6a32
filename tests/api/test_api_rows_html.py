"""Result.rows() against brute force (the score of the data without that row, by
scikit-learn), and what Jupyter shows of a result."""
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score, log_loss, mean_squared_error, roc_auc_score

import kmetric_gui as km
from helpers import demo


def frames(metric):
    sol, sub, _ = demo(metric)
    head = pd.read_csv(sol, nrows=0).columns
    s, u = (pd.read_csv(p, dtype={head[0]: str}) for p in (sol, sub))
    return s, u.set_index(head[0]).loc[s[head[0]]].reset_index()


REFERENCES = {
    "rmse": lambda s, u: np.sqrt(mean_squared_error(s["price"], u["price"])),
    "qwk": lambda s, u: cohen_kappa_score(s["diagnosis"], u["diagnosis"], weights="quadratic"),
    "auc": lambda s, u: roc_auc_score(s["target"], u["target"]),
}


@pytest.mark.parametrize("metric", sorted(REFERENCES))
def test_contribution_is_the_score_minus_the_score_without_the_row(metric):
    s, u = frames(metric)
    r = km.score(s, u, metric)
    rows = r.rows()
    assert len(rows) == len(s) and list(rows.iloc[:, 0]) == list(s.iloc[:, 0])
    ref = REFERENCES[metric]
    for i in (0, 7, len(s) - 1):
        keep = np.arange(len(s)) != i
        without = ref(s[keep], u[keep])
        assert rows["score_without"].iloc[i] == pytest.approx(without, rel=1e-9, abs=1e-12)
        assert rows["contribution"].iloc[i] == pytest.approx(r.score - without, rel=1e-6,
                                                             abs=1e-12)
    assert set(rows["usage"]) <= {"Public", "Private", "Ignored"}


def test_log_loss_rows_hold_each_rows_loss():
    s, u = frames("logloss")
    r = km.score(s, u, "logloss")
    rows = r.rows()
    classes = [c for c in u.columns if c != "id"]
    p = u[classes].to_numpy(float)
    truth = s.iloc[:, 1].astype(str).map(classes.index).to_numpy()
    per_row = -np.log(np.clip(p[np.arange(len(p)), truth] / p.sum(axis=1), 1e-15, 1))
    stats = rows.filter(like="stat_").to_numpy()
    assert any(np.allclose(stats[:, j], per_row) for j in range(stats.shape[1]))
    assert r.score == pytest.approx(log_loss(truth, p / p.sum(axis=1, keepdims=True)), rel=1e-9)


def test_rows_say_why_when_a_metric_has_none():
    s, u = frames("rmse")

    def plain(solution, submission, row_id_column_name):
        return float(np.abs(solution["price"] - submission["price"]).mean())
    r = km.score(s, u, plain, higher_is_better=False)
    with pytest.warns(UserWarning, match="no per-row contributions"):
        rows = r.rows()
    assert len(rows) == 0 and "a call of the metric per row" in rows.attrs["reason"]


def test_html_shows_summary_interval_splits_direction_and_a_plot():
    s, u = frames("rmse")
    r = km.score(s, u, "rmse", ci=0.9, bootstrap=200)
    page = r._repr_html_()
    assert f"{r.score:.6g}" in page and f"{r.interval.low:.6g}" in page
    assert "Public" in page and "Private" in page and "lower is better" in page
    assert "<svg" in page


def test_html_without_matplotlib_says_so(monkeypatch):
    s, u = frames("qwk")
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    page = km.score(s, u, "qwk")._repr_html_()
    assert "<svg" not in page and "matplotlib is not installed" in page


def test_html_escapes_what_comes_from_the_data():
    s, u = frames("rmse")
    s = s.rename(columns={"price": "<b>price</b>"})
    u = u.rename(columns={"price": "<b>price</b>"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        page = km.score(s, u, "rmse")._repr_html_()
    assert "<b>price</b>" not in page and "&lt;b&gt;price&lt;/b&gt;" in page


def test_a_confusion_matrix_is_drawn_as_a_heatmap():
    s, u = frames("qwk")
    page = km.score(s, u, "qwk")._repr_html_()
    assert "<svg" in page and "observed" in page.lower()
