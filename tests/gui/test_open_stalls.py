"""Opening big files never walks their rows on the UI thread (counted, not timed)."""
import numpy as np
import pytest

from conftest import open_view
from kmetric_gui.gui.models.table import ColumnsModel


def _rows_asked(monkeypatch, cls, model_of):
    """Rows whose cells Qt asks ``model_of()`` for (any role), recorded as they come."""
    asked, real = set(), cls.data

    def data(self, index, role=0):
        if self is model_of():
            asked.add(index.row())
        return real(self, index, role)
    monkeypatch.setattr(cls, "data", data)
    return asked


SIGHT = 40      # about the rows a table shows at once (hidden tables included)


def _fbeta_files(tmp_path, n):
    rng = np.random.default_rng(5)
    words = [f"w{i}" for i in range(40)]
    sol, sub = ["Id,PredictionString"], ["Id,PredictionString"]
    for i in range(n):
        truth = "|".join(" ".join(rng.choice(words, 3)) for _ in range(rng.integers(0, 3)))
        pred = "|".join(" ".join(rng.choice(words, 3)) for _ in range(rng.integers(0, 3)))
        sol.append(f"d{i:05d},{truth}")
        sub.append(f"d{i:05d},{pred}")
    (tmp_path / "sol.csv").write_text("\n".join(sol) + "\n")
    (tmp_path / "sub.csv").write_text("\n".join(sub) + "\n")
    return tmp_path / "sol.csv", tmp_path / "sub.csv"


def _lwlrap_files(tmp_path, n, c=4):
    rng = np.random.default_rng(6)
    head = "fname," + ",".join(f"c{j}" for j in range(c))
    truth = (rng.random((n, c)) < 0.4).astype(int)
    truth[:, 0] |= truth.sum(1) == 0
    sol = [head] + [f"s{i:05d}," + ",".join(map(str, t)) for i, t in enumerate(truth)]
    sub = [head] + [f"s{i:05d}," + ",".join(f"{v:.3f}" for v in r)
                    for i, r in enumerate(rng.random((n, c)))]
    (tmp_path / "lsol.csv").write_text("\n".join(sol) + "\n")
    (tmp_path / "lsub.csv").write_text("\n".join(sub) + "\n")
    return tmp_path / "lsol.csv", tmp_path / "lsub.csv"


@pytest.mark.parametrize("metric,make,model", [
    ("fbeta", lambda p: _fbeta_files(p, 1500), "docs_model"),          # documents table, shown
    ("lwlrap", lambda p: _lwlrap_files(p, 1500), "samples_model"),     # samples table, hidden
])
def test_a_views_table_is_fitted_to_the_rows_in_sight(qtbot, window, tmp_path, monkeypatch,
                                                      metric, make, model):
    files = make(tmp_path)
    view = window.tabs.view(metric)
    asked = _rows_asked(monkeypatch, ColumnsModel, lambda: getattr(view, model))
    open_view(qtbot, window, metric, lambda: window.open_files(*files))
    assert getattr(view, model).rowCount() == 1500
    assert asked and max(asked) < SIGHT


def test_fix_first_list_is_fitted_to_the_rows_in_sight(qtbot, monkeypatch):
    from kmetric_gui.core.attribution import as_fixlist
    from kmetric_gui.gui.widgets import fix_first
    panel = fix_first.FixFirstPanel()
    qtbot.addWidget(panel)
    panel.resize(600, 500)          # hidden, as the Fix first tab is behind the anatomy
    asked = _rows_asked(monkeypatch, fix_first._FixModel, lambda: panel.model)
    n = 1000
    panel.set_fixes(as_fixlist(np.arange(n), 0.5 + np.cumsum(np.full(n, 1e-4)), 0.5, n))
    assert panel.model.rowCount() == n
    assert asked and max(asked) < SIGHT
