"""Synthetic pairs shaped as a catalog competition's files (its id and target column
names, a Usage column) and the competition's number from an independent reference:
scikit-learn, scipy, or a plain loop written from the competition's published formula.
Nothing here imports kmetric_gui's kernels."""
import math
import zlib

import numpy as np
import pandas as pd
from scipy import stats
from sklearn import metrics as skm

from reference import fbeta_ref
from shapes_images import IMAGE_METRICS
from shapes_images import make_pair as image_pair

N = 40
# Competitions whose truth cells hold several items (MAP@K) or several labels per row.
MANY_ITEMS = {"h-and-m-personalized-fashion-recommendations", "santander-product-recommendation",
              "coupon-purchase-prediction"}
MULTI_LABEL = {"lish-moa"}          # one 0/1 column per target, any number of 1s a row
TEXT_CLASSES = {"spaceship-titanic": ["True", "False"], "playground-series-s4e8": ["e", "p"],
                "playground-series-s3e22": ["died", "euthanized", "lived"]}


def rng_of(slug):
    return np.random.default_rng(zlib.crc32(slug.encode()))


def targets_of(c):
    """The solution's scored columns; "*" (one per class) gets five made-up class names."""
    return list(c["targets"]) if c["targets"] != "*" else [f"class_{k}" for k in range(5)]


def make_pair(c, folder):
    """(solution path, submission path, reference score) for a catalog entry ``c``."""
    if c["metric"] in IMAGE_METRICS:                # masks and boxes: shapes_images.py
        return image_pair(c, folder)
    rng = rng_of(c["slug"])
    ids = [f"r{k:03d}" for k in range(N)]
    targets = targets_of(c)
    sol = {c["id"][0]: ids}
    sub = {c["id"][0]: ids}
    truth, pred, extra_sub_rows, value = make_values(c, rng, targets, sol, sub)
    sol_df = pd.DataFrame(sol)
    sol_df["Usage"] = np.where(rng.random(N) < 0.5, "Public", "Private")
    sub_df = pd.DataFrame(sub)
    if extra_sub_rows:
        more = pd.DataFrame({k: v[:extra_sub_rows] for k, v in sub.items()})
        more[c["id"][0]] = [f"x{k}" for k in range(extra_sub_rows)]
        sub_df = pd.concat([sub_df, more], ignore_index=True)
    sp, pp = folder / "solution.csv", folder / "submission.csv"
    sol_df.to_csv(sp, index=False)
    sub_df.sample(frac=1, random_state=1).to_csv(pp, index=False)   # rows in another order
    return sp, pp, value


def _cover(rng, values, n):
    """n draws of ``values`` holding each at least once."""
    out = list(values) + list(rng.choice(values, n - len(values)))
    rng.shuffle(out)
    return out


