"""A metric file as the session's metric: one table edit rescored, against score() itself.

    .venv/bin/python bench/metricfile_edit.py [--rows 100000] [--repeat 7] [--workers 1]

What the app's rescore job does after an edit of a metric file's table (the edited
cells sent to the file's worker process with the splits' names; there, each split's
frames, made ahead from columns kept once, get the cells and score() is called for
all rows, Public and Private) timed beside the same score() calls made in this process
on frames built in advance (the reference: the metric's own work, with no copy, no
transfer and no process between). Both score the same edited data; the edited score
is checked against the in-process call. Issue 34's target: <= 1.2x. ``--workers 2``:
the file's two processes, as the app's window runs it.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METRIC = os.path.join(ROOT, "resources", "metrics", "balanced_log_loss.py")


def plain(path):
    """score() of the metric file, imported here as a plain script would."""
    import importlib.util
    from kmetric_gui.metricfile import kaggle_metric_utilities
    sys.modules["kaggle_metric_utilities"] = kaggle_metric_utilities
    spec = importlib.util.spec_from_file_location("m", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m.score


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--workers", type=int, default=1,
                    help="the file's worker processes (the app's window uses 2)")
    a = ap.parse_args()
    import numpy as np
    import pandas as pd
    from metricfile import make_pair
    from kmetric_gui import metrics
    from kmetric_gui.analysis.scoring import Options, load, score_prepared
    from kmetric_gui.fields import FieldSpec
    from kmetric_gui.metricfile.metric import file_metric
    from kmetric_gui.state.session import Session
    score = plain(METRIC)
    with tempfile.TemporaryDirectory() as d:
        sol, sub = make_pair(d, a.rows)
        m = file_metric(METRIC, paths=(sol, sub), workers=a.workers)
        metrics.register(m)
        try:
            o = Options(metric=m.name)
            prep = load(sol, sub, o)
            s = Session(o)
            s.load(prep, sol, sub)
            score_prepared(s.data.prepared(), o)          # the worker warmed up
            sol_df = pd.read_csv(sol, dtype={"id": str})
            sub_df = sol_df[["id"]].merge(pd.read_csv(sub, dtype={"id": str}), on="id")
            masks = [np.ones(len(sol_df), bool), (sol_df["Usage"] == "Public").to_numpy(),
                     (sol_df["Usage"] == "Private").to_numpy()]
            block = prep.pred
            j0, j1 = block.names.index("class_0"), block.names.index("class_1")
            rng = np.random.default_rng(0)
            ours, ref = [], []
            for _ in range(a.repeat):
                row = int(rng.integers(0, a.rows))
                p = float(np.round(rng.uniform(0.05, 0.95), 4))
                s.edit_texts([(FieldSpec("pred", j0), row, repr(1 - p)),
                              (FieldSpec("pred", j1), row, repr(p))], "bench edit")
                t0 = time.perf_counter()
                rep = score_prepared(s.data.prepared(), o)
                ours.append(time.perf_counter() - t0)
                sub_df.loc[row, "class_0"], sub_df.loc[row, "class_1"] = 1 - p, p
                frames = [(sol_df[k].drop(columns=["Usage"]).reset_index(drop=True),
                           sub_df[k].reset_index(drop=True)) for k in masks]
                t0 = time.perf_counter()
                got = [score(x, y, "id") for x, y in frames]
                ref.append(time.perf_counter() - t0)
                assert abs(got[0] - rep.score) < 1e-9, (got[0], rep.score)
        finally:
            metrics.unregister(m.name)
            m.close()
    o_, r_ = statistics.median(ours), statistics.median(ref)
    print("| case | ours (s) | reference (s) | ratio |\n|---|---|---|---|")
    procs = f", {a.workers} worker processes" if a.workers > 1 else ""
    print(f"| one edit rescored (all, Public, Private), {a.rows:,} rows{procs} | {o_:.3f} | {r_:.3f} "
          f"the three score() calls on ready frames | {o_ / r_:.2f}x |")


if __name__ == "__main__":
    main()
