"""The API gives `kmetric`'s numbers and JSON: every registered metric's demo through
paths and through DataFrames, with statistics; arrays, Arrow tables and polars frames;
compare, select and rank. The CLI runs in this process (cli.main) on the same files."""
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv
import pytest

import kmetric_gui as km
from helpers import demo, json_round, kmetric, same
from kmetric_gui.metrics import REGISTRY

METRICS = [m.name for m in REGISTRY.values() if m.demo_paths()]
STATS = dict(ci=0.9, bootstrap=200, seed=3, shakeup=True, splits=100, top_fixes=3)
FLAGS = ["--ci", "0.9", "--bootstrap", "200", "--seed", "3", "--shakeup", "--splits", "100",
         "--top-fixes", "3"]


def frame(path):
    """A CSV as pandas reads it with the id column kept as text and no word read as
    missing: the same cells `kmetric` reads."""
    head = pd.read_csv(path, nrows=0).columns
    return pd.read_csv(path, dtype={head[0]: str}, keep_default_na=False)


@pytest.mark.parametrize("metric", METRICS)
def test_score_paths_and_frames_equal_the_cli(metric):
    sol, sub, _ = demo(metric)
    code, want, err = kmetric("score", sol, sub, "--metric", metric, *FLAGS)
    assert code == 0, err
    from_paths = km.score(sol, sub, metric, **STATS)
    same(json_round(from_paths.to_dict()), want)
    from_frames = km.score(frame(sol), frame(sub), metric, **STATS)
    same(json_round(from_frames.to_dict()), want)
    assert from_frames.metric == metric and from_frames.higher_is_better == want["higher_is_better"]
    assert from_frames.score == pytest.approx(want["score"]) if want["score"] is not None \
        else np.isnan(from_frames.score)
    if "public" in want:
        assert (from_frames.public, from_frames.private) == (want["public"], want["private"])
    low, high = from_frames.interval
    assert (low, high) == (want["ci"]["low"], want["ci"]["high"])


def test_detected_metric_equals_the_cli_without_metric():
    sol, sub, _ = demo("qwk")
    code, want, _ = kmetric("score", sol, sub)
    same(json_round(km.score(frame(sol), frame(sub)).to_dict()), want)
    found = km.detect(frame(sol), frame(sub))
    assert (found.metric, found.reason) == (want["metric"], want["chosen"])


@pytest.mark.parametrize("metric", ["rmse", "mcrmse", "logloss"])
def test_numpy_arrays_equal_files_of_the_same_columns(tmp_path, metric):
    """Arrays with ids given, against CSVs written from the same arrays (id, target or
    0, 1, ...): the layout the API names an array's columns by."""
    sol_df, sub_df = frame(demo(metric)[0]), frame(demo(metric)[1])
    ids = sol_df.iloc[:, 0].to_numpy()
    sub_df = sub_df.set_index(sub_df.columns[0]).loc[ids]
    truth = sol_df.iloc[:, 1:].drop(columns=[c for c in sol_df.columns if c == "Usage"])
    if metric == "logloss":
        classes = list(sub_df.columns)
        truth = np.array([classes.index(v) for v in truth.iloc[:, 0].astype(str)])
    else:
        truth = truth.to_numpy(dtype=float)
    pred = sub_df.to_numpy(dtype=float)
    truth = truth[:, 0] if truth.ndim == 2 and truth.shape[1] == 1 else truth
    pred = pred[:, 0] if pred.shape[1] == 1 else pred

    def write(a, name):
        cols = {"id": ids}
        if a.ndim == 1:
            cols["target"] = a
        else:
            cols.update({str(j): a[:, j] for j in range(a.shape[1])})
        pd.DataFrame(cols).to_csv(tmp_path / name, index=False)
        return tmp_path / name
    code, want, err = kmetric("score", write(truth, "s.csv"), write(pred, "p.csv"), "--metric",
                              metric)
    assert code == 0, err
    same(json_round(km.score(truth, pred, metric, ids=ids).to_dict()), want)


def test_arrow_tables_and_polars_frames_equal_the_cli():
    import polars as pl
    sol, sub, _ = demo("auc")
    code, want, _ = kmetric("score", sol, sub, "--metric", "auc")
    opts = pacsv.ConvertOptions(column_types={"id": pa.string()})
    tables = [pacsv.read_csv(p, convert_options=opts) for p in (sol, sub)]
    same(json_round(km.score(*tables, "auc").to_dict()), want)
    frames = [pl.read_csv(p, schema_overrides={"id": pl.String}) for p in (sol, sub)]
    same(json_round(km.score(*frames, "auc").to_dict()), want)


@pytest.mark.parametrize("metric", ["qwk", "rmse"])      # higher and lower is better
def test_compare_and_select_equal_the_cli(metric):
    sol, a, b = demo(metric)
    flags = ["--bootstrap", "300", "--permutations", "200", "--splits", "200", "--seed", "1"]
    code, want, err = kmetric("compare", sol, a, b, "--metric", metric, *flags)
    assert code == 0, err
    kw = dict(metric=metric, bootstrap=300, permutations=200, splits=200, seed=1)
    same(json_round(km.compare(sol, a, b, **kw).to_dict()), want)
    named = {a.name: frame(a), b.name: frame(b)}
    cmp = km.compare(frame(sol), named, **kw)
    same(json_round(cmp.to_dict()), want)
    best = min if metric == "rmse" else max
    assert cmp.best == best(cmp.scores, key=cmp.scores.get)
    code, want, err = kmetric("select", sol, a, b, a, "--metric", metric, "--bootstrap", "300")
    assert code == 0, err
    same(json_round(km.select(sol, a, b, a, metric=metric, bootstrap=300).to_dict()), want)


def test_rank_equals_the_cli(tmp_path):
    sol, sub, _ = demo("rmse")
    board = pd.DataFrame({"TeamName": [f"t{k}" for k in range(30)],
                          "Score": np.linspace(7.0, 15.0, 30)})
    board.to_csv(tmp_path / "lb.csv", index=False)
    code, want, err = kmetric("rank", sol, sub, "--leaderboard", tmp_path / "lb.csv", "--metric",
                              "rmse", "--simulations", "500", "--seed", "2")
    assert code == 0, err
    got = km.rank(frame(sol), frame(sub), board, metric="rmse", simulations=500, seed=2)
    want["leaderboard"] = "(DataFrame)"        # the board's name: a file's, or the frame's kind
    same(json_round(got.to_dict()), want)
    assert got.ranks[0] <= got.ranks[1] <= got.ranks[2]
