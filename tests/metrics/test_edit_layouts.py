"""Edits in every shared layout the demos do not show: multi-class and multi-label AUC,
binary and one-hot log loss, labels that are fractional numbers, text labels longer
than any predicted, several regression targets with Ignored rows. Each edit rescored
incrementally equals scoring from scratch and the metric's reference (scikit-learn or
a plain loop), split by split, cell for cell of the AUC counts."""
import numpy as np
import pytest

from filemaker import csv, write
from kmetric_gui.analysis.scoring import Options, load, score_prepared
from kmetric_gui.gui.controller import changed_cells
from kmetric_gui.metrics.base import split_rows
from kmetric_gui.metrics.references import same
from kmetric_gui.state import Session

N = 120
USAGE = ("Public", "Private", "Ignored")


def _files(tmp_path, kind, rng):
    ids = [f"r{i:03d}" for i in range(N)]
    usage = rng.choice(USAGE, N, p=[0.3, 0.6, 0.1])
    classes = ["cat", "dog", "fox"]
    if kind in ("auc-multiclass", "logloss-labels"):
        truth = rng.choice(classes, N)
        sol = [["id", "label", "Usage"]] + [[i, t, u] for i, t, u in zip(ids, truth, usage)]
    elif kind in ("auc-multilabel", "logloss-onehot"):
        if kind == "logloss-onehot":
            hot = np.eye(3, dtype=int)[rng.integers(0, 3, N)]
        else:
            hot = (rng.random((N, 3)) < 0.4).astype(int)
        sol = [["id", *classes, "Usage"]] + [[i, *h, u] for i, h, u in zip(ids, hot, usage)]
    elif kind in ("auc-binary", "logloss-binary"):
        sol = [["id", "y", "Usage"]] + [[i, int(t), u] for i, t, u in
                                        zip(ids, rng.random(N) < 0.35, usage)]
    elif kind == "accuracy-fraction":
        sol = [["id", "y", "Usage"]] + [[i, t, u] for i, t, u in
                                        zip(ids, rng.choice(["0.5", "1.5", "2.5"], N), usage)]
    elif kind == "f1-text":
        sol = [["id", "y", "Usage"]] + [[i, t, u] for i, t, u in
                                        zip(ids, rng.choice(["a", "bb", "horse"], N), usage)]
    else:                                  # mcrmse
        sol = [["id", "a", "b", "Usage"]] + [[i, *np.round(rng.normal(3, 1, 2), 2), u]
                                             for i, u in zip(ids, usage)]
    if kind in ("auc-binary", "logloss-binary"):
        sub = [["id", "y"]] + [[i, f"{p:.3f}"] for i, p in zip(ids, rng.random(N))]
    elif kind.startswith(("auc-multi", "logloss")):
        p = rng.dirichlet(np.ones(3), N)
        sub = [["id", *classes]] + [[i, *(f"{v:.3f}" for v in row)] for i, row in zip(ids, p)]
    elif kind == "accuracy-fraction":
        sub = [["id", "y"]] + [[i, t] for i, t in zip(ids, rng.choice(["0.5", "1.5"], N))]
    elif kind == "f1-text":
        sub = [["id", "y"]] + [[i, t] for i, t in zip(ids, rng.choice(["a", "bb"], N))]
    else:
        sub = [["id", "a", "b"]] + [[i, *np.round(rng.normal(3, 1, 2), 2)] for i in ids]
    write(tmp_path / "sol.csv", csv(sol))
    write(tmp_path / "sub.csv", csv(sub))
    return tmp_path / "sol.csv", tmp_path / "sub.csv"


CASES = {"auc-multiclass": "auc", "auc-multilabel": "auc", "auc-binary": "auc",
         "logloss-binary": "logloss", "logloss-onehot": "logloss", "logloss-labels": "logloss",
         "accuracy-fraction": "accuracy", "f1-text": "f1", "mcrmse": "mcrmse"}
OPTIONS = {"f1-text": {"average": "macro"}}


def _text(col, s, rng):
    text = col.fmt(s.data.value(col.spec, int(rng.integers(N))))
    if col.align_right and rng.random() < 0.5:
        try:
            near = f"{float(text) * rng.uniform(0.7, 1.3):.4g}"
            s.metric.parse(col.spec, near, s.data.base)
            return near
        except ValueError:
            pass
    if "labels" in col.name and rng.random() < 0.3:
        return ",".join(rng.choice(["cat", "dog", "fox"], int(rng.integers(0, 3)), replace=False))
    if col.spec.name == "pred" and "f1" in s.metric.name and rng.random() < 0.3:
        return "horse"                         # longer than any prediction read
    return text


def _reference(metric, prep, opts, rows):
    if metric.name == "accuracy":       # scikit-learn takes no fractional labels: the loop
        keep = range(N) if rows is None else rows
        return sum(float(prep.truth[i]) == float(prep.pred[i]) for i in keep) / len(keep)
    return metric.reference(prep, opts, rows)


@pytest.mark.filterwarnings("ignore:Note that pos_label")
@pytest.mark.parametrize("kind", CASES)
def test_edits_in_each_layout_equal_full_rescore_and_reference(tmp_path, kind):
    rng = np.random.default_rng(len(kind))
    sol, sub = _files(tmp_path, kind, rng)
    opts = Options(metric=CASES[kind]).with_(**OPTIONS.get(kind, {}))
    s = Session(opts)
    s.load(load(sol, sub, opts))
    cols = [c for c in s.metric.table_columns(s.data.base) if c.spec is not None]
    report, version, fast_used = score_prepared(s.data.prepared(), opts), s.data, 0
    for step in range(60):
        col = cols[int(rng.integers(len(cols)))]
        why = s.edit_text(col.spec, int(rng.integers(N)), _text(col, s, rng))
        assert why is None, why
        if rng.random() < 0.1:
            s.undo()
        cells = changed_cells(version.overlay, s.data.overlay)
        fast = s.metric.rescore_cells(report, cells, version, s.data)
        prep = s.data.prepared()
        full = score_prepared(prep, opts)
        if fast is None:
            fast = full
        else:
            fast_used += 1
        for name in ("all", *full.splits):
            a = fast.result if name == "all" else fast.splits[name]
            b = full.result if name == "all" else full.splits[name]
            assert same(a.score, b.score, 1e-12), (step, name)
            assert same(a.score, _reference(s.metric, prep, opts, split_rows(prep.usage, name)))
            for f in ("per_column", "positives", "negatives", "tied_pairs", "confusion"):
                if hasattr(b, f):
                    np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
        report, version = fast, s.data
    assert fast_used > 30
    if kind == "f1-text":
        assert "horse" in set(s.data.prepared().pred.tolist())     # not cut to 'hor'
