"""Edit one cell -> every number updated, for the family metrics at 10M rows.

    nice -n 10 .venv/bin/python bench/edits.py [--rows 10000000] [--mapk-rows 1000000]
        [--repeat 7] [--only WORD ...] [--app]

Part 1 (Qt-free, what the app's rescore job does): the data of each metric is
built in memory (pyarrow tables through the metric's own reader), scored once,
then one random cell is edited (``Session.edit_text``) and the new report made
``repeat`` times: by the metric's incremental rescore (``rescore_cells``:
score, Public and Private from the statistics) and, as the reference in the
same run, by scoring the edited data from scratch (``score_prepared``, what the
app did before). Medians of wall time; the first edit (which sets up what
later ones reuse, e.g. AUC's scores by class) is shown apart.

Part 2 (--app): the running app (offscreen) on the same data, each edit typed
into the table and timed until the controller says "scored" (the score panel
shows the new score, Public and Private, the interval marked as computing);
intervals are off, as in bench/ui_latency.py.

Targets (issue 34): <= 20 ms at 10M rows for additive metrics, <= 50 ms for AUC,
<= 20 ms for a MAP@K query. Weighted kappa, whose edits were already rescored from its
confusion counts, is timed the same way as the reference of the app's own overhead.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

CASES = {            # name -> (metric, kind of data)
    "RMSE": ("rmse", "real"), "MAE": ("mae", "real"), "RMSLE": ("rmsle", "real"),
    "log loss (binary)": ("logloss", "binary"), "accuracy": ("accuracy", "labels"),
    "F1 (binary)": ("f1", "labels"), "AUC (binary)": ("auc", "binary"),
    "MAP@5": ("mapk", "items"),
    "kappa (reference)": ("qwk", "ratings"),     # rescored incrementally before this issue
}


def tables(kind, n, rng):
    """(solution, submission) pyarrow tables of n rows, Usage 30% Public."""
    import pyarrow as pa
    ids = pa.array(np.char.add("r", np.arange(n).astype(str)).astype(object))
    usage = pa.array(np.where(rng.random(n) < 0.3, "Public", "Private").astype(object))
    if kind == "real":
        t = rng.gamma(2.0, 10.0, n).round(2)
        t_col, p_col = pa.array(t), pa.array(np.abs(t + rng.normal(0, 3, n)).round(2))
    elif kind == "binary":
        t = (rng.random(n) < 0.3).astype(np.int64)
        t_col, p_col = pa.array(t), pa.array(np.clip(0.3 * t + rng.random(n) * 0.7, 0, 1).round(5))
    elif kind == "ratings":
        t = rng.integers(0, 5, n)
        t_col, p_col = pa.array(t), pa.array(np.clip(t + rng.integers(-1, 2, n), 0, 4))
    elif kind == "labels":
        t = (rng.random(n) < 0.3).astype(np.int64)
        t_col, p_col = pa.array(t), pa.array(np.where(rng.random(n) < 0.8, t, 1 - t))
    else:
        items = np.array([f"i{k}" for k in range(50)], dtype=object)
        t_col = pa.array([" ".join(items[rng.integers(0, 50, 2)]) for _ in range(n)])
        p_col = pa.array([" ".join(items[rng.integers(0, 50, 5)]) for _ in range(n)])
    sol = pa.table({"id": ids, "y": t_col, "Usage": usage})
    sub = pa.table({"id": ids, "y": p_col})
    return sol, sub


def loaded(metric, kind, n, rng):
    from kmetric_gui.analysis.scoring import Options
    from kmetric_gui.io.prepare import prepare
    opts = Options(metric=metric)
    sol, sub = tables(kind, n, rng)
    return prepare(sol, sub, "solution", "submission", opts), opts


def new_text(s, col, rng):
    """A text the column takes that differs from row 0's (a few other rows tried)."""
    here = col.fmt(s.data.value(col.spec, 0))
    for _ in range(50):
        text = col.fmt(s.data.value(col.spec, int(rng.integers(len(s.data)))))
        if text != here:
            return text
    return here


