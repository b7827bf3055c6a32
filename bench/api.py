"""km.score on in-memory frames against the metric's kernel plus the frames' conversion,
side by side, medians of repeats in one run.

    .venv/bin/python bench/api.py [--rows 10000000] [--repeat 3]

Frames: pandas 3 (ids as pyarrow strings, 12-character hex codes; the target as a
numpy float64 column), the submission's rows in the solution's order (the common
case) and shuffled (the id join does the work). "kernel + conversion" is the
reference: the two frames turned into Arrow tables by the API's own conversion
(api/inputs.py, zero-copy for the numbers) plus the RMSE kernel on the aligned
numpy arrays. The target is km.score within 1.2x of that.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _table import median_time  # noqa: E402


def frames(n, shuffle, seed=0):
    import pandas as pd
    import pyarrow as pa
    import pyarrow.compute as pc
    rng = np.random.default_rng(seed)
    codes = pa.array(rng.permutation(n).astype(np.int64))
    ids = pc.utf8_lpad(pc.cast(codes, pa.string()), 12, "0")
    truth = rng.normal(50, 10, n)
    pred = truth + rng.normal(0, 3, n)
    sol = pd.DataFrame({"id": pd.Series(pd.arrays.ArrowStringArray(ids)), "y": truth})
    order = rng.permutation(n) if shuffle else np.arange(n)
    sub = pd.DataFrame({"id": pd.Series(pd.arrays.ArrowStringArray(ids.take(pa.array(order)))),
                        "y": pred[order]})
    return sol, sub, truth, pred


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    import kmetric_gui as km
    from kmetric_gui.analysis.scoring import Options
    from kmetric_gui.api.inputs import to_table
    from kmetric_gui.io import ids, prepare
    from kmetric_gui.metrics.kernels.regression import rmse
    print(f"{a.rows:,} rows, medians of {a.repeat}")
    print(f"{'case':<20} {'km.score':>9} {'convert':>8} {'validate':>9} {'kernel':>7} "
          f"{'ratio':>6} {'raw':>7} {'pandas':>7}")
    opts = Options(metric="rmse")
    for shuffle in (False, True):
        sol, sub, truth, pred = frames(a.rows, shuffle)
        got = km.score(sol, sub, "rmse").score
        assert abs(got - rmse(truth, pred).score) < 1e-9 * got, got
        tables = (to_table(sol, "solution")[0], to_table(sub, "submission")[0])
        t_api = median_time(lambda: km.score(sol, sub, "rmse"), a.repeat)
        t_conv = median_time(lambda: (to_table(sol, "solution"), to_table(sub, "submission")),
                             a.repeat)
        def validate():
            ids._UNIQUE.clear()      # as fresh data: no memory of ids found each once
            prepare(*tables, "solution (DataFrame)", "submission (DataFrame)", opts)
        t_val = median_time(validate, a.repeat)
        t_kernel = median_time(lambda: rmse(truth, pred), a.repeat)

        def by_hand():
            p = sub.set_index("id")["y"].reindex(sol["id"]).to_numpy()
            return rmse(sol["y"].to_numpy(), p)
        t_pandas = median_time(by_hand, a.repeat)
        case = "shuffled submission" if shuffle else "same row order"
        print(f"{case:<20} {t_api:>9.3f} {t_conv:>8.3f} {t_val:>9.3f} {t_kernel:>7.3f} "
              f"{t_api / (t_conv + t_val + t_kernel):>5.2f}x {t_api / (t_conv + t_kernel):>6.1f}x "
              f"{t_pandas:>7.3f}")


if __name__ == "__main__":
    main()
