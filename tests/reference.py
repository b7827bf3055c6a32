"""Plain-loop reference implementations written straight from METRICS.md.

Slow on purpose: no vectorization, no shared code with kmetric_gui.core.
"""
import math
import re


def kappa_ref(truth, pred, weights="quadratic", lo=None, hi=None):
    truth = [int(x) for x in truth]
    pred = [int(x) for x in pred]
    if lo is None:
        lo = min(truth + pred)
    if hi is None:
        hi = max(truth + pred)
    k = hi - lo + 1
    o = [[0.0] * k for _ in range(k)]
    for t, p in zip(truth, pred):
        o[t - lo][p - lo] += 1
    n = len(truth)
    ht = [sum(o[i]) for i in range(k)]
    hp = [sum(o[i][j] for i in range(k)) for j in range(k)]
    num = den = 0.0
    for i in range(k):
        for j in range(k):
            if weights == "quadratic":
                w = (i - j) ** 2 / (k - 1) ** 2 if k > 1 else 0.0
            elif weights == "linear":
                w = abs(i - j) / (k - 1) if k > 1 else 0.0
            else:
                w = 1.0 if i != j else 0.0
            num += w * o[i][j]
            den += w * ht[i] * hp[j] / n
    return float("nan") if den == 0 else 1 - num / den


def lwlrap_ref(truth, scores, ties="worst"):
    """Mean over all positive (sample, class) pairs of hits / rank."""
    precisions = []
    for t_row, s_row in zip(truth, scores):
        c = len(s_row)
        for j in range(c):
            if not t_row[j]:
                continue
            if ties == "worst":
                above = [k for k in range(c) if s_row[k] >= s_row[j]]
            else:
                # stable ascending sort reversed: later column first among ties
                order = sorted(range(c), key=lambda k: s_row[k])[::-1]
                above = order[:order.index(j) + 1]
            hits = sum(1 for k in above if t_row[k])
            precisions.append(hits / len(above))
    return sum(precisions) / len(precisions) if precisions else float("nan")


def _clean(s):
    return re.sub(r"[^A-Za-z0-9]+", " ", s).lower().strip()


def _jac(a, b):
    a, b = set(a.lower().split()), set(b.lower().split())
    u = len(a | b)
    return len(a & b) / u if u else 0.0


def fbeta_ref(truths, preds, beta=0.5, threshold=0.5, matching="one-to-one", clean=False):
    tp = fp = fn = 0
    for gts, pds in zip(truths, preds):
        if clean:
            gts = [_clean(g) for g in gts]
            pds = [_clean(p) for p in pds]
        gts = sorted(gts)
        pds = sorted(pds)
        used = [False] * len(pds)
        for g in gts:
            best, best_j = -1.0, -1
            for j, p in enumerate(pds):
                if matching == "one-to-one" and used[j]:
                    continue
                s = _jac(g, p)
                if s > best:
                    best, best_j = s, j
            if best_j >= 0 and best >= threshold:
                tp += 1
                used[best_j] = True
            else:
                fn += 1
        fp += sum(1 for u in used if not u)
    if tp + fp + fn == 0:
        return float("nan"), (tp, fp, fn)
    if tp == 0:
        return 0.0, (tp, fp, fn)
    prec, rec = tp / (tp + fp), tp / (tp + fn)
    b2 = beta * beta
    return (1 + b2) * prec * rec / (b2 * prec + rec), (tp, fp, fn)


def close(a, b, tol=1e-9):
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return abs(a - b) <= tol * max(1.0, abs(b))