def make_values(c, rng, targets, sol, sub):
    metric, opts, slug = c["metric"], c["options"], c["slug"]
    extra = 0
    if metric == "qwk":
        lo, hi = opts.get("min_rating", 0), opts.get("max_rating", 4)
        t = np.array(_cover(rng, range(lo, hi + 1), N))
        p = np.clip(t + rng.integers(-1, 2, N), lo, hi)
        sol[targets[0]], sub[targets[0]] = t, p
        value = skm.cohen_kappa_score(t, p, weights="quadratic", labels=list(range(lo, hi + 1)))
    elif metric in ("accuracy", "mcc") or (metric == "f1" and opts.get("average") != "binary"):
        classes = TEXT_CLASSES.get(slug, ["0", "1"] if metric == "mcc" else ["1", "2", "3"])
        t = np.array(_cover(rng, classes, N))
        p = np.where(rng.random(N) < 0.6, t, rng.choice(classes, N))
        sol[targets[0]], sub[targets[0]] = t, p
        if metric == "accuracy":
            value = float(np.mean(t == p))
        elif metric == "mcc":
            value = skm.matthews_corrcoef(t, p)
        else:
            value = skm.f1_score(t, p, average=opts["average"])
    elif metric == "f1":
        t = np.array(_cover(rng, [0, 1], N))
        p = np.where(rng.random(N) < 0.7, t, 1 - t)
        sol[targets[0]], sub[targets[0]] = t, p
        value = skm.f1_score(t, p, pos_label=1)
    elif metric == "auc":
        scores = []
        unscored = rng.random(N) < 0.15 if len(targets) > 1 else np.zeros(N, bool)
        for col in targets:
            t = np.array(_cover(rng, [0, 1], N))
            t[unscored] = -1             # Jigsaw's answers: -1 in every column, not scored
            p = rng.random(N) * 0.6 + 0.4 * t
            sol[col], sub[col] = t, p.round(6)
            keep = ~unscored
            scores.append(skm.roc_auc_score(t[keep], p.round(6)[keep]))
        value = float(np.mean(scores))
    elif metric == "logloss":
        value = _logloss(c, rng, targets, sol, sub)
    elif metric == "lwlrap":
        t = (rng.random((N, len(targets))) < 0.3).astype(int)
        t[np.arange(N), rng.integers(0, len(targets), N)] = 1
        p = (rng.random((N, len(targets))) + 0.5 * t).round(6)
        for k, col in enumerate(targets):
            sol[col], sub[col] = t[:, k], p[:, k]
        # LwLRAP is label-ranking average precision weighted by each row's positives.
        value = skm.label_ranking_average_precision_score(t, p, sample_weight=t.sum(1))
    elif metric == "mapk":
        value, extra = _mapk(c, rng, targets, sol, sub)
    elif metric in ("rmse", "rmsle", "mae", "mcrmse", "smape", "mape"):
        value = _regression(c, rng, targets, sol, sub)
    elif metric in ("pearson", "spearman"):
        value = _correlation(c, rng, targets, sol, sub)
    elif metric == "jaccard_words":
        words = ["good", "bad", "Happy", "sad", "day", "so", "very", "not", "fun", "love"]
        t = [" ".join(rng.choice(words, rng.integers(1, 5))) for _ in range(N)]
        p = [" ".join(rng.choice(words, rng.integers(1, 5))) for _ in range(N)]
        sol[targets[0]], sub[targets[0]] = t, p

        def jac(a, b):      # the competition's published function
            a, b = set(a.lower().split()), set(b.lower().split())
            return len(a & b) / (len(a) + len(b) - len(a & b))
        value = float(np.mean([jac(a, b) for a, b in zip(t, p)]))
    elif metric == "levenshtein":
        letters = list("abcdefgh")
        t = ["".join(rng.choice(letters, rng.integers(1, 9))) for _ in range(N)]
        p = ["".join(rng.choice(letters, rng.integers(1, 9))) for _ in range(N)]
        sol[targets[0]], sub[targets[0]] = t, p
        d = [_edit(a, b) for a, b in zip(t, p)]
        value = (sum(d) / sum(len(a) for a in t) if opts.get("normalize") == "total"
                 else float(np.mean(d)))
    elif metric == "kl_divergence":
        t = rng.dirichlet(np.ones(len(targets)) * 0.7, N).round(4)
        t[:, -1] = 1 - t[:, :-1].sum(1)
        t[rng.random((N, len(targets))) < 0.2] = 0     # classes no voter chose
        t = t / t.sum(1, keepdims=True)
        p = rng.dirichlet(np.ones(len(targets)), N)
        for k, col in enumerate(targets):
            sol[col], sub[col] = t[:, k], p[:, k]
        pc = np.clip(p, 1e-15, 1 - 1e-15)
        rows = [sum(t[i, k] * math.log(t[i, k] / pc[i, k]) for k in range(len(targets))
                    if t[i, k] != 0) for i in range(N)]
        value = float(np.mean(rows))
    elif metric == "laplace_ll":
        t = rng.uniform(1500, 3500, N).round()
        p = (t + rng.normal(0, 400, N)).round()
        conf = rng.uniform(20, 600, N).round()
        sol["FVC"], sub["FVC"], sub["Confidence"] = t, p, conf
        sigma = np.maximum(conf, 70)         # OSIC's published formula
        delta = np.minimum(np.abs(t - p), 1000)
        value = float(np.mean(-math.sqrt(2) * delta / sigma - np.log(math.sqrt(2) * sigma)))
    elif metric == "angular":
        az, ze = rng.uniform(0, 2 * np.pi, (2, N)), rng.uniform(0, np.pi, (2, N))
        sol["azimuth"], sol["zenith"] = az[0], ze[0]
        sub["azimuth"], sub["zenith"] = az[1], ze[1]

        def vec(a, z):
            return np.stack([np.cos(a) * np.sin(z), np.sin(a) * np.sin(z), np.cos(z)], 1)
        dot = np.clip((vec(az[0], ze[0]) * vec(az[1], ze[1])).sum(1), -1, 1)
        value = float(np.mean(np.arccos(dot)))
    elif metric == "fbeta":
        labels = ["survey of earned doctorates", "education longitudinal study",
                  "census of agriculture", "national education study", "earned survey data"]
        t = ["|".join(rng.choice(labels, rng.integers(1, 3), replace=False)) for _ in range(N)]
        p = ["|".join(rng.choice(labels, rng.integers(0, 3), replace=False)) for _ in range(N)]
        sol[targets[0]], sub[targets[0]] = t, p
        value = fbeta_ref([x.split("|") for x in t], [x.split("|") if x else [] for x in p],
                          beta=opts["beta"], threshold=opts["threshold"])[0]
    else:
        raise AssertionError(f"no synthetic shape for {metric}")
    return None, None, extra, value