def core_rows(name, metric, kind, n, repeat, rng):
    from kmetric_gui.analysis.scoring import score_prepared
    from kmetric_gui.gui.controller import changed_cells
    from kmetric_gui.state import Session
    prep, opts = loaded(metric, kind, n, rng)
    s = Session(opts)
    s.load(prep)
    report, version = score_prepared(s.data.prepared(), opts), s.data
    cols = [c for c in s.metric.table_columns(prep) if c.spec is not None and c.spec.name == "pred"]
    fast, full, first = [], [], None
    for k in range(repeat + 1):
        row = int(rng.integers(n))
        s.edit_text(cols[0].spec, row, new_text(s, cols[0], rng))
        cells = changed_cells(version.overlay, s.data.overlay)
        t0 = time.perf_counter()
        rep = s.metric.rescore_cells(report, cells, version, s.data)
        took = time.perf_counter() - t0
        if rep is None:
            raise SystemExit(f"{name}: the edit was not rescored incrementally")
        if k == 0:
            first = took
        else:
            fast.append(took)
        if k < 3:                              # the reference: every row scored again
            t0 = time.perf_counter()
            ref = score_prepared(s.data.prepared(), opts)
            full.append(time.perf_counter() - t0)
            assert abs(ref.score - rep.score) <= 1e-9 * max(1, abs(ref.score)), name
        report, version = rep, s.data
    return (name, n, first, statistics.median(fast), statistics.median(full))


def app_rows(cases, n, mapk_n, repeat, rng):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import tempfile
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication
    from kmetric_gui.gui.main_window import MainWindow
    from kmetric_gui.state.session import Results
    from kmetric_gui.analysis.scoring import score_prepared
    os.environ["KMETRIC_SETTINGS"] = os.path.join(tempfile.gettempdir(), "kmetric_bench_edits.ini")
    app = QApplication.instance() or QApplication([])
    win = MainWindow()
    win.show()
    win.controller.stats_settings_changed(None)        # intervals off while edits are timed
    out = []
    for name, (metric, kind) in cases.items():
        rows = mapk_n if kind == "items" else n
        prep, opts = loaded(metric, kind, rows, rng)
        s = win.session
        s.set_options(opts)
        s.load(prep)                                   # as a finished load hands it over
        s.accept(Results(s.generation, score_prepared(s.data.prepared(), opts)))
        win.controller._shown_version = s.data
        settle(app, win)
        m = win.table_panel.model
        col = next(i for i, c in enumerate(m.columns) if c.spec is not None and c.spec.name == "pred")
        times = []
        for k in range(repeat + 1):
            text = new_text(s, m.columns[col], rng)
            loop = QEventLoop()
            win.controller.scored.connect(loop.quit)
            QTimer.singleShot(60_000, loop.quit)
            t0 = time.perf_counter()
            m.setData(m.index(0, col), text)
            loop.exec()
            took = time.perf_counter() - t0
            win.controller.scored.disconnect(loop.quit)
            if k:
                times.append(took)
            settle(app, win)                           # the views redrawn before the next
        shown = win.score_panel.score_label.text()
        out.append((name, rows, statistics.median(times), max(times), shown))
    win.discard_and_close()
    return out


def settle(app, win):
    """Until the anatomy of the last score is drawn: its jobs start on the turn of the
    event loop after "scored", so a few turns are run before waiting for them."""
    from PySide6.QtCore import QEventLoop
    for _ in range(3):
        app.processEvents(QEventLoop.AllEvents, 50)
        while win.jobs.busy:
            app.processEvents(QEventLoop.AllEvents, 50)
            time.sleep(0.005)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--mapk-rows", type=int, default=1_000_000, help="MAP@K queries")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--app", action="store_true", help="also time edits in the running app")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    cases = {k: v for k, v in CASES.items()
             if not args.only or any(w.lower() in k.lower() for w in args.only)}
    print(f"{'edit one prediction -> new report':<22} {'rows':>11} {'first (ms)':>11} "
          f"{'median (ms)':>12} {'full rescore (ms)':>18} {'ratio':>8}")
    for name, (metric, kind) in cases.items():
        rows = args.mapk_rows if kind == "items" else args.rows
        name, n, first, fast, full = core_rows(name, metric, kind, rows, args.repeat, rng)
        print(f"{name:<22} {n:>11,} {first * 1e3:>11.2f} {fast * 1e3:>12.3f} {full * 1e3:>18.1f} "
              f"{full / fast:>7.0f}x", flush=True)
    if args.app:
        print(f"\n{'in the app: typed edit -> score shown':<40} {'rows':>11} {'median (ms)':>12} "
              f"{'max (ms)':>10}")
        for name, n, med, worst, shown in app_rows(cases, args.rows, args.mapk_rows, args.repeat, rng):
            print(f"{name:<40} {n:>11,} {med * 1e3:>12.1f} {worst * 1e3:>10.1f}   ({shown})",
                  flush=True)


if __name__ == "__main__":
    main()
