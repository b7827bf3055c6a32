"""Plain-loop definitions of the built-in metrics, written from the metrics' own
definitions and sharing no code with kmetric_gui.core: what the conformance test
holds every metric's score against (``Metric.reference``). Slow on purpose."""
import math
import re


def kappa_plain(truth, pred, weights="quadratic", lo=None, hi=None):
    truth, pred = [int(x) for x in truth], [int(x) for x in pred]
    lo = min(truth + pred) if lo is None else lo
    hi = max(truth + pred) if hi is None else hi
    k, n = hi - lo + 1, len(truth)
    o = [[0.0] * k for _ in range(k)]
    for t, p in zip(truth, pred):
        o[t - lo][p - lo] += 1
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


def lwlrap_plain(truth, scores, ties="worst"):
    """Mean over every positive (sample, class) of hits / rank."""
    precisions = []
    for t_row, s_row in zip(truth, scores):
        c = len(s_row)
        for j in range(c):
            if not t_row[j]:
                continue
            if ties == "worst":
                above = [k for k in range(c) if s_row[k] >= s_row[j]]
            else:
                order = sorted(range(c), key=lambda k: s_row[k])[::-1]
                above = order[:order.index(j) + 1]
            precisions.append(sum(1 for k in above if t_row[k]) / len(above))
    return sum(precisions) / len(precisions) if precisions else float("nan")


def _clean(s):
    return re.sub(r"[^A-Za-z0-9]+", " ", s).lower().strip()


def _jaccard(a, b):
    a, b = set(a.lower().split()), set(b.lower().split())
    u = len(a | b)
    return len(a & b) / u if u else 0.0


def fbeta_plain(truths, preds, beta=0.5, threshold=0.5, matching="one-to-one", clean=False):
    tp = fp = fn = 0
    for gts, pds in zip(truths, preds):
        if clean:
            gts, pds = [_clean(g) for g in gts], [_clean(p) for p in pds]
        gts, pds = sorted(gts), sorted(pds)
        used = [False] * len(pds)
        for g in gts:
            best, best_j = -1.0, -1
            for j, p in enumerate(pds):
                if matching == "one-to-one" and used[j]:
                    continue
                s = _jaccard(g, p)
                if s > best:
                    best, best_j = s, j
            if best_j >= 0 and best >= threshold:
                tp += 1
                used[best_j] = True
            else:
                fn += 1
        fp += sum(1 for u in used if not u)
    if tp + fp + fn == 0:
        return float("nan")
    if tp == 0:
        return 0.0
    prec, rec = tp / (tp + fp), tp / (tp + fn)
    b2 = beta * beta
    return (1 + b2) * prec * rec / (b2 * prec + rec)


def same(a, b, tol=1e-9):
    """Equal scores (nan equals nan), to a relative tolerance."""
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return abs(a - b) <= tol * max(1.0, abs(b))
