"""RMSE, MAE, RMSLE and MCRMSE of alpha*A + (1-alpha)*B for many alphas and row sets.

Each alpha is one pass over the rows of each set in blocks (the blended error made in a
reused buffer and folded at once): no result object, per-row statistics or (n, m)
matrix per alpha. Scoring each blended file whole took ~1 s for 21 alphas on 1M rows,
most of it building what a single score keeps for its statistics (bench/blends.py)."""
import numpy as np

BLOCK = 1 << 16     # values a block: the buffer stays in cache


def blend_scores(kind, truth, a, b, alphas, sets):
    """(len(sets), len(alphas)) scores; ``sets``: row positions (None: every row).
    Several columns: each column's score, then their mean (as the metrics score them)."""
    t = np.asarray(truth, np.float64)
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if kind == "rmsle":
        with np.errstate(invalid="ignore", divide="ignore"):
            t = np.log1p(t)
    out = np.full((len(sets), len(alphas)), np.nan)
    for k, rows in enumerate(sets):
        st, sa, sb = (t, a, b) if rows is None else (t[rows], a[rows], b[rows])
        if st.shape[0] == 0:
            continue
        # one contiguous column at a time: a pass over (n, C) blocks is several times slower
        columns = [(st, sa, sb)] if st.ndim == 1 else \
            list(zip(np.ascontiguousarray(st.T), np.ascontiguousarray(sa.T), np.ascontiguousarray(sb.T)))
        for g, x in enumerate(alphas):
            out[k, g] = np.mean([_score(kind, *c, float(x)) for c in columns])
    return out


def _score(kind, t, a, b, alpha):
    n = t.shape[0]
    buf = np.empty(min(n, BLOCK))
    total = 0.0
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for s in range(0, n, BLOCK):
            e = buf[:min(BLOCK, n - s)]
            sl = slice(s, s + e.shape[0])
            # what the generic blend scores: alpha*A + (1-alpha)*B, then the metric
            np.multiply(a[sl], alpha, out=e)
            e += (1.0 - alpha) * b[sl]
            if kind == "rmsle":
                np.log1p(e, out=e)
            e -= t[sl]
            if kind == "mae":
                total += float(np.add.reduce(np.abs(e, out=e)))
            else:
                total += float(np.einsum("i,i->", e, e))
        mean = total / n
        return float(mean if kind == "mae" else np.sqrt(mean))