def _logloss(c, rng, targets, sol, sub):
    if len(targets) == 1:                          # a 0/1 target and its probability
        t = np.array(_cover(rng, [0, 1], N))
        p = np.clip(rng.random(N) * 0.7 + 0.25 * t, 0.02, 0.98).round(6)
        sol[targets[0]], sub[targets[0]] = t, p
        return -float(np.mean(t * np.log(p) + (1 - t) * np.log(1 - p)))
    k = len(targets)
    if c["slug"] in MULTI_LABEL:                   # the mean over columns of binary log losses
        t = (rng.random((N, k)) < 0.3).astype(int)
        p = np.clip(rng.random((N, k)), 0.02, 0.98).round(6)
        for j, col in enumerate(targets):
            sol[col], sub[col] = t[:, j], p[:, j]
        return -float(np.mean(t * np.log(p) + (1 - t) * np.log(1 - p)))
    label = np.array(_cover(rng, range(k), N))
    p = rng.dirichlet(np.ones(k), N)
    p[:, -1] = 1 - p[:, :-1].round(6).sum(1)
    p[:, :-1] = p[:, :-1].round(6)
    for j, col in enumerate(targets):
        sol[col], sub[col] = (label == j).astype(int), p[:, j]
    pt = np.clip(p, 1e-15, 1 - 1e-15)
    pt = pt / pt.sum(1, keepdims=True)
    if c["options"].get("balanced"):               # ICR: each class's mean loss, then the mean
        return float(np.mean([-np.mean(np.log(pt[label == j, j])) for j in range(k)]))
    return skm.log_loss(label, pt, labels=list(range(k)))


def _apk(actual, predicted, k):
    """Average precision at k, as Kaggle's MAP@K (Ben Hamner's ml_metrics) defines it."""
    predicted = predicted[:k]
    score, hits = 0.0, 0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            hits += 1
            score += hits / (i + 1)
    return score / min(len(actual), k) if actual else 0.0


def _mapk(c, rng, targets, sol, sub):
    k = c["options"]["k"]
    items = [f"i{j}" for j in range(3 * k + 3)]
    many = c["slug"] in MANY_ITEMS
    t = [list(rng.choice(items, rng.integers(1, 4) if many else 1, replace=False))
         for _ in range(N)]
    p = [list(rng.choice(items, k + 1, replace=False)) for _ in range(N)]
    for row, truth in zip(p, t):        # some hits, at varied ranks
        if rng.random() < 0.6:
            row[rng.integers(0, k + 1)] = truth[0]
    p = [list(dict.fromkeys(row)) for row in p]
    sol[targets[0]] = [" ".join(x) for x in t]
    sub[targets[0]] = [" ".join(x) for x in p]
    extra = 5 if c.get("extra_ids") == "ignore" else 0
    return float(np.mean([_apk(a, b, k) for a, b in zip(t, p)])), extra


def _regression(c, rng, targets, sol, sub):
    metric, opts = c["metric"], c["options"]
    cols = targets
    scores = []
    groups = None
    if opts.get("group_by"):
        groups = np.array(_cover(rng, ["1JHC", "2JHH", "3JHN"], N))
        sol[opts["group_by"]] = groups
    for col in cols:
        t = rng.uniform(1, 100, N).round(3)
        p = np.abs(t + rng.normal(0, 10, N)).round(3) + 0.5
        sol[col], sub[col] = t, p
        if metric == "rmsle":
            s = math.sqrt(np.mean((np.log1p(p) - np.log1p(t)) ** 2))
        elif metric in ("rmse", "mcrmse"):
            s = math.sqrt(skm.mean_squared_error(t, p))
        elif metric == "mae" and groups is not None:    # CHAMPS: log of each type's MAE, mean
            s = float(np.mean([math.log(max(skm.mean_absolute_error(t[groups == g],
                                                                     p[groups == g]), 1e-9))
                               for g in np.unique(groups)]))
        elif metric == "mae":
            s = skm.mean_absolute_error(t, p)
        elif metric == "smape":
            s = 100 * float(np.mean(2 * np.abs(p - t) / (np.abs(t) + np.abs(p))))
        else:
            s = skm.mean_absolute_percentage_error(t, p)
        scores.append(s)
    for col in c.get("submission_columns") or ():
        if col not in sub:                              # submitted, not scored
            sub[col] = rng.uniform(0, 1, N).round(3)
    return float(np.mean(scores))


def _correlation(c, rng, targets, sol, sub):
    groups = None
    if c["options"].get("group_by"):
        groups = np.array(_cover(rng, ["t1", "t2", "t3", "t4"], N))
        sol[c["options"]["group_by"]] = groups
    scores = []
    for col in targets:
        t = rng.normal(0, 1, N).round(4)
        p = (t + rng.normal(0, 1, N)).round(4)
        sol[col], sub[col] = t, p
        f = stats.pearsonr if c["metric"] == "pearson" else stats.spearmanr
        if groups is None:
            scores.append(f(t, p)[0])
        else:
            scores.append(np.mean([f(t[groups == g], p[groups == g])[0]
                                   for g in np.unique(groups)]))
    return float(np.mean(scores))


def _edit(a, b):
    """Levenshtein distance, the textbook dynamic programme."""
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]
